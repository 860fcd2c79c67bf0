"""Asking questions of a small shelf: an English and a Japanese book with their headings."""

import hashlib
import json
from io import StringIO
from pathlib import Path
from types import SimpleNamespace
from unittest import mock
from unittest.mock import Mock

import numpy as np
import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

import retrieval
from books import search
from books.models import Book, Heading, Page
from books.signals import headings_changed
from indexing.models import StageRun
from indexing.stages import STAGES
from retrieval.index import embeddings
from retrieval.question import suggest
from retrieval.index import files, reader, served, writer
from tests.toc.pages import line, page

pytestmark = pytest.mark.django_db
_vectors = {}


@pytest.fixture(autouse=True)
def no_language_model(settings):
    settings.LIBRARIAN_LLM_MODEL = "none"


@pytest.fixture(autouse=True, scope="module")
def embed_each_text_once():
    """Run the real models, once per distinct text in this module (the books repeat)."""
    encode = embeddings.Encoder.encode

    def remembered(encoder, texts, query=False):
        key = (encoder.role, query)
        missing = [text for text in dict.fromkeys(texts) if (key, text) not in _vectors]
        if missing:
            _vectors.update(zip([(key, t) for t in missing], encode(encoder, missing, query)))
        if not texts:
            return encode(encoder, texts)
        return np.stack([_vectors[(key, text)] for text in texts])

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(embeddings.Encoder, "encode", remembered)
        yield

SAILING = [
    "Contents\n1 Sails ..... 2\n1.1 Mainsail ..... 2\n1.2 Jib ..... 3\n2 Knots ..... 4\n"
    "2.1 Bowline ..... 4\n2.2 Cleat hitch ..... 5\nIndex ..... 6",
    "1 Sails\nSails turn the wind into motion.\n1.1 Mainsail\nThe mainsail is hoisted on the "
    "mast and trimmed with the mainsheet.\nReefing reduces its area when the wind is strong.",
    "1.2 Jib\nThe jib is a triangular sail set forward of the mast.\nIts sheets lead aft to "
    "the winches in the cockpit.",
    "2 Knots\nA sailor needs a handful of reliable knots.\n2.1 Bowline\nThe bowline makes a "
    "fixed loop at the end of a rope that neither slips nor jams.",
    "2.2 Cleat hitch\nThe cleat hitch secures a line to a horn cleat in a few turns.",
    "Index\nbowline 4\ncleat hitch 5\njib 3\nmainsail 2\nreefing 2\nwinch 3\nknots 4\nsheet 3",
]
SAILING_HEADINGS = [  # (level, title, page, line, page_end)
    (1, "1 Sails", 2, 0, 3), (2, "1.1 Mainsail", 2, 2, 2), (2, "1.2 Jib", 3, 0, 3),
    (1, "2 Knots", 4, 0, 5), (2, "2.1 Bowline", 4, 2, 4), (2, "2.2 Cleat hitch", 5, 0, 5),
    (1, "Index", 6, 0, 6),
]
KOUKAI = [
    "目次\n第1章 気象 ..... 2\n1.1 低気圧 ..... 2\n1.2 霧 ..... 3\n第2章 航法 ..... 4",
    "第1章 気象\n天気図の読み方を説明する。\n1.1 低気圧\n低気圧が近づくと風が強まり、海が荒れる。\n"
    "早めに港へ戻ること。",
    "1.2 霧\n霧の中では汽笛を鳴らし、速度を落として航行する。",
    "第2章 航法\n2.1 コンパス\nコンパスは磁北を指すため、偏差を補正して針路を決める。",
]
KOUKAI_HEADINGS = [
    (1, "第1章 気象", 2, 0, 3), (2, "1.1 低気圧", 2, 2, 2), (2, "1.2 霧", 3, 0, 3),
    (1, "第2章 航法", 4, 0, 4), (2, "2.1 コンパス", 4, 1, 4),
]
HARBOUR = [
    "Harbour Guide\nEntering the harbour under engine, with fenders ready.",
    "3.4 Mooring lines\nTie the bow line to the ring with a bowline knot, and keep a spare.",
]


def make_book(title, pages, headings=(), labels=None, embed=True):
    """Return a book with pages, headings and its search and question indexes built."""
    book = Book.objects.create(
        title=title, sha256=hashlib.sha256(title.encode()).hexdigest(),
        original_filename=f"{title}.pdf", size_bytes=1, page_count=len(pages),
        structure="toc" if headings else "", toc_pages=[1] if headings else [],
    )
    for number, text in enumerate(pages, 1):
        lines = [{"text": line, "box": [0, 0, 1, 1], "conf": 1.0, "dir": "h"}
                 for line in text.split("\n")]
        label = (labels or {}).get(number, "")
        Page.objects.create(book=book, number=number, width=595, height=842, source="text_layer",
                            text=text, lines=lines, label=label)
    parents = []
    for position, (level, heading_title, page, line, page_end) in enumerate(headings):
        while parents and parents[-1].level >= level:
            parents.pop()
        parents.append(Heading.objects.create(
            book=book, parent=parents[-1] if parents else None, position=position, level=level,
            title=heading_title, page=page, page_end=page_end, line=line, status="exact"))
    search.index_book(book)
    if embed:
        writer.build(book)
    return book


@pytest.fixture
def sailing(db):
    return make_book("Sailing Handbook", SAILING, SAILING_HEADINGS, labels={2: "1", 3: "2"})


@pytest.fixture
def koukai(db):
    return make_book("航海の手引き", KOUKAI, KOUKAI_HEADINGS)


@pytest.fixture
def shelf(sailing, koukai):
    return sailing, koukai


def first(answer):
    result = answer.results[0]
    return result.book_title, result.breadcrumb[-1]


def test_the_embed_stage_comes_last():
    assert STAGES[-1].name == "embed"


