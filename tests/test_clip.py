"""Clipped pages: exact page ranges as PDF, with bookmarks and printed page labels."""

import io

import pytest
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from books.models import Heading, Page
from chat import clip
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
