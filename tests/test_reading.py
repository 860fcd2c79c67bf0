"""A question asked while books are being read says which ones, and how far along they are."""

import pytest
from django.urls import reverse

from books import reading
from indexing.models import StageRun
from indexing.stages import STAGES
from retrieval import pipeline
from tests.test_chat import FakeRetrieval, ask_json, read_stream, stream_url

pytestmark = pytest.mark.django_db
Status = StageRun.Status


def at_stage(book, stage: str, status=Status.RUNNING, done=0, total=0):
    """Put book's pipeline at stage: the ones before it done, it in status, the rest pending."""
    position = [s.name for s in STAGES].index(stage)
    runs = StageRun.objects.filter(book=book)
    runs.filter(position__lt=position).update(status=Status.DONE)
    runs.filter(position=position).update(status=status, done=done, total=total)
    return book


@pytest.fixture
def boats(shelve, english_pdf):
    return shelve(english_pdf)


@pytest.fixture
def fune(shelve, japanese_pdf):
    return shelve(japanese_pdf, process=False)


def test_a_book_being_read_is_listed_at_its_stage_with_its_progress(boats, fune):
    at_stage(fune, "ocr", done=2, total=3)
    found = reading.being_read()
    assert [book.as_dict() for book in found] == [
        {"book_id": fune.pk, "title": fune.title, "stage": "ocr", "done": 2, "total": 3}]
    ocr = [s.name for s in STAGES].index("ocr") + 1
    assert reading.progress_text(found[0]) == \
        f"Reading the pages (OCR), 2 of 3 pages (stage {ocr} of {len(STAGES)})"


def test_a_book_waiting_for_its_next_stage_is_still_being_read(fune):
    at_stage(fune, "embed", status=Status.PENDING)
    [book] = reading.being_read()
    assert book.stage == "embed" and (book.done, book.total) == (0, 0)
    assert reading.progress_text(book).startswith("waiting: preparing the sections for questions")


def test_finished_and_failed_books_are_not_being_read(boats, fune):
    at_stage(fune, "contents", status=Status.FAILED)
    assert reading.being_read() == []


def test_only_the_books_asked_about_are_listed(boats, fune):
    assert reading.being_read([boats.pk]) == []
    assert [book.book_id for book in reading.being_read([fune.pk])] == [fune.pk]


def test_a_question_with_no_answer_while_a_book_is_read_is_not_called_unanswered(
        bob, bob_client, monkeypatch, boats, fune):
    monkeypatch.setattr(pipeline, "iter_results", FakeRetrieval([]))
    at_stage(fune, "ocr", done=1, total=3)
    data = ask_json(bob_client, "Where is the mainsail explained?")
    _, events = read_stream(bob, stream_url(data))
    summary = events[0][1]["html"]
    assert "Nothing on the shelf" not in summary
    assert "1 book is still being read" in summary
    assert fune.title in summary and "Reading the pages (OCR), 1 of 3 pages" in summary
    page = bob_client.get(reverse("conversation", args=[data["conversation"]])).content.decode()
    assert "still being read" in page and "Nothing on the shelf" not in page


def test_once_the_books_are_read_no_answer_is_said_plainly(bob, bob_client, monkeypatch, boats):
    monkeypatch.setattr(pipeline, "iter_results", FakeRetrieval([]))
    data = ask_json(bob_client, "astronomy")
    _, events = read_stream(bob, stream_url(data))
    assert "Nothing on the shelf seems to answer this" in events[0][1]["html"]
    assert "still being read" not in events[0][1]["html"]


def test_the_api_lists_the_books_being_read(bob_client, boats, fune):
    at_stage(fune, "embed", done=40, total=90)
    answer = bob_client.get("/api/ask", {"q": "How do I bake sourdough bread?",
                                         "synthesize": "false"}).json()
    assert answer["reading"] == [{"book_id": fune.pk, "title": fune.title, "stage": "embed",
                                  "done": 40, "total": 90}]
    assert "still being read" in answer["note"] and "do not seem" not in answer["note"]
    assert "None of the books seems to answer this" not in answer["guide"]
    at_stage(fune, "embed", status=Status.DONE)
    answer = bob_client.get("/api/ask", {"q": "How do I bake sourdough bread?",
                                         "synthesize": "false"}).json()
    assert answer["reading"] == []


def test_a_japanese_question_is_told_in_japanese(bob, bob_client, monkeypatch, boats, fune):
    monkeypatch.setattr(pipeline, "iter_results", FakeRetrieval([]))
    at_stage(fune, "ocr", done=1, total=3)
    data = ask_json(bob_client, "帆はどこに書いてありますか？")
    _, events = read_stream(bob, stream_url(data))
    assert "1冊の本をまだ読んでいる" in events[0][1]["html"] and "1/3" in events[0][1]["html"]
