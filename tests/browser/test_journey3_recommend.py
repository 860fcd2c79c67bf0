"""Journey 3: asked which book to read on a topic both books touch, the librarian picks one."""

import pytest
from playwright.sync_api import expect

from tests.browser.books import BOATS_TITLE, FUNE_TITLE
from tests.browser.conftest import ask, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_reader_is_told_which_book_to_read_first(open_page, shelved):
    page = open_page("bob")
    page.goto("/chat/")
    # Both books tell of the bowline (the Japanese one glosses it in English).
    answer = ask(page, "Which book should I read first about the bowline knot?")

    guide = answer.locator(".guide")
    expect(guide.get_by_role("heading")).to_have_text("Where to read")
    expect(guide.locator(".pick-first .pick-book")).to_have_text(BOATS_TITLE)
    expect(guide.locator(".pick-first")).to_contain_text("2 Knots")
    # The other book is named too, after the first, with what it has on knots.
    expect(guide.locator(".pick-book")).to_have_count(2)
    expect(guide.locator(".pick-other .pick-book")).to_have_text(FUNE_TITLE)
    # Each pick offers its pages to download.
    expect(guide.locator(".pick-first a.download")).to_be_visible()
    # Both books were weighed: each has a card on the topic.
    books = answer.locator(".result-card .result-book")
    expect(books.filter(has_text=BOATS_TITLE).first).to_be_visible()
    expect(books.filter(has_text=FUNE_TITLE).first).to_be_visible()
    screenshot(page, "journey3-recommendation", show=answer)
