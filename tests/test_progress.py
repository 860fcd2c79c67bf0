"""A book's progress as people read it, and what the pipeline says, worded when shown."""

import re
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from indexing import estimate, notes
from indexing.estimate import Step
from indexing.progress import Shelf, book_progress, duration, waiting_why
from toc.model import ANOMALY_WORDS



@pytest.fixture(autouse=True)
def english():
    """Run each test in English, whatever a request before left active."""
    with translation.override("en"):
        yield


# Notes: stored as a code and values, worded in the reader's language.


def sample(code: str) -> dict:
    """Return a note of code with a value for each of its words' places."""
    with translation.override("en"):
        names = re.findall(r"%\((\w+)\)s", str(notes.WORDS[code] % _Any()))
    return notes.note(code, **{name: 3 for name in [*names, "n"]})


class _Any(dict):
    """Values for any name: finds the names a plural's words hold."""

    def __getitem__(self, key):
        return f"%({key})s" if key != "n" else 2


@pytest.mark.parametrize("code", sorted(notes.WORDS))
def test_every_note_is_worded_in_both_languages(code):
    note = sample(code)
    with translation.override("en"):
        english = notes.words(note)
    with translation.override("ja"):
        japanese = notes.words(note)
    assert english and japanese and english != japanese
    assert not re.search(r"[A-Za-z]{4,}", re.sub(r"PDF|OCR|JavaScript", "", japanese)), japanese


def test_the_toc_cores_anomalies_say_what_the_page_says():
    with translation.override("en"):
        for code, words in ANOMALY_WORDS.items():
            assert str(notes.WORDS[code]) == words, code


def test_sentences_join_clauses_and_end_in_the_readers_language():
    stored = [[notes.note("ocr.pages", n=3), notes.note("ocr.read", n=3)],
              [notes.note("pdf.JavaScript")]]
    assert notes.english(stored) == ("3 pages, 3 read by OCR. It contains JavaScript, which is "
                                     "never run here.")
    with translation.override("ja"):
        assert notes.sentences(stored) == ("3 ページ、3 ページは OCR で読み取り。JavaScript が"
                                           "含まれていますが、ここで実行されることはありません。")
    assert notes.sentences("Stored before notes.") == "Stored before notes."
    assert notes.words({"code": "no.such.code"}) == "" and notes.words(None) == ""
    with pytest.raises(KeyError):
        notes.note("no.such.code")


def test_an_anomaly_is_a_kind_and_a_sentence_never_a_code():
    stored = {"kind": "toc_page_number", "pages": [4], "detail": "“Knots”: printed 6 read, 16 "
              "confirmed", "code": "toc_page_confirmed",
              "values": {"title": "Knots", "read": "6", "confirmed": "16"}}
    with translation.override("ja"):
        assert notes.anomaly_text(stored) == (
            "目次のページ番号", "「Knots」：目次のページ番号は 6 と読めましたが、16 と確認しました")
    old = {"kind": "toc_page_number", "pages": [4], "detail": "“Knots”: printed 6 read"}
    assert notes.anomaly_text(old) == ("A page number in the contents", "“Knots”: printed 6 read")


def test_what_was_stored_in_english_is_read_back_into_notes():
    words = dict(sorted(ANOMALY_WORDS.items(), key=lambda item: item[1].count("%(")))
    assert notes.read_back("“1 Sails” found on page 9, TOC and folios say unknown", words) == {
        "code": "far_from_toc_unknown", "title": "1 Sails", "page": 9}
    assert notes.read_back("pages 4 and 5 both read xii", words) == {
        "code": "duplicate_page", "first": 4, "second": 5, "label": "xii"}
    assert notes.read_back("Something else altogether", words) is None
    agent = notes.english_words(["agent.no_line", "agent.found"])
    assert notes.read_back("The agent was not asked: no heading-like line on pages 3–9 matches "
                           "it.", agent) == {"code": "agent.no_line", "first": 3, "last": 9}


# The estimate: the stage's own pace on this book, else the recorded pace of earlier books.

