"""Journey 1: a librarian drops two scanned books on the shelf and watches them being read.

This module runs first (the journeys are numbered), so the shelf starts empty.
"""

import base64
import re

import pytest
from playwright.sync_api import expect

from tests.browser.books import BOATS_TITLE, FUNE_TITLE
from tests.browser.conftest import PERSONAS, PIPELINE_SECONDS, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# Builds a DataTransfer holding the files, as the browser does for files dragged from a desktop.
DATA_TRANSFER = """(files) => {
  const transfer = new DataTransfer();
  for (const file of files) {
    const bytes = Uint8Array.from(atob(file.data), (c) => c.charCodeAt(0));
    transfer.items.add(new File([bytes], file.name, {type: "application/pdf"}));
  }
  return transfer;
}"""
MARKER = "window.__notReloaded"


def drag_and_drop(page, selector, paths):
    files = [{"name": path.name, "data": base64.b64encode(path.read_bytes()).decode()}
             for path in paths]
    transfer = page.evaluate_handle(DATA_TRANSFER, files)
    # The form's script is deferred: until it has run, nothing listens for the drag.
    page.wait_for_load_state("domcontentloaded")
    page.dispatch_event(selector, "dragenter", {"dataTransfer": transfer})
    page.dispatch_event(selector, "dragover", {"dataTransfer": transfer})
    expect(page.locator(selector)).to_have_class(re.compile(r"\bover\b"))
    with page.expect_navigation():
        page.dispatch_event(selector, "drop", {"dataTransfer": transfer})


def test_a_librarian_registers_two_scans_and_sees_their_contents(open_page, scans):
    page = open_page()
    page.goto("/")
    expect(page).to_have_url(re.compile(r"/login/"))
    page.get_by_label("Username").fill("alice")
    page.get_by_label("Password").fill(PERSONAS["alice"])
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Shelf")).to_be_visible()
    expect(page.locator(".empty")).to_contain_text("No books yet.")

    drag_and_drop(page, "#register", scans)
    messages = page.locator(".messages")
    expect(messages).to_contain_text(f"boats-scan.pdf: registered as “{BOATS_TITLE}”.")
    expect(messages).to_contain_text(f"fune-scan.pdf: registered as “{FUNE_TITLE}”.")
    cards = page.locator(".book-card")
    expect(cards).to_have_count(2)

    # The shelf follows the pipeline by itself: the bar changes while the page stays loaded.
    # (A card is found by its heading: the other card may name it, as the book it waits for.)
    page.evaluate(f"{MARKER} = true")
    boats = cards.filter(has=page.get_by_role("heading", name=BOATS_TITLE)).locator(".book-state")
    expect(boats).not_to_have_text(boats.inner_text(), use_inner_text=True,
                                   timeout=PIPELINE_SECONDS * 1000)
    assert page.evaluate(MARKER) is True

    # The Japanese book's page follows its stages, and shows the contents once they are read.
    page.get_by_role("link", name=FUNE_TITLE).click()
    contents = page.locator(".contents")
    expect(contents).to_contain_text("3 of 3 headings placed", timeout=PIPELINE_SECONDS * 1000)
    progress = page.locator("#progress")
    expect(progress.locator(".badge:not(.done)")).to_have_count(0)
    expect(progress).to_contain_text("4 of 4 pages")
    titles = contents.locator(".heading-title").all_inner_texts()
    assert [re.sub(r"\s+", "", title) for title in titles] == ["第1章帆", "第2章結び", "第3章港"]
    expect(contents.locator(".heading-pages").first).to_contain_text("p. 1")
    screenshot(page, "journey1-contents", show=contents)


def test_a_file_that_is_not_a_pdf_is_refused_with_the_reason(open_page, tmp_path):
    notes = tmp_path / "notes.pdf"
    notes.write_text("Shopping list: rope, shackles, a new fender.")
    page = open_page("alice")
    drag_and_drop(page, "#register", [notes])
    expect(page.locator(".message.error")).to_have_text(
        "notes.pdf: This is not a PDF file (it has no PDF header).")
    expect(page.locator(".book-card").filter(has_text="notes")).to_have_count(0)
    screenshot(page, "journey1-refused")
