"""The shelf in the API: details, deletion, the original, collections, grouped search; the schema."""

import base64

import pytest
from django.test import Client

from books.models import Book, Collection

pytestmark = pytest.mark.django_db


def basic(username):
    token = base64.b64encode(f"{username}:{username}-password".encode()).decode()
    return {"HTTP_AUTHORIZATION": f"Basic {token}"}


def test_a_librarian_changes_a_books_details_and_what_is_left_out_stays(alice, boats):
    sea = Collection.objects.create(name="Sea")
    response = Client().patch(f"/api/books/{boats.pk}", {
        "authors": ["Ann Reef", "Bo Line"], "year": 2019, "collections": [sea.pk],
        "languages": ["en"]}, content_type="application/json", **basic("alice"))
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["title"] == "A Short Guide to Boats"  # not sent: unchanged
    assert body["authors"] == ["Ann Reef", "Bo Line"] and body["year"] == 2019
    assert body["collections"] == [{"id": sea.pk, "name": "Sea"}]
    assert Client().get(f"/api/books?collection={sea.pk}", **basic("alice")).json()[0]["id"] == boats.pk
    boats.refresh_from_db()  # what was sent is the librarian's: a reading never replaces it
    assert boats.details_from == {"title": {"from": "metadata"}, "authors": {"from": "person"},
                                  "year": {"from": "person"}}


def test_bad_details_get_400_with_each_field_named(alice, boats):
    response = Client().patch(f"/api/books/{boats.pk}", {"title": " ", "year": 30000},
                              content_type="application/json", **basic("alice"))
    assert response.status_code == 400
    assert set(response.json()["fields"]) == {"title", "year"}
    boats.refresh_from_db()
    assert boats.title == "A Short Guide to Boats"


def test_readers_cannot_change_or_delete_books_or_collections(bob, boats):
    client = Client()
    assert client.patch(f"/api/books/{boats.pk}", {"title": "Mine"},
                        content_type="application/json", **basic("bob")).status_code == 403
    assert client.delete(f"/api/books/{boats.pk}", **basic("bob")).status_code == 403
    assert client.post("/api/collections", {"name": "Mine"}, content_type="application/json",
                       **basic("bob")).status_code == 403
    assert Book.objects.get(pk=boats.pk).title == "A Short Guide to Boats"


def test_a_librarian_deletes_a_book(alice, boats, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = Client().delete(f"/api/books/{boats.pk}", **basic("alice"))
    assert response.status_code == 204
    assert Client().get(f"/api/books/{boats.pk}", **basic("alice")).status_code == 404
    assert Client().get("/api/search?q=mainsail", **basic("alice")).json() == []


def test_the_original_file_comes_back_as_registered(bob, boats, english_pdf):
    response = Client().get(f"/api/books/{boats.pk}/original", **basic("bob"))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert b"".join(response.streaming_content) == english_pdf.read_bytes()


def test_collections_are_made_renamed_listed_and_deleted(alice, boats):
    client = Client()
    made = client.post("/api/collections", {"name": "Sea"}, content_type="application/json",
                       **basic("alice"))
    assert made.status_code == 201
    collection_id = made.json()["id"]
    clash = client.post("/api/collections", {"name": "SEA"}, content_type="application/json",
                        **basic("alice"))
    assert clash.status_code == 400 and "already a collection" in clash.json()["detail"]
    Book.objects.get(pk=boats.pk).collections.add(collection_id)
    renamed = client.patch(f"/api/collections/{collection_id}", {"name": "Ocean"},
                           content_type="application/json", **basic("alice"))
    assert renamed.json() == {"id": collection_id, "name": "Ocean", "books": 1}
    detail = client.get(f"/api/collections/{collection_id}", **basic("alice")).json()
    assert detail["book_ids"] == [boats.pk]
    assert client.delete(f"/api/collections/{collection_id}", **basic("alice")).status_code == 204
    assert client.get("/api/collections", **basic("alice")).json() == []


def test_search_hits_say_their_section_and_kind(bob, boats):
    [hit] = Client().get("/api/search?q=bowline", **basic("bob")).json()
    assert hit["page"] == 3 and hit["kind"] == "body"
    assert isinstance(hit["section"], list) and hit["highlights"] == ["bowline"]


def test_the_schema_declares_who_may_call_each_write_operation(bob_client):
    schema = bob_client.get("/api/openapi.json").json()
    assert set(schema["components"]["securitySchemes"]) == {"BasicAuth", "SessionAuth"}
    for path, method in [("/api/books", "post"), ("/api/books/{book_id}", "patch"),
                         ("/api/books/{book_id}", "delete"), ("/api/collections", "post")]:
        security = schema["paths"][path][method].get("security")
        assert security == [{"BasicAuth": []}, {"SessionAuth": []}], (path, method)
    assert "Back to the librarian" in schema["info"]["description"]
