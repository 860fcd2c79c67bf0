"""JSON API of the shelf (django-ninja): books (registered, edited, deleted), stages, pages, search."""

from datetime import datetime
from urllib.parse import urlencode

from django.db.models import Prefetch
from django.http import QueryDict
from ninja import File, Form, Router, Schema, Status
from ninja.decorators import decorate_view
from ninja.files import UploadedFile

from books import actions, bookindex, clip, deletion, editing, hits, manage_views
from books.access import get_book
from books.forms import BookForm
from books.models import Book
from books.registration import RegistrationError
from books.uploads import limited_api_upload
from librarian.auth import LIBRARIANS
from librarian.errors import ErrorOut, FormErrorOut
from librarian.inputs import CleanStr, Id

router = Router(tags=["books"])


class StageOut(Schema):
    status: str
    done: int
    total: int
    attempts: int
    seconds: float | None
    summary: str
    error: str


class CollectionRef(Schema):
    id: int
    name: str


class BookOut(Schema):
    id: int
    title: str
    authors: list[str]
    year: int | None
    edition: str
    pages: int
    languages: list[str]
    collections: list[CollectionRef]
    sha256: str
    original_filename: str
    size_bytes: int
    added_at: datetime
    stages: dict[str, StageOut]


class BookPatch(Schema):
    """The details to change; fields left out stay as they are."""

    title: CleanStr | None = None
    authors: list[CleanStr] | None = None
    year: int | None = None
    edition: CleanStr | None = None
    languages: list[CleanStr] | None = None
    collections: list[Id] | None = None


class RegisteredOut(Schema):
    created: bool
    book: BookOut
    warnings: list[str] = []


class LineOut(Schema):
    text: str
    box: list[float]
    conf: float
    dir: str


class PageOut(Schema):
    book_id: int
    page: int
    width: float
    height: float
    source: str
    label: str
    text: str
    lines: list[LineOut]


class HitOut(Schema):
    book_id: int
    book_title: str
    page: int
    label: str
    section: list[str]
    kind: str
    score: float
    excerpt: str
    highlights: list[str]


def book_out(book: Book) -> dict:
    runs = book.stage_runs.all()
    return {
        "id": book.pk,
        "title": book.title,
        "authors": book.author_list,
        "year": book.year,
        "edition": book.edition,
        "pages": book.page_count,
        "languages": book.language_list,
        "collections": [{"id": c.pk, "name": c.name} for c in book.collections.all()],
        "sha256": book.sha256,
        "original_filename": book.original_filename,
        "size_bytes": book.size_bytes,
        "added_at": book.added_at,
        "stages": {run.stage: run for run in sorted(runs, key=lambda run: run.position)},
    }


def _books():
    return Book.objects.prefetch_related(Prefetch("stage_runs"), "collections")


@router.get("/books", response=list[BookOut])
def list_books(request, collection: Id | None = None):
    """Every book on the shelf, newest first; with collection, the books in that collection."""
    books = _books() if collection is None else _books().filter(collections=collection)
    return [book_out(book) for book in books]


@router.post("/books", response={200: RegisteredOut, 201: RegisteredOut, 400: ErrorOut,
                                  413: ErrorOut}, auth=LIBRARIANS)
@decorate_view(limited_api_upload)
def register_book(request, file: File[UploadedFile], title: Form[str] = ""):
    """Register a PDF (librarians). The same file twice is the same book (200, created false).

    A file over the upload limit is refused (413) before it is read whole.
    """
    [outcome] = actions.register_uploads([file], request.user, title=title.strip())
    if outcome.error:
        raise RegistrationError("rejected", outcome.error)
    book = _books().get(pk=outcome.book.pk)
    return Status(201 if outcome.created else 200, {
        "created": outcome.created, "book": book_out(book), "warnings": list(outcome.warnings)})


@router.get("/books/{book_id}", response=BookOut)
def book_detail(request, book_id: Id):
    return book_out(get_book(book_id))


@router.patch("/books/{book_id}", response={200: BookOut, 400: FormErrorOut}, auth=LIBRARIANS)
def edit_book(request, book_id: Id, patch: BookPatch):
    """Change a book's details and collections (librarians); what is left out stays."""
    book = get_book(book_id)
    form = BookForm(_form_data(book, patch.dict(exclude_unset=True)), instance=book)
    if not form.is_valid():
        fields = {name: [str(e) for e in errors] for name, errors in form.errors.items()}
        return Status(400, {"code": "invalid", "detail": "Some details are not valid.",
                            "fields": fields})
    editing.save_book(form, touched=patch.dict(exclude_unset=True))
    return book_out(_books().get(pk=book.pk))


