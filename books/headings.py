"""The one module that writes a book's headings: replace, place, revise, insert, restructure.

Every change ends in ``restructure``, which holds the one rule for the tree and
the section ends: a heading's section runs to the next heading at its level or
above (``toc.ends``, shared with the cards and the clips); a heading
a reviewer rejected leaves the tree (its children move up) and bounds
nothing, and one a reviewer found not to be in the body keeps its place in
the tree but bounds nothing either. The index
stage replaces the headings (reviewers' decisions carried over), the verify
stage places those the agent found, and a reviewer's decision revises one or
inserts one after it.
"""

import logging

from django.db.models import F
from django.utils.translation import gettext_noop

from books.models import Book, Heading, HeadingDecision, ReviewFlag
from toc.ends import section_ends
from toc.model import Entry
from toc.text import key as title_key

Status = Heading.Status
# Stored in English on the flag; the review pages show it in their language.
UNRESOLVED_REASON = gettext_noop(
    "The heading was not found on the pages where the table of contents puts it.")
NOT_IN_SCAN_REASON = gettext_noop(
    "The page the table of contents gives for this heading is not in the scan (a page the "
    "scanner skipped, or two turned at once): it was not looked for elsewhere.")
SHIFT = 10_000_000  # positions moved out of the way while the new headings are made
SNAPSHOT_FIELDS = ("title", "level", "number", "printed_page", "page", "page_end", "line",
                   "status", "confidence", "parent_id")
# What a reviewer's decision may set: the fields it changed are carried onto the same entry
# when the headings are replaced.
DECIDED_FIELDS = ("title", "level", "number", "printed_page", "page", "line", "status",
                  "confidence")
# What an entry a reviewer split off is made again with, from the heading it became.
SPLIT_FIELDS = ("level", "number", "title", "printed_page", "page", "line", "status",
                "confidence", "toc_page", "toc_line", "inferred")
logger = logging.getLogger(__name__)


def replace(book: Book, entries: list[Entry], inferred: bool,
            not_in_scan: set[str] = frozenset()) -> list[Heading]:
    """Replace book's headings with entries and return the new ones, decisions carried over.

    The old headings step aside while the new ones are made, each decided
    entry's decisions move to the same entry recovered again (same title as
    recovered, same printed page) and are applied to it, the entries a reviewer
    split off are made again after the entry they came from, and only then are
    the old headings deleted. Headings left unplaced are flagged for review,
    with why: not found, or on a printed page (of not_in_scan) missing from the scan.
    """
    decided, splits = _decided(book)
    book.headings.update(position=F("position") + SHIFT)
    headings = _create(book, entries, inferred)
    moved = _reapply(decided, headings)
    headings += _split_again(splits, moved, headings)
    Heading.objects.filter(book=book, position__gte=SHIFT).delete()
    ReviewFlag.objects.bulk_create(
        ReviewFlag(heading=heading, severity=severity(heading, headings),
                   reason=NOT_IN_SCAN_REASON if heading.printed_page in not_in_scan
                   else UNRESOLVED_REASON)
        for heading in headings
        if heading.status == Status.UNRESOLVED  # as decided, where a reviewer decided
    )
    restructure(book)
    return headings


def _create(book: Book, entries: list[Entry], inferred: bool) -> list[Heading]:
    parents: list[Heading] = []
    headings = []
    for position, entry in enumerate(entries):
        while parents and parents[-1].level >= entry.level:
            parents.pop()
        heading = Heading(
            book=book, parent=parents[-1] if parents else None, position=position,
            level=entry.level, number=entry.number[:32], title=entry.title[:1000],
            printed_page=entry.printed_page or "", page=entry.page, page_end=entry.page_end,
            status=entry.status, confidence=entry.confidence, line=entry.line,
            toc_page=entry.toc_page, toc_line=entry.toc_line, inferred=inferred,
        )
        heading.save()  # one by one: children need their parent's id
        headings.append(heading)
        parents.append(heading)
    return headings


def severity(heading: Heading, headings: list[Heading]) -> int:
    """Return 3 for an unplaced top-level heading (its whole section has no pages), else 2."""
    top = min((h.level for h in headings), default=1)
    return 3 if heading.level == top else 2


def _decided(book: Book) -> tuple[dict[tuple, list[HeadingDecision]], list[list[HeadingDecision]]]:
    """Return the reviewers' decisions on book's headings, oldest first: those on recovered
    entries by the entry decided, and those on the entries reviewers split off, in the
    order they were split.

    An entry is known by its title and printed page as recovered (before any decision;
    decisions recorded before the printed page was kept give the heading's own).
    """
    decided: dict[int, list[HeadingDecision]] = {}
    for decision in HeadingDecision.objects.filter(heading__book=book).select_related(
            "heading").order_by("at", "pk"):
        decided.setdefault(decision.heading_id, []).append(decision)
    splits = [rows for rows in decided.values() if "split_from" in rows[0].before]
    recovered = {}
    for rows in decided.values():
        first = rows[0]
        if "split_from" not in first.before:
            printed = first.before.get("printed_page", first.heading.printed_page)
            recovered[_entry_key(first.before.get("title") or "", printed)] = rows
    return recovered, splits


