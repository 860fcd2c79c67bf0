"""Review of flagged headings: the queue and a reviewer's decisions (check_* validate, do_* change).

A decision changes one heading, records a HeadingDecision (who, when, before and
after), resolves the heading's open flags, recomputes the book's tree and section
ranges and sends ``headings_changed``, all in one transaction: the listeners
(search sections) change with the headings or not at all.
"""

from django.db import transaction
from django.db.models import Count, Max, Q
from django.utils.translation import gettext, gettext_noop

from books.headings import insert_after, restructure, revise, snapshot
from books.models import Book, Heading, HeadingDecision, ReviewFlag
from books.review.order import order_problems
from books.signals import headings_changed
from toc.detect import trailing_page
from toc.text import numbering
from librarian.errors import LibrarianError
from librarian.inputs import clean_text, whole_number

Status = Heading.Status
Action = HeadingDecision.Action
MAX_LEVEL = 9
OPEN = Q(flags__resolved_at__isnull=True)
# Stored in English on the flag; the review pages show it in their language.
SPLIT_REASON = gettext_noop("Split from the heading before it: not placed yet.")


class ReviewError(LibrarianError):
    """A decision that cannot be made: message is for the reviewer, code for the API."""


def open_flags():
    return ReviewFlag.objects.filter(resolved_at__isnull=True)


def queue(book_id: int | None = None):
    """Return the headings with open flags, by book, then severity, then reading order."""
    headings = Heading.objects.filter(pk__in=open_flags().values("heading_id"))
    if book_id is not None:
        headings = headings.filter(book_id=book_id)
    return headings.annotate(severity=Max("flags__severity", filter=OPEN)).order_by(
        "book__title", "book_id", "-severity", "position")


def queue_ids(book_id: int | None = None) -> list[int]:
    return list(queue(book_id).values_list("pk", flat=True))


def following(ids: list[int], current: int, book_id: int | None = None) -> int | None:
    """Return the open heading after current in ids (wrapping round), else any open one."""
    still_open = queue_ids(book_id)
    open_set = set(still_open)
    start = ids.index(current) + 1 if current in ids else 0
    for pk in ids[start:] + ids[:start]:
        if pk in open_set and pk != current:
            return pk
    return next((pk for pk in still_open if pk != current), None)


def open_counts(book_ids=None) -> dict[int, int]:
    """Return {book id: number of headings with open flags}, books without any left out."""
    flags = open_flags()
    if book_ids is not None:
        flags = flags.filter(heading__book_id__in=list(book_ids))
    rows = flags.order_by().values("heading__book_id").annotate(
        n=Count("heading_id", distinct=True))
    return {row["heading__book_id"]: row["n"] for row in rows}


def open_total() -> int:
    return open_flags().order_by().values("heading_id").distinct().count()


def check_page(book: Book, page) -> int:
    """Return page as a physical page number of book, or raise ReviewError."""
    number = page if isinstance(page, int) else whole_number(page)
    if number is None:
        raise ReviewError("bad_page", gettext("Give the page as a number."))
    if not 1 <= number <= book.page_count:
        raise ReviewError("bad_page", gettext(
            "Page %(page)s is not in this book (it has pages 1–%(last)s).") % {
                "page": number, "last": book.page_count})
    return number


def check_edit(title, level) -> tuple[str, int]:
    """Return the cleaned (title, level), or raise ReviewError."""
    title = " ".join(clean_text(str(title or "")).split())
    if not title:
        raise ReviewError("bad_title", gettext("The title cannot be empty."))
    if len(title) > 1000:
        raise ReviewError("bad_title", gettext("The title is longer than 1,000 characters."))
    level = level if isinstance(level, int) else whole_number(level)
    if level is None:
        raise ReviewError("bad_level", gettext("Give the level as a number."))
    if not 1 <= level <= MAX_LEVEL:
        raise ReviewError("bad_level", gettext("The level must be between 1 and %(most)s.") % {
            "most": MAX_LEVEL})
    return title, level


class NeedsConfirmation(ReviewError):
    """A placement that breaks the tree's order or ranges: made only once confirmed."""

    def __init__(self, page: int, problems: list[str]):
        super().__init__("breaks_order", " ".join(problems) + " Place it there anyway?")
        self.page, self.problems = page, problems


