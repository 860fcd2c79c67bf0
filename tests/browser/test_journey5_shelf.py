"""Journey 5: a librarian manages the shelf (renames, groups, downloads, deletes a book) and a
reader sees the searched word marked on the page image.

The book renamed and deleted here is registered for this module alone, so the other
journeys' books stay as they are.
"""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.books import BOATS_TITLE, FUNE_TITLE, OARS, OARS_TITLE, make_book
from tests.browser.conftest import ask, register, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.slow]

RENAMED = "Oars for Beginners"


def page_image_drawn(page):
    """Return the sharp page image once it has loaded (the thumbnail shows until then)."""
    image = page.locator(".page-canvas img.page-full")
    expect(image).to_be_visible()
    page.wait_for_function("() => document.querySelector('.page-canvas img.page-full').complete"
                           " && document.querySelector('.page-canvas img.page-full').naturalWidth > 0")
    return image


@pytest.fixture(scope="module")
def oars(app_server, shelved, playwright_driver, tmp_path_factory):
    """Register the book this journey renames and deletes; return (its id, its file)."""
    path = make_book(tmp_path_factory.mktemp("oars") / "oars.pdf", OARS, fontname="helv",
                     title_size=22)
    book_id = register(app_server, playwright_driver, path)["id"]
    return book_id, path


def test_a_librarian_renames_a_book_and_puts_it_on_a_collection(open_page, oars):
    book_id, _ = oars
    page = open_page("alice")
    page.goto(f"/books/{book_id}/")
    page.get_by_role("link", name="Edit details").click()
    # No metadata: the title page gave the title in place of the file's name, and says so.
    expect(page.get_by_label("Title")).to_have_value(OARS_TITLE)
    expect(page.locator("label[for=id_title] .source")).to_have_text(
        "From the title page (page 1).")
    page.get_by_label("Title").fill(RENAMED)
    page.get_by_label("Authors").fill("Ann Reef\nBo Line")  # one name a line
    page.get_by_label("Year").fill("2021")
    page.get_by_label("Add to a new collection").fill("Small boats")
    screenshot(page, "journey5-edit")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("heading", name=RENAMED, level=1)).to_be_visible()
    expect(page.locator(".byline")).to_have_text("Ann Reef, Bo Line, 2021")
    expect(page.locator(".messages")).to_contain_text(f"Saved the details of “{RENAMED}”.")

    # The shelf, filtered by the collection, holds that book alone.
    page.locator(".nav").get_by_role("link", name="Shelf").click()
    page.locator(".collections-bar").get_by_role("link", name=re.compile("Small boats")).click()
    expect(page.get_by_role("heading", name="Small boats", level=1)).to_be_visible()
    expect(page.locator(".book-card")).to_have_count(1)
    expect(page.locator(".book-card")).to_contain_text(RENAMED)
    screenshot(page, "journey5-collection")
    page.locator(".collections-bar").get_by_role("link", name="All books").click()
    expect(page.locator(".book-card")).to_have_count(3)


def test_a_reader_downloads_the_original_file(open_page, oars, tmp_path):
    book_id, path = oars
    page = open_page("bob")
    page.goto(f"/books/{book_id}/")
    with page.expect_download() as download:
        page.get_by_role("link", name="Download original").click()
    assert download.value.suggested_filename == "oars.pdf"
    saved = tmp_path / "saved.pdf"
    download.value.save_as(saved)
    assert saved.read_bytes() == path.read_bytes()


def test_a_search_hit_opens_the_page_with_the_word_marked_on_its_image(open_page, oars):
    page = open_page("bob")
    page.goto("/search?q=oarlock")
    section = page.locator(".hit-section").first
    expect(section.locator(".hit-crumbs")).to_contain_text("2 Oarlocks")
    section.locator("a.hit-page").first.click()
    expect(page).to_have_url(re.compile(r"/books/\d+/pages/3/\?q=oarlock"))
    expect(page.locator(".crumbs")).to_contain_text("2 Oarlocks")
    image = page_image_drawn(page)
    marks = page.locator(".marks rect.mark-word")
    expect(marks).to_have_count(3)  # the heading and the two lines that say it
    box, picture = marks.nth(1).bounding_box(), image.bounding_box()
    # "The oarlock holds…": the second line of the page, its second word, left of centre.
    assert picture["x"] < box["x"] < picture["x"] + picture["width"] / 2
    assert picture["y"] < box["y"] < picture["y"] + picture["height"] / 3
    assert 10 < box["width"] < picture["width"] / 4
    expect(page.locator(".lines .line")).to_have_count(4)  # the page's lines, not one paragraph
    screenshot(page, "journey5-marked-page")
    page.get_by_role("button", name="Zoom in").click()
    expect(page.locator(".page-canvas")).to_have_class(re.compile(r"\bzoom-150\b"))
    zoomed = marks.nth(1).bounding_box()
    assert zoomed["width"] == pytest.approx(1.5 * box["width"], rel=0.05)  # the marks scale too


def test_the_japanese_page_marks_its_words_too(open_page, shelved):
    page = open_page("bob")
    page.goto(f"/search?q=結び")
    expect(page.locator(".hit-book-group").first).to_contain_text(FUNE_TITLE)
    screenshot(page, "journey5-search-ja")
    page.locator(".hit-book-group").filter(has_text=FUNE_TITLE).locator("a.hit-page").first.click()
    expect(page.locator(".marks rect.mark-word").first).to_be_visible()
    page_image_drawn(page)
    screenshot(page, "journey5-marked-page-ja")
    page.goto(f"/books/{shelved[BOATS_TITLE]}/pages/3/?q=bowline"
              "&quote=The bowline makes a fixed loop at the end of a rope.")
    expect(page.locator(".marks rect.mark-quote")).to_have_count(1)
    page_image_drawn(page)
    screenshot(page, "journey5-quote-en")


def test_a_librarian_deletes_the_book_and_it_is_gone_everywhere(open_page, oars):
    book_id, _ = oars
    page = open_page("alice")
    page.goto("/review/")
    expect(page.locator("#review-queue")).to_contain_text(RENAMED)
    page.goto("/chat/")
    answer = ask(page, "Where is the oarlock explained?")
    expect(answer.locator(".result-card").filter(has_text=RENAMED).first).to_be_visible()

    page.goto(f"/books/{book_id}/")
    page.get_by_role("link", name="Delete…").click()
    expect(page.get_by_role("heading", name=f"Delete “{RENAMED}”?")).to_be_visible()
    screenshot(page, "journey5-delete")
    page.get_by_role("button", name="Delete the book").click()
    expect(page.locator(".messages")).to_contain_text(f"Deleted “{RENAMED}”")
    expect(page.locator(".book-card").filter(has_text=RENAMED)).to_have_count(0)

    page.goto("/search?q=oarlock")
    expect(page.locator(".results")).to_contain_text("Nothing found")
    page.goto("/review/")
    expect(page.locator("#review-queue")).not_to_contain_text(RENAMED)
    page.goto("/chat/")
    expect(page.locator("select[name=book] option").filter(has_text=RENAMED)).to_have_count(0)
    answer = ask(page, "Where is the oarlock explained?")
    expect(answer.locator(".result-card").filter(has_text=RENAMED)).to_have_count(0)
    # Asked of the server (a page's own cache may still hold an image it showed).
    for url in (f"/books/{book_id}/pages/3/", f"/books/{book_id}/pages/3/thumb.png",
                f"/books/{book_id}/original", f"/api/books/{book_id}"):
        assert page.request.get(url).status == 404, url
