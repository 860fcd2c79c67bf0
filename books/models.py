"""The shelf: books, their pages, the headings of their table of contents, and review flags."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.urls import reverse

from books import authors
from books.storage import blob_path
from toc.model import RECORD_FIELDS, PageRecord

class Collection(models.Model):
    """A shelf of its own: a named group of books (a book may be on several)."""

    name = models.CharField(max_length=100, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("shelf") + f"?collection={self.pk}"


class Book(models.Model):
    title = models.CharField(max_length=500)
    sha256 = models.CharField(max_length=64, unique=True, editable=False)
    original_filename = models.CharField(max_length=255)
    size_bytes = models.BigIntegerField()
    page_count = models.PositiveIntegerField()
    languages = models.CharField(
        max_length=64, blank=True,
        help_text="Comma-separated language codes, found in the text or set by a librarian.",
    )
    languages_fixed = models.BooleanField(
        default=False, help_text="Set by a librarian: reading the book again leaves them alone."
    )
    authors = models.CharField(
        max_length=500, blank=True, help_text='Names as the book prints them, "; " between them.'
    )
    year = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Year published.")
    edition = models.CharField(max_length=100, blank=True, help_text='As printed ("2nd", "第3版").')
    details_from = models.JSONField(
        default=dict, blank=True,
        help_text="Where the title, authors and year came from: {field: {from, page}}, from "
                  "metadata, file_name, title_page, front_pages, colophon or person.",
    )
    collections = models.ManyToManyField(Collection, blank=True, related_name="books")
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    added_at = models.DateTimeField(auto_now_add=True)

    class Structure(models.TextChoices):
        UNKNOWN = "", _("not recovered yet")
        TOC = "toc", _("from the printed table of contents")
        INFERRED = "inferred", _("inferred from the body text")
        NONE = "none", _("no structure found")

    structure = models.CharField(max_length=16, choices=Structure.choices, blank=True)
    spreads = models.BooleanField(
        default=False, help_text="Scanned as two-page spreads: a PDF page holds two book pages.",
    )
    toc_pages = models.JSONField(default=list, blank=True, help_text="Physical pages of the TOC.")
    lot_pages = models.JSONField(
        default=list, blank=True, help_text="Physical pages listing figures or tables."
    )
    anomalies = models.JSONField(
        default=list, blank=True,
        help_text="Where the TOC and the body disagree: [{kind, pages, detail}].",
    )
    index_pages = models.JSONField(
        default=list, blank=True,
        help_text="Physical pages of the book's back-of-book indexes (not body text).",
    )

    class Meta:
        ordering = ["-added_at", "-id"]

    def __str__(self):
        return self.title

    def get_absolute_url(self):
        return reverse("book", args=[self.pk])

    @property
    def path(self):
        """Return where the registered file is stored (never modified)."""
        return blob_path(self.sha256)

    @property
    def language_list(self):
        return [code for code in self.languages.split(",") if code]

    @property
    def author_list(self):
        return authors.typed(self.authors)

    @property
    def byline_authors(self):
        """Return the authors as the line under the title shows them ("A, B")."""
        return authors.byline(self.author_list)


class PageQuerySet(models.QuerySet):
    def records(self, *also: str) -> list[PageRecord]:
        """Return these pages as the contents core reads them, with the fields also named."""
        fields = RECORD_FIELDS + also
        return [dict(zip(fields, row))
                for row in self.values_list(*fields).iterator(chunk_size=200)]

    def record(self) -> PageRecord | None:
        """Return the first of these pages as the contents core reads it, or None."""
        return next(iter(self[:1].records()), None)


class Page(models.Model):
    class Source(models.TextChoices):
        TEXT_LAYER = "text_layer", _("text layer")
        OCR = "ocr", _("OCR")
        BLANK = "blank", _("blank page")
        NONE = "none", _("no text")

    book = models.ForeignKey(Book, on_delete=models.CASCADE, related_name="pages")
    number = models.PositiveIntegerField(help_text="Physical page number, 1-based.")
    width = models.FloatField(help_text="Page width in PDF points.")
    height = models.FloatField(help_text="Page height in PDF points.")
    source = models.CharField(max_length=16, choices=Source.choices)
    text = models.TextField(blank=True)
    lines = models.JSONField(
        default=list,
        blank=True,
        help_text="Lines in reading order: {text, box [x0, y0, x1, y1] in points, conf, dir}.",
    )
    label = models.CharField(
        max_length=32, blank=True, help_text="The printed page number, where known."
    )
    gutter = models.FloatField(
        null=True, blank=True,
        help_text="Where a two-page spread divides into its book pages: x in points.",
    )
    error = models.CharField(
        max_length=300, blank=True, help_text="Why the page could not be read, if it could not."
    )

    objects = PageQuerySet.as_manager()

    class Meta:
        ordering = ["book", "number"]
        constraints = [
            models.UniqueConstraint(fields=["book", "number"], name="unique_page_number"),
        ]

    def __str__(self):
        return f"{self.book} p. {self.number}"

    def get_absolute_url(self):
        return reverse("page", args=[self.book_id, self.number])


class Heading(models.Model):
    """One entry of a book's table of contents, placed (or not) on a physical page."""

    class Status(models.TextChoices):
        EXACT = "exact", _("matched exactly")
        FUZZY = "fuzzy", _("matched approximately")
        OFFSET = "offset", _("placed by page offset only")
        AGENT = "agent", _("placed by the verification agent")
        REVIEWED = "reviewed", _("placed by a reviewer")
        UNRESOLVED = "unresolved", _("not placed")
        ABSENT = "absent", _("not in the body, per a reviewer")
        REJECTED = "rejected", _("not a real entry, per a reviewer")

    book = models.ForeignKey(Book, on_delete=models.CASCADE, related_name="headings")
    parent = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="children"
    )
    position = models.PositiveIntegerField(help_text="Order in the table of contents.")
    level = models.PositiveSmallIntegerField()
    number = models.CharField(
        max_length=32, blank=True, help_text='Numbering as printed ("1.2", "3", "A.1").'
    )
    title = models.CharField(max_length=1000, help_text="As printed, numbering included.")
    printed_page = models.CharField(max_length=32, blank=True)
    page = models.PositiveIntegerField(null=True, blank=True)
    page_end = models.PositiveIntegerField(null=True, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices)
    confidence = models.FloatField(default=0.0)
    line = models.PositiveIntegerField(
        null=True, blank=True, help_text="Index of the heading's line on its page."
    )
    toc_page = models.PositiveIntegerField(
        null=True, blank=True, help_text="Physical page where the TOC prints this entry."
    )
    toc_line = models.PositiveIntegerField(null=True, blank=True)
    inferred = models.BooleanField(
        default=False, help_text="Recovered from the body text, not from a printed TOC."
    )

    class Meta:
        ordering = ["book", "position"]
        constraints = [
            models.UniqueConstraint(fields=["book", "position"], name="unique_heading_position"),
        ]

    def __str__(self):
        return self.title

    @property
    def placed(self):
        return self.page is not None


