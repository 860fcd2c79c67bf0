"""Clipped pages: exact page ranges as PDF, with bookmarks and printed page labels."""

import io

import pytest
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from books.models import Heading, Page
from books import clip
from tests.pdfs import make_pdf

pytestmark = pytest.mark.django_db

# Physical pages 1-2 unnumbered (cover), 3-4 front matter in roman, 5-12 printed 1-8.
LABELS = ["", "", "i", "ii", "1", "2", "3", "4", "5", "6", "7", "8"]


@pytest.fixture
def manual(shelve, tmp_path):
    """A 12-page book with printed labels and a placed table of contents."""
    path = make_pdf(tmp_path / "manual.pdf", [f"physical page {n}" for n in range(1, 13)],
                    title="Rope Manual")
    book = shelve(path, process=False)
    Page.objects.bulk_create(
        Page(book=book, number=n, width=420, height=595, source=Page.Source.TEXT_LAYER,
             text=f"physical page {n}", label=label)
        for n, label in enumerate(LABELS, start=1)
    )
    part = _heading(book, 1, 1, "Part I Knots", 5)
    chapter = _heading(book, 2, 2, "1 Loops", 5, parent=part)
    _heading(book, 3, 3, "1.1 Bowline", 6, parent=chapter)
    _heading(book, 4, 3, "1.2 Figure eight", 8, parent=chapter)
    _heading(book, 5, 3, "1.3 Lost section", None, parent=chapter,
             status=Heading.Status.UNRESOLVED)
    _heading(book, 6, 2, "2 Hitches", 10, parent=part)
    return book


def _heading(book, position, level, title, page, parent=None, status=Heading.Status.EXACT):
    return Heading.objects.create(book=book, parent=parent, position=position, level=level,
                                  title=title, page=page, status=status)


def _clip(client, book, start, end=None, api=False):
    query = {"start": start} if end is None else {"start": start, "end": end}
    url = f"/api/books/{book.pk}/clip" if api else reverse("clip", args=[book.pk])
    return client.get(url, query)


def _pdf(response) -> PdfReader:
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"] == "application/pdf"
    return PdfReader(io.BytesIO(b"".join(response.streaming_content)
                                if response.streaming else response.content))


def _outline(items, reader):
    """Return the outline as nested [(title, page index, [children])]."""
    out = []
    for item in items:
        if isinstance(item, list):
            out[-1] = (out[-1][0], out[-1][1], _outline(item, reader))
        else:
            out.append((item.title, reader.get_destination_page_number(item), []))
    return out


def test_it_clips_exactly_the_pages_asked_for(bob_client, manual):
    reader = _pdf(_clip(bob_client, manual, 6, 9))
    assert len(reader.pages) == 4
    texts = [page.extract_text() for page in reader.pages]
    assert [("physical page %d" % n) in text for n, text in zip(range(6, 10), texts)] == [True] * 4


def test_the_bookmarks_follow_the_breadcrumb_and_the_sections_inside(bob_client, manual):
    reader = _pdf(_clip(bob_client, manual, 6, 9))
    assert _outline(reader.outline, reader) == [
        ("Rope Manual", 0, [
            ("Part I Knots", 0, [
                ("1 Loops", 0, [
                    ("1.1 Bowline", 0, []),
                    ("1.2 Figure eight", 2, []),
                ]),
            ]),
        ]),
    ]


def test_the_page_labels_are_the_printed_numbers_where_known(bob_client, manual):
    assert _pdf(_clip(bob_client, manual, 3, 6)).page_labels == ["i", "ii", "1", "2"]
    # Unnumbered pages are labelled with their page in the original file, never a guess.
    assert _pdf(_clip(bob_client, manual, 1, 4)).page_labels == ["pdf 1", "pdf 2", "i", "ii"]


def test_a_book_without_printed_numbers_gets_no_page_labels(bob_client, manual):
    Page.objects.filter(book=manual).update(label="")
    reader = _pdf(_clip(bob_client, manual, 2, 4))
    assert "/PageLabels" not in reader.trailer["/Root"]
    assert len(reader.pages) == 3


