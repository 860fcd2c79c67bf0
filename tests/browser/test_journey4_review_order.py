"""Journey 4, continued: a placement that breaks the contents' order is asked about first."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.books import BOATS_TITLE
from tests.browser.conftest import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_placement_before_its_neighbour_is_refused_until_confirmed(open_page, shelved):
    page = open_page("alice")
    page.goto(f"/books/{shelved[BOATS_TITLE]}/")
    row = page.locator(".contents .heading-row").filter(has_text="4 Mooring")
    pk = re.search(r"/headings/(\d+)/", row.locator("a.badge").get_attribute("href"))[1]
    page.goto(f"/review/{pk}/")  # placed or not, by the first journey: its item all the same
    item = page.locator("#review-item")
    expect(item.locator(".item-title")).to_have_text("4 Mooring")
    box = item.get_by_label(re.compile(r"^Another page: PDF page \(1–6\), not the printed number"))

    # "3 Anchors", before it in the contents, is on PDF page 5: page 3 breaks the order.
    box.fill("3")
    item.get_by_role("button", name="Place", exact=True).click()
    alert = page.locator("#review-item [role=alert]")
    expect(alert).to_contain_text("“3 Anchors”, before it in the contents, is on PDF page 5")
    expect(alert).to_contain_text("Place it there anyway?")
    screenshot(page, "journey4-review-order")
    expect(page.locator("#review-item .item-facts")).not_to_contain_text(re.compile(r"PDF pages? 3\b"))

    with page.expect_response(lambda response: response.url.endswith("/place")):
        item.get_by_role("button", name="Place on PDF page 3 anyway").click()
    expect(page.locator("#review-item [role=alert]")).to_have_count(0)
    page.goto(f"/review/{pk}/")
    expect(page.locator("#review-item .item-facts")).to_contain_text(re.compile(r"PDF pages? 3\b"))

    # Back where the book has it (after its neighbour: no question asked).
    page.locator("#review-item").get_by_label(re.compile("^Another page")).fill("6")
    with page.expect_response(lambda response: response.url.endswith("/place")):
        page.locator("#review-item").get_by_role("button", name="Place", exact=True).click()
    expect(page.locator("#review-item [role=alert]")).to_have_count(0)
    page.goto(f"/review/{pk}/")
    expect(page.locator("#review-item .item-facts")).to_contain_text(re.compile(r"PDF pages? 6\b"))
