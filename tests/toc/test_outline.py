"""A PDF's own outline checked against its printed contents."""

import pytest

from books.models import Book
from toc.model import Entry
from toc.outline import Mark, align, check, marks_of
from tests.pdfs import make_pdf


def entry(level, title, page, status="exact", line=0):
    return Entry(level=level, title=title, printed_page=None, page=page, page_end=None,
                 status=status, confidence=0.9 if page else 0.0,
                 line=line if page else None, toc_page=1, toc_line=0)


LINES = {2: ["1 Sails", "The sails.", "1.1 Mainsail", "It is big."], 3: ["1.2 Jib", "Small."],
         4: ["2 Knots", "Tie them."], 5: ["2.1 Bowline", "A loop."]}
ENTRIES = [entry(1, "1 Sails", 2), entry(2, "1.1 Mainsail", 2, line=2),
           entry(2, "1.2 Jib", None, "unresolved"), entry(1, "2 Knots", 4),
           entry(1, "2.1 Bowline", 5)]  # the printed contents' indent lost: level 1
AGREEING = [Mark(1, "1 Sails", 2), Mark(2, "1.1 Mainsail", 2), Mark(2, "1.2 Jib", 3),
            Mark(1, "2 Knots", 4), Mark(2, "2.1 Bowline", 5)]


def test_where_they_agree_the_outline_confirms_levels_and_places_what_code_could_not():
    entries, anomalies = check(ENTRIES, AGREEING, LINES)
    assert [(e.level, e.page, e.status) for e in entries] == [
        (1, 2, "exact"), (2, 2, "exact"), (2, 3, "exact"), (1, 4, "exact"), (2, 5, "exact")]
    assert entries[2].line == 0  # found on the page the outline names
    assert [(a.kind, a.pages) for a in anomalies] == [("outline_level", [5])]
    assert "“2.1 Bowline”: level 1 by the printed contents, 2 by the PDF's outline" in \
        anomalies[0].detail


def test_a_disagreement_is_shown_and_the_page_that_holds_the_title_wins():
    marks = [Mark(1, "1 Sails", 2), Mark(2, "1.1 Mainsail", 2), Mark(2, "1.2 Jib", 3),
             Mark(2, "Rigging", 3), Mark(1, "2 Knots", 5), Mark(2, "2.1 Bowline", 5)]
    entries, anomalies = check(ENTRIES, marks, LINES)
    assert entries[3].page == 4  # page 5 does not hold "Knots"
    kinds = {a.kind: a for a in anomalies}
    assert kinds["outline_page"].pages == [4, 5]
    assert "page 4, the PDF's outline on page 5" in kinds["outline_page"].detail
    assert "Rigging" in kinds["outline_extra"].detail


def test_a_wrong_page_in_the_contents_gives_way_to_the_outline_that_the_page_confirms():
    wrong = [*ENTRIES[:3], entry(1, "2 Knots", 5, "fuzzy"), ENTRIES[4]]
    entries, anomalies = check(wrong, AGREEING, LINES)
    assert (entries[3].page, entries[3].status, entries[3].line) == (4, "exact", 0)
    assert [a.kind for a in anomalies] == ["outline_page", "outline_level"]


def test_titles_on_one_side_only_or_in_another_order_are_shown():
    marks = [Mark(1, "1 Sails", 2), Mark(1, "2 Knots", 4), Mark(2, "1.1 Mainsail", 2),
             Mark(2, "2.1 Bowline", 5)]
    _, anomalies = check(ENTRIES, marks, LINES)
    kinds = sorted(a.kind for a in anomalies)
    assert kinds == ["outline_level", "outline_missing", "outline_order"]  # 2.1; 1.2; 1.1


def test_no_outline_or_a_tiny_one_changes_nothing():
    assert check(ENTRIES, [], LINES) == (ENTRIES, [])
    assert check(ENTRIES, AGREEING[:2], LINES) == (ENTRIES, [])


def test_align_pairs_titles_in_order_with_or_without_numbering():
    left = ["1 Sails", "1.1 Mainsail", "Jib, the", "2 Knots"]
    right = ["Sails", "Mainsail", "Jib the", "Rigging", "Knots"]
    assert align(left, right) == [(0, 0), (1, 1), (2, 2), (3, 4)]


def test_marks_of_drops_empty_titles_and_targets_outside_the_document():
    assert marks_of([[1, "A", 3], [2, "", 4], [1, "B", -1], [1, "C", 99]], 10) == [
        Mark(1, "A", 3), Mark(1, "B", None), Mark(1, "C", None)]


# A small born-digital book whose bookmarks put "2 Knots" a page late and add a section
# the printed contents do not have.
BODY = ["1 Sails\nThe sails catch the wind.\n\n\n1.1 Mainsail\nThe mainsail is the largest.",
        "1.2 Jib\nThe jib is a small sail at the bow.",
        "2 Knots\nKnots hold the boat together.",
        "2.1 Bowline\nThe bowline makes a fixed loop."]
PAGES = ["Contents\n1 Sails ........ 1\n1.1 Mainsail ........ 1\n1.2 Jib ........ 2\n"
         "2 Knots ........ 3\n2.1 Bowline ........ 4",
         *[f"\n\n\n{text}" + "\n" * (30 - text.count("\n")) + str(n)
           for n, text in enumerate(BODY, 1)]]  # printed page n on PDF page n + 1, folio below
OUTLINE = [[1, "1 Sails", 2], [2, "1.1 Mainsail", 2], [2, "1.2 Jib", 3], [2, "Rigging", 3],
           [1, "2 Knots", 5], [2, "2.1 Bowline", 5]]


@pytest.mark.django_db
@pytest.mark.parametrize("setting", ["on", "off"])
def test_the_book_page_shows_where_the_outline_and_the_contents_disagree(
        setting, shelve, tmp_path, settings, client, alice):
    settings.LIBRARIAN_PDF_OUTLINE = setting
    book = shelve(make_pdf(tmp_path / "boats.pdf", PAGES, outline=OUTLINE))
    book = Book.objects.get(pk=book.pk)
    placed = {h.title: (h.level, h.page) for h in book.headings.all()}
    assert placed == {"1 Sails": (1, 2), "1.1 Mainsail": (2, 2), "1.2 Jib": (2, 3),
                      "2 Knots": (1, 4), "2.1 Bowline": (2, 5)}  # the pages are right either way
    kinds = sorted(a["kind"] for a in book.anomalies if a["kind"].startswith("outline"))
    assert kinds == (["outline_extra", "outline_page"] if setting == "on" else [])
    summary = book.stage_runs.get(stage="contents").summary
    assert ("2 disagreements with the PDF's outline" in summary) == (setting == "on")
    client.force_login(alice)
    page = client.get(book.get_absolute_url()).content.decode()
    assert ("the PDF&#x27;s outline on page 5" in page) == (setting == "on")


def test_bookmarks_finer_than_the_contents_are_no_disagreement():
    entries = [*ENTRIES, entry(1, "Index", 6)]
    marks = [*AGREEING, Mark(1, "Index", 6), Mark(2, "A", 6), Mark(2, "B", 7),
             Mark(1, "Colophon", 8)]
    _, anomalies = check(entries, marks, {**LINES, 6: ["Index", "A", "anchor 2"]})
    # The contents give "Index" alone; its letters are finer detail (2.1's level aside).
    assert [a.kind for a in anomalies] == ["outline_level"]
