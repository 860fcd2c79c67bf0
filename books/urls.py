from django.urls import path

from books import views

urlpatterns = [
    path("", views.shelf, name="shelf"),
    path("books/register", views.register_books, name="register"),
    path("books/<int:pk>/", views.book, name="book"),
    path("books/<int:pk>/progress", views.book_progress, name="book-progress"),
    path("books/<int:pk>/stages/<slug:stage>/retry", views.retry_stage, name="retry-stage"),
    path("books/<int:pk>/search", views.search_view, name="book-search"),
    path("books/<int:pk>/pages/<int:number>/", views.page, name="page"),
    path("books/<int:pk>/pages/<int:number>/<slug:size>.png", views.page_image, name="page-image"),
    path("search", views.search_view, name="search"),
]