@pytest.mark.parametrize("question,book,section", [
    ("The bowline makes a fixed loop at the end of a rope", "Sailing Handbook", "2.1 Bowline"),
    ("How do I reduce the area of the mainsail in strong wind?", "Sailing Handbook", "1.1 Mainsail"),
    ("triangular sail forward of the mast", "Sailing Handbook", "1.2 Jib"),
    ("霧の中では汽笛を鳴らす", "航海の手引き", "1.2 霧"),
    ("低気圧が近づくとどうなる？", "航海の手引き", "1.1 低気圧"),
    ("偏差を補正して針路を決める", "航海の手引き", "2.1 コンパス"),
])
def test_hybrid_ranking_finds_the_section(shelf, question, book, section):
    assert first(retrieval.ask(question)) == (book, section)


INTERPRETER = [
    "Contents\n1 Errors ..... 2\n1.1 Disabling warnings ..... 2",
    "1 Errors\nErrors stop a program.\n1.1 Disabling warnings\nTo stop a warning from being "
    "shown, turn it off by its identifier; warnings that are off are not displayed again.",
]
PACKAGING = [
    "目次\n第1章 検査 ..... 2\n1.1 lintian ..... 2",
    "第1章 検査\nパッケージを検査する。\n1.1 lintian\nlintian はパッケージを調べ、問題を報告する。"
    "報告の一部は上書きファイルで取り消せる。",
]


def test_a_japanese_question_naming_a_program_passes_over_books_without_it(db):
    interpreter = make_book("Interpreter Manual", INTERPRETER,
                            [(1, "1 Errors", 2, 0, 2), (2, "1.1 Disabling warnings", 2, 2, 2)])
    make_book("パッケージの手引き", PACKAGING,
              [(1, "第1章 検査", 2, 0, 2), (2, "1.1 lintian", 2, 2, 2)])
    question = "lintian の警告を表示しないようにするには？"
    answer = retrieval.ask(question)
    assert first(answer) == ("パッケージの手引き", "1.1 lintian")
    assert "Interpreter Manual" not in {pick.book_title for pick in answer.recommendation or []}
    # The rule, not the shelf: without a name in Latin script the English book is in the running.
    others = retrieval.ask("警告を表示しないようにするには？")
    assert interpreter.pk in {result.book_id for result in others.results[:2]}


KNOTTER = [
    "Contents\n1 About Knotter ..... 2\n2 Loops ..... 3\n3 Splices ..... 4",
    "1 About Knotter\nKnotter is the knot program. This is the Knotter manual: Knotter draws "
    "knots, Knotter prints knots, and Knotter runs on every computer.",
    "2 Loops\nTo make a fixed loop at the end of a rope, tie a bowline: pass the end up "
    "through the small loop, round the standing part and back down.",
    "3 Splices\nAn eye splice joins the strands of a rope back into itself.",
]


@pytest.mark.parametrize("question,section", [
    ("How do I make a fixed loop in Knotter?", "2 Loops"),
    ("How do I join a rope in Knotter?", "3 Splices"),
])
def test_the_name_of_the_book_asked_about_does_not_pull_toward_its_own_about_page(
        db, question, section):
    # Read with its name, the question sits near the page that names the program most.
    make_book("Knotter", KNOTTER, [(1, "1 About Knotter", 2, 0, 2), (1, "2 Loops", 3, 0, 3),
                                   (1, "3 Splices", 4, 0, 4)])
    make_book("Sailing Handbook", SAILING, SAILING_HEADINGS)
    top = [result.breadcrumb[-1] for result in retrieval.ask(question).results[:2]]
    assert top[0] == section and "1 About Knotter" not in top


def test_results_carry_breadcrumb_pages_and_printed_labels(shelf):
    result = retrieval.ask("Reefing reduces its area when the wind is strong").results[0]
    assert result.breadcrumb == ["1 Sails", "1.1 Mainsail"]
    assert (result.page_start, result.page_end) == (2, 2)
    assert (result.printed_start, result.printed_end) == ("1", "1")
    assert "Reefing reduces its area" in result.excerpt and "Reefing" in result.terms
    # the sentence that answers, quoted as printed, with its page
    assert result.quote == "Reefing reduces its area when the wind is strong."
    assert (result.quote_page, result.quote_label) == (2, "1")
    knots = retrieval.ask("cleat hitch horn cleat").results[0]
    assert knots.page_start == 5 and knots.printed_start is None  # not printed: not guessed


def test_a_running_head_left_in_the_text_is_never_the_quote(db):
    make_book("Watch Keeping", ["Contents\n1 Entries ..... 2",
                           "1 Entries\nEach watch writes the course, the speed and the "
                           "weather into it.\n12 Sailing Log"],
              [(1, "1 Entries", 2, 0, 2)])
    result = retrieval.ask("What goes into the log?").results[0]
    assert result.quote.startswith("Each watch writes")


def test_toc_and_index_pages_never_answer(shelf):
    for result in retrieval.ask("bowline mainsail winch reefing", limit=20).results:
        assert result.breadcrumb[-1] != "Index" and result.page_start not in (1, 6)


def test_a_book_without_headings_answers_from_pages(db):
    make_book("Harbour Guide", HARBOUR, embed=False)
    result = retrieval.ask("bowline knot mooring ring").results[0]
    assert (result.book_title, result.heading_id, result.page_start) == ("Harbour Guide", None, 1)
    assert result.page_end == 2


def test_iter_results_yields_results_then_the_answer(shelf):
    items = list(retrieval.iter_results("bowline"))
    assert isinstance(items[-1], retrieval.Answer)
    assert tuple(items[:-1]) == items[-1].results and items[:-1]


