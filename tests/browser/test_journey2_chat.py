"""Journey 2: a reader asks where something is, previews the page and downloads the pages."""

import re

import pytest
from playwright.sync_api import expect
from pypdf import PdfReader

from tests.browser.books import BOATS_TITLE, FUNE_TITLE
from tests.browser.conftest import ask, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_reader_finds_where_a_knot_is_explained_and_takes_the_pages(open_page, shelved, tmp_path):
    page = open_page("bob")
    page.get_by_role("link", name="Chat", exact=True).click()
    expect(page.get_by_role("heading", name="Ask the librarian")).to_be_visible()
    screenshot(page, "journey2-start")
    page.evaluate("window.__notReloaded = true")

    answer = ask(page, "Where is the bowline explained?")
    assert page.evaluate("window.__notReloaded") is True  # the cards came in on this page
    expect(page.locator(".question-text").last).to_have_text("Where is the bowline explained?")
    card = answer.locator(".result-card").filter(has_text=BOATS_TITLE).first
    expect(card.locator(".breadcrumb")).to_have_text("2 Knots")
    expect(card.locator(".result-pages")).to_contain_text("pp. 2–3")
    expect(card.locator(".result-pages")).to_contain_text("PDF pages 3–4")
    expect(card.locator(".excerpt mark").first).to_have_text(re.compile("bowline", re.I))
    screenshot(page, "journey2-answer", show=answer)

    with page.expect_download() as download:
        card.locator("a.download").click()
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert saved.suffix == ".pdf"
    clip = PdfReader(saved)
    assert len(clip.pages) == 2
    assert clip.page_labels == ["2", "3"]
    root, children = clip.outline
    assert root.title == BOATS_TITLE
    # Every section touching the pages: "1 Sails" too where the pipeline did not record that
    # "2 Knots" opens its page (its line), since "1 Sails" may then run onto it.
    assert [mark.title for mark in children][-1:] == ["2 Knots"]
    assert {mark.title for mark in children} <= {"1 Sails", "2 Knots"}

    card.get_by_role("link", name=re.compile(r"^(Open|Preview) page")).first.click()
    expect(page).to_have_url(re.compile(r"/books/\d+/pages/3/"))
    image = page.locator(".page-image img.page-full")
    expect(image).to_be_visible()  # over the thumbnail, which shows until it has loaded
    page.wait_for_function("() => document.querySelector('.page-image img.page-full').complete")
    assert page.evaluate("document.querySelector('.page-image img.page-full').naturalWidth") > 0
    expect(page.locator(".page-text")).to_contain_text("fixed loop at the end of a rope")
    screenshot(page, "journey2-preview")


def test_a_japanese_question_gets_its_guide_in_japanese(open_page, shelved):
    page = open_page("bob")
    page.goto("/chat/")
    answer = ask(page, "もやい結びはどこに書いてありますか？")
    guide = answer.locator(".guide")
    expect(guide.get_by_role("heading")).to_have_text("どこを読むか")
    expect(guide).to_contain_text("第2章 結び")
    expect(guide.locator(".place-quote").first).to_contain_text("もやい結び")
    expect(guide.locator("a.download").first).to_be_visible()
    card = answer.locator(".result-card").filter(has_text=FUNE_TITLE).first
    expect(card.locator(".excerpt mark").first).to_be_visible()
    screenshot(page, "journey2-answer-ja", show=answer)
    # The quote opens its page with the sentence outlined.
    guide.locator(".place-quote a").first.click()
    expect(page).to_have_url(re.compile(r"/books/\d+/pages/\d+/\?.*quote="))
