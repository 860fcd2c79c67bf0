import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from books.models import Heading, ReviewFlag
from indexing.runner import run_pending
from indexing.stages import contents
from toc import Anomaly, Entry, TocResult
from toc.sequence import _said

pytestmark = pytest.mark.django_db


def entry(level, title, page, status="exact", printed=None, number=""):
    return Entry(level=level, title=f"{number} {title}".strip(), printed_page=printed, page=page,
                 page_end=page, status=status, confidence=0.9 if page else 0.0,
                 line=0 if page else None, toc_page=1, toc_line=0, number=number)


RESULT = TocResult(
    entries=[
        entry(1, "Sails", 2, printed="1", number="1"),
        entry(2, "Mainsail", 2, printed="1", number="1.1"),
        entry(2, "Jib", None, status="unresolved", printed="9", number="1.2"),
        entry(1, "Knots", 3, status="fuzzy", printed="2", number="2"),
    ],
    toc_pages=[1],
    lot_pages=[],
    labels={2: "1", 3: "2"},
    anomalies=[Anomaly(kind="missing_page", pages=[3], detail="Printed page 3 is missing.")],
)


@pytest.fixture
def indexed(shelve, english_pdf, monkeypatch):
    seen = []

    def fake_recover(pages, outline=()):
        seen.append(pages)
        return RESULT

    monkeypatch.setattr(contents.toc, "recover", fake_recover)
    book = shelve(english_pdf)
    return book, seen


def test_the_stage_feeds_the_recovered_lines_to_the_toc_functions(indexed):
    book, [pages] = indexed
    assert [page["number"] for page in pages] == [1, 2, 3]
    assert pages[1]["lines"][0]["text"] == "1 Sails"
    assert pages[1]["width"] == 420


def test_the_stage_stores_the_tree_labels_and_anomalies(indexed):
    book, _ = indexed
    headings = list(book.headings.order_by("position"))
    assert [(h.level, h.title, h.page, h.parent.title if h.parent else None) for h in headings] == [
        (1, "1 Sails", 2, None),
        (2, "1.1 Mainsail", 2, "1 Sails"),
        (2, "1.2 Jib", None, "1 Sails"),
        (1, "2 Knots", 3, None),
    ]
    assert [h.number for h in headings] == ["1", "1.1", "1.2", "2"]
    assert dict(book.pages.values_list("number", "label")) == {1: "", 2: "1", 3: "2"}
    book.refresh_from_db()
    assert (book.structure, book.toc_pages) == ("toc", [1])
    assert book.anomalies == [{"kind": "missing_page", "pages": [3], "detail": "Printed page 3 is missing."}]
    run = book.stage_runs.get(stage="contents")
    assert run.summary == ("4 headings from the printed contents, 2 placed exactly, "
                           "1 placed approximately, 1 not placed.")


def test_only_unplaced_headings_are_flagged_for_review(indexed):
    [flag] = ReviewFlag.objects.all()
    assert flag.heading.title == "1.2 Jib"
    assert flag.heading.page is None  # never given a made-up page


def test_running_the_stage_again_replaces_its_results(indexed):
    book, _ = indexed
    book.stage_runs.filter(stage="contents").update(status="pending")
    run_pending("w", book_id=book.pk)
    assert Heading.objects.filter(book=book).count() == 4
    assert ReviewFlag.objects.count() == 1


def test_the_toc_command_prints_json_in_reading_order(indexed):
    book, _ = indexed
    out = StringIO()
    call_command("toc", str(book.pk), "--json", stdout=out)
    listed = json.loads(out.getvalue())
    assert listed[2] == {"level": 2, "title": "1.2 Jib", "printed_page": "9", "page": None,
                         "page_end": None, "status": "unresolved", "confidence": 0.0}
    assert [item["page"] for item in listed] == [2, 2, None, 3]


def test_the_book_page_shows_the_tree(indexed, bob_client):
    book, _ = indexed
    content = bob_client.get(reverse("book", args=[book.pk])).content.decode()
    assert "1.1 Mainsail" in content
    assert reverse("page", args=[book.pk, 3]) in content
    assert '<span class="heading-title unplaced">1.2 Jib</span>' in content
    assert "3 of 4 headings placed; 1 not placed" in content
    assert "Printed page 3 is missing." in content


