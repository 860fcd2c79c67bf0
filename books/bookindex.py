"""The one module that writes and reads a book's own index: its back-of-book index terms
and its lists of figures and tables (``IndexEntry``).

The book-index stage replaces all of a book's entries at once (``replace``);
the shelf reads them to browse (``browse``), to print and serve them
(``records``), and to answer "where is X?" (``lookup``: term → entries →
physical pages). Terms are matched by a folded key: NFKC, case folded, spaces
collapsed, a trailing comma or period trimmed.
"""

import re
import unicodedata
from dataclasses import dataclass, replace as changed

from django.db import transaction
from django.utils.translation import gettext_noop

from books.models import Book, IndexEntry
from books.text import CJK
from toc.model import ANOMALY_WORDS

KIND_NAMES = (gettext_noop("figure"), gettext_noop("table"))
"""The kinds of a listed item as the Index tab names them (``IndexEntry.Kind``'s labels,
translated by value in the template): here so that makemessages keeps them."""
UNMAPPED_KIND = "index_unmapped"
BY = "backindex"  # the anomalies this module reports: a re-run replaces them and nothing else
UNMAPPED_SHARE = 0.5  # more of the index's page references unmapped than this is an anomaly
MIN_LOCATORS = 10
KANA_ROWS = "あかさたなはまやらわ"
LATIN_CJK_SPACE = re.compile(rf"(?<=[a-z0-9])\s+(?=[{CJK}])|(?<=[{CJK}])\s+(?=[a-z0-9])")
_ROW_STARTS = "あかさたなはまやらわん"
SYMBOL_GROUPS = re.compile(r"(?i)^(?:symbols?|numbers?|numerals?|digits|analphabetics|"
                           r"non-?alphabetic(?:al)?|記号|数字|英数字|その他|記号.数字|数字.記号)$")


@dataclass(frozen=True)
class TermPlace:
    """Where a book's index sends a reader for a term: the entry and its physical pages."""

    book_id: int
    term: str
    parent: str | None
    index_name: str
    pages: list[int]  # physical, 1-based, in printed order; unmapped locators left out
    labels: list[str]  # printed, all of them
    see: list[str]
    via: str = ""  # the term whose "see" sent the reader here ("Hurenkinder" → widow)


def fold(text: str) -> str:
    """Return the key a term is looked up by: NFKC, case folded, spaces collapsed (and none
    between Latin and Japanese: "A4 用紙" and "A4用紙" are one term), a trailing comma or
    period trimmed."""
    folded = re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text)).strip().casefold()
    folded = LATIN_CJK_SPACE.sub("", folded)
    return re.sub(r"[,.]+$", "", folded).strip()


def initial_of(term: str) -> str:
    """Return the browsing group of a term: its first letter (A–Z), the kana row it reads in
    (あ, か, … for kana), "#" for symbols and digits, "他" for other scripts (kanji)."""
    plain = unicodedata.normalize("NFKC", term).lstrip("\\@.-–—_([{'\"`~$%&*+/<=>|^!?#:;,")
    if not plain:
        return "#"
    first = plain[0]
    if "a" <= first.lower() <= "z":
        return first.upper()
    if first.isdigit():
        return "#"
    hira = chr(ord(first) - 0x60) if "ァ" <= first <= "ヶ" else first
    if "ぁ" <= hira <= "ゖ":
        base = unicodedata.normalize("NFD", hira)[0]  # voiced kana read in their row: が → か
        return next((row for row, nxt in zip(_ROW_STARTS, _ROW_STARTS[1:]) if base < nxt), "わ")
    if unicodedata.category(first).startswith("L"):
        return "他"
    return "#"


def group_initial(group: str, term: str) -> str:
    """Return the browsing group of an entry printed under a letter-group heading (group,
    "" when none): the heading's, where it names one (a kanji term under か is in か);
    else the term's own."""
    if group:
        if SYMBOL_GROUPS.match(unicodedata.normalize("NFKC", group).strip()):
            return "#"
        found = initial_of(group)
        if found != "他":
            return found
    return initial_of(term)


def replace(book: Book, matter) -> None:
    """Store a BackMatter (``indexing.backindex``) as the book's entries, index pages and
    anomaly, replacing what an earlier run stored."""
    rows = [_row(book, position, entry) for position, entry in enumerate(matter.entries)]
    rows += [_item_row(book, len(rows) + position, item)
             for position, item in enumerate(matter.items)]
    with transaction.atomic():
        IndexEntry.objects.filter(book=book).delete()
        IndexEntry.objects.bulk_create(rows, batch_size=500)
        book.index_pages = list(matter.index_pages)
        kept = [a for a in book.anomalies or [] if a.get("by") != BY]
        book.anomalies = kept + anomalies(matter)
        book.save(update_fields=["index_pages", "anomalies"])


def _row(book, position, entry) -> IndexEntry:
    return IndexEntry(
        book=book, position=position, kind=IndexEntry.Kind.TERM, index_name=entry.index[:200],
        term=entry.term[:1000], parent=(entry.parent or "")[:2000], level=entry.level,
        key=fold(entry.term)[:1000],
        initial=group_initial(entry.group, entry.parents[0] if entry.parents else entry.term),
        labels=[loc.label for loc in entry.locators], pages=[loc.page for loc in entry.locators],
        page_ends=[loc.last for loc in entry.locators], see=list(entry.see),
        printed_on=entry.index_page)


