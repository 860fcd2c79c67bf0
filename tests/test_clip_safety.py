"""Clips carry pages, never scripts: every place a PDF can hide active content, in plain
objects and in object streams, checked by walking every object of every clip with two
independent PDF readers (MuPDF and pypdf)."""

import io
import re

import pymupdf
import pytest
from django.urls import reverse
from pypdf import PdfReader, PdfWriter
from pypdf.generic import ArrayObject, DictionaryObject, IndirectObject, NameObject, StreamObject

from books import clip, safepdf
from tests import hostile

pytestmark = pytest.mark.django_db

# Names that only active content uses (an outline's own /Next links its items and stays).
ACTIVE_NAMES = {
    "/JavaScript", "/JS", "/Launch", "/SubmitForm", "/ImportData", "/RichMedia",
    "/RichMediaExecute", "/RichMediaContent", "/EmbeddedFile", "/EmbeddedFiles", "/Filespec",
    "/EF", "/AcroForm", "/XFA", "/AA", "/OpenAction", "/Widget", "/FileAttachment", "/GoToR",
    "/Rendition", "/Screen", "/ResetForm",
}
ACTIVE_SOURCE = re.compile(r"/(?:" + "|".join(n[1:] for n in ACTIVE_NAMES) + r")(?![A-Za-z])")


def mupdf_objects(data: bytes) -> list[str]:
    """Return the source of every object MuPDF finds in the PDF, with streams decoded."""
    found = []
    with pymupdf.open(stream=data, filetype="pdf") as document:
        for xref in range(1, document.xref_length()):
            found.append(document.xref_object(xref, compressed=True))
            if document.xref_is_stream(xref):
                found.append((document.xref_stream(xref) or b"").decode("latin-1"))
    return found


def pypdf_values(data: bytes) -> tuple[set[str], list[str]]:
    """Return (every name, every string and stream) in every object pypdf finds in the PDF."""
    reader = PdfReader(io.BytesIO(data))
    numbers = {(n, g) for g, table in reader.xref.items() for n in table}
    numbers |= {(n, 0) for n in reader.xref_objStm}
    names, texts = set(), []
    stack = [reader.get_object(IndirectObject(n, g, reader)) for n, g in sorted(numbers)]
    while stack:
        item = stack.pop()
        if isinstance(item, StreamObject):
            texts.append(item.get_data().decode("latin-1"))
        if isinstance(item, DictionaryObject):
            names.update(item.keys())
            stack.extend(v for v in item.values() if not isinstance(v, IndirectObject))
        elif isinstance(item, ArrayObject):
            stack.extend(v for v in item if not isinstance(v, IndirectObject))
        elif isinstance(item, NameObject):
            names.add(str(item))
        elif isinstance(item, str):
            texts.append(item)
    return names, texts


def assert_inert(data: bytes) -> None:
    sources = mupdf_objects(data)
    assert not [s for s in sources if hostile.PAYLOAD in s or ACTIVE_SOURCE.search(s)]
    names, texts = pypdf_values(data)
    assert names.isdisjoint(ACTIVE_NAMES), names & ACTIVE_NAMES
    assert not [t for t in texts if hostile.PAYLOAD in t]
    assert hostile.PAYLOAD.encode() not in data


def assert_pages_and_links_kept(data: bytes) -> None:
    with pymupdf.open(stream=data, filetype="pdf") as document:
        assert document.page_count == 2
        assert "Page one of a scripted book" in document[0].get_text()
        links = document[0].get_links()
        uris = {link.get("uri") for link in links if link["kind"] == pymupdf.LINK_URI}
        # A hostile link to a web address stays a link to it, without its scripts.
        assert "https://example.org/manual" in uris <= {"https://example.org/manual",
                                                        "https://example.org/"}
        assert [link["page"] for link in links if link["kind"] == pymupdf.LINK_GOTO] == [1]
        assert [a.type[1] for a in document[0].annots()] == ["Highlight"]


@pytest.mark.parametrize("packed", [False, True], ids=["objects", "object-streams"])
@pytest.mark.parametrize("place", hostile.ACTIVE_PLACES)
def test_no_script_survives_in_a_clip(shelve, tmp_path, place, packed):
    path = hostile.make_scripted_book(tmp_path / "scripted.pdf", place, packed=packed)
    assert any(hostile.PAYLOAD in s for s in mupdf_objects(path.read_bytes()))  # it is there
    book = shelve(path, process=False)
    data = clip.clip_pdf(book, 1, 2)
    assert_inert(data)
    assert_pages_and_links_kept(data)


@pytest.mark.parametrize("packed", [False, True], ids=["objects", "object-streams"])
@pytest.mark.parametrize("place", hostile.ACTIVE_PLACES)
def test_the_walk_alone_strips_every_place(tmp_path, place, packed):
    """Without MuPDF's copy first (it leaves some of these behind by itself), the walk
    over the whole hostile file still leaves nothing that runs, and keeps the links."""
    path = hostile.make_scripted_book(tmp_path / "scripted.pdf", place, packed=packed)
    reader = PdfReader(path)
    assert safepdf.strip_active_content(reader.root_object) > 0
    writer = PdfWriter(clone_from=reader)
    data = io.BytesIO()
    writer.write(data)
    assert_inert(data.getvalue())
    assert_pages_and_links_kept(data.getvalue())


def test_every_place_at_once_through_the_download(bob_client, shelve, tmp_path):
    """The places above are separate books; the view's download is checked on one of them."""
    path = hostile.make_scripted_book(tmp_path / "scripted.pdf", "nested /Next chain", packed=True)
    book = shelve(path, process=False)
    response = bob_client.get(reverse("clip", args=[book.pk]), {"start": 1, "end": 2})
    assert response.status_code == 200
    assert_inert(response.content)


def test_registration_said_the_books_hold_scripts(shelve, tmp_path):
    from books.registration import read_chunks, register

    path = hostile.make_scripted_book(tmp_path / "scripted.pdf", "link running a script")
    with open(path, "rb") as handle:
        result = register(read_chunks(handle), path.name)
    assert "It contains JavaScript, which is never run here." in result.warnings


def test_a_clip_of_one_page_drops_links_to_pages_left_out(shelve, tmp_path):
    path = hostile.make_scripted_book(tmp_path / "scripted.pdf", "launch")
    data = clip.clip_pdf(shelve(path, process=False), 1, 1)
    with pymupdf.open(stream=data, filetype="pdf") as document:
        kinds = [link["kind"] for link in document[0].get_links()]
    assert kinds == [pymupdf.LINK_URI]  # the link to page two went with page two
    assert_inert(data)


@pytest.mark.parametrize("uri, safe", [
    ("https://example.org/a?b=c", True),
    ("HTTP://EXAMPLE.ORG", True),
    ("mailto:librarian@example.org", True),
    ("  https://example.org/  ", True),
    ("javascript:alert(1)", False),
    ("JaVaScRiPt:alert(1)", False),
    ("java\tscript:alert(1)", False),
    ("https://example.org/\x00javascript:x", False),
    ("file:///etc/passwd", False),
    ("data:text/html,<script>", False),
    ("vbscript:x", False),
    ("", False),
    (None, False),
])
def test_only_web_and_mail_addresses_are_kept(uri, safe):
    assert safepdf.safe_uri(uri) is safe
