"""JSON API of the pipeline (django-ninja): retrying a stage that failed."""

from ninja import Router, Status

from books.access import get_book
from books.api import BookOut, book_out
from indexing import progress
from librarian.auth import LIBRARIANS
from librarian.errors import ErrorOut
from librarian.inputs import Id

router = Router(tags=["books"])


@router.post("/books/{book_id}/stages/{stage}/retry", response={200: BookOut, 409: ErrorOut},
             auth=LIBRARIANS)
def retry_stage(request, book_id: Id, stage: str):
    book = get_book(book_id)
    if not progress.retry_stage(book, stage):
        return Status(409, {"code": "not_failed", "detail": "That stage has not failed."})
    return book_out(book)
