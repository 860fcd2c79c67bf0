"""Journey 6: the whole way in Japanese (register, ask, clip, review), and highlights on the word.

The browser asks for Japanese (Accept-Language: ja), as a Japanese reader's does: every
screen answers in Japanese without anyone touching the language switch.
"""

import re
from pathlib import Path

import pymupdf
import pytest
from playwright.sync_api import expect
from pypdf import PdfReader

from tests.browser.books import HEIGHT, WIDTH, make_book
from tests.browser.conftest import LAPTOP, PERSONAS, PIPELINE_SECONDS, register, screenshot
from tests.browser.test_journey1_register import drag_and_drop
from tests.pdfs import scan_of

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROPE_TITLE = "ロープの手引き"
# Born digital. The contents print "第3章 保管" on page 9 of a three-page body, so the indexer
# cannot place it and it waits for review.
ROPE = [
    (["ロープの手引き", "", "目次", "第1章 種類 ........ 1", "第2章 手入れ ........ 2",
      "第3章 保管 ........ 9"], ""),
    (["第1章 種類", "ナイロンのロープはよく伸びる。", "麻のロープは水を吸って縮む。"], "1"),
    (["第2章 手入れ", "海で使ったロープは真水で洗う。", "洗ったら日陰でよく乾かす。"], "2"),
    (["ロープは輪に巻いて吊るして保管する。"], "3"),
]
# A line of proportional type: a word in its middle is where a count of characters misses it.
PLOT = [(["Plotting", "Use set multiplot layout 2,2 to draw four plots at once."], "1")]


def open_japanese(chromium, app_server, username=None):
    """Return a page in a browser that asks for Japanese, logged in through the form."""
    context = chromium.new_context(base_url=app_server.url, viewport=LAPTOP, locale="ja-JP",
                                   accept_downloads=True)
    page = context.new_page()
    if username:
        page.goto("/login/")
        page.get_by_label("ユーザー名").fill(username)
        page.get_by_label("パスワード").fill(PERSONAS[username])
        page.get_by_role("button", name="ログイン").click()
        expect(page.locator(".who")).to_contain_text(username)
    return page


def titled(path: Path, title: str) -> Path:
    with pymupdf.open(path) as document:
        document.set_metadata({"title": title})
        document.saveIncr()
    return path


