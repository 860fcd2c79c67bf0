"""JSON API of collections: named groups of books, a book on as many as it belongs to."""

from django.db.models import Count
from django.shortcuts import get_object_or_404
from ninja import Router, Schema, Status

from books.forms import CollectionForm
from books.models import Collection
from librarian.auth import LIBRARIANS
from librarian.errors import ErrorOut
from librarian.inputs import CleanStr, Id

router = Router(tags=["collections"])


class CollectionOut(Schema):
    id: int
    name: str
    books: int


class CollectionDetailOut(CollectionOut):
    book_ids: list[int]


class CollectionIn(Schema):
    name: CleanStr


def collection_out(collection: Collection) -> dict:
    books = getattr(collection, "count", None)
    return {"id": collection.pk, "name": collection.name,
            "books": collection.books.count() if books is None else books}


@router.get("/collections", response=list[CollectionOut])
def list_collections(request):
    return [collection_out(c) for c in Collection.objects.annotate(count=Count("books"))]


@router.post("/collections", response={201: CollectionOut, 400: ErrorOut}, auth=LIBRARIANS)
def create_collection(request, payload: CollectionIn):
    """Make a collection (librarians); names are unique, whatever their case."""
    return _save(CollectionForm({"name": payload.name}), created=True)


@router.get("/collections/{collection_id}", response=CollectionDetailOut)
def collection_detail(request, collection_id: Id):
    collection = get_object_or_404(Collection, pk=collection_id)
    book_ids = list(collection.books.values_list("pk", flat=True))
    return {**collection_out(collection), "book_ids": book_ids}


@router.patch("/collections/{collection_id}", response={200: CollectionOut, 400: ErrorOut},
              auth=LIBRARIANS)
def rename_collection(request, collection_id: Id, payload: CollectionIn):
    collection = get_object_or_404(Collection, pk=collection_id)
    return _save(CollectionForm({"name": payload.name}, instance=collection))


@router.delete("/collections/{collection_id}", response={204: None}, auth=LIBRARIANS)
def delete_collection(request, collection_id: Id):
    """Delete a collection (librarians); its books stay on the shelf."""
    get_object_or_404(Collection, pk=collection_id).delete()
    return Status(204, None)


def _save(form: CollectionForm, created: bool = False):
    if not form.is_valid():
        detail = " ".join(str(error) for error in form.errors.get("name", ["Check the name."]))
        return Status(400, {"code": "invalid", "detail": detail})
    return Status(201 if created else 200, collection_out(form.save()))
