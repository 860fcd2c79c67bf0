from django.urls import path, re_path

from books.review import views

urlpatterns = [
    path("review/", views.queue, name="review"),
    path("review/<int:pk>/", views.item, name="review-item"),
    re_path(r"^review/(?P<pk>[0-9]+)/(?P<action>place|edit|absent|reject|split)$",
            views.decide,
            name="review-decide"),
    path("review/<int:pk>/toc-line.png", views.toc_line, name="review-toc-line"),
    path("books/<int:pk>/headings/<int:heading>/", views.history, name="heading"),
]
