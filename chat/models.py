"""Conversations with the librarian, kept per user: questions, the places found, the answer."""

from django.conf import settings
from django.db import models
from django.urls import reverse

TITLE_LENGTH = 80


class Conversation(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="conversations"
    )
    title = models.CharField(max_length=200)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at", "-id"]
        indexes = [models.Index(fields=["user", "-updated_at"])]

    def __str__(self):
        return self.title

    def get_absolute_url(self):
        return reverse("conversation", args=[self.pk])


class Message(models.Model):
    """A question (role user) or the librarian's answer to it (role assistant)."""

    class Role(models.TextChoices):
        USER = "user", "question"
        ASSISTANT = "assistant", "answer"

    class Status(models.TextChoices):
        PENDING = "pending", "waiting to be answered"
        RUNNING = "running", "being answered"
        DONE = "done", "answered"
        FAILED = "failed", "could not be answered"

    conversation = models.ForeignKey(
        Conversation, on_delete=models.CASCADE, related_name="messages"
    )
    role = models.CharField(max_length=16, choices=Role.choices)
    text = models.TextField(blank=True, help_text="The question, or the synthesised answer.")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.DONE)
    book_ids = models.JSONField(
        default=list, blank=True, help_text="Books the question was limited to (empty: all)."
    )
    answer_type = models.CharField(max_length=32, blank=True, help_text="lookup, compare, …")
    results = models.JSONField(
        default=list, blank=True, help_text="The places found, as shown on the cards."
    )
    recommendation = models.JSONField(
        null=True, blank=True, help_text="Which book to read first, when several cover it."
    )
    guide = models.JSONField(
        null=True, blank=True,
        help_text="The written answer composed from the places: text, places, language.",
    )
    context = models.JSONField(
        null=True, blank=True, help_text="Retrieval state that a follow-up question builds on."
    )
    note = models.CharField(
        max_length=300, blank=True, help_text="Why nothing was found, or how the question was read."
    )
    error = models.CharField(max_length=300, blank=True, help_text="What went wrong, for the user.")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["conversation", "created_at", "id"]

    def __str__(self):
        return f"{self.get_role_display()}: {self.text[:60]}"

    def get_absolute_url(self):
        return f"{self.conversation.get_absolute_url()}#message-{self.pk}"

    @property
    def finished(self):
        return self.status in (self.Status.DONE, self.Status.FAILED)