def _entry_key(title: str, printed_page: str) -> tuple[str, str]:
    """Return what knows an entry again when the contents are read anew: its title's letters
    and digits (spacing and punctuation may be read otherwise) and its printed page."""
    return title_key(title), printed_page


def _reapply(decided, headings: list[Heading]) -> dict[int, Heading]:
    """Move decisions onto the same entries recovered again and apply the latest of each;
    return old heading id → the heading its decisions moved to."""
    by_entry = {_entry_key(heading.title, heading.printed_page): heading for heading in headings}
    moved = {}
    for entry, rows in decided.items():
        heading = by_entry.get(entry)
        if heading is None:
            logger.warning("A reviewed entry %r is no longer in the contents; its %d decision(s) "
                           "go with it", rows[0].before.get("title"), len(rows))
            continue
        before, after = rows[0].before, rows[-1].after
        for name in DECIDED_FIELDS:  # what the reviewers changed; the rest as read anew
            if name in after and (name not in before or after[name] != before[name]):
                setattr(heading, name, after[name])
        heading.save()
        HeadingDecision.objects.filter(pk__in=[row.pk for row in rows]).update(heading=heading)
        moved[rows[0].heading_id] = heading
    return moved


def _split_again(splits, moved: dict[int, Heading], headings: list[Heading]) -> list[Heading]:
    """Make again, right after the entry each was split from, the entries reviewers split
    off, as they were left (title, page, status), with their decisions; return them.

    An entry the contents now give by itself (same title and printed page) is not made
    twice: the decisions move to it, and it is left as the reviewer left it.
    """
    by_entry = {_entry_key(heading.title, heading.printed_page): heading for heading in headings}
    made = []
    for rows in splits:
        old = rows[0].heading
        fields = {name: getattr(old, name) for name in SPLIT_FIELDS}
        source = moved.get(rows[0].before["split_from"])
        heading = by_entry.get(_entry_key(old.title, old.printed_page))
        if heading is not None:
            for name in DECIDED_FIELDS:
                setattr(heading, name, fields[name])
            heading.save(update_fields=DECIDED_FIELDS)  # its position may have moved since
        elif source is None:
            logger.warning("The entry %r was split from one no longer in the contents; its %d "
                           "decision(s) go with it", old.title, len(rows))
            continue
        else:
            source.refresh_from_db(fields=["position"])
            heading = insert_after(source, **fields)
            made.append(heading)
        HeadingDecision.objects.filter(pk__in=[row.pk for row in rows]).update(heading=heading)
        moved[old.pk] = heading
    return made


def place_by_agent(heading_id: int, page: int, line: int, confidence: float) -> bool:
    """Place an unplaced heading where the agent found it; return False if it was not unplaced.

    Conditional: a reviewer who decided meanwhile keeps the last word. The
    caller restructures the book once it has placed what it found.
    """
    return bool(Heading.objects.filter(id=heading_id, status=Status.UNRESOLVED).update(
        status=Status.AGENT, page=page, line=line, confidence=confidence))


def snapshot(heading: Heading) -> dict:
    """Return the fields a decision may change, as JSON-ready data."""
    return {name: getattr(heading, name) for name in SNAPSHOT_FIELDS}


def revise(heading: Heading, change) -> tuple[Heading, dict]:
    """Return heading as saved after change(heading), and its snapshot from before.

    Call it inside a transaction: the row is locked while it changes, and the
    book is restructured with it.
    """
    heading = Heading.objects.select_for_update().select_related("book").get(pk=heading.pk)
    before = snapshot(heading)
    change(heading)
    heading.save()
    restructure(heading.book)
    heading.refresh_from_db()
    return heading, before


def insert_after(heading: Heading, **fields) -> Heading:
    """Return a new heading made of fields, placed right after heading in its book."""
    later = Heading.objects.filter(book=heading.book, position__gt=heading.position)
    later.update(position=F("position") + SHIFT)  # two steps: positions stay unique
    later.update(position=F("position") - SHIFT + 1)
    return Heading.objects.create(book=heading.book, position=heading.position + 1, **fields)


def restructure(book: Book) -> int:
    """Recompute parents and section ends (page_end) of book's headings; return how many changed.

    Rejected entries leave the tree (their children move up) and have no
    section; entries not in the body keep their place in the tree but bound no
    pages.
    """
    headings = list(book.headings.order_by("position"))
    kept = [h for h in headings if h.status != Status.REJECTED]
    parents, stack = {}, []
    for heading in kept:
        while stack and stack[-1].level >= heading.level:
            stack.pop()
        parents[heading.pk] = stack[-1].pk if stack else None
        stack.append(heading)
    in_body = [h for h in kept if h.status != Status.ABSENT]
    found = section_ends([(h.level, h.page, h.line) for h in in_body], book.page_count)
    ends = {h.pk: end for h, end in zip(in_body, found)}
    changed = []
    for heading in headings:  # a rejected heading keeps its parent, for its history
        parent, end = parents.get(heading.pk, heading.parent_id), ends.get(heading.pk)
        if (heading.parent_id, heading.page_end) != (parent, end):
            heading.parent_id, heading.page_end = parent, end
            changed.append(heading)
    Heading.objects.bulk_update(changed, ["parent", "page_end"], batch_size=500)
    return len(changed)