def test_a_widened_range_holds_every_page_and_the_new_sections(bob_client, manual):
    reader = _pdf(_clip(bob_client, manual, 5, 12))
    assert len(reader.pages) == 8
    assert reader.page_labels == [str(n) for n in range(1, 9)]
    [(_, _, [(_, _, chapters)])] = _outline(reader.outline, reader)
    assert [(title, page) for title, page, _ in chapters] == [("1 Loops", 0), ("2 Hitches", 5)]


def test_one_page_alone(bob_client, manual):
    response = _clip(bob_client, manual, 7)
    assert len(_pdf(response).pages) == 1
    assert "p. 3 (pdf page 7)" in response["Content-Disposition"]


def test_the_filename_says_the_book_and_the_pages(bob_client, manual):
    response = _clip(bob_client, manual, 6, 9)
    assert response["Content-Disposition"] == (
        'attachment; filename*=utf-8\'\'Rope%20Manual%2C%20pp.%202%E2%80%935%20'
        '%28pdf%20pages%206%E2%80%939%29.pdf')
    assert "pdf pages 1–2" in clip.filename(manual, 1, 2)  # unknown printed numbers


@pytest.mark.parametrize("start, end, code", [
    (0, 3, "out_of_range"),
    (5, 13, "out_of_range"),
    (9, 6, "reversed"),
    (1, 12, "too_long"),
    ("two", 3, "not_a_number"),
    ("", 3, "missing"),
])
def test_absurd_ranges_are_refused_with_a_reason(bob_client, manual, settings, start, end, code):
    settings.LIBRARIAN_MAX_CLIP_PAGES = 10
    response = _clip(bob_client, manual, start, end)
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")
    assert 'class="message error"' in response.content.decode()
    if isinstance(start, int):
        api = _clip(bob_client, manual, start, end, api=True)
        assert api.status_code == 400
        assert api.json()["code"] == code


def test_the_messages_say_what_to_do():
    with pytest.raises(clip.ClipError, match="pages 1 to 12"):
        clip.parse_range(12, 1, 13, 100)
    with pytest.raises(clip.ClipError, match="at most 5 pages; you asked for 12"):
        clip.parse_range(12, 1, 12, 5)
    assert clip.parse_range(12, "4", None, 5) == (4, 4)


def test_the_api_returns_the_same_pdf(bob_client, manual):
    reader = _pdf(_clip(bob_client, manual, 3, 6, api=True))
    assert reader.page_labels == ["i", "ii", "1", "2"]


def test_the_form_is_shown_without_a_range(bob_client, manual):
    response = bob_client.get(reverse("clip", args=[manual.pk]))
    assert response.status_code == 200
    assert "Download PDF" in response.content.decode()
    assert 'max="12"' in response.content.decode()


def test_anonymous_people_may_not_clip(manual):
    client = Client()
    response = _clip(client, manual, 1, 2)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert _clip(client, manual, 1, 2, api=True).status_code == 401


def test_a_missing_book_is_404(bob_client, manual):
    assert bob_client.get(reverse("clip", args=[manual.pk + 99]), {"start": 1}).status_code == 404


@pytest.mark.parametrize("labels, expected", [
    (["", ""], []),
    (["3", "4", "5"], [(0, 2, "/D", None, 3)]),
    (["iv", "v", "1"], [(0, 1, "/r", None, 4), (2, 2, "/D", None, 1)]),
    (["7", "", "9"], [(0, 0, "/D", None, 7), (1, 1, None, "pdf 11", None), (2, 2, "/D", None, 9)]),
    (["12", "12"], [(0, 0, "/D", None, 12), (1, 1, "/D", None, 12)]),
    (["A-1", "A-2"], [(0, 0, None, "A-1", None), (1, 1, None, "A-2", None)]),
])
def test_label_ranges(labels, expected):
    ranges = clip.label_ranges(labels, first_page=10)
    assert [(r.first, r.last, r.style, r.prefix, r.start) for r in ranges] == expected


