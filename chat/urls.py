from django.urls import path

from chat import views

urlpatterns = [
    path("chat/", views.home, name="chat"),
    path("chat/<int:pk>/", views.conversation, name="conversation"),
    path("chat/<int:pk>/delete", views.delete, name="chat-delete"),
    path("chat/ask", views.ask, name="chat-ask"),
    path("chat/answers/<int:pk>/stream", views.stream, name="chat-stream"),
    path("books/<int:pk>/clip", views.clip_pages, name="clip"),
]
