import base64

import pytest

from books.models import Book
from indexing.models import StageRun

pytestmark = pytest.mark.django_db


def upload(client, path, **extra):
    with open(path, "rb") as handle:
        return client.post("/api/books", {"file": handle, **extra})


def test_anonymous_requests_get_401(client):
    assert client.get("/api/books").status_code == 401
    assert client.get("/api/search?q=x").status_code == 401


def test_the_docs_need_a_login(bob_client):
    from django.test import Client

    response = Client().get("/api/docs")
    assert response.status_code == 302 and "/login/" in response["Location"]
    assert bob_client.get("/api/docs").status_code == 200
    assert bob_client.get("/api/openapi.json").json()["info"]["title"] == "Librarian API"


def test_a_librarian_registers_a_book(alice_client, english_pdf):
    response = upload(alice_client, english_pdf, title="Boats")
    assert response.status_code == 201
    body = response.json()
    assert body["created"] is True
    assert body["book"]["title"] == "Boats"
    assert body["book"]["pages"] == 3
    assert body["book"]["stages"]["ocr"]["status"] == "pending"
    assert list(body["book"]["stages"]) == ["previews", "ocr", "ingest", "index", "backindex",
                                            "verify", "embed"]


def test_registering_the_same_file_again_returns_the_book(alice_client, english_pdf):
    first = upload(alice_client, english_pdf).json()
    response = upload(alice_client, english_pdf)
    assert response.status_code == 200
    assert response.json()["created"] is False
    assert response.json()["book"]["id"] == first["book"]["id"]


def test_a_bad_file_gets_400_with_the_reason(alice_client, tmp_path):
    path = tmp_path / "letter.pdf"
    path.write_text("Dear reader")
    response = upload(alice_client, path)
    assert response.status_code == 400
    assert response.json() == {
        "code": "rejected", "detail": "This is not a PDF file (it has no PDF header)."
    }
    assert not Book.objects.exists()


def test_a_reader_cannot_register(bob_client, english_pdf):
    response = upload(bob_client, english_pdf)
    assert response.status_code == 403
    assert response.json()["detail"] == "Only librarians can do this."
    assert not Book.objects.exists()


def test_basic_auth_works_for_scripts(alice, english_pdf):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)  # as curl: no session, no CSRF token
    token = base64.b64encode(b"alice:alice-password").decode()
    with open(english_pdf, "rb") as handle:
        response = client.post("/api/books", {"file": handle}, HTTP_AUTHORIZATION=f"Basic {token}")
    assert response.status_code == 201


def test_basic_auth_with_a_wrong_password_is_refused(client, alice):
    token = base64.b64encode(b"alice:wrong").decode()
    assert client.get("/api/books", HTTP_AUTHORIZATION=f"Basic {token}").status_code == 401


def test_session_posts_need_the_csrf_token(alice, english_pdf):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(alice)
    assert upload(strict, english_pdf).status_code == 403


def test_it_lists_and_shows_books_with_their_stages(bob_client, shelve, english_pdf):
    book = shelve(english_pdf)
    [listed] = bob_client.get("/api/books").json()
    assert listed["id"] == book.pk
    detail = bob_client.get(f"/api/books/{book.pk}").json()
    assert detail["stages"]["ocr"] == {
        "status": "done", "done": 3, "total": 3, "attempts": 1,
        "seconds": detail["stages"]["ocr"]["seconds"],
        "summary": "3 pages, 3 from the text layer", "error": "",
    }
    assert detail["languages"] == ["en"]
    assert bob_client.get("/api/books/999").status_code == 404


def test_it_serves_a_page_with_its_lines(bob_client, shelve, english_pdf):
    book = shelve(english_pdf)
    body = bob_client.get(f"/api/books/{book.pk}/pages/2").json()
    assert body["source"] == "text_layer"
    assert body["lines"][0]["text"] == "1 Sails"
    assert len(body["lines"][0]["box"]) == 4
    assert bob_client.get(f"/api/books/{book.pk}/pages/9").status_code == 404


def test_it_searches(bob_client, shelve, english_pdf, japanese_pdf):
    boats = shelve(english_pdf)
    shelve(japanese_pdf)
    [hit] = bob_client.get("/api/search", {"q": "bowline"}).json()
    assert (hit["book_id"], hit["page"], hit["book_title"]) == (boats.pk, 3, boats.title)
    assert hit["highlights"] == ["bowline"]
    assert "bowline makes a fixed loop" in hit["excerpt"]
    assert bob_client.get("/api/search", {"q": "もやい結び"}).json()[0]["page"] == 3


def test_a_failed_stage_can_be_retried_by_a_librarian(alice_client, bob_client, shelve, english_pdf):
    book = shelve(english_pdf)
    url = f"/api/books/{book.pk}/stages/ocr/retry"
    assert alice_client.post(url).status_code == 409  # it has not failed
    StageRun.objects.filter(book=book, stage="ocr").update(status="failed", message="Broken.")
    assert bob_client.post(url).status_code == 403
    response = alice_client.post(url)
    assert response.status_code == 200
    assert response.json()["stages"]["ocr"]["status"] == "pending"
