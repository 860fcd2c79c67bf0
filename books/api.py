"""JSON API of the shelf (django-ninja): books, their stages, pages and search."""

from datetime import datetime

from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch
from ninja import File, Form, Router, Schema, Status
from ninja.decorators import decorate_view
from ninja.files import UploadedFile

from books import actions, search
from books.access import get_book, is_librarian
from books.models import Book
from books.registration import RegistrationError
from books.uploads import limited_api_upload
from chat import clip
from indexing.models import StageRun
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


class BookOut(Schema):
    id: int
    title: str
    pages: int
    languages: list[str]
    sha256: str
    original_filename: str
    size_bytes: int
    added_at: datetime
    stages: dict[str, StageOut]


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
    score: float
    excerpt: str
    highlights: list[str]


class ErrorOut(Schema):
    code: str
    detail: str


def book_out(book: Book) -> dict:
    runs = book.stage_runs.all()
    return {
        "id": book.pk,
        "title": book.title,
        "pages": book.page_count,
        "languages": book.language_list,
        "sha256": book.sha256,
        "original_filename": book.original_filename,
        "size_bytes": book.size_bytes,
        "added_at": book.added_at,
        "stages": {
            run.stage: {
                "status": run.status,
                "done": run.done,
                "total": run.total,
                "attempts": run.attempts,
                "seconds": run.seconds,
                "summary": run.summary,
                "error": run.message if run.status != StageRun.Status.DONE else "",
            }
            for run in sorted(runs, key=lambda run: run.position)
        },
    }


def _books():
    return Book.objects.prefetch_related(Prefetch("stage_runs"))


def require_librarian(request):
    if not is_librarian(request.user):
        raise PermissionDenied("Only librarians can do this.")


class LibrariansOnly:
    """Authentication for operations whose input must not be read for readers (uploads).

    The API's own authentication, then 403 for a reader, before any parameter
    is parsed or validated.
    """

    def __call__(self, request):
        from librarian.api import api  # the root imports this router

        for auth in api.auth if isinstance(api.auth, list | tuple) else [api.auth]:
            if user := auth(request):
                require_librarian(request)
                return user
        return None


@router.get("/books", response=list[BookOut])
def list_books(request):
    return [book_out(book) for book in _books()]


@router.post("/books", response={200: RegisteredOut, 201: RegisteredOut, 400: ErrorOut,
                                  413: ErrorOut}, auth=LibrariansOnly())
@decorate_view(limited_api_upload)
def register_book(request, file: File[UploadedFile], title: Form[str] = ""):
    """Register a PDF. The same file twice is the same book (200, created false).

    A file over the upload limit is refused (413) before it is read whole.
    """
    require_librarian(request)
    [outcome] = actions.register_uploads([file], request.user, title=title.strip())
    if outcome.error:
        raise RegistrationError("rejected", outcome.error)
    book = _books().get(pk=outcome.book.pk)
    return Status(201 if outcome.created else 200, {
        "created": outcome.created, "book": book_out(book), "warnings": list(outcome.warnings)})


@router.get("/books/{book_id}", response=BookOut)
def book_detail(request, book_id: int):
    return book_out(get_book(book_id))


@router.post("/books/{book_id}/stages/{stage}/retry", response={200: BookOut, 409: ErrorOut})
def retry_stage(request, book_id: int, stage: str):
    require_librarian(request)
    book = get_book(book_id)
    if not actions.retry_stage(book, stage):
        return Status(409, {"code": "not_failed", "detail": "That stage has not failed."})
    return book_out(book)


@router.get("/books/{book_id}/pages/{number}", response={200: PageOut, 404: ErrorOut})
def page_detail(request, book_id: int, number: int):
    book = get_book(book_id)
    page = book.pages.filter(number=number).first()
    if page is None:
        return Status(404, {"code": "not_read", "detail": "That page does not exist or is not read yet."})
    return {**{f: getattr(page, f) for f in ("width", "height", "source", "label", "text")},
            "book_id": book.pk, "page": page.number, "lines": page.lines}


@router.get("/books/{book_id}/clip", response={200: None, 400: ErrorOut},
            openapi_extra={"responses": {200: {"content": {"application/pdf": {}}}}})
def clip_pages(request, book_id: int, start: int, end: int | None = None):
    """Return physical pages start..end (1-based) as a PDF with bookmarks and page labels."""
    book = get_book(book_id)
    try:
        first, last = clip.parse_range(book.page_count, start, end, clip.max_clip_pages())
    except clip.ClipError as error:
        return Status(400, {"code": error.code, "detail": error.message})
    return clip.response(book, first, last)


@router.get("/search", response=list[HitOut])
def search_pages(request, q: CleanStr, book: Id | None = None, limit: int = 20):
    hits = search.search(q, book_ids=[book] if book else None, limit=max(1, min(limit, 100)))
    titles = dict(Book.objects.filter(pk__in={hit.book_id for hit in hits}).values_list("pk", "title"))
    return [
        {
            "book_id": hit.book_id,
            "book_title": titles.get(hit.book_id, ""),
            "page": hit.page,
            "score": hit.score,
            "excerpt": "".join(segment for segment, _ in hit.excerpt),
            "highlights": sorted({segment for segment, matched in hit.excerpt if matched}),
        }
        for hit in hits
    ]