def test_a_japanese_librarian_registers_asks_clips_and_reviews_in_japanese(
        chromium, app_server, playwright_driver, tmp_path):
    page = open_japanese(chromium, app_server)
    page.goto("/")
    expect(page.get_by_role("heading", name="ログイン")).to_be_visible()
    screenshot(page, "ja-login")
    page.get_by_label("ユーザー名").fill("alice")
    page.get_by_label("パスワード").fill(PERSONAS["alice"])
    page.get_by_role("button", name="ログイン").click()
    expect(page.get_by_role("heading", name="書棚")).to_be_visible()
    expect(page.locator(".nav")).to_contain_text("チャット")
    expect(page.locator("html")).to_have_attribute("lang", "ja")

    # Register: drop the book on the shelf; the message and the progress are in Japanese.
    rope = titled(make_book(tmp_path / "rope.pdf", ROPE, fontname="japan"), ROPE_TITLE)
    drag_and_drop(page, "#register", [rope])
    expect(page.locator(".messages")).to_contain_text(f"rope.pdf：「{ROPE_TITLE}」として登録しました。")
    screenshot(page, "ja-shelf")
    page.get_by_role("link", name=ROPE_TITLE).first.click()
    contents = page.locator(".contents")
    expect(contents).to_contain_text("見出し 3 件中 2 件を配置", timeout=PIPELINE_SECONDS * 1000)
    expect(page.locator("#progress")).to_contain_text("処理")
    screenshot(page, "ja-book", show=contents)

    # Ask in Japanese: the cards are labelled in Japanese.
    page.locator(".nav").get_by_role("link", name="チャット").click()
    expect(page.get_by_role("heading", name="ライブラリアンに質問")).to_be_visible()
    page.get_by_label("質問").fill("ロープを真水で洗うのはどこに書いてありますか？")
    page.get_by_role("button", name="質問する").click()
    answer = page.locator(".answer").last
    expect(answer.locator(".answer-status")).to_have_count(0, timeout=60_000)
    card = answer.locator(".result-card").filter(has_text=ROPE_TITLE).first
    expect(card.locator(".breadcrumb")).to_contain_text("第2章 手入れ")
    expect(card.locator("a.preview")).to_have_text(re.compile(r"^\d+ページを表示$"))
    expect(card.locator("a.download")).to_have_text(re.compile(r"ページをダウンロード（PDF）$"))
    expect(card.locator("summary")).to_have_text("別のページを選ぶ…")
    expect(answer).not_to_contain_text("Preview page")
    screenshot(page, "ja-answer", show=answer)

    # Clip: the pages come as a PDF of exactly those pages.
    with page.expect_download() as download:
        card.locator("a.download").click()
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert len(PdfReader(saved).pages) >= 1
    card.locator("summary").click()
    expect(card.get_by_role("button", name="PDF をダウンロード")).to_be_visible()

    # Review: place the heading the indexer could not, by its thumbnail.
    book_id = int(re.search(r"/books/(\d+)/", card.locator("a.result-book").get_attribute(
        "href")).group(1))
    page.goto(f"/review/?book={book_id}")
    item = page.locator("#review-item")
    expect(item.locator(".item-title")).to_have_text("第3章 保管")
    expect(item).to_contain_text("ページなし")
    expect(page.get_by_role("heading", name="キー")).to_be_visible()
    screenshot(page, "ja-review")
    item.get_by_role("button", name="4ページ").click()
    expect(page.locator("#review-item")).to_contain_text("レビューするものはありません")
    page.goto(f"/books/{book_id}/")
    expect(page.locator(".contents")).to_contain_text("見出し 3 件中 3 件を配置")

    # The switch turns the interface English and is remembered.
    page.get_by_role("button", name="English").click()
    expect(page.locator(".contents")).to_contain_text("3 of 3 headings placed")
    page.goto("/chat/")
    expect(page.get_by_role("link", name="New conversation")).to_be_visible()
    page.context.close()


def highlight_box(page, width: float, height: float) -> pymupdf.Rect:
    """Return the first word highlight on the page viewer's image, in PDF points."""
    mark = page.locator("svg.marks rect.mark-word").first
    expect(mark).to_be_attached()
    x, y, w, h = (float(mark.get_attribute(name)) for name in ("x", "y", "width", "height"))
    return pymupdf.Rect(x * width / 100, y * height / 100, (x + w) * width / 100,
                        (y + h) * height / 100)


def assert_covers(mark: pymupdf.Rect, word: pymupdf.Rect, within: float = 2.0) -> None:
    """The highlight covers the word, each of its edges within `within` points of the word's."""
    assert mark.contains(word), (mark, word)
    for edge in ("x0", "y0", "x1", "y1"):
        assert abs(getattr(mark, edge) - getattr(word, edge)) <= within, (edge, mark, word)


def test_the_highlight_covers_the_asked_word_on_a_born_page(
        chromium, app_server, playwright_driver, tmp_path):
    born = titled(make_book(tmp_path / "plots.pdf", PLOT, fontname="tiro"), "Plots, born")
    with pymupdf.open(born) as document:
        [word] = document[0].search_for("multiplot")
    book_id = register(app_server, playwright_driver, born)["id"]
    page = open_japanese(chromium, app_server, "bob")
    page.goto(f"/books/{book_id}/pages/1/?q=multiplot")
    expect(page.locator(".found")).to_contain_text("1 か所に印を付けました")
    assert_covers(highlight_box(page, WIDTH, HEIGHT), word)
    screenshot(page, "ja-page-highlight", show=page.locator(".page-view"))
    page.context.close()


