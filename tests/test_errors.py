"""One shape for every failure the app understands, answered one way by the API, one by pages."""

from unittest.mock import ANY

import pytest

from books.registration import RegistrationError, read_chunks, register
from books.review.decisions import ReviewError
from chat.actions import AskError
from books.clip import ClipError
from indexing.contract import StageError
from librarian.errors import ErrorPageMiddleware, LibrarianError


@pytest.mark.parametrize("error", [
    RegistrationError("empty", "The file is empty."),
    ReviewError("bad_page", "Give the page as a number."),
    ClipError("bad_range", "Give pages 1 to 12."),
    AskError("empty", "Type a question first."),
    StageError("The stored PDF could not be opened.", detail="OSError(2)"),
])
def test_every_failure_has_a_code_a_message_for_people_and_a_detail_for_the_log(error):
    assert isinstance(error, LibrarianError)
    assert error.code and error.message and error.detail
    assert str(error) == error.message


def test_the_detail_is_the_message_unless_told():
    assert ClipError("bad_range", "Give pages 1 to 12.").detail == "Give pages 1 to 12."
    assert StageError("Failed.", detail="Traceback …").detail == "Traceback …"


@pytest.mark.django_db
def test_a_failure_a_page_lets_through_is_the_400_page_with_its_message(rf, bob):
    request = rf.get("/books/1/clip")
    request.user = bob
    error = ClipError("bad_range", "The book has pages 1 to 12; page 40 is not one of them.")
    response = ErrorPageMiddleware(lambda request: None).process_exception(request, error)
    assert response.status_code == 400
    assert "page 40 is not one of them" in response.content.decode()


def test_other_exceptions_are_left_to_django(rf):
    middleware = ErrorPageMiddleware(lambda request: None)
    assert middleware.process_exception(rf.get("/"), ValueError("a bug")) is None


def test_the_api_answers_a_failure_with_its_code_and_message(alice_client, english_pdf):
    with open(english_pdf, "rb") as handle:
        book = register(read_chunks(handle), "boats.pdf").book
    response = alice_client.get(f"/api/books/{book.pk}/clip?start=2&end=9")
    assert response.status_code == 400
    assert response.json() == {"code": "out_of_range", "detail": ANY}
