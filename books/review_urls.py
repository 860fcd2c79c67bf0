from django.urls import path, re_path

from books import review_views

urlpatterns = [
    path("review/", review_views.queue, name="review"),
    path("review/<int:pk>/", review_views.item, name="review-item"),
    re_path(r"^review/(?P<pk>[0-9]+)/(?P<action>place|edit|absent|reject|split)$",
            review_views.decide,
            name="review-decide"),
    path("review/<int:pk>/toc-line.png", review_views.toc_line, name="review-toc-line"),
    path("books/<int:pk>/headings/<int:heading>/", review_views.history, name="heading"),
]
