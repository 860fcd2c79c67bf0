from django.urls import path

from indexing import views

urlpatterns = [
    path("books/<int:pk>/progress", views.book_progress, name="book-progress"),
    path("books/<int:pk>/stages/<slug:stage>/retry", views.retry_stage, name="retry-stage"),
]