def test_a_comparison_looks_up_each_part(shelf):
    answer = retrieval.ask("What is the difference between the jib and the mainsail?")
    assert answer.type == "compare" and answer.parts == ("the jib", "the mainsail")
    tops = {part: [r for r in answer.results if r.part == part][0].breadcrumb[-1]
            for part in answer.parts}
    assert tops == {"the jib": "1.2 Jib", "the mainsail": "1.1 Mainsail"}
    # The guide gives each part its place.
    assert [(p.part, p.breadcrumb[-1]) for p in answer.places[:2]] == [
        ("the jib", "1.2 Jib"), ("the mainsail", "1.1 Mainsail")]


def test_what_a_chapter_covers_lists_its_sections(shelf):
    answer = retrieval.ask("What does chapter 2 cover?", book_ids=[shelf[0].pk])
    assert answer.type == "aggregate"
    assert [r.breadcrumb[-1] for r in answer.results] == ["2 Knots", "2.1 Bowline", "2.2 Cleat hitch"]
    japanese = retrieval.ask("第1章の内容は？")
    assert {r.breadcrumb[-1] for r in japanese.results} == {"第1章 気象", "1.1 低気圧", "1.2 霧"}


def test_what_a_named_books_chapter_covers_lists_its_sections(shelf):
    # The book's name says where to look, not what about: the chapter is listed in order.
    answer = retrieval.ask("What does chapter 2 of the Sailing Handbook cover?")
    assert [r.breadcrumb[-1] for r in answer.results] == ["2 Knots", "2.1 Bowline", "2.2 Cleat hitch"]
    japanese = retrieval.ask("航海の手引きの第1章の内容は？")
    assert [r.breadcrumb[-1] for r in japanese.results] == ["第1章 気象", "1.1 低気圧", "1.2 霧"]


def test_a_page_range_narrows_before_ranking(shelf):
    answer = retrieval.ask("Which sections discuss the wind between pp. 2-3?",
                           book_ids=[shelf[0].pk])
    assert answer.results and all(r.page_start <= 3 for r in answer.results)
    assert "2 Knots" not in {r.breadcrumb[-1] for r in answer.results}


@pytest.mark.parametrize("question", ["How do I bake sourdough bread?", "パンの焼き方は？"])
def test_a_question_the_books_do_not_answer_gets_the_nearest_places_and_says_so(
        shelf, bob_client, question):
    make_book("Harbour Guide", HARBOUR)
    answer = retrieval.ask(question)
    assert answer.weak and answer.results  # the nearest places are still there…
    assert not answer.recommendation  # …but no book is the one to read on it
    note = answer.guide.splitlines()[0]
    assert note == answer.note and note.startswith(
        "どの本にも" if question.startswith("パン") else "None of the books")
    body = bob_client.get("/api/ask", {"q": question, "synthesize": "false"}).json()
    assert body["weak"] is True and body["recommendation"] is None and body["note"] == note
    asked = retrieval.ask("How do I reduce the area of the mainsail in strong wind?")
    assert not asked.weak and asked.note == "" and not asked.guide.startswith("None")


def test_which_book_recommends_the_one_with_a_whole_chapter(sailing):
    make_book("Harbour Guide", HARBOUR)
    answer = retrieval.ask("Which book covers knots like the bowline?")
    assert answer.type == "which_book"
    first, second = answer.recommendation[:2]
    assert (first.book_title, first.unit) == ("Sailing Handbook", "chapter")
    assert "whole chapter" in first.reason and second.book_title == "Harbour Guide"
    assert second.unit == "mentions"


def test_a_recommended_chapter_is_quoted_where_it_answers(sailing):
    make_book("Harbour Guide", HARBOUR)
    answer = retrieval.ask("Which book explains a knot that makes a fixed loop?")
    [place] = answer.places
    assert (place.breadcrumb, place.unit) == (["2 Knots"], "chapter")
    # Not the chapter's opening ("A sailor needs a handful of reliable knots."): 2.1 says it.
    assert place.quote.startswith("The bowline makes a fixed loop") and place.quote_page == 4
    assert place.excerpt.startswith("2 Knots A sailor needs")


def test_follow_ups_narrow_and_step_through_the_book(shelf):
    answer = retrieval.ask("wind")
    assert {r.book_id for r in answer.results} == {shelf[0].pk, shelf[1].pk}
    only = retrieval.ask("only in 航海の手引き", context=answer.context())
    assert only.results and {r.book_id for r in only.results} == {shelf[1].pk}
    bowline = retrieval.ask("The bowline makes a fixed loop")
    after = retrieval.ask("the next section", context=bowline.context())
    assert after.type == "navigate" and first(after) == ("Sailing Handbook", "2.2 Cleat hitch")
    before = retrieval.ask("前の節", context=bowline.context())
    assert first(before) == ("Sailing Handbook", "2 Knots")


def test_a_rebuilt_index_follows_a_moved_heading(sailing):
    assert retrieval.ask("triangular sail").results[0].page_start == 3
    Heading.objects.filter(book=sailing, title="1.2 Jib").update(page=2, line=4)
    writer.build(sailing)
    assert retrieval.ask("triangular sail").results[0].page_start == 2


def test_headings_changed_queues_the_embed_stage_again(sailing):
    StageRun.objects.create(book=sailing, stage="embed", position=4, status="done")
    headings_changed.send(sender=Heading, book=sailing)
    assert StageRun.objects.get(book=sailing, stage="embed").status == "pending"


def test_api_ask_needs_an_account(client, shelf):
    assert client.get("/api/ask", {"q": "bowline"}).status_code == 401


def test_api_ask_answers_readers(bob_client, shelf):
    response = bob_client.get("/api/ask", {"q": "bowline fixed loop", "book": shelf[0].pk,
                                           "synthesize": "false"})
    assert response.status_code == 200
    body = response.json()
    assert body["type"] == "lookup" and body["answer"] is None
    assert body["results"][0]["breadcrumb"] == ["2 Knots", "2.1 Bowline"]
    assert {r["book_id"] for r in body["results"]} == {shelf[0].pk}
    assert body["context"]["question"] == "bowline fixed loop"


