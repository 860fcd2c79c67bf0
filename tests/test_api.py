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
    assert list(body["book"]["stages"]) == ["previews", "ocr", "ingest", "contents", "backindex",
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
        "summary": "3 pages, 3 from the text layer.", "error": "",
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


def unique_keys(pairs):
    """Return a dict of pairs, failing on a key written twice (JSON parsers keep the last)."""
    keys = [key for key, _ in pairs]
    duplicated = sorted({key for key in keys if keys.count(key) > 1})
    assert not duplicated, f"duplicated keys {duplicated} in {keys}"
    return dict(pairs)


def test_the_served_schema_is_valid_openapi_with_each_key_once(bob_client):
    import json

    from openapi_spec_validator import validate

    schema = json.loads(bob_client.get("/api/openapi.json").content, object_pairs_hook=unique_keys)
    validate(schema)  # raises with the first part that does not fit the OpenAPI standard
    answers = schema["paths"]["/api/books"]["post"]["responses"]
    # The operation's own 413 (with its code) stands; the shared answers fill in the rest.
    assert answers["413"]["content"]["application/json"]["schema"]["$ref"].endswith("/ErrorOut")
    assert {"401", "403", "404", "422", "429"} <= set(answers)
    page = schema["paths"]["/api/books/{book_id}/pages/{number}"]["get"]["responses"]
    assert page["404"]["content"]["application/json"]["schema"]["$ref"].endswith("/ErrorOut")


def test_shared_answers_never_double_an_operations_own():
    from librarian.api import document_errors

    own = {200: {"description": "ok"}, 404: {"description": "its own"},
           "413": {"description": "too"}}
    schema = document_errors({"paths": {"/x": {"get": {"responses": own}}}})
    answers = schema["paths"]["/x"]["get"]["responses"]
    assert answers[404] == {"description": "its own"} and answers["413"] == {"description": "too"}
    assert "404" not in answers and 413 not in answers and 401 in answers


def test_the_docs_page_loads_its_scripts_and_styles_from_this_site(bob_client):
    import json
    import re

    html = bob_client.get("/api/docs").content.decode()
    assets = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert any(a.endswith("swagger-ui-bundle.js") for a in assets)
    assert assets and all(a.startswith("/static/") for a in assets), assets
    settings = json.loads(re.search(r'id="swagger-settings">(.*?)</script>', html, re.S).group(1))
    assert settings["validatorUrl"] is None  # no badge fetched from validator.swagger.io


def test_a_missing_object_is_answered_with_a_code_as_the_schema_says(bob_client):
    for url in ("/api/books/999999", "/api/books/999999/pages/1"):
        response = bob_client.get(url)
        assert response.status_code == 404
        assert response.json() == {"code": "not_found", "detail": "Not Found"}, url
