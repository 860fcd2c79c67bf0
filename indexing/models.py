"""The record of work: one row per book and stage."""

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from indexing import notes


class StageRun(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("waiting")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    book = models.ForeignKey("books.Book", on_delete=models.CASCADE, related_name="stage_runs")
    stage = models.CharField(max_length=32)
    position = models.PositiveSmallIntegerField(help_text="Order of the stage in the pipeline.")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    available_at = models.DateTimeField(
        default=timezone.now, help_text="Not claimed before this time (retry back-off)."
    )
    claimed_by = models.CharField(max_length=200, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    seconds = models.FloatField(null=True, blank=True, help_text="Duration of the last attempt.")
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    resumed_from = models.PositiveIntegerField(
        default=0, help_text="Where the current attempt began (done when it was claimed).")
    summary = models.CharField(max_length=500, blank=True, help_text="The summary, in English.")
    summary_notes = models.JSONField(
        default=list, blank=True, help_text="The summary as notes, worded when shown.")
    message = models.CharField(max_length=500, blank=True,
                               help_text="Last error, for people, in English.")
    message_notes = models.JSONField(
        default=list, blank=True, help_text="Last error as notes, worded when shown.")
    error_detail = models.TextField(blank=True, help_text="Last error, for the log.")

    class Meta:
        ordering = ["book", "position"]
        constraints = [
            models.UniqueConstraint(fields=["book", "stage"], name="unique_stage_per_book"),
        ]
        indexes = [models.Index(fields=["status", "available_at"])]

    def __str__(self):
        return f"{self.stage} of book {self.book_id}: {self.status}"

    @property
    def error(self) -> str:
        """The last error, in English (the API's); none once the stage is done."""
        return "" if self.status == self.Status.DONE else self.message

    @property
    def problem(self) -> str:
        """The last error, for people, in the active language; none once the stage is done."""
        if self.status == self.Status.DONE:
            return ""
        return notes.sentences(self.message_notes) if self.message_notes else self.message

    @property
    def said(self) -> str:
        """The summary, for people, in the active language (one stored before notes as it is)."""
        return notes.sentences(self.summary_notes) if self.summary_notes else self.summary

    @property
    def percent(self):
        if self.status == self.Status.DONE:
            return 100
        return int(100 * self.done / self.total) if self.total else 0

    def elapsed(self, now=None):
        """Return seconds spent on the current or last attempt, or None if never started."""
        if self.status == self.Status.RUNNING and self.started_at:
            return ((now or timezone.now()) - self.started_at).total_seconds()
        return self.seconds


def pipeline_active(runs) -> bool:
    """Return True while some of a book's runs are running or can still run.

    A pending run behind a failed one cannot run until someone retries, so a
    book whose pipeline stopped at a failure is not active.
    """
    for run in sorted(runs, key=lambda run: run.position):
        if run.status != StageRun.Status.DONE:
            return run.status != StageRun.Status.FAILED
    return False