def test_api_ask_says_which_part_each_place_answers(bob_client, shelf):
    body = bob_client.get("/api/ask", {"q": "What is the difference between the jib and the "
                                            "mainsail?", "synthesize": "false"}).json()
    assert [(p["part"], p["breadcrumb"][-1]) for p in body["places"][:2]] == [
        ("the jib", "1.2 Jib"), ("the mainsail", "1.1 Mainsail")]


def test_api_ask_post_carries_the_follow_up_context(bob_client, shelf):
    first_answer = bob_client.post("/api/ask", {"question": "wind", "synthesize": False},
                                   content_type="application/json").json()
    follow = bob_client.post("/api/ask", {"question": "only in Sailing Handbook",
                                          "context": first_answer["context"]},
                             content_type="application/json").json()
    assert {r["book_id"] for r in follow["results"]} == {shelf[0].pk}
    empty = bob_client.post("/api/ask", {"question": "  "}, content_type="application/json")
    assert empty.status_code == 400


def test_the_ask_command_prints_json(shelf):
    out = StringIO()
    call_command("ask", "霧の中では汽笛を鳴らす", "--json", "--book", str(shelf[1].pk), stdout=out)
    payload = json.loads(out.getvalue())
    assert set(payload) >= {"type", "language", "recommendation", "alternatives", "places",
                            "guide", "results", "answer"}
    assert set(payload["results"][0]) == {
        "book_id", "book_title", "breadcrumb", "page_start", "page_end", "printed_start",
        "printed_end", "excerpt", "quote", "quote_page", "score"}
    assert payload["results"][0]["breadcrumb"] == ["第1章 気象", "1.2 霧"]
    place = payload["places"][0]
    assert place["breadcrumb"] == ["第1章 気象", "1.2 霧"] and place["physical"]["start"] == 3
    assert place["quote"] == "霧の中では汽笛を鳴らし、速度を落として航行する。"
    assert payload["language"] == "ja" and "1.2 霧" in payload["guide"]


def test_the_benchmark_asks_known_item_questions(sailing, tmp_path):
    from bench import known_items as bench

    (tmp_path / "questions").mkdir()
    question = {"qid": "sail-q001", "query": "Its sheets lead aft to the winches in the cockpit.",
                "answer": {"title": "Jib", "breadcrumb": ["Sails", "Jib"], "page_start": 3,
                           "page_end": 3, "sentence_page": 3}}
    (tmp_path / "questions" / "sail.questions.jsonl").write_text(json.dumps(question) + "\n")
    lines = []
    figures = bench.bench(["sail", "gone"], tmp_path, lambda bid: sailing if bid == "sail" else None,
                          lines.append)
    assert (figures["questions"], figures["hit1"], figures["page1"]) == (1, 1.0, 1.0)
    assert "sailing" not in figures["misses"]
    assert lines[0] == "gone: no book; skipped" and "section hit@1" in lines[-1]


@pytest.mark.parametrize("terms", ["", "mooring, cleat hitch"])
@pytest.mark.parametrize("when", ["on", "after"])
def test_the_benchmark_asks_natural_questions(sailing, tmp_path, settings, monkeypatch, terms,
                                              when):
    import llm
    from bench import natural

    settings.LIBRARIAN_LLM_MODEL, settings.LIBRARIAN_QUERY_TERMS = "embedded", when
    monkeypatch.setattr(llm, "load", lambda: FakeModel([terms]) if terms else None)
    suggest._suggested.cache_clear()
    (tmp_path / "questions").mkdir()
    want = {"book_id": "sail", "breadcrumb": ["2 Knots", "2.2 Cleat hitch"],
            "title": "Cleat hitch", "page_start": 5, "page_end": 5}
    asked = [{"qid": "n1", "kind": "lookup", "lang": "en", "want": [want],
              "query": "How do I make my boat fast to the dock?"},
             {"qid": "n2", "kind": "lookup", "lang": "en", "want": [{**want, "book_id": "gone"}],
              "query": "Where is the chapter on anchors?"}]
    (tmp_path / "questions" / "natural.jsonl").write_text(
        "".join(json.dumps(q) + "\n" for q in asked))
    lines = []
    figures = natural.bench(tmp_path, lambda bid: sailing if bid == "sail" else None,
                            lines.append)
    suggest._suggested.cache_clear()
    assert lines[0] == "natural questions: no book for gone; their questions are skipped"
    (row,) = figures["rows"]
    assert row["suggested"] == ([] if not terms else ["mooring", "cleat hitch"])
    if when == "on":
        assert "with the local model's index terms" in lines[1]
        assert row["hit1"] is bool(terms) and "offered" not in row
        assert f"lookup      all      1{'1/1' if terms else '0/1':>9}" in lines[1]
    else:  # the cards come without the terms; the place they put first is counted apart
        assert "the local model's index terms after the cards" in lines[1]
        assert row["hit1"] is False and row["offered"] is (True if terms else None)
        assert (f"put another place first in {int(bool(terms))} lookups: the wanted one in "
                f"{int(bool(terms))} ({int(bool(terms))} where card [1] had missed it)") in lines[1]


def test_the_benchmark_asks_natural_questions_of_another_file(sailing, tmp_path, settings):
    from bench import natural

    settings.LIBRARIAN_QUERY_TERMS = "off"
    want = {"book_id": "sail", "breadcrumb": ["2 Knots", "2.2 Cleat hitch"],
            "title": "Cleat hitch", "page_start": 5, "page_end": 5}
    held = tmp_path / "held.jsonl"
    held.write_text(json.dumps({"qid": "h1", "kind": "lookup", "lang": "en", "want": [want],
                                "query": "How do I make my boat fast to the dock?"}) + "\n")
    lines = []  # the truth directory holds no natural.jsonl: the file given is read
    figures = natural.bench(tmp_path, lambda bid: sailing, lines.append, held)
    assert [row["qid"] for row in figures["rows"]] == ["h1"]
    with pytest.raises(CommandError, match="no such question file"):
        call_command("bookbench", "--questions-only", "--natural-file", str(tmp_path / "none"))