class ReviewFlag(models.Model):
    """A heading that a person should look at, and what became of it.

    Severity says how much of the book the doubt touches: 3, a top-level
    heading is not placed (its whole section has no pages); 2, a heading is not
    placed; 1, a heading is placed but its page deserves a look.
    """

    SEVERITIES = {
        3: _("A top-level heading is not placed: the pages of its whole section are unknown, "
             "and the sections under it have no parent range."),
        2: _("The heading is not placed: its section has no pages until it is."),
        1: _("The heading is placed, but its page deserves a look."),
    }

    heading = models.ForeignKey(Heading, on_delete=models.CASCADE, related_name="flags")
    reason = models.CharField(max_length=300)
    severity = models.PositiveSmallIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    agent_reason = models.CharField(
        max_length=500, blank=True,
        help_text="What the verification agent said, if it was asked (in English).",
    )
    agent_note = models.JSONField(
        default=list, blank=True,
        help_text="What the verification agent said, as notes worded when shown.",
    )
    resolution = models.CharField(
        max_length=16, blank=True, help_text="The decision that closed this flag."
    )

    class Meta:
        ordering = ["-severity", "created_at"]

    def __str__(self):
        return f"{self.heading}: {self.reason}"

    @property
    def severity_reason(self) -> str:
        """Return what this flag's severity means, for the reviewer."""
        return str(self.SEVERITIES.get(self.severity, self.SEVERITIES[1]))


