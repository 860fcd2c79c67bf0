"""What a reviewer sees for one heading: its neighbours and the candidate pages, best lines marked.

The candidate window is bounded by the heading's placed neighbours; matching
reuses the grounding matcher of ``toc`` over the stored lines, so a
reviewer sees the same evidence code used, and never more than a few pages.
"""

from dataclasses import dataclass, field, replace

from books.models import Heading, HeadingDecision, Page
from books.rendering import crop_rect
from toc.columns import TWO_ENTRIES
from toc.layout import rows
from toc.match import ROW_GAP, Title, page_rows, plausible, score, similarity, with_next
from toc.model import PageRecord
from toc.spreads import side_of

Status = Heading.Status
MAX_SHOWN = 12  # thumbnails on one item
MAX_SCANNED = 60  # pages whose lines are matched for one item
TOP_MATCHES = 4  # best-matching pages always shown, wherever they are in the window
THUMB_WIDTH = 240  # rendering.WIDTHS["thumb"]


@dataclass(frozen=True)
class Match:
    line: int
    text: str
    similar: float
    score: float
    box: tuple[float, float, float, float]  # left, top, width, height in % of the page


@dataclass(frozen=True)
class Candidate:
    page: int
    label: str
    match: Match | None
    current: bool = False
    best: bool = False
    ratio: float = 1.414  # page height over width, so thumbnails keep their place while loading
    side: str = ""  # "left" or "right": the half of a two-page spread the thumbnail shows

    @property
    def thumb_height(self) -> int:
        return round(THUMB_WIDTH * self.ratio)


@dataclass(frozen=True)
class PrintedLine:
    """A heading's line on its TOC page, in points."""

    page: int
    size: tuple[float, float]
    box: tuple[float, float, float, float]
    vertical: bool

    @property
    def in_crop(self) -> tuple[float, float, float, float]:
        """Return the line's box in % of its crop (rendering.open_line_crop), for a highlight."""
        x0, y0, x1, y1 = crop_rect(self.size, self.box, self.vertical)
        width, height = max(x1 - x0, 1.0), max(y1 - y0, 1.0)
        left, top, right, bottom = self.box
        return (round(100 * (left - x0) / width, 2), round(100 * (top - y0) / height, 2),
                round(100 * (right - left) / width, 2), round(100 * (bottom - top) / height, 2))


@dataclass
class Item:
    heading: Heading
    previous: Heading | None
    next: Heading | None
    window: tuple[int, int]
    candidates: list[Candidate] = field(default_factory=list)
    proposal: int | None = None  # the page "confirm" places the heading on
    printed: PrintedLine | None = None
    split: tuple[str, str] | None = None  # where the title seems to hold two entries

    @property
    def outside(self) -> bool:
        """True when the heading's page is not among the thumbnails shown."""
        shown = {candidate.page for candidate in self.candidates}
        return self.heading.page is not None and self.heading.page not in shown


def build_item(heading: Heading) -> Item:
    """Return the review item of heading: neighbours, bounded window, matched candidates."""
    previous, next_ = neighbours(heading)
    low = previous.page if previous else 1
    high = next_.page if next_ else heading.book.page_count
    if heading.page is not None:
        low, high = min(low, heading.page), max(high, heading.page)
    item = Item(heading, previous, next_, (low, high), printed=printed_line(heading),
                split=split_guess(heading.title))
    item.candidates = candidates(heading, low, high)
    best = next((c for c in item.candidates if c.best), None)
    if heading.page is not None and heading.status not in (Status.ABSENT, Status.REJECTED):
        item.proposal = heading.page
    elif best:
        item.proposal = best.page
    return item


def split_guess(title: str) -> tuple[str, str] | None:
    """Return the two entries a title seems to hold ("1. A 29 6. B" → "1. A 29", "6. B")."""
    found = TWO_ENTRIES.match(title)
    if not found:
        return None
    return f"{found['first']} {found['page']}", found["second"]


def neighbours(heading: Heading) -> tuple[Heading | None, Heading | None]:
    """Return the nearest placed headings before and after heading in reading order."""
    placed = Heading.objects.filter(book_id=heading.book_id, page__isnull=False).exclude(
        status__in=(Status.REJECTED, Status.ABSENT)
    )
    before = placed.filter(position__lt=heading.position).order_by("-position").first()
    after = placed.filter(position__gt=heading.position).order_by("position").first()
    return before, after


