"""Journey 4: a librarian places a heading the indexer could not; a reader cannot review."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.books import BOATS_TITLE
from tests.browser.conftest import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def tree_row(page, title):
    return page.locator(".contents .heading-row").filter(has_text=title)


def test_a_librarian_places_an_unplaced_heading_by_its_thumbnail(open_page, shelved):
    page = open_page("alice")
    page.goto(f"/books/{shelved[BOATS_TITLE]}/")
    expect(page.locator(".contents")).to_contain_text("3 of 4 headings placed; 1 not placed")
    expect(tree_row(page, "4 Mooring")).to_contain_text("not placed")

    page.get_by_role("link", name=re.compile(r"^Review")).click()
    item = page.locator("#review-item")
    expect(item.locator(".item-title")).to_have_text("4 Mooring")
    expect(item).to_contain_text("No page")
    screenshot(page, "journey4-review")
    item.get_by_role("button", name="Page 6").click()
    expect(page.locator("#review-item")).to_contain_text("Nothing to review")
    expect(page.locator("#review-queue")).to_contain_text("Empty.")
    expect(page.locator("#nav-review-count")).to_have_text("")

    page.locator(".nav").get_by_role("link", name="Shelf").click()
    page.get_by_role("link", name=BOATS_TITLE).first.click()
    expect(page.locator(".contents")).to_contain_text("4 of 4 headings placed")
    expect(tree_row(page, "4 Mooring")).to_contain_text("PDF 6")
    expect(tree_row(page, "4 Mooring")).not_to_contain_text("not placed")
    screenshot(page, "journey4-tree", show=page.locator(".contents"))

    # The heading's history says who placed it.
    tree_row(page, "4 Mooring").locator("a.badge").click()
    expect(page.locator(".decision").first).to_contain_text("by alice")


def test_a_reader_cannot_reach_the_review_queue(open_page, shelved):
    page = open_page("bob")
    expect(page.locator(".nav")).to_be_visible()
    expect(page.locator(".nav").get_by_role("link", name=re.compile("Review"))).to_have_count(0)
    response = page.goto("/review/")
    assert response.status == 403
    expect(page.get_by_role("heading", name="You may not do this")).to_be_visible()
    screenshot(page, "journey4-reader-refused")