def test_the_held_out_questions_are_well_formed():
    from bench import natural

    path = Path(__file__).resolve().parent.parent / "bench" / "questions" / "held_out.jsonl"
    questions = natural.load(path)
    assert len({q["qid"] for q in questions}) == len(questions) >= 40
    for question in questions:
        assert question["kind"] in natural.KINDS and question["lang"] in ("en", "ja")
        (want,) = question["want"]
        assert want["breadcrumb"][-1] == want["title"] and question["query"].strip()
        assert 1 <= want["page_start"] <= want["page_end"]


def test_the_model_splits_a_comparison_the_rules_cannot(shelf, monkeypatch):
    import llm

    reply = SimpleNamespace(text='{"parts": ["the jib", "the mainsail", "a kraken"]}')
    monkeypatch.setattr(llm, "load", lambda: object())
    monkeypatch.setattr(llm, "ask", lambda model, messages, schema, **limits: reply)
    answer = retrieval.ask("How do the jib and the mainsail compare?")
    assert answer.type == "compare" and answer.parts == ("the jib", "the mainsail")
    monkeypatch.setattr(llm, "load", lambda: None)
    assert retrieval.ask("How do the jib and the mainsail compare?").type == "lookup"


def test_warming_loads_every_recent_books_index(shelf):
    for book in shelf:
        reader.invalidate(book.pk)
    vectors = [files.shelf_vectors(encoder.role) for encoder in embeddings.encoders()]
    for index in vectors:  # as in a process that has not read them yet
        index._index = index._stamp = None
    assert served.warm() == len(shelf)
    assert all(any(key[1] == book.pk for key in reader._loaded) for book in shelf)
    # The shelf's vector indexes are read too: the first question does not wait for them.
    assert all(index._index is not None for index in vectors)


def test_a_served_process_loads_the_model_ahead_only_to_suggest_terms(settings, monkeypatch):
    import llm

    from retrieval import signals

    loads = []
    monkeypatch.setattr(llm, "load", lambda: loads.append(1) or object())
    monkeypatch.setattr(served, "warm", lambda: 0)
    settings.LIBRARIAN_QUERY_TERMS = "off"
    signals._warm()
    assert loads == [] and not suggest.warm()
    settings.LIBRARIAN_LLM_MODEL, settings.LIBRARIAN_QUERY_TERMS = "embedded", "on"
    signals._warm()
    assert loads == [1]


def test_headings_changed_while_the_index_is_built_are_not_missed(sailing, monkeypatch):
    from indexing.stages.embed import EmbedStage

    builds = []
    real_build = writer.build

    def build(book, **kwargs):
        builds.append(book.pk)
        if len(builds) == 1:  # a reviewer moves a heading meanwhile
            Heading.objects.filter(book=book, title="1.2 Jib").update(page=2, line=4)
        return real_build(book, **kwargs)

    monkeypatch.setattr(writer, "build", build)
    EmbedStage().run(None, sailing, lambda *args, **kwargs: None)
    assert len(builds) == 2
    assert retrieval.ask("triangular sail").results[0].page_start == 2


def test_only_so_many_indexes_are_kept_in_memory(shelf, settings):
    settings.LIBRARIAN_INDEX_CACHE_BOOKS = 1
    for book in shelf:
        reader.get(book)
    assert [key[1] for key in reader._loaded] == [shelf[-1].pk]
    assert retrieval.ask("bowline").results  # evicted books load again when asked



def test_a_rebuilt_or_deleted_book_leaves_no_sections_behind(shelf):
    from retrieval.index import lexical

    sailing = shelf[0]
    before = lexical.get().size()
    writer.build(sailing)
    assert lexical.get().size() == before  # replaced, not added again
    book_id = sailing.pk
    sailing.delete()
    writer.remove(book_id)
    assert book_id not in lexical.get().book_ids()
    assert all(r.book_id != book_id for r in retrieval.ask("bowline").results)



def test_every_question_and_follow_up_the_chat_page_suggests_works(shelf):
    """The page suggests these forms (chat.html, chat/examples.py): each must answer."""
    from django.utils import translation

    from chat import examples

    sailing, koukai = shelf
    where = retrieval.ask(examples._where("Bowline"))
    assert first(where) == ("Sailing Handbook", "2.1 Bowline")
    with translation.override("ja"):  # the questions are in the page's language
        japanese = retrieval.ask(examples._where("霧"))
        across = retrieval.ask(examples._where("Bowline"))
    assert first(japanese) == ("航海の手引き", "1.2 霧")
    assert first(across) == ("Sailing Handbook", "2.1 Bowline")
    which = retrieval.ask(examples._which("knots"))
    assert which.type == "which_book" and which.recommendation[0].book_title == "Sailing Handbook"
    this_book = retrieval.ask("この本で低気圧はどこに書いてありますか？", context=japanese.context())
    assert {r.book_id for r in this_book.results} == {koukai.pk}
    assert first(this_book) == ("航海の手引き", "1.1 低気圧")
    both = retrieval.ask("wind")
    shown = both.context()["books"]
    second = retrieval.ask("only in the second book", context=both.context())
    assert {r.book_id for r in second.results} == {shown[1]}
    other = retrieval.ask("only in the other book", context=both.context())
    assert {r.book_id for r in other.results} == {shown[1]}
    after = retrieval.ask("the next section", context=where.context())
    assert first(after) == ("Sailing Handbook", "2.2 Cleat hitch")
    chapter = retrieval.ask("that chapter", context=where.context())
    assert chapter.type == "range" and first(chapter) == ("Sailing Handbook", "2 Knots")
    assert chapter.results[0].page_end == 5


