"""Journey 6: what a newcomer meets first — the API docs, the shelf on a phone, a book read to
the end, the search page's address, and an old conversation about a book deleted since.

The book here is born digital and registered for this module alone (its PDF names two
authors in one Author entry); it is deleted at the end, so the other journeys' shelf stays
as it was.
"""

import re

import pymupdf
import pytest
from playwright.sync_api import expect

from tests.browser.books import make_book
from tests.browser.conftest import PHONE, ask, register, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.slow]

DINGHY_TITLE = "A Short Guide to Dinghies"
DINGHY = [
    # "3 Capsizing" is printed in the contents past the last page: it waits for review, so
    # the nav carries a count.
    ([DINGHY_TITLE, "", "Contents", "1 Rigging ........ 1", "2 Centreboard ........ 2",
      "3 Capsizing ........ 9"], ""),
    (["1 Rigging", "Step the mast and fit the boom to the gooseneck.",
      "Hoist the mainsail on its halyard."], "1"),
    (["2 Centreboard", "Lower the centreboard before sailing upwind.",
      "Raise the centreboard in shallow water."], "2"),
]


@pytest.fixture(scope="module")
def dinghy(app_server, playwright_driver, tmp_path_factory):
    """Register the book of this journey and wait until it is read; return its id."""
    folder = tmp_path_factory.mktemp("dinghy")
    born = make_book(folder / "born.pdf", DINGHY, fontname="helv", title_size=22)
    path = folder / "dinghy.pdf"
    with pymupdf.open(born) as document:
        document.set_metadata({"title": DINGHY_TITLE, "author": "Ann Reef and Bo Line"})
        document.save(path)
    book = register(app_server, playwright_driver, path)
    assert book["authors"] == ["Ann Reef", "Bo Line"]
    return book["id"]


def test_the_api_docs_render_every_operation_from_this_server_alone(open_page, app_server):
    page = open_page("bob")
    elsewhere, errors = [], []
    page.on("request", lambda request: request.url.startswith((app_server.url, "data:"))
            or elsewhere.append(request.url))
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.goto("/api/docs")
    schema = page.request.get("/api/openapi.json").json()
    operations = sum(len(methods) for methods in schema["paths"].values())
    expect(page.locator(".opblock")).to_have_count(operations)
    expect(page.locator(".info .title")).to_contain_text("Librarian API")
    expect(page.locator("#swagger-ui")).not_to_contain_text("Parser error")
    expect(page.locator(".errors-wrapper")).to_have_count(0)
    screenshot(page, "journey6-api-docs")
    register = page.locator(".opblock-post").filter(
        has=page.locator(".opblock-summary-path", has_text=re.compile(r"^/api/books$")))
    register.locator(".opblock-summary").click()
    answers = register.locator(".responses-table tr.response")
    expect(answers).to_have_count(9)  # each status once: the 413 of its own, the shared ones
    codes = [answers.nth(n).get_attribute("data-code") for n in range(9)]
    assert sorted(codes) == ["200", "201", "400", "401", "403", "404", "413", "422", "429"]
    screenshot(page, "journey6-api-docs-operation", show=register)
    assert elsewhere == [] and errors == []


def test_the_shelf_fits_a_phone_and_a_read_book_says_ready(open_page, dinghy):
    page = open_page("ada")
    page.goto("/")
    links = page.locator(".nav a")
    expect(links.filter(has_text="Admin")).to_be_visible()
    expect(page.locator("#nav-review-count")).not_to_be_empty()
    for width in (PHONE["width"], 320):  # the nav wraps; it used to scroll, Admin cut off
        page.set_viewport_size({**PHONE, "width": width})
        for box in (link.bounding_box() for link in links.all()):
            assert box["x"] >= 0 and box["x"] + box["width"] <= width, (width, box)
    card = page.locator(".book-card").filter(has_text=DINGHY_TITLE)
    expect(card.locator(".ready")).to_have_text("Ready")
    expect(card.locator(".book-state .badge")).to_have_count(0)  # no chip per stage once all done
    expect(card.locator(".byline")).to_have_text("Ann Reef, Bo Line")
    expect(page.locator(".drop-hint")).to_contain_text("Drop books here (PDF, scanned or with text")
    screenshot(page, "journey6-shelf")


def test_the_search_page_answers_at_its_address_with_a_slash(open_page, dinghy):
    page = open_page("bob")
    page.goto("/search/?q=centreboard")
    expect(page).to_have_url(re.compile(r"/search\?q=centreboard$"))
    expect(page.locator(".hit-book-group").filter(has_text=DINGHY_TITLE)).to_be_visible()
    screenshot(page, "journey6-search")


def test_authors_are_edited_one_a_line(open_page, dinghy):
    page = open_page("alice")
    page.goto(f"/books/{dinghy}/edit")
    authors = page.get_by_label("Authors")
    expect(authors).to_have_value("Ann Reef\nBo Line")
    screenshot(page, "journey6-edit")
    authors.fill("Cy Knot")
    page.get_by_role("button", name="Save").click()
    expect(page.locator(".byline")).to_have_text("Cy Knot")
    page.get_by_role("link", name="Edit details").click()
    suggestion = page.locator(".suggestion-list li").filter(has_text="the PDF's metadata")
    expect(suggestion.locator("q")).to_have_text("Ann Reef; Bo Line")
    suggestion.get_by_role("button", name="Use this").click()
    expect(authors).to_have_value("Ann Reef\nBo Line")  # one a line, as the box asks
    page.get_by_role("button", name="Save").click()
    expect(page.locator(".byline")).to_have_text("Ann Reef, Bo Line")


def test_an_old_conversation_says_once_that_its_book_was_deleted(open_page, dinghy):
    page = open_page("alice")
    page.goto("/chat/")
    first = ask(page, "Where is the centreboard explained?")
    expect(first.locator(".result-card").filter(has_text=DINGHY_TITLE).first).to_be_visible()
    ask(page, "How do I rig the mast?")
    conversation = page.url
    page.goto(f"/books/{dinghy}/")
    page.get_by_role("link", name="Delete…").click()
    page.get_by_role("button", name="Delete the book").click()
    expect(page.locator(".messages")).to_contain_text(f"Deleted “{DINGHY_TITLE}”")

    page.goto(conversation)
    notes = page.locator(".answer-removed")
    # Said once for the conversation, not per answer or card; a later answer it left empty
    # says only that.
    expect(notes.first).to_have_text(f"“{DINGHY_TITLE}” has been deleted from the shelf "
                                     "since; its places are no longer shown.")
    expect(notes.filter(has_text="has been deleted")).to_have_count(1)
    for n in range(1, notes.count()):
        expect(notes.nth(n)).to_have_text("Its places were in a book deleted since.")
    expect(page.locator(".result-card").filter(has_text=DINGHY_TITLE)).to_have_count(0)
    expect(page.locator(f"a[href*='/books/{dinghy}/']")).to_have_count(0)
    screenshot(page, "journey6-chat-deleted-book", show=page.locator(".answer").first)
