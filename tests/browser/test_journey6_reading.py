"""Journey 6: a reader asks while a book is still being read and is told so, not "no answer"."""

import os
import subprocess
import sys

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PERSONAS, ROOT, ask, screenshot
from tests.conftest import OCR_MODEL_DIR
from tests.pdfs import make_pdf

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TITLE = "Celestial Navigation at Sea"
# Registered and held in one transaction: its stages wait a day (as a retry's back-off
# would), so the worker cannot read it before the question is asked.
HOLD = """
from datetime import timedelta
from django.db import transaction
from django.utils import timezone
from books.registration import read_chunks, register
from indexing.models import StageRun
with transaction.atomic():
    with open({path!r}, "rb") as handle:
        book = register(read_chunks(handle), "sextant.pdf", title={title!r}).book
    StageRun.objects.filter(book=book).update(available_at=timezone.now() + timedelta(days=1))
print(book.pk)
"""


def held_book(server, tmp_path) -> int:
    """Register a book on the live server's shelf that stays unread; return its id."""
    path = make_pdf(tmp_path / "sextant.pdf", ["Contents\n1 The noon sight ...... 2",
                                               "1 The noon sight\nMeasure the sun at noon."])
    env = {name: value for name, value in os.environ.items() if not name.startswith("LIBRARIAN_")}
    env.update(LIBRARIAN_DATA_DIR=str(server.log.parent), LIBRARIAN_LLM_MODEL="none",
               LIBRARIAN_OCR_MODEL_DIR=OCR_MODEL_DIR)
    done = subprocess.run([sys.executable, "manage.py", "shell", "-c",
                           HOLD.format(path=str(path), title=TITLE)],
                          cwd=ROOT, env=env, check=True, capture_output=True, text=True,
                          timeout=120)
    return int(done.stdout.split()[-1])


def test_a_question_asked_while_a_book_is_read_names_it(open_page, app_server,
                                                        playwright_driver, tmp_path):
    book_id = held_book(app_server, tmp_path)
    try:
        page = open_page("bob")
        page.goto("/chat/")
        answer = ask(page, "How do I take a noon sight with a sextant?")
        notice = answer.locator(".answer-reading")
        expect(notice).to_contain_text("still being read")
        expect(notice.get_by_role("link", name=TITLE)).to_have_attribute(
            "href", f"/books/{book_id}/")
        expect(notice).to_contain_text("waiting")
        expect(answer).not_to_contain_text("Nothing on the shelf")
        screenshot(page, "journey6-reading", show=answer)

        answer = ask(page, "六分儀で正午の観測をするには？")
        expect(answer.locator(".answer-reading")).to_contain_text("まだ読んでいる")
        expect(answer).not_to_contain_text("答えは見当たりません")
        screenshot(page, "journey6-reading-ja", show=answer)

        # The shelf says in words what the book waits to do, with one bar, in either language.
        page.goto("/")
        card = page.locator(".book-card").filter(has=page.get_by_role("heading", name=TITLE))
        expect(card.locator(".book-progress progress")).to_have_count(1)
        expect(card.locator(".progress-doing")).to_contain_text("Next: Making page previews")
        expect(card.locator(".progress-why")).to_contain_text("Trying again in about 24 hours")
        page.locator(".language").get_by_role("button", name="日本語").click()
        expect(card.locator(".progress-doing")).to_contain_text("次：ページのプレビュー作成")
        expect(card.locator(".book-state")).not_to_contain_text("previews")
        screenshot(page, "journey6-reading-shelf-ja", show=card)
    finally:
        api = playwright_driver.request.new_context(
            base_url=app_server.url, http_credentials={
                "username": "alice", "password": PERSONAS["alice"], "send": "always"})
        api.delete(f"/api/books/{book_id}")
        api.dispose()