def test_a_book_without_structure_says_so(shelve, english_pdf, monkeypatch, bob_client):
    monkeypatch.setattr(contents.toc, "recover",
                        lambda pages, outline=(): TocResult(entries=[], toc_pages=[],
                                                            lot_pages=[], labels={}))
    book = shelve(english_pdf)
    book.refresh_from_db()
    assert book.structure == "none"
    assert book.stage_runs.get(stage="contents").summary == "No table of contents and no headings found."
    content = bob_client.get(reverse("book", args=[book.pk])).content.decode()
    assert "No table of contents was found in this book" in content


def test_reviewers_decisions_survive_the_stage_running_again(indexed, django_user_model):
    from books.review import decisions
    from books.models import HeadingDecision

    book, _ = indexed
    alice = django_user_model.objects.create_user("reviewer")
    jib = book.headings.get(title="1.2 Jib")
    decisions.do_place(jib, alice, 3)
    decisions.do_edit(book.headings.get(title="2 Knots"), alice, "2 Knots and hitches", 1)

    book.stage_runs.filter(stage="contents").update(status="pending")
    run_pending("w", book_id=book.pk)

    headings = {h.title: h for h in book.headings.all()}
    assert len(headings) == 4
    jib = headings["1.2 Jib"]
    assert (jib.page, jib.status) == (3, "reviewed")
    assert [d.action for d in jib.decisions.all()] == ["move"]
    assert headings["2 Knots and hitches"].decisions.get().user == alice
    assert HeadingDecision.objects.count() == 2
    assert not ReviewFlag.objects.filter(resolved_at=None).exists()  # nothing asked twice
    assert headings["1.1 Mainsail"].page_end is not None


def test_an_entry_a_reviewer_split_off_survives_the_stage_running_again(indexed,
                                                                         django_user_model):
    from books.models import HeadingDecision
    from books.review import decisions

    book, _ = indexed
    alice = django_user_model.objects.create_user("reviewer")
    knots = book.headings.get(title="2 Knots")  # printed page 2, as the contents give it
    decisions.do_split(knots, alice, "2 Knots 3", "2.1 Bends 4")
    decisions.do_place(book.headings.get(title="2.1 Bends"), alice, 3)
    before = [(h.title, h.printed_page, h.page, h.status)
              for h in book.headings.order_by("position")]

    book.stage_runs.filter(stage="contents").update(status="pending")
    run_pending("w", book_id=book.pk)

    after = [(h.title, h.printed_page, h.page, h.status)
             for h in book.headings.order_by("position")]
    assert after == before
    assert after[-2:] == [("2 Knots", "3", 3, "fuzzy"), ("2.1 Bends", "4", 3, "reviewed")]
    bends = book.headings.get(title="2.1 Bends")
    assert [d.action for d in bends.decisions.order_by("at", "pk")] == ["split", "move"]
    assert [d.action for d in book.headings.get(title="2 Knots").decisions.all()] == ["split"]
    assert HeadingDecision.objects.count() == 3
    assert not ReviewFlag.objects.filter(heading=bends, resolved_at=None).exists()


def test_an_entry_split_off_that_the_contents_now_give_is_not_made_twice(indexed, monkeypatch,
                                                                          django_user_model):
    from books.review import decisions

    book, _ = indexed
    alice = django_user_model.objects.create_user("reviewer")
    decisions.do_split(book.headings.get(title="2 Knots"), alice, "2 Knots", "2.1 Bends 4")
    decisions.do_place(book.headings.get(title="2.1 Bends"), alice, 3)
    bends = entry(2, "Bends", None, status="unresolved", printed="4", number="2.1")
    monkeypatch.setattr(contents.toc, "recover", lambda pages, outline=(): TocResult(
        RESULT.entries + [bends], RESULT.toc_pages, [], RESULT.labels))

    book.stage_runs.filter(stage="contents").update(status="pending")
    run_pending("w", book_id=book.pk)

    assert [(h.title, h.page, h.status) for h in book.headings.order_by("position")][-2:] == [
        ("2 Knots", 3, "fuzzy"), ("2.1 Bends", 3, "reviewed")]
    assert [d.action for d in book.headings.get(title="2.1 Bends").decisions.order_by("pk")] == [
        "split", "move"]


