import stat

import pytest

from books import storage
from books.models import Book
from books.registration import Limits, RegistrationError, read_chunks, register
from indexing.models import StageRun
from tests.pdfs import make_empty_pdf, make_encrypted_pdf, make_pdf

pytestmark = pytest.mark.django_db

LIMITS = Limits(max_bytes=10 * 1024 * 1024, max_pages=100)


def register_path(path, **kwargs):
    kwargs.setdefault("limits", LIMITS)
    with open(path, "rb") as handle:
        return register(read_chunks(handle), path.name, **kwargs)


def assert_nothing_left(data_dir):
    assert not Book.objects.exists()
    assert not StageRun.objects.exists()
    assert not list((data_dir / "blobs").glob("**/*.pdf")) if (data_dir / "blobs").exists() else True
    assert not list((data_dir / "tmp").iterdir())


def test_it_registers_a_pdf(english_pdf, data_dir):
    result = register_path(english_pdf)
    book = result.book
    assert result.created
    assert book.title == "A Short Guide to Boats"  # from the PDF's metadata
    assert book.page_count == 3
    assert book.original_filename == "boats.pdf"
    assert list(book.stage_runs.values_list("stage", "status")) == [
        ("previews", "pending"),
        ("ocr", "pending"),
        ("ingest", "pending"),
        ("contents", "pending"),
        ("backindex", "pending"),
        ("verify", "pending"),
        ("embed", "pending"),
    ]
    assert book.path == data_dir / "blobs" / book.sha256[:2] / f"{book.sha256}.pdf"
    assert book.path.read_bytes() == english_pdf.read_bytes()
    assert not book.path.stat().st_mode & stat.S_IWUSR  # never modified
    assert not list((data_dir / "tmp").iterdir())


def test_the_same_file_twice_is_the_same_book(english_pdf, tmp_path):
    first = register_path(english_pdf)
    copy = tmp_path / "renamed.pdf"
    copy.write_bytes(english_pdf.read_bytes())
    second = register_path(copy, title="Another title")
    assert not second.created
    assert second.book.pk == first.book.pk
    assert Book.objects.count() == 1


def test_it_takes_the_title_given_or_the_file_name(tmp_path):
    untitled = make_pdf(tmp_path / "harbour-guide.pdf", ["Harbour"])
    assert register_path(untitled).book.title == "harbour-guide"
    titled = make_pdf(tmp_path / "other.pdf", ["Other"])
    assert register_path(titled, title="Pilotage").book.title == "Pilotage"


@pytest.mark.parametrize(
    ("make", "code", "message"),
    [
        (lambda p: p.write_bytes(b""), "empty", "The file is empty."),
        (lambda p: p.write_text("Dear reader, this is a letter."), "not_pdf", "not a PDF"),
        (lambda p: p.write_bytes(b"%PDF-1.7\n" + b"\x00garbage" * 200), "corrupt", "damaged"),
        (make_encrypted_pdf, "encrypted", "protected by a password"),
        (make_empty_pdf, "no_pages", "The PDF has no pages."),
    ],
    ids=["empty", "not-pdf", "corrupt", "encrypted", "zero-pages"],
)
def test_it_rejects_bad_files_and_leaves_nothing(tmp_path, data_dir, make, code, message):
    path = tmp_path / "bad.pdf"
    make(path)
    with pytest.raises(RegistrationError) as caught:
        register_path(path)
    assert caught.value.code == code
    assert message in caught.value.message
    assert_nothing_left(data_dir)


def test_it_rejects_a_truncated_pdf(english_pdf, tmp_path, data_dir):
    truncated = tmp_path / "truncated.pdf"
    truncated.write_bytes(english_pdf.read_bytes()[:-100])
    with pytest.raises(RegistrationError) as caught:
        register_path(truncated)
    assert caught.value.code == "truncated"
    assert "incomplete" in caught.value.message
    assert_nothing_left(data_dir)


def test_it_rejects_too_many_pages(tmp_path, data_dir):
    path = make_pdf(tmp_path / "long.pdf", ["page"] * 5)
    with pytest.raises(RegistrationError, match="The PDF has 5 pages; the limit is 4."):
        register_path(path, limits=Limits(max_bytes=LIMITS.max_bytes, max_pages=4))
    assert_nothing_left(data_dir)


def test_it_stops_reading_a_file_over_the_size_limit(data_dir):
    read = []

    def endless():
        while True:
            read.append(1)
            yield b"%PDF-1.7 " + b"x" * 1000

    with pytest.raises(RegistrationError, match="the limit is"):
        register(endless(), "huge.pdf", limits=Limits(max_bytes=5000, max_pages=10))
    assert len(read) == 5  # stopped at the first chunk past the limit
    assert_nothing_left(data_dir)


def test_a_database_failure_removes_the_new_file(english_pdf, data_dir, monkeypatch):
    def fail(book):
        raise RuntimeError("database went away")

    monkeypatch.setattr("indexing.signals.create_runs", fail)  # queuing the new book's stages
    with pytest.raises(RuntimeError):
        register_path(english_pdf)
    assert_nothing_left(data_dir)


def test_the_blob_path_rejects_anything_but_a_digest():
    with pytest.raises(ValueError):
        storage.blob_path("../../etc/passwd")