def test_an_index_cut_by_older_rules_is_served_and_queued_again(sailing):
    import json

    from indexing import runner
    from indexing.models import StageRun

    runner.create_runs(sailing)
    StageRun.objects.filter(book=sailing).update(status=StageRun.Status.DONE)
    path = files.book_dir(sailing.pk) / "sections.json"
    payload = json.loads(path.read_text())
    path.write_text(json.dumps({**payload, "chunking": files.CHUNKING - 1}))
    reader.invalidate(sailing.pk)

    assert first(retrieval.ask("How do I tie a bowline?")) == ("Sailing Handbook", "2.1 Bowline")
    assert runner.requeue_outdated() == 1
    embed = StageRun.objects.get(book=sailing, stage="embed")
    assert embed.status == StageRun.Status.PENDING and "newer rules" in embed.message
    writer.build(sailing)
    assert writer.outdated() == [] and runner.requeue_outdated() == 0


def test_a_book_is_ranked_from_its_skeleton_and_only_its_cards_read_the_whole_file(sailing):
    folder = files.book_dir(sailing.pk)
    assert (folder / "skeleton.json").exists()  # written with the index
    (folder / "skeleton.json").unlink()  # as an index made before skeletons were
    reader.invalidate(sailing.pk)
    whole = reader.get(sailing)
    assert (folder / "skeleton.json").exists()  # kept as the whole file was read
    reader.invalidate(sailing.pk)
    lean = reader.get(sailing)
    assert lean.chunks == whole.chunks and lean.by_page == whole.by_page
    assert dict(lean.furniture) == dict(whole.furniture)
    assert set(lean.boilerplate) == set(whole.boilerplate)
    assert lean.entries.entries == whole.entries.entries
    assert np.array_equal(lean.profile, whole.profile)
    assert first(retrieval.ask("How do I tie a bowline?")) == ("Sailing Handbook", "2.1 Bowline")

    (folder / "rest.json").unlink()  # as an index made before rests were
    reader.invalidate(sailing.pk)
    assert reader.get(sailing).entries.entries == whole.entries.entries  # from the whole file
    assert (folder / "rest.json").exists()  # kept as it was read
    reader.invalidate(sailing.pk)
    with mock.patch.object(reader._Later, "_whole", side_effect=AssertionError("read whole")):
        lean = reader.get(sailing)
        assert lean.entries.entries == whole.entries.entries
        assert dict(lean.furniture) == dict(whole.furniture)

    path = folder / "sections.json"
    payload = json.loads(path.read_text())
    path.write_text(json.dumps({**payload, "chunks": payload["chunks"][:1]}))
    reader.invalidate(sailing.pk)
    assert len(reader.get(sailing).chunks) == 1  # the skeleton of the file before is not read


def test_a_words_shares_are_looked_up_for_every_book_at_once_as_for_each(db):
    from retrieval.index import lexical

    harbour = make_book("Harbour Guide", HARBOUR, [(1, "3.4 Mooring lines", 2, 0, 2)])
    sailing = make_book("Sailing Handbook", SAILING, SAILING_HEADINGS)
    from retrieval.text import analysis

    words = lexical.get()
    terms = analysis.question_terms("a bowline on a mooring line of the mainsail") + ["absent"]
    found = {term: words.shares(term) for term in terms}
    assert len([term for term, shares in found.items() if shares and len(shares) == 2])
    for term, shares in found.items():
        for pk in (harbour.pk, sailing.pk):
            share = None if shares is None else shares.get(pk, 0.0)
            assert share == words.share_in(term, pk)


def test_a_question_is_taken_for_a_pasted_sentence_only_when_four_word_pairs_stand_in_it(db):
    from retrieval.index import lexical
    from retrieval.text import analysis

    make_book("Harbour Guide", HARBOUR, [(1, "3.4 Mooring lines", 2, 0, 2)])

    def share(question):
        hits = lexical.get().quoted(analysis.question_terms(question))
        return max((hit.score for hit in hits), default=0.0)

    assert share("tie the bow line to the ring with a bowline") == 1.0
    # Three of four pairs meet by chance in any manual's phrasing ("write a function that
    # accepts a number of inputs"): no quote.
    assert share("tie the bow line to the ring in the harbour") == 0.0


def test_a_pages_running_heads_stay_searchable_but_are_never_quoted(db):
    def printed(number, rows):
        made = page(number, rows, folio=number)
        made["lines"].insert(0, line("THE SAILING HANDBOOK", 72, 40))
        return made

    # The bowline's sentence runs on from page 2 to page 3, over page 3's head.
    pages = [printed(1, ["#1 Knots", "Knots hold a boat to its mooring."]),
             printed(2, ["A bowline makes a fixed loop that"]),
             printed(3, ["never slips, at the end of a line."]),
             printed(4, ["#2 Sails", "Reef the mainsail before the wind rises."])]
    book = Book.objects.create(title="Sailing", sha256="f" * 64, original_filename="s.pdf",
                               size_bytes=1, page_count=4, structure="toc")
    for made in pages:
        Page.objects.create(book=book, number=made["number"], width=made["width"],
                            height=made["height"], source="text_layer", lines=made["lines"],
                            text="\n".join(item["text"] for item in made["lines"]))
    for position, (title, number) in enumerate([("1 Knots", 1), ("2 Sails", 4)]):
        Heading.objects.create(book=book, position=position, level=1, title=title, page=number,
                               line=1, status="exact")
    search.index_book(book)
    writer.build(book)
    index = reader.get(book)
    assert index.furniture[3] == ["THE SAILING HANDBOOK", "3"]
    assert "that 2 THE SAILING HANDBOOK never slips" in index.full(0).text  # search reads it
    result = retrieval.ask("bowline fixed loop that never slips").results[0]
    assert result.breadcrumb == ["1 Knots"]
    assert result.quote == "A bowline makes a fixed loop that never slips, at the end of a line."
    assert result.quote_page == 2
    assert "HANDBOOK" not in result.excerpt


