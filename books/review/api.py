"""JSON API of the review queue (librarians only): the same queue and decisions as the pages."""

from datetime import datetime

from django.shortcuts import get_object_or_404
from ninja import Router, Schema

from books.review import decisions
from books.models import Heading
from books.review.items import build_item, line_on
from librarian.auth import require_librarian
from librarian.errors import ErrorOut
from librarian.inputs import CleanStr, Id

router = Router(tags=["review"])
MAX_LIMIT = 500


class HeadingOut(Schema):
    id: int
    book_id: int
    position: int
    level: int
    title: str
    printed_page: str
    page: int | None
    page_end: int | None
    status: str


class QueuedOut(HeadingOut):
    book_title: str
    severity: int


class CandidateOut(Schema):
    page: int
    label: str
    best: bool
    current: bool
    line: int | None
    line_text: str
    similarity: float


class FlagOut(Schema):
    reason: str
    severity: int
    severity_reason: str
    agent_reason: str
    created_at: datetime


class DecisionOut(Schema):
    action: str
    user: str | None
    at: datetime
    before: dict
    after: dict


class ItemOut(Schema):
    heading: HeadingOut
    previous: HeadingOut | None
    next: HeadingOut | None
    window: list[int]
    proposal: int | None
    candidates: list[CandidateOut]
    open_flags: list[FlagOut]
    decisions: list[DecisionOut]


class PlaceIn(Schema):
    page: int  # physical: the page of the PDF (1-based), not the printed page number
    confirm: bool = False  # place it even where it breaks the contents' order or ranges


class EditIn(Schema):
    title: CleanStr
    level: int


class SplitIn(Schema):
    first: str
    second: str


class DecidedOut(Schema):
    heading: HeadingOut
    decision: DecisionOut


def _heading(heading_id: int) -> Heading:
    return get_object_or_404(Heading.objects.select_related("book"), pk=heading_id)


def _decision(decision) -> dict:
    return {"action": decision.action, "user": decision.user.get_username() if decision.user
            else None, "at": decision.at, "before": decision.before, "after": decision.after}


def _decided(decision) -> dict:
    decision.heading.refresh_from_db()
    return {"heading": decision.heading, "decision": _decision(decision)}


@router.get("/review", response=list[QueuedOut])
def queue(request, book_id: Id | None = None, limit: int = 100):
    """List the headings waiting for review, by book, then severity, then reading order."""
    require_librarian(request)
    limit = max(1, min(limit, MAX_LIMIT))
    rows = decisions.queue(book_id).select_related("book")[:limit]
    return [{**HeadingOut.from_orm(h).dict(), "book_title": h.book.title,
             "severity": h.severity} for h in rows]


@router.get("/review/{heading_id}", response=ItemOut)
def item(request, heading_id: int):
    """Show one heading with its neighbours, candidate pages, open flags and history."""
    require_librarian(request)
    heading = _heading(heading_id)
    found = build_item(heading)
    return {
        "heading": heading, "previous": found.previous, "next": found.next,
        "window": list(found.window), "proposal": found.proposal,
        "candidates": [
            {"page": c.page, "label": c.label, "best": c.best, "current": c.current,
             "line": c.match.line if c.match else None,
             "line_text": c.match.text if c.match else "",
             "similarity": c.match.similar if c.match else 0.0}
            for c in found.candidates
        ],
        "open_flags": list(decisions.open_flags().filter(heading=heading)),
        "decisions": [_decision(d) for d in heading.decisions.select_related("user")],
    }


@router.post("/review/{heading_id}/place", response={200: DecidedOut, 400: ErrorOut})
def place(request, heading_id: int, body: PlaceIn):
    """Place the heading on a physical page: confirm where it is, or move it.

    A page out of order with the heading's placed neighbours, or outside its
    parent's range, is answered 400 ``breaks_order`` (saying why) unless confirm is set.
    """
    require_librarian(request)
    heading = _heading(heading_id)
    page = decisions.check_page(heading.book, body.page)
    return _decided(decisions.do_place(heading, request.user, page, line_on(heading, page),
                                       confirmed=body.confirm))


@router.post("/review/{heading_id}/edit", response={200: DecidedOut, 400: ErrorOut})
def edit(request, heading_id: int, body: EditIn):
    """Correct the title or level (the heading stays in the queue until placed)."""
    require_librarian(request)
    return _decided(decisions.do_edit(_heading(heading_id), request.user, body.title, body.level))


@router.post("/review/{heading_id}/absent", response=DecidedOut)
def absent(request, heading_id: int):
    """Record that the entry is not in the body: it keeps no page."""
    require_librarian(request)
    return _decided(decisions.do_absent(_heading(heading_id), request.user))


@router.post("/review/{heading_id}/reject", response=DecidedOut)
def reject(request, heading_id: int):
    """Reject the entry: out of the tree and search, kept with its history."""
    require_librarian(request)
    return _decided(decisions.do_reject(_heading(heading_id), request.user))


@router.post("/review/{heading_id}/split", response={200: DecidedOut, 400: ErrorOut})
def split(request, heading_id: int, body: SplitIn):
    """Split an entry that holds two: the first keeps the heading, the second follows it."""
    require_librarian(request)
    return _decided(decisions.do_split(_heading(heading_id), request.user, body.first, body.second))