def check_order(heading: Heading, page: int) -> list[str]:
    """Return why placing heading on page would break its book's tree ([] when it would not)."""
    headings = list(heading.book.headings.only("pk", "level", "title", "page", "status")
                    .order_by("position"))
    return order_problems(headings, heading, page)


def do_place(heading: Heading, user, page, line: int | None = None,
             confirmed: bool = False) -> HeadingDecision:
    """Place heading on page (confirm when it is already there, move otherwise).

    A page out of order with the heading's neighbours or outside its parent's
    range raises NeedsConfirmation unless confirmed.
    """
    page = check_page(heading.book, page)
    problems = [] if confirmed else check_order(heading, page)
    if problems:
        raise NeedsConfirmation(page, problems)
    action = Action.CONFIRM if page == heading.page and heading.status not in (
        Status.ABSENT, Status.REJECTED) else Action.MOVE

    def change(h):
        if h.page != page:
            h.line = line
        elif line is not None:
            h.line = line
        h.page, h.status, h.confidence = page, Status.REVIEWED, 1.0

    return _decide(heading, user, action, change)


def do_edit(heading: Heading, user, title, level) -> HeadingDecision:
    """Correct the title or level; open flags stay open until the heading is placed."""
    title, level = check_edit(title, level)

    def change(h):
        h.title, h.level, h.number = title, level, numbering(title)[0][:32]

    return _decide(heading, user, Action.EDIT, change, resolve=False)


def do_absent(heading: Heading, user) -> HeadingDecision:
    """Record that the entry is in the contents but not in the body: no page, honestly."""

    def change(h):
        h.page, h.page_end, h.line, h.status, h.confidence = None, None, None, Status.ABSENT, 1.0

    return _decide(heading, user, Action.ABSENT, change)


def do_reject(heading: Heading, user) -> HeadingDecision:
    """Reject the entry: it leaves the tree and search, its row and history stay."""

    def change(h):
        h.status, h.page_end = Status.REJECTED, None

    return _decide(heading, user, Action.REJECT, change)


def check_split(first, second) -> tuple[tuple[str, str], tuple[str, str]]:
    """Return ((title, printed page), …) of the two entries, or raise ReviewError.

    A page number ending a title ("1. First Example 29") is its printed page.
    """
    found = []
    for text in (first, second):
        title = " ".join(str(text or "").split())
        if not title:
            raise ReviewError("bad_title", gettext("Give both entries a title."))
        if len(title) > 1000:
            raise ReviewError("bad_title", gettext("A title is longer than 1,000 characters."))
        page = trailing_page(title)
        found.append((page[0], page[1]) if page and page[0] else (title, ""))
    return found[0], found[1]


def do_split(heading: Heading, user, first, second) -> HeadingDecision:
    """Split an entry that holds two ("1. First Example 29 6. Evaluation Toggle") into two.

    The first keeps the heading's place, page and history; the second follows it
    at the same level, unplaced and flagged, so that it is reviewed in turn.
    """
    (title, printed), (next_title, next_printed) = check_split(first, second)

    def change(h):
        h.printed_page = printed or h.printed_page
        h.title, h.number = title, numbering(title)[0][:32]

    with transaction.atomic():
        book = heading.book
        original = heading.printed_page
        decision = _decide(heading, user, Action.SPLIT, change, resolve=False)
        new = insert_after(
            decision.heading, level=decision.heading.level,
            title=next_title, number=numbering(next_title)[0][:32],
            printed_page=next_printed or original, status=Status.UNRESOLVED,
            toc_page=heading.toc_page, toc_line=heading.toc_line,
            inferred=heading.inferred)
        ReviewFlag.objects.create(heading=new, severity=2, reason=SPLIT_REASON)
        HeadingDecision.objects.create(
            heading=new, user=decision.user, action=Action.SPLIT,
            before={"split_from": decision.heading.pk}, after=snapshot(new))
        restructure(book)
        headings_changed.send(sender=Heading, book=book)
    return decision


def _decide(heading, user, action, change, resolve=True) -> HeadingDecision:
    with transaction.atomic():
        heading, before = revise(heading, change)
        decision = HeadingDecision.objects.create(
            heading=heading, user=user if user and user.is_authenticated else None,
            action=action, before=before, after=snapshot(heading),
        )
        if resolve:
            open_flags().filter(heading=heading).update(
                resolved_at=decision.at, resolved_by=decision.user,
                resolution=action,
            )
        headings_changed.send(sender=Heading, book=heading.book)
    return decision