def candidates(heading: Heading, low: int, high: int) -> list[Candidate]:
    """Return the candidate pages in [low, high], in page order, at most MAX_SHOWN of them."""
    book = heading.book
    skip = set(book.toc_pages) | set(book.lot_pages)
    anchor = heading.page or _printed_page(heading, low, high)
    centre = anchor or (low + high) // 2
    scan_low = max(low, min(centre - MAX_SCANNED // 2, high - MAX_SCANNED + 1))
    scan = range(scan_low, min(high, scan_low + MAX_SCANNED - 1) + 1)
    pages = Page.objects.filter(book=book, number__in=scan).records("label")
    title = Title.of(heading.title)
    labels, ratios, matches, sides = {}, {}, {}, {}
    for page in pages:
        labels[page["number"]] = page["label"]
        ratios[page["number"]] = float(page["height"] or 1) / float(page["width"] or 1)
        if page["number"] not in skip:
            found = best_match(title, page, anchor)
            if found:
                matches[page["number"]] = found
                sides[page["number"]] = side_of(page, found.line)
    ranked = sorted(matches, key=lambda number: -matches[number].score)
    anchor = anchor or (ranked[0] if ranked else centre)
    shown = set(ranked[:TOP_MATCHES])
    for number in sorted(scan, key=lambda n: (abs(n - anchor), n)):
        if len(shown) >= MAX_SHOWN:
            break
        shown.add(number)
    top = ranked[0] if ranked else None
    return [
        _on_its_half(Candidate(number, labels.get(number, ""), matches.get(number),
                               current=number == heading.page, best=number == top,
                               ratio=ratios.get(number, 1.414), side=sides.get(number, "")))
        for number in sorted(shown)
    ]


def _on_its_half(candidate: Candidate) -> Candidate:
    """Return the candidate of a spread's half: its highlight and shape measured on that half."""
    if not candidate.side or candidate.match is None:
        return candidate
    left, top, width, height = candidate.match.box
    left = 2 * left - (100 if candidate.side == "right" else 0)
    match = replace(candidate.match, box=(round(left, 2), top, round(2 * width, 2), height))
    return replace(candidate, match=match)


def _printed_page(heading: Heading, low: int, high: int) -> int | None:
    """Return the physical page in [low, high] whose folio reads as the heading's printed page."""
    if not heading.printed_page:
        return None
    return Page.objects.filter(
        book_id=heading.book_id, label=heading.printed_page, number__range=(low, high)
    ).values_list("number", flat=True).first()


def best_match(title: Title, page: PageRecord, predicted: int | None = None) -> Match | None:
    """Return the row of page that best matches title, None when no row does."""
    best = None
    for row in with_next(page_rows(page, set())):
        similar = similarity(title, row)
        if not plausible(title, row, similar):
            continue
        value = score(title, row, similar, abs(page["number"] - predicted) if predicted else 0)
        if best is None or value > best[0]:
            best = (value, similar, row)
    if best is None:
        return None
    value, similar, row = best
    return Match(row.line, row.text or row.key, round(similar, 3), value, _row_box(page, row.line))


def printed_line(heading: Heading) -> PrintedLine | None:
    """Return where the TOC prints heading, None when that is not known."""
    if heading.toc_page is None or heading.toc_line is None:
        return None
    page = Page.objects.filter(book_id=heading.book_id, number=heading.toc_page).record()
    lines = page["lines"] if page else []
    if not 0 <= heading.toc_line < len(lines):
        return None
    line = lines[heading.toc_line]
    return PrintedLine(heading.toc_page, (page["width"], page["height"]), tuple(line["box"]),
                       line.get("dir") == "v")


def line_on(heading: Heading, number: int) -> int | None:
    """Return the index of heading's line on physical page number, None when it is not found."""
    page = Page.objects.filter(book_id=heading.book_id, number=number).record()
    found = best_match(Title.of(heading.title), page) if page else None
    return found.line if found else None


def _row_box(page: PageRecord, line: int) -> tuple[float, float, float, float]:
    """Return the box of the row starting at line, in % of the page (for a highlight)."""
    row = next((r for r in rows(page, max_gap=ROW_GAP) if r.line == line), None)
    members = row.lines if row else (line,)
    boxes = [page["lines"][index]["box"] for index in members]
    width, height = float(page["width"] or 1), float(page["height"] or 1)
    x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
    return (round(100 * x0 / width, 2), round(100 * y0 / height, 2),
            round(100 * (x1 - x0) / width, 2), round(100 * (y1 - y0) / height, 2))


def agent_notes(heading: Heading, previous: Heading | None, next_: Heading | None) -> list[dict]:
    """Return the agent's notes on heading, newest first: {reason, note, stale} (reason in
    English, note as ``indexing.notes`` words it).

    A note was written about the heading's neighbours as they were; it is
    stale once a reviewer decided on a heading between (or at) its
    neighbours as they are now, and the page then says where it lies now.
    """
    low = previous.position if previous else -1
    high = next_.position if next_ else 10**9
    notes = []
    for flag in heading.flags.exclude(agent_reason="").order_by("-created_at"):
        changed = HeadingDecision.objects.filter(
            heading__book_id=heading.book_id, heading__position__gte=low,
            heading__position__lte=high, at__gt=flag.created_at,
        ).exclude(heading=heading).exists()
        notes.append({"reason": flag.agent_reason, "note": flag.agent_note, "stale": changed})
    return notes
