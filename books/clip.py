"""Clipped pages: a small PDF of exactly a page range of a book's original file.

The clip keeps the original pages as they are (MuPDF copies them, nothing is
re-rendered, and nothing that could run comes along: see ``books.safepdf``),
adds bookmarks for every section of the book that touches the clipped pages,
nested as in the book, and page labels so a viewer shows the printed page
numbers where they are known. A page whose printed number is unknown is
labelled with its physical page in the original file ("pdf 14"), never with a
guessed printed number.
"""

import io
import re
from dataclasses import dataclass

from django.http import HttpResponse
from django.utils.http import content_disposition_header
from django.utils.translation import gettext
from pypdf.constants import PageLabelStyle

from books.models import Heading
from books import safepdf
from toc.ends import section_ends as shared_ends
from toc.numbers import roman_value
from librarian.config import setting
from librarian.errors import LibrarianError
from librarian.inputs import whole_number

HIDDEN_STATUSES = (Heading.Status.UNRESOLVED, Heading.Status.ABSENT, Heading.Status.REJECTED)
_UNSAFE_FILENAME = re.compile(r'[\x00-\x1f\x7f/\\:*?"<>|]+')


class ClipError(LibrarianError):
    """A page range that cannot be clipped; message is meant for the user."""


@dataclass(frozen=True)
class LabelRange:
    """Pages first..last (0-based, in the clip) labelled style+start, or prefix alone."""

    first: int
    last: int
    style: str | None
    prefix: str | None
    start: int | None


@dataclass(frozen=True)
class Bookmark:
    title: str
    page_index: int  # 0-based, in the clip
    parent: int | None  # index of the parent bookmark in the list, or None at the top


def max_clip_pages() -> int:
    return setting("MAX_CLIP_PAGES")


def parse_range(page_count: int, start, end, limit: int) -> tuple[int, int]:
    """Return (start, end) as 1-based physical pages, or raise ClipError saying what is wrong.

    start and end may be strings from a query string; a missing end means start alone.
    """
    first = _page_number(start, "start")
    last = first if end in (None, "") else _page_number(end, "end")
    if not 1 <= first <= page_count or not 1 <= last <= page_count:
        raise ClipError("out_of_range", gettext(
            "This book has pages 1 to %(last)s; choose pages in that range.") % {
                "last": page_count})
    if last < first:
        raise ClipError("reversed", gettext("The last page comes before the first; swap them."))
    if last - first + 1 > limit:
        raise ClipError("too_long", gettext(
            "A clip holds at most %(most)s pages; you asked for %(asked)s. Choose a shorter "
            "range.") % {"most": limit, "asked": last - first + 1})
    return first, last


def _page_number(value, name: str) -> int:
    if value is None or value == "":
        raise ClipError("missing", gettext("Give the first page.") if name == "start"
                        else gettext("Give the last page."))
    number = value if isinstance(value, int) else whole_number(str(value))
    if number is None:
        raise ClipError("not_a_number", gettext("The first page must be a whole number.")
                        if name == "start" else gettext("The last page must be a whole number."))
    return number


def label_ranges(labels: list[str], first_page: int) -> list[LabelRange]:
    """Return page-label ranges for a clip whose pages carry labels ("" where unknown).

    first_page is the physical page of the clip's first page, for unknown pages.
    Empty when no label is known: a viewer then numbers the pages 1, 2, ….
    """
    if not any(labels):
        return []
    ranges: list[LabelRange] = []
    for index, label in enumerate(labels):
        style, value, prefix = _label_parts(label, first_page + index)
        last = ranges[-1] if ranges else None
        if (style and last and last.style == style and last.prefix is None
                and last.start + (last.last - last.first) + 1 == value and last.last == index - 1):
            ranges[-1] = LabelRange(last.first, index, style, None, last.start)
        else:
            ranges.append(LabelRange(index, index, style, prefix, value))
    return ranges


def _label_parts(label: str, physical: int) -> tuple[str | None, int | None, str | None]:
    if not label:
        return None, None, f"pdf {physical}"
    if label.isascii() and label.isdigit() and int(label) > 0:
        return PageLabelStyle.DECIMAL, int(label), None
    value = roman_value(label)
    if value:
        if label.islower():
            return PageLabelStyle.LOWERCASE_ROMAN, value, None
        return PageLabelStyle.UPPERCASE_ROMAN, value, None
    return None, None, label


