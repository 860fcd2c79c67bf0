"""The book a request names, or 404."""

from django.shortcuts import get_object_or_404

from books.models import Book


def get_book(pk: int) -> Book:
    return get_object_or_404(Book, pk=pk)