def test_a_clip_never_carries_the_pages_scripts(bob_client, shelve, tmp_path):
    from pypdf import PdfWriter
    from pypdf.generic import DictionaryObject, NameObject, TextStringObject

    source = make_pdf(tmp_path / "plain.pdf", ["one", "two"], title="Scripted")
    writer = PdfWriter(clone_from=str(source))
    script = DictionaryObject({NameObject("/S"): NameObject("/JavaScript"),
                               NameObject("/JS"): TextStringObject("app.alert('opened')")})
    for page in writer.pages:
        page[NameObject("/AA")] = DictionaryObject({NameObject("/O"): script})
    scripted = tmp_path / "scripted.pdf"
    writer.write(scripted)
    book = shelve(scripted, process=False)
    Page.objects.bulk_create(
        Page(book=book, number=n, width=420, height=595, source=Page.Source.TEXT_LAYER,
             text=text) for n, text in ((1, "one"), (2, "two")))

    reader = _pdf(_clip(bob_client, book, 1, 2))

    assert len(reader.pages) == 2
    assert all("/AA" not in page for page in reader.pages)
    data = io.BytesIO()
    PdfWriter(clone_from=reader).write(data)
    assert b"app.alert" not in data.getvalue()


class Row:
    """A heading row as bookmarks() reads it."""

    def __init__(self, pk, level, title, page, parent=None, line=None, status="exact"):
        self.pk, self.level, self.title, self.page, self.line = pk, level, title, page, line
        self.parent_id, self.status, self.position, self.page_end = parent, status, pk, None


def _marks(rows, start, end, page_count=40):
    return [(m.title, m.page_index, m.parent) for m in clip.bookmarks(rows, start, end, page_count)]


def test_a_section_that_starts_mid_page_is_bookmarked_with_the_one_it_ends():
    rows = [Row(1, 1, "2 Paths", 10), Row(2, 2, "2.4 Arcs", 10, parent=1, line=5),
            Row(3, 2, "2.5 Circle Path Construction", 12, parent=1, line=20),
            Row(4, 2, "2.6 Curves", 14, parent=1, line=0)]
    assert _marks(rows, 12, 12) == [("2 Paths", 0, None), ("2.4 Arcs", 0, 0),
                                    ("2.5 Circle Path Construction", 0, 0)]
    # 2.6 opens page 14 (its first line): 2.5 ends on page 13, so a clip of 14 holds 2.6 alone.
    assert _marks(rows, 14, 14) == [("2 Paths", 0, None), ("2.6 Curves", 0, 0)]
    # 2.6 half-way down page 14: 2.5 runs onto it, as its card and the contents tree say.
    rows[3].line = 12
    assert [title for title, _, _ in _marks(rows, 14, 14)] == [
        "2 Paths", "2.5 Circle Path Construction", "2.6 Curves"]
    # Where the line is unknown the heading is taken to open its page, as the tree takes it.
    rows[3].line = None
    assert _marks(rows, 14, 14) == [("2 Paths", 0, None), ("2.6 Curves", 0, 0)]


def test_a_heading_placed_out_of_order_does_not_hide_the_section_on_the_page():
    rows = [Row(1, 1, "1 Intro", 3), Row(2, 2, "1.1 Why", 3, parent=1),
            Row(3, 1, "2 Paths", 10), Row(4, 2, "2.5 Circle Path Construction", 12, parent=3),
            Row(5, 1, "9 Index", 11),  # misplaced: printed after 2.5 but placed before it
            Row(6, 1, "10 Colophon", 30)]
    titles = [title for title, _, _ in _marks(rows, 12, 12)]
    assert "2.5 Circle Path Construction" in titles and "2 Paths" in titles
    assert "1 Intro" not in titles and "10 Colophon" not in titles


def test_unplaced_and_rejected_headings_are_not_bookmarks_but_their_children_are():
    rows = [Row(1, 1, "Part I", 5, status="rejected"), Row(2, 2, "1 Loops", 5, parent=1),
            Row(3, 2, "1.3 Lost", None, parent=2, status="unresolved")]
    assert _marks(rows, 5, 6) == [("1 Loops", 0, None)]


def test_the_one_page_clip_is_quick_on_a_long_book_in_queries(bob_client, manual,
                                                               django_assert_max_num_queries):
    with django_assert_max_num_queries(12):  # no query per heading
        assert bob_client.get(reverse("clip", args=[manual.pk]), {"start": 7}).status_code == 200


def test_a_parent_placed_after_its_child_points_inside_the_clip():
    rows = [Row(1, 1, "3 Later", 30), Row(2, 2, "3.1 Early", 12, parent=1)]
    assert _marks(rows, 12, 13) == [("3 Later", 1, None), ("3.1 Early", 0, 0)]