def test_recorded_paces_are_seconds_per_page_of_the_newest_runs():
    finished = [("ocr", 100.0, 100), ("ocr", 300.0, 100)] + [("ocr", 9999.0, 1)] * 20
    assert estimate.paces(finished) == {"ocr": pytest.approx(
        (100 + 300 + 8 * 9999) / (200 + 8))}  # the HISTORY newest only
    assert estimate.paces([("embed", 10.0, 0)]) == {}  # a book without pages says nothing


def test_a_running_stage_is_timed_by_its_own_pace_once_measured():
    running = Step("ocr", "running", done=60, total=300, resumed_from=50, elapsed=20.0)
    assert estimate.step_left(running, 300, {}) == pytest.approx(240 * 2.0)  # 10 pages in 20 s
    early = Step("ocr", "running", done=51, total=300, resumed_from=50, elapsed=1.0)
    assert estimate.step_left(early, 300, {}) is None  # not measured yet, nothing recorded
    assert estimate.step_left(early, 300, {"ocr": 0.5}) == pytest.approx(149.0)
    slow = Step("ocr", "running", done=0, total=300, elapsed=400.0)
    assert estimate.step_left(slow, 300, {"ocr": 0.5}) is None  # slower than before


def test_the_time_left_is_known_only_when_every_stage_left_is():
    steps = [Step("previews", "done"), Step("ocr", "running", 10, 100, 0, 10.0),
             Step("embed", "pending")]
    known = estimate.estimate(steps, 100, {"embed": 0.2})
    assert known.left == pytest.approx(90.0 + 20.0) and known.step_left == pytest.approx(90.0)
    unknown = estimate.estimate(steps, 100, {})
    assert unknown.left is None and unknown.step_left == pytest.approx(90.0)
    assert unknown.fraction == known.fraction == pytest.approx((1 + 0.1) / 3)  # by steps


def test_times_are_said_as_a_reader_plans_by():
    assert duration(20) == "less than a minute"
    assert duration(61) == "about 2 minutes" and duration(60) == "about 1 minute"
    assert duration(3 * 3600 + 5 * 60) == "about 3 h 5 min"
    assert duration(86400) == "about 24 hours"
    with translation.override("ja"):
        assert duration(125) == "約3分"


# Why a book waits.

def shelf(**fields) -> Shelf:
    return Shelf(**{"reading": {}, "line": [], "at_once": 1, "pace": {}, **fields})


def test_a_book_waits_behind_the_book_being_read():
    waiting = shelf(reading={1: "Octave"}, line=[2, 3])
    assert waiting_why(2, waiting) == ("Waiting its turn behind “Octave”. One book is read at "
                                       "a time.")
    assert waiting_why(3, waiting).endswith("1 other book waiting goes first.")
    with translation.override("ja"):
        assert waiting_why(2, waiting) == "「Octave」の後で順番を待っています。一度に読むのは 1 冊です。"


def test_a_free_worker_takes_the_book_at_once():
    assert waiting_why(2, shelf(reading={1: "Octave"}, line=[2], at_once=2)) == "Starting…"
    assert waiting_why(2, shelf(line=[2], at_once=None)) == "Starting…"
    assert "No worker" in waiting_why(2, shelf(line=[2], at_once=0))
    two = waiting_why(4, shelf(reading={1: "A", 2: "B"}, line=[3, 4], at_once=2))
    assert two == ("Waiting its turn behind “A” and 1 more. 2 books are read at a time. "
                   "1 other book waiting goes first.")


def run(stage, status, done=0, total=0, **fields):
    return SimpleNamespace(stage=stage, status=status, done=done, total=total, resumed_from=0,
                           available_at=fields.pop("available_at", timezone.now()),
                           problem=fields.pop("error", ""),
                           elapsed=lambda now=None: fields.get("elapsed"))


def test_one_bar_says_what_the_book_does_and_the_time_left():
    book = SimpleNamespace(pk=7, page_count=100)
    runs = [run("previews", "done"), run("ocr", "running", 40, 100, elapsed=20.0),
            run("ingest", "pending")]
    bar = book_progress(book, runs, shelf(pace={"ingest": 0.01}))
    assert (bar.state, bar.doing, bar.step, bar.steps) == ("running", "Reading the pages (OCR)",
                                                         2, 3)
    assert bar.left == "less than a minute left" and 0 < bar.percent < 100
    bar = book_progress(book, runs, shelf())
    assert bar.left == "this step: less than a minute left; the rest: estimating…"
    first = [run("previews", "running", 0, 100, elapsed=1.0), run("ocr", "pending")]
    assert book_progress(book, first, shelf()).left == "estimating…"