def test_decisions_survive_a_title_read_with_other_spacing(shelve, english_pdf, monkeypatch,
                                                            django_user_model):
    from books.review import decisions

    glued = Entry(level=2, title="1.2Jib", printed_page="9", page=None, page_end=None,
                  status="unresolved", confidence=0.0, line=None, toc_page=1, toc_line=0,
                  number="1.2")
    monkeypatch.setattr(contents.toc, "recover", lambda pages, outline=(): TocResult(
        [RESULT.entries[0], glued], [1], [], {}))
    book = shelve(english_pdf)
    alice = django_user_model.objects.create_user("reviewer")
    decisions.do_place(book.headings.get(title="1.2Jib"), alice, 3)

    monkeypatch.setattr(contents.toc, "recover", lambda pages, outline=(): TocResult(  # "1.2 Jib" now
        [RESULT.entries[0], RESULT.entries[2]], [1], [], {}))
    book.stage_runs.filter(stage="contents").update(status="pending")
    run_pending("w", book_id=book.pk)

    jib = book.headings.get(title="1.2 Jib")
    assert (jib.page, jib.status) == (3, "reviewed")
    assert [d.action for d in jib.decisions.all()] == ["move"]


def test_a_top_level_heading_not_placed_is_flagged_most_severe(shelve, english_pdf, monkeypatch):
    entries = [entry(1, "Sails", None, status="unresolved", printed="1", number="1"),
               entry(2, "Jib", None, status="unresolved", printed="9", number="1.2")]
    monkeypatch.setattr(contents.toc, "recover",
                        lambda pages, outline=(): TocResult(entries, [1], [], {}))
    book = shelve(english_pdf)
    severities = {f.heading.title: f.severity for f in ReviewFlag.objects.filter(
        heading__book=book)}
    assert severities == {"1 Sails": 3, "1.2 Jib": 2}


def test_the_book_page_shows_spreads_and_inferred_structure(shelve, english_pdf, monkeypatch,
                                                             bob_client):
    inferred = TocResult([entry(1, "Sails", 2, number="1")], [], [], {2: "2–3"},
                         inferred=True, spreads=True)
    monkeypatch.setattr(contents.toc, "recover", lambda pages, outline=(): inferred)
    book = shelve(english_pdf)
    book.refresh_from_db()
    assert book.spreads and book.structure == "inferred" and book.headings.get().inferred
    assert book.pages.get(number=2).label == "2–3"
    content = bob_client.get(reverse("book", args=[book.pk])).content.decode()
    assert "Scanned as two-page spreads" in content
    assert "structure was inferred from the body" in content
    assert "status-inferred" in content
    run = book.stage_runs.get(stage="contents")
    assert "each two-page spread read as its two book pages" in run.summary


GAP = TocResult(
    entries=[entry(1, "Sails", 2, printed="1", number="1"),
             entry(1, "Knots", None, status="unresolved", printed="3", number="2"),
             entry(1, "Index", None, status="unresolved", printed="5", number="")],
    toc_pages=[1], lot_pages=[], labels={2: "1", 3: "2"},
    anomalies=[_said("missing_page", [2, 3], "scan_missing", ("3", "4"), 2),
               _said("duplicate_page", [3, 4], "scan_twice", ("2",))],
)


def test_pages_missing_from_the_scan_are_said_in_the_readers_language(shelve, english_pdf,
                                                                      monkeypatch, alice_client):
    monkeypatch.setattr(contents.toc, "recover", lambda pages, outline=(): GAP)
    book = shelve(english_pdf)
    book.refresh_from_db()
    assert book.anomalies[0] == {
        "kind": "missing_page", "pages": [2, 3], "printed": ["3", "4"], "count": 2,
        "detail": "printed pages 3–4 are not in the scan", "code": "scan_missing",
        "values": {"first": "3", "last": "4", "count": 2}}
    reasons = dict(ReviewFlag.objects.values_list("heading__title", "reason"))
    assert reasons["2 Knots"].startswith("The page the table of contents gives for this heading")
    assert reasons["Index"].startswith("The heading was not found")  # p. 5 may be there
    english = alice_client.get(reverse("book", args=[book.pk])).content.decode()
    assert "printed pages 3–4 are not in the scan" in english
    assert "printed page 2 is in the scan twice" in english
    assert "p. 3 — not in the scan" in english and "p. 5 — not" not in english
    japanese = alice_client.get(reverse("book", args=[book.pk]),
                                HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "印刷ページ 3–4 はスキャンにありません" in japanese
    assert "3ページ — スキャンになし" in japanese
    queue = alice_client.get(reverse("review"), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "目次がこの見出しに示すページはスキャンにありません" in queue