class FakeModel:
    """A local model that streams a reply (its answer to any question) piece by piece."""

    def __init__(self, pieces, finish="stop", fail=None):
        self.pieces, self.finish, self.fail, self.asked = pieces, finish, fail, []

    def count_tokens(self, messages):
        return sum(len(message["content"].split()) for message in messages)

    def tokenize(self, text, add_bos, special):
        return text.split()

    def create_chat_completion(self, messages, stream, **options):
        assert stream and options["max_tokens"] == suggest.MAX_TOKENS
        self.asked.append(messages[-1]["content"])
        if self.fail:
            raise self.fail
        for n, piece in enumerate(self.pieces, 1):
            last = n == len(self.pieces)
            yield {"choices": [{"delta": {"content": piece},
                                "finish_reason": self.finish if last else None}]}


@pytest.fixture
def suggesting(settings, monkeypatch):
    """Switch the model's terms on, with the model a test sets (model.pieces)."""
    import llm

    settings.LIBRARIAN_LLM_MODEL, settings.LIBRARIAN_QUERY_TERMS = "embedded", "on"
    model = FakeModel([])
    monkeypatch.setattr(llm, "load", lambda: model)
    suggest._suggested.cache_clear()
    yield model
    suggest._suggested.cache_clear()


@pytest.mark.parametrize("text,cut,terms", [
    ("pause, breakpoint, debugger", False, ("pause", "breakpoint", "debugger")),
    ("1. cron\n2. `crontab`\n- Cron", False, ("cron", "crontab")),
    ("例外処理、try、 「except」", False, ("例外処理", "try", "except")),
    ("hold, apt-mark hold, dpkg --set-sel", True, ("hold", "apt-mark hold")),
    ("x" * 41 + ", a, b, c, d, e, f, g, h, i", False, ("a", "b", "c", "d", "e", "f", "g", "h")),
    ("", False, ()),
])
def test_the_models_list_is_read_term_by_term(text, cut, terms):
    assert suggest.parse(text, cut=cut) == terms


@pytest.mark.parametrize("gpu,choice,when", [
    (False, "auto", suggest.AFTER), (True, "auto", suggest.BEFORE),
    (False, "on", suggest.BEFORE), (True, "after", suggest.AFTER),
    (False, "off", suggest.OFF), (True, "off", suggest.OFF),
])
def test_the_models_terms_come_before_the_cards_on_a_gpu_and_after_them_on_a_cpu(
        settings, monkeypatch, gpu, choice, when):
    import llm

    monkeypatch.setattr(llm, "on_gpu", lambda: gpu)
    settings.LIBRARIAN_LLM_MODEL, settings.LIBRARIAN_QUERY_TERMS = "embedded", choice
    assert suggest.when() == when and suggest.enabled() is (when != suggest.OFF)
    settings.LIBRARIAN_LLM_MODEL = "none"
    assert suggest.when() == suggest.OFF and suggest.terms("How do I moor?") == []


def test_a_failing_late_or_absent_model_suggests_nothing(suggesting, settings, monkeypatch):
    import llm

    suggesting.pieces = ["cleat", " hitch, mooring"]
    assert suggest.terms("How do I moor?") == ["cleat hitch", "mooring"]
    assert suggest.terms("How do I moor?") == ["cleat hitch", "mooring"]
    assert suggesting.asked == ["How do I moor?"]  # asked once
    suggesting.fail = RuntimeError("llama_decode returned -1")
    assert suggest.terms("How do I reef?") == []
    suggesting.fail, suggesting.pieces = None, ["reef"] * 5
    assert suggest.terms("How do I reef?") == ["reef" * 5]  # a failure is not kept as the answer
    clock = iter(range(0, 100, 5))
    monkeypatch.setattr(llm.runtime.time, "monotonic", lambda: next(clock))
    settings.LIBRARIAN_QUERY_TERMS_SECONDS = 8.0
    assert suggest.terms("How do I reef in a gale?") == []  # late: past 8 s at the second piece
    monkeypatch.setattr(llm, "load", lambda: None)
    assert suggest.terms("How do I heave to?") == []


def test_a_reader_does_not_wait_behind_a_books_verification(suggesting, settings, monkeypatch):
    import llm

    model = llm.Model(suggesting, path=None)  # the fake llama behind the real lock
    suggesting.pieces = ["mooring"]
    monkeypatch.setattr(llm, "load", lambda: model)
    settings.LIBRARIAN_QUERY_TERMS_SECONDS = 0.05
    with model.lock:  # a worker's call holds the model
        assert suggest.terms("How do I moor?") == []
    assert not model.lock.locked()
    assert suggest.terms("How do I moor alongside?") == ["mooring"]


def test_the_models_terms_find_a_section_the_question_never_names(suggesting, shelf, bob_client):
    question = "How do I make my boat fast to the dock?"
    suggesting.pieces = ["mooring, ", "cleat hitch"]
    answer = retrieval.ask(question)
    assert first(answer) == ("Sailing Handbook", "2.2 Cleat hitch")
    assert answer.suggested == ("mooring", "cleat hitch")
    assert {"cleat", "hitch"} <= {t.lower() for t in answer.results[0].terms}  # marked
    body = bob_client.get("/api/ask", {"q": question, "synthesize": "false"}).json()
    assert body["suggested"] == ["mooring", "cleat hitch"]
    assert body["results"][0]["breadcrumb"][-1] == "2.2 Cleat hitch"
    out = StringIO()
    call_command("ask", question, stdout=out)
    assert "Also searched for the local model's terms: mooring, cleat hitch" in out.getvalue()
    suggesting.pieces = []  # the same question, the model suggesting nothing
    suggest._suggested.cache_clear()
    assert first(retrieval.ask(question)) != ("Sailing Handbook", "2.2 Cleat hitch")