def _item_row(book, position, item) -> IndexEntry:
    return IndexEntry(
        book=book, position=position, kind=item.kind, term=item.caption[:1000],
        number=item.number[:32], key=fold(item.caption)[:1000], initial="",
        labels=[item.locator.label], pages=[item.locator.page], page_ends=[item.locator.last],
        printed_on=item.list_page)


def anomalies(matter) -> list[dict]:
    """Return the anomaly of an index whose page references mostly fail to map, if so."""
    locators = matter.locators()
    unmapped = [loc for loc in locators if loc.page is None]
    if len(locators) < MIN_LOCATORS or len(unmapped) <= UNMAPPED_SHARE * len(locators):
        return []
    values = {"unmapped": len(unmapped), "total": len(locators)}
    return [{"kind": UNMAPPED_KIND, "by": BY, "pages": list(matter.index_pages[:1]),
             "detail": ANOMALY_WORDS[UNMAPPED_KIND] % values, "code": UNMAPPED_KIND,
             "values": values}]


def terms(book: Book):
    """Return the book's index terms in printed order (a queryset)."""
    return IndexEntry.objects.filter(book=book, kind=IndexEntry.Kind.TERM).order_by("position")


def list_items(book: Book, query: str = ""):
    """Return the figures and tables the book lists, in printed order (a queryset); with a
    query, those whose caption holds it (folded)."""
    found = IndexEntry.objects.filter(book=book).exclude(kind=IndexEntry.Kind.TERM)
    if query:
        found = found.filter(key__contains=fold(query))
    return found.order_by("position")


def listed(book_ids, kinds) -> list[IndexEntry]:
    """Return the figures or tables (kinds) the books of book_ids list that were mapped to a
    page, in printed order."""
    found = IndexEntry.objects.filter(book_id__in=list(book_ids), kind__in=list(kinds))
    return [item for item in found.order_by("book_id", "position") if item.pages and item.pages[0]]


def records(book: Book) -> list[dict]:
    """Return the book's index terms as {term, parent, pages, labels, see} dicts: pages
    physical and 1-based (unmapped locators left out), labels as printed."""
    return [{"term": entry.term, "parent": entry.parent or None,
             "pages": [page for page in entry.pages if page is not None],
             "labels": list(entry.labels), "see": list(entry.see)}
            for entry in terms(book)]


def browse(book: Book, initial: str = "", query: str = "", limit: int = 2000):
    """Return the terms to show: those of a group (initial), or matching a filter (query,
    folded, anywhere in the term or its parents), at most limit, in printed order."""
    found = terms(book)
    if query:
        key = fold(query)
        found = found.filter(key__contains=key) | found.filter(parent__icontains=query.strip())
    elif initial:
        found = found.filter(initial=initial)
    return list(found.order_by("position")[:limit])


def initials(book: Book) -> list[str]:
    """Return the browsing groups the book's index uses: A–Z, kana rows, then the rest."""
    used = set(terms(book).values_list("initial", flat=True).distinct())
    order = [chr(c) for c in range(ord("A"), ord("Z") + 1)] + list(KANA_ROWS) + ["他", "#"]
    return [initial for initial in order if initial in used]


def lookup(term: str, book_ids=None, *, follow: bool = False) -> list[TermPlace]:
    """Return where the books' indexes send a reader for term: the entries whose term is
    term, then its sub-entries ("margin" → "margin > outer"), in printed order.

    follow: an entry with no pages of its own that refers the reader on ("Hurenkinder,
    see widow") gives way to the entries it names in its book, as a reader would turn
    to them; one step only, so that references that refer back end there.
    """
    places = _looked_up(term, book_ids)
    if not follow:
        return places
    followed, seen = [], set()
    for place in places:
        # Where the reference leads to no page (two entries that refer to each other), the
        # entry stays: listed, with no page of its own.
        referred = not place.pages and place.see
        for found in (_followed(place) or [place]) if referred else [place]:
            key = (found.book_id, found.parent, found.term)
            if key not in seen:
                seen.add(key)
                followed.append(found)
    return followed


def _looked_up(term: str, book_ids=None, subs: bool = True) -> list[TermPlace]:
    key = fold(term)
    if not key:
        return []
    found = IndexEntry.objects.filter(kind=IndexEntry.Kind.TERM)
    if book_ids is not None:
        found = found.filter(book_id__in=list(book_ids))
    own = list(found.filter(key=key).order_by("book_id", "position"))
    below = [] if not subs else list(found.filter(parent__iexact=term.strip()).order_by(
        "book_id", "position")[:200])
    return [_place(entry) for entry in own + below]


def _followed(place: TermPlace) -> list[TermPlace]:
    """Return the places of the entries place's "see" names, in its book, that have pages:
    a target "margin, outer" is the entry itself, or its head "margin" where none is."""
    found = []
    for target in place.see:
        named = _looked_up(target, [place.book_id], subs=False)
        if not named and "," in target:
            named = _looked_up(target.split(",")[0], [place.book_id], subs=False)
        found += [changed(entry, via=place.term) for entry in named if entry.pages]
    return found


def _place(entry: IndexEntry) -> TermPlace:
    return TermPlace(entry.book_id, entry.term, entry.parent or None, entry.index_name,
                     [page for page in entry.pages if page is not None], list(entry.labels),
                     list(entry.see))
