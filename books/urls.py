from django.contrib.auth.decorators import login_required
from django.urls import path
from django.views.generic import RedirectView

from books import index_views, manage_views, views

urlpatterns = [
    path("", views.shelf, name="shelf"),
    path("books/register", views.register_books, name="register"),
    path("books/<int:pk>/", views.book, name="book"),
    path("books/<int:pk>/edit", manage_views.edit_book, name="book-edit"),
    path("books/<int:pk>/delete", manage_views.delete_book, name="book-delete"),
    path("books/<int:pk>/original", manage_views.original, name="book-original"),
    path("books/<int:pk>/search", views.search_view, name="book-search"),
    path("books/<int:pk>/index", index_views.book_index, name="book-index"),
    path("books/<int:pk>/pages/<int:number>/", views.page, name="page"),
    path("books/<int:pk>/pages/<int:number>/<slug:size>.png", views.page_image, name="page-image"),
    path("collections/", manage_views.collections, name="collections"),
    path("collections/<int:pk>/rename", manage_views.rename_collection, name="collection-rename"),
    path("collections/<int:pk>/delete", manage_views.delete_collection, name="collection-delete"),
    path("search", views.search_view, name="search"),
    # The address people type (and other apps use) for the search page, query kept.
    path("search/", login_required(RedirectView.as_view(pattern_name="search", query_string=True)),
         name="search-slash"),
]