def _form_data(book: Book, changes: dict) -> dict:
    """Return the BookForm data for book with changes applied (lists as the form takes them)."""
    data = {"title": book.title, "authors": book.authors, "year": book.year or "",
            "edition": book.edition, "languages": book.language_list,
            "collections": list(book.collections.values_list("pk", flat=True))}
    for name, value in changes.items():
        if name == "authors":
            value = "\n".join(value or [])  # the form's one name a line
        data[name] = "" if value is None else value
    return QueryDict(urlencode(data, doseq=True))


@router.delete("/books/{book_id}", response={204: None}, auth=LIBRARIANS)
def delete_book(request, book_id: Id):
    """Delete a book and everything made from it (librarians); a running stage is stopped."""
    deletion.delete_book(get_book(book_id))
    return Status(204, None)


@router.get("/books/{book_id}/original", response={200: None},
            openapi_extra={"responses": {200: {"content": {"application/pdf": {}}}}})
def original(request, book_id: Id):
    """The file as it was registered, under its original name."""
    return manage_views.original_file(get_book(book_id))


@router.get("/books/{book_id}/pages/{number}", response={200: PageOut, 404: ErrorOut})
def page_detail(request, book_id: Id, number: Id):
    book = get_book(book_id)
    page = book.pages.filter(number=number).first()
    if page is None:
        return Status(404, {"code": "not_read", "detail": "That page does not exist or is not read yet."})
    return {**{f: getattr(page, f) for f in ("width", "height", "source", "label", "text")},
            "book_id": book.pk, "page": page.number, "lines": page.lines}


@router.get("/books/{book_id}/clip", response={200: None, 400: ErrorOut},
            openapi_extra={"responses": {200: {"content": {"application/pdf": {}}}}})
def clip_pages(request, book_id: Id, start: int, end: int | None = None):
    """Return physical pages start..end (1-based) as a PDF with bookmarks and page labels."""
    book = get_book(book_id)
    first, last = clip.parse_range(book.page_count, start, end, clip.max_clip_pages())
    return clip.response(book, first, last)


@router.get("/search", response=list[HitOut])
def search_pages(request, q: CleanStr, book: Id | None = None, collection: Id | None = None,
                 limit: int = 20):
    """Pages holding every word of q, best section first; contents and index pages last."""
    book_ids = [book] if book else editing.book_ids_in(collection) if collection else None
    groups = hits.search_grouped(q, book_ids, limit=max(1, min(limit, 100)))
    return [
        {
            "book_id": hit.book_id,
            "book_title": group.book.title,
            "page": hit.page,
            "label": hit.label,
            "section": section.titles,
            "kind": section.kind,
            "score": hit.score,
            "excerpt": "".join(segment for segment, _ in hit.excerpt),
            "highlights": sorted({segment for segment, matched in hit.excerpt if matched}),
        }
        for group in groups for section in group.sections for hit in section.hits
    ]


class IndexEntryOut(Schema):
    term: str
    parent: str | None
    pages: list[int]
    labels: list[str]
    see: list[str]
    index: str
    unresolved: list[str]


class ListItemOut(Schema):
    kind: str
    number: str
    caption: str
    page: int | None
    label: str


class TermPlaceOut(Schema):
    book_id: int
    term: str
    parent: str | None
    index: str
    pages: list[int]
    labels: list[str]
    see: list[str]


@router.get("/books/{book_id}/index", response=list[IndexEntryOut])
def book_index(request, book_id: Id, q: str = "", initial: str = ""):
    """The book's back-of-book index as printed: each entry or sub-entry with its physical
    pages (1-based; a locator no page carries is listed in unresolved, as printed).
    q filters by term, initial picks a group ("A", "か", "#")."""
    book = get_book(book_id)
    return [_index_entry_out(entry)
            for entry in bookindex.browse(book, initial[:4], q[:200].strip(), limit=100_000)]


def _index_entry_out(entry) -> dict:
    return {"term": entry.term, "parent": entry.parent or None, "index": entry.index_name,
            "pages": [page for page in entry.pages if page is not None],
            "labels": entry.labels, "see": entry.see,
            "unresolved": [label for label, page in entry.locators if page is None]}


@router.get("/books/{book_id}/figures", response=list[ListItemOut])
def book_figures(request, book_id: Id):
    """The book's lists of figures and tables: number, caption and physical page."""
    book = get_book(book_id)
    return [{"kind": item.kind, "number": item.number, "caption": item.term,
             "page": item.pages[0] if item.pages else None,
             "label": item.labels[0] if item.labels else ""}
            for item in bookindex.list_items(book)]


@router.get("/index-terms", response=list[TermPlaceOut])
def index_terms(request, term: CleanStr, book: Id | None = None, collection: Id | None = None):
    """Where the books' own indexes send a reader for term: its entries and sub-entries,
    each with its physical pages."""
    book_ids = [book] if book else editing.book_ids_in(collection) if collection else None
    return [{"book_id": place.book_id, "term": place.term, "parent": place.parent,
             "index": place.index_name, "pages": place.pages, "labels": place.labels,
             "see": place.see}
            for place in bookindex.lookup(term, book_ids)]