def bookmarks(headings, start: int, end: int, page_count: int) -> list[Bookmark]:
    """Return the bookmarks of a clip of pages start..end, from headings in reading order.

    Every section that touches the clipped pages is bookmarked, with the
    sections that hold it, nested as in the book. Sections the clip opens
    inside (its breadcrumb, and one that runs on from the page before a
    section starting mid-page) point at the clip's first page; sections that
    begin inside the clip point at their page.
    """
    every = {h.pk: h for h in headings}
    placed = [h for h in headings if h.page is not None and h.status not in HIDDEN_STATUSES]
    ends = section_ends(placed, page_count)
    touching = set()
    for heading in placed:
        if heading.page <= end and ends[heading.pk] >= start:
            while heading is not None and heading.pk not in touching:  # and what holds it
                touching.add(heading.pk)
                heading = every.get(heading.parent_id)
    index_of: dict[int, int] = {}
    marks: list[Bookmark] = []
    for heading in (h for h in placed if h.pk in touching):
        parent = heading.parent_id
        while parent is not None and parent not in index_of:
            parent = every[parent].parent_id if parent in every else None
        index_of[heading.pk] = len(marks)
        page = min(max(heading.page, start), end)  # a parent placed past the clip: its start
        marks.append(Bookmark(heading.title, page - start,
                              index_of.get(parent) if parent is not None else None))
    return marks


def section_ends(placed, page_count: int) -> dict[int, int]:
    """Return heading id → the last page its section touches, by the rule the contents tree
    and the cards share (``toc.ends``); placed: headings in reading order."""
    found = shared_ends([(h.level, h.page, h.line) for h in placed], page_count)
    return {heading.pk: end for heading, end in zip(placed, found)}


def clip_pdf(book, start: int, end: int) -> bytes:
    """Return the bytes of a PDF holding physical pages start..end (1-based) of book."""
    labels = dict(book.pages.filter(number__range=(start, end)).values_list("number", "label"))
    headings = list(book.headings.order_by("position").only(
        "id", "book", "parent", "title", "level", "page", "page_end", "line", "status", "position"))
    writer = safepdf.inert_writer(safepdf.copy_pages(book.path, start, end))
    root = writer.add_outline_item(title=book.title, page_number=0)
    added = []
    for mark in bookmarks(headings, start, end, book.page_count):
        parent = root if mark.parent is None else added[mark.parent]
        added.append(writer.add_outline_item(title=mark.title, page_number=mark.page_index,
                                             parent=parent))
    for item in label_ranges([labels.get(n, "") for n in range(start, end + 1)], start):
        writer.set_page_label(item.first, item.last, style=item.style, prefix=item.prefix,
                              start=item.start)
    writer.add_metadata({"/Title": f"{book.title}, {describe_pages(book, start, end)}"})
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


def printed_range(book, start: int, end: int) -> tuple[str, str]:
    """Return the printed labels of the first and last page ("" where unknown)."""
    labels = dict(book.pages.filter(number__in=(start, end)).values_list("number", "label"))
    return labels.get(start, ""), labels.get(end, "")


def describe_pages(book, start: int, end: int) -> str:
    """Return "pp. 12–15 (pdf pages 14–17)", or "pdf pages 14–17" without printed numbers."""
    physical = f"pdf page {start}" if start == end else f"pdf pages {start}–{end}"
    first, last = printed_range(book, start, end)
    if not (first and last):
        return physical
    printed = f"p. {first}" if start == end else f"pp. {first}–{last}"
    return f"{printed} ({physical})"


def filename(book, start: int, end: int) -> str:
    """Return a download name that says the book and the pages."""
    title = _UNSAFE_FILENAME.sub(" ", book.title).strip()[:80].strip() or "book"
    return f"{title}, {describe_pages(book, start, end)}.pdf"


def response(book, start: int, end: int) -> HttpResponse:
    """Return the clip as a PDF download."""
    result = HttpResponse(clip_pdf(book, start, end), content_type="application/pdf")
    result["Content-Disposition"] = content_disposition_header(True, filename(book, start, end))
    return result