class HeadingDecision(models.Model):
    """A reviewer's decision on a heading: who, when, and the heading before and after."""

    class Action(models.TextChoices):
        CONFIRM = "confirm", _("confirmed on its page")
        MOVE = "move", _("moved to another page")
        EDIT = "edit", _("title or level edited")
        ABSENT = "absent", _("marked not in the body")
        REJECT = "reject", _("rejected as not a real entry")
        SPLIT = "split", _("split into two entries")

    heading = models.ForeignKey(Heading, on_delete=models.CASCADE, related_name="decisions")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    at = models.DateTimeField(auto_now_add=True)
    action = models.CharField(max_length=16, choices=Action.choices)
    before = models.JSONField(default=dict, help_text="The heading's fields before the decision.")
    after = models.JSONField(default=dict, help_text="The heading's fields after the decision.")

    class Meta:
        ordering = ["heading", "at"]

    def __str__(self):
        return f"{self.heading}: {self.get_action_display()}"


class IndexEntry(models.Model):
    """One item of the book's own apparatus: a term of its back-of-book index (an entry or
    sub-entry, with its printed pages) or a figure or table of its lists.

    Written only by the book-index stage (``indexing.stages.backindex``), all of a book's
    at once; read through ``books.bookindex``.
    """

    class Kind(models.TextChoices):
        TERM = "term", "index term"
        FIGURE = "figure", "figure"
        TABLE = "table", "table"

    book = models.ForeignKey(Book, on_delete=models.CASCADE, related_name="index_entries")
    position = models.PositiveIntegerField(help_text="Order as printed.")
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.TERM)
    index_name = models.CharField(
        max_length=200, blank=True, help_text='The index it is printed in ("Concept Index").'
    )
    term = models.CharField(
        max_length=1000, help_text="As printed, without pages; a figure's or table's caption."
    )
    number = models.CharField(max_length=32, blank=True, help_text="A figure's or table's number.")
    parent = models.CharField(
        max_length=2000, blank=True,
        help_text='Parent entries joined with " > "; "" for a main entry.',
    )
    level = models.PositiveSmallIntegerField(default=0)
    key = models.CharField(max_length=1000, help_text="The term folded for look-ups.")
    initial = models.CharField(
        max_length=4, blank=True, help_text="Its group for browsing (A, か, #)."
    )
    labels = models.JSONField(
        default=list, blank=True, help_text="Printed page locators, as printed."
    )
    pages = models.JSONField(
        default=list, blank=True,
        help_text="Physical page of each locator (1-based), null where it could not be mapped.",
    )
    page_ends = models.JSONField(
        default=list, blank=True, help_text="Physical last page of each locator's range, or null.",
    )
    see = models.JSONField(default=list, blank=True, help_text='Targets of "see" / "see also".')
    printed_on = models.PositiveIntegerField(help_text="Physical page where it is printed.")

    class Meta:
        ordering = ["book", "position"]
        constraints = [
            models.UniqueConstraint(fields=["book", "position"],
                                    name="unique_index_entry_position"),
        ]
        indexes = [models.Index(fields=["book", "key"], name="index_entry_book_key")]
        verbose_name_plural = "index entries"

    def __str__(self):
        return f"{self.parent} > {self.term}" if self.parent else self.term

    @property
    def locators(self) -> list[tuple[str, int | None]]:
        """Return (printed label, physical page or None) of each locator."""
        return list(zip(self.labels, self.pages))