def test_a_bar_says_why_a_book_waits_is_tried_again_or_stopped():
    book = SimpleNamespace(pk=2, page_count=10)
    waiting = [run("previews", "done"), run("ocr", "pending")]
    bar = book_progress(book, waiting, shelf(reading={1: "Octave"}, line=[2]))
    assert bar.state == "waiting" and bar.why.startswith("Waiting its turn behind “Octave”")
    later = [run("previews", "done"), run("ocr", "pending", error="The database was busy.",
                                          available_at=timezone.now() + timedelta(seconds=90))]
    bar = book_progress(book, later, shelf())
    assert bar.state == "retrying" and bar.why == ("Trying again in about 2 minutes. The "
                                                   "database was busy.")
    failed = [run("previews", "done"), run("ocr", "failed", 3, 10, error="Broken.")]
    bar = book_progress(book, failed, shelf())
    assert (bar.state, bar.why, bar.percent) == ("failed", "Broken.", 65)
    done = book_progress(book, [run("previews", "done")], shelf())
    assert (done.state, done.percent) == ("done", 100)


def test_the_shelf_shows_a_bar_and_the_book_page_each_step_in_japanese(alice, shelve,
                                                                     english_pdf, settings):
    settings.LIBRARIAN_WORKER_THREADS = 1
    book = shelve(english_pdf, process=False)
    book.stage_runs.filter(stage="previews").update(status="done")
    book.stage_runs.filter(stage="ocr").update(
        status="running", done=1, total=3, started_at=timezone.now() - timedelta(seconds=9))
    from django.test import Client

    client = Client(HTTP_ACCEPT_LANGUAGE="ja")
    client.force_login(alice)
    shelf_page = client.get(reverse("shelf")).content.decode()
    assert "ページの読み取り（OCR）" in shelf_page and "（全 7 段階の 2 段階目）" in shelf_page
    assert "残り" in shelf_page and '<progress max="100"' in shelf_page
    assert "ocr" not in re.sub(r"<[^>]+>", "", shelf_page).lower().replace("（ocr）", "")
    card = client.get(reverse("book-progress", args=[book.pk])).content.decode()
    assert "各段階" in card and "1 / 3 ページ" in card and "hx-trigger" in card
    assert "<noscript>" in client.get(book.get_absolute_url()).content.decode()


def test_rows_stored_before_notes_are_read_back_by_the_migration(boats):
    """Old anomalies and agent reasons get their code and values; what is not the
    pipeline's English stays as it was."""
    from importlib import import_module

    from django.apps import apps

    from books.models import Heading, ReviewFlag

    migration = import_module("indexing.migrations.0009_notes_worded_when_shown")
    boats.anomalies = [
        {"kind": "far_from_toc", "pages": [3], "detail": "“2 Knots” found on page 3, TOC and "
         "folios say unknown", "by": "verify"},
        {"kind": "missing_page", "pages": [3], "detail": "Printed page 3 is missing."}]
    boats.save(update_fields=["anomalies"])
    heading = Heading.objects.create(book=boats, position=9, level=1, title="9 Tides")
    flag = ReviewFlag.objects.create(heading=heading, reason="check", agent_reason=(
        "The agent did not find it: no reason given"))
    migration.read_back(apps, None)
    boats.refresh_from_db()
    flag.refresh_from_db()
    assert boats.anomalies[0]["code"] == "far_from_toc_unknown"
    assert boats.anomalies[0]["values"] == {"title": "2 Knots", "page": 3}
    assert boats.anomalies[0]["by"] == "verify" and "code" not in boats.anomalies[1]
    assert flag.agent_note == [[{"code": "agent.not_found_silent"}]]
    with translation.override("ja"):
        assert notes.sentences(flag.agent_note) == "エージェントは見つけられませんでした（理由の説明なし）。"