def test_after_the_cards_the_models_terms_offer_the_place_they_put_first(
        suggesting, shelf, settings, bob_client):
    question = "How do I make my boat fast to the dock?"
    settings.LIBRARIAN_QUERY_TERMS = "after"
    suggesting.pieces = ["mooring, ", "cleat hitch"]
    answer = retrieval.ask(question)  # the cards do not wait for the model
    assert suggesting.asked == [] and answer.suggested == ()
    assert first(answer) != ("Sailing Handbook", "2.2 Cleat hitch")
    refined = retrieval.refine(question, answer.shown())
    assert refined.terms == ("mooring", "cleat hitch")
    assert refined.place.breadcrumb[-1] == "2.2 Cleat hitch"
    shown = [r.breadcrumb[-1] for r in answer.results]
    assert refined.card == shown.index("2.2 Cleat hitch") + 1 > 1  # a later card shows it
    cleat = answer.shown()[refined.card - 1]
    assert retrieval.refine(question, [cleat]).place is None  # card [1]: nothing to offer
    body = bob_client.get("/api/ask", {"q": question, "synthesize": "false"}).json()
    assert body["suggested"] == [] and body["refined"]["terms"] == ["mooring", "cleat hitch"]
    assert body["refined"]["place"]["breadcrumb"][-1] == "2.2 Cleat hitch"
    out = StringIO()
    call_command("ask", question, stdout=out)
    assert "Searched again with the local model's terms (mooring, cleat hitch), this comes " \
           "first: Sailing Handbook: 2 Knots > 2.2 Cleat hitch" in out.getvalue()
    settings.LIBRARIAN_QUERY_TERMS = "on"  # before the cards: nothing is left to refine
    assert retrieval.refine(question, answer.shown()) is None
    settings.LIBRARIAN_QUERY_TERMS = "after"
    assert retrieval.refine("What does chapter 2 cover?", answer.shown()) is None  # a unit


def test_after_the_cards_the_terms_rank_the_question_again_without_reading_it_again(
        suggesting, shelf, settings, monkeypatch):
    from retrieval import pipeline

    question = "How do I make my boat fast to the dock?"
    settings.LIBRARIAN_QUERY_TERMS = "after"
    suggesting.pieces = ["mooring, ", "cleat hitch"]
    read = Mock(wraps=pipeline.Reading)
    monkeypatch.setattr(pipeline, "Reading", read)
    answer, refined, _ = retrieval.answered(question, synthesize=False)
    assert read.call_count == 1
    assert refined.place.breadcrumb[-1] == "2.2 Cleat hitch"
    assert refined == retrieval.refine(question, answer.shown())  # read anew
    again = retrieval.ask(question, limit=1, suggested=True)  # the whole answer made again
    assert (refined.terms, refined.place) == (again.suggested, again.results[0])


def test_the_models_terms_count_beside_the_questions_own_words(suggesting, sailing):
    """A wrong suggestion does not outweigh the question: it counts as one more word."""
    suggesting.pieces = ["cleat hitch"]
    answer = retrieval.ask("Which knot makes a fixed loop at the end of a rope?")
    assert first(answer) == ("Sailing Handbook", "2.1 Bowline")


def test_one_encoders_share_of_the_count_follows_the_others():
    reports = []
    first = writer.part_progress(lambda *report: reports.append(report), 0, 10, 20, 10)
    second = writer.part_progress(lambda *report: reports.append(report), 10, 10, 20, 10)
    first(3, 6), first(6, 6)  # 4 of its 10 passages reused: 6 to embed
    second(5, 10), second(10, 10)
    assert reports == [(3, 10), (5, 10), (7, 10), (10, 10)]
    assert writer.part_progress(None, 0, 1, 1, 1) is None


def test_a_passage_that_comes_twice_is_embedded_once():
    class Counting:
        role, name, asked = "english", "counting", []

        def encode(self, texts):
            self.asked.append(list(texts))
            return np.array([[len(text), 1.0] for text in texts])

    encoder = Counting()
    rows, made = writer._vectors(10 ** 9, encoder, ["ab", "c", "ab"], ["h1", "h2", "h1"], None)
    assert encoder.asked == [["ab", "c"]] and made == 2
    assert rows.tolist() == [[2, 1], [1, 1], [2, 1]]


def test_building_counts_the_passages_once_over_both_encoders(sailing, settings):
    """Each encoder used to count its own passages from 0: 1472/3284 was followed by 192/3284."""
    import shutil

    settings.LIBRARIAN_ENGLISH_EMBEDDINGS = "minilm"
    shutil.rmtree(files.book_dir(sailing.pk), ignore_errors=True)  # nothing to reuse
    reports = []
    writer.build(sailing, progress=lambda done, total: reports.append((done, total)))
    [total] = {total for _, total in reports}
    assert len(reports) >= 2 and reports[-1] == (total, total)
    assert [done for done, _ in reports] == sorted(done for done, _ in reports)
    assert reports[0][0] < total  # the first encoder's part ends halfway, not at the total


def test_the_books_a_question_may_search_are_made_as_their_rows_say(db):
    from retrieval.question.reading import Books, visible_books

    book = make_book("Harbour Guide", HARBOUR, [(1, "3.4 Mooring lines", 2, 0, 2)])
    book.original_filename = "harbour.pdf"
    book.save()
    books = visible_books(None)
    assert isinstance(books, Books) and list(books) == [book.pk]
    made = books[book.pk]
    assert (made.pk, made.title, made.sha256, made.original_filename, made.page_count) == (
        book.pk, book.title, book.sha256, "harbour.pdf", book.page_count)
    assert made.authors == book.authors  # a field not read is read when wanted
    assert list(books.described()) == [(book.pk, "Harbour Guide", "harbour.pdf")]
    assert books.titles() == {book.pk: "Harbour Guide"} and not books.only([book.pk + 1])