def ink_box(page: pymupdf.Page, rect: pymupdf.Rect, scale: float = 8.0) -> pymupdf.Rect:
    """Return the box of the ink inside rect on page: what a word's box is on a scan."""
    import numpy as np

    pixmap = page.get_pixmap(matrix=pymupdf.Matrix(scale, scale), clip=rect,
                             colorspace=pymupdf.csGRAY, alpha=False)
    ink = np.frombuffer(pixmap.samples, np.uint8).reshape(
        pixmap.height, pixmap.stride)[:, :pixmap.width] < 128
    rows, columns = np.flatnonzero(ink.any(axis=1)), np.flatnonzero(ink.any(axis=0))
    return pymupdf.Rect(rect.x0 + columns[0] / scale, rect.y0 + rows[0] / scale,
                        rect.x0 + (columns[-1] + 1) / scale, rect.y0 + (rows[-1] + 1) / scale)


def test_the_highlight_covers_the_asked_word_on_a_scanned_page(
        chromium, app_server, playwright_driver, tmp_path):
    """On a scan a word's box is its ink: the viewer finds the word's run of ink in its OCR
    line's strip of the image (``books.glyphs.scan_boxes``)."""
    born = make_book(tmp_path / "plots-born.pdf", PLOT, fontname="tiro")
    with pymupdf.open(born) as document:
        word = ink_box(document[0], document[0].search_for("multiplot")[0])
    scan = titled(scan_of(born, tmp_path / "plots-scan.pdf", dpi=200), "Plots, scanned")
    book_id = register(app_server, playwright_driver, scan)["id"]
    page = open_japanese(chromium, app_server, "bob")
    page.goto(f"/books/{book_id}/pages/1/?q=multiplot")
    expect(page.locator(".found")).to_contain_text("1 か所に印を付けました")
    assert_covers(highlight_box(page, WIDTH, HEIGHT), word)
    screenshot(page, "ja-scan-highlight", show=page.locator(".page-view"))
    page.context.close()


SCREENS = {  # name: (address, where to scroll)
    "shelf": ("/", None),
    "book": ("/books/{book}/", ".contents"),
    "page": ("/books/{book}/pages/3/?q=真水", ".page-view"),
    "search": ("/search?q=ロープ", None),
    "chat": ("/chat/{chat}/", ".answer"),
    "clip": ("/books/{book}/clip", None),
    "review": ("/review/", None),
    "heading": ("/books/{book}/headings/{heading}/", None),
    "edit": ("/books/{book}/edit", None),
    "delete": ("/books/{book}/delete", None),
    "collections": ("/collections/", None),
    "not-found": ("/books/999999/", None),
}


def test_every_screen_reads_in_japanese_and_in_english(chromium, app_server):
    """Screenshots of each screen in both languages (artifacts/screenshots/screen-*), and no
    English left on a Japanese screen where the interface writes it."""
    page = open_japanese(chromium, app_server, "alice")
    page.goto("/")
    page.get_by_role("link", name=ROPE_TITLE).first.click()
    book = int(re.search(r"/books/(\d+)/", page.url).group(1))
    heading_id = page.evaluate(
        "() => (document.querySelector('.contents a.badge') || {}).href || ''")
    page.goto("/chat/")
    page.locator(".conversations a").first.click()
    chat = int(re.search(r"/chat/(\d+)/", page.url).group(1))
    heading = re.search(r"/headings/(\d+)/", heading_id or "")
    ids = {"book": book, "chat": chat, "heading": heading.group(1) if heading else 0}
    for language, switch in (("ja", None), ("en", "English")):
        if switch:
            page.get_by_role("button", name=switch).click()
            expect(page.locator("html")).to_have_attribute("lang", language)
        for name, (address, show) in SCREENS.items():
            if "{heading}" in address and not ids["heading"]:
                continue
            page.goto(address.format(**ids))
            expect(page.locator("html")).to_have_attribute("lang", language)
            main = page.locator("main").inner_text()
            if language == "ja":
                for english in ("Shelf", "Search this book", "Download", "Previous", "Log out"):
                    assert english not in page.locator("body").inner_text(), (name, english)
            else:
                assert "書棚" not in page.locator("header.topbar").inner_text(), name
            assert main.strip(), name
            screenshot(page, f"screen-{language}-{name}",
                       show=page.locator(show).first if show else None)
    page.context.close()
