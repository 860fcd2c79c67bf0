"""Grounding: each TOC heading snapped to the page and line where it really starts.

Search windows come from the folio mapping (narrow where it is well supported,
wider where it is not); consecutive headings keep physical order, chosen jointly
by a longest-path pass over the candidates. What cannot be placed stays None.
"""

from dataclasses import dataclass

from toc.detect import heading_kind
from toc.layout import rows
from toc.match import (
    BodyRow,
    Style,
    Title,
    page_rows,
    plausible,
    score,
    similarity,
    with_next,
)
from toc.text import key

NEAR, WIDE, FAR_BETWEEN = 2, 8, 40  # window half-widths in pages
GLOBAL_KEY = 10  # a title found anywhere in the book must be at least this long
FAR_LONG = 120
"""Pages between placed neighbours a title without a page number of its own is looked for
in, where the title is at least GLOBAL_KEY long (FAR_BETWEEN where it is shorter): a
front matter's entry whose roman page OCR lost lies anywhere before the first chapter."""


@dataclass(frozen=True)
class Placement:
    page: int
    line: int
    index: int  # row position on the page, for ordering
    score: float
    similar: float
    far: bool = False

    @property
    def position(self) -> tuple[int, int]:
        return self.page, self.index


class Body:
    """The book's pages as heading candidates, read lazily and kept."""

    def __init__(self, pages: list[dict], contents_pages: set[int], folio_lines):
        self.pages = {page["number"]: page for page in pages}
        self.contents_pages = contents_pages
        self.folio_lines = folio_lines
        self.cache: dict[int, list[BodyRow]] = {}
        self.index: dict[str, list[BodyRow]] | None = None
        self.style = Style.of(pages)

    def rows(self, number: int) -> list[BodyRow]:
        """Return the candidate rows of a page (only its heading on a contents page)."""
        if number not in self.cache:
            page = self.pages.get(number)
            if page is None:
                self.cache[number] = []
            elif number in self.contents_pages:
                self.cache[number] = self._contents_heading(page)
            else:
                self.cache[number] = with_next(
                    page_rows(page, self.folio_lines.get(number, set()), self.style)
                )
        return self.cache[number]

    def _contents_heading(self, page: dict) -> list[BodyRow]:
        heads = [row for row in rows(page)[:4] if heading_kind(row.text)]
        return [
            BodyRow(page["number"], row.line, 0, key(row.text), key(row.text), "", 2.0)
            for row in heads
        ]

    def find_exact(self, rest: str) -> list[BodyRow]:
        """Return the heading-like rows anywhere in the book whose text is exactly rest."""
        if self.index is None:
            self.index = {}
            for number in self.pages:
                for row in self.rows(number):
                    if row.tall >= 1.1 or row.number or row.index < 3:
                        self.index.setdefault(row.rest, []).append(row)
        return self.index.get(rest, [])


def search(title: Title, body: Body, pages: range, predicted: int | None) -> list[Placement]:
    """Return the candidate placements of a title on the given pages, best first."""
    found = []
    for number in pages:
        for row in body.rows(number):
            similar = similarity(title, row)
            if not plausible(title, row, similar):
                continue
            distance = abs(number - predicted) if predicted else 0
            found.append(Placement(number, row.line, row.index,
                                   score(title, row, similar, distance), similar))
    return sorted(found, key=lambda placement: -placement.score)


def ground(titles: list[str], predicted: list[int | None], strong: list[bool],
           body: Body, page_count: int) -> list[Placement | None]:
    """Return the placement of each title, None where code cannot place it."""
    prepared = [Title.of(text) for text in titles]
    candidates = []
    for title, guess, sure in zip(prepared, predicted, strong):
        if guess is None:
            candidates.append([])
            continue
        radius = NEAR if sure else WIDE
        window = range(max(1, guess - radius), min(page_count, guess + radius) + 1)
        candidates.append(search(title, body, window, guess)[:6])
    chosen = ordered_choice(candidates)
    _fill_between(prepared, predicted, body, chosen, page_count)
    _find_anywhere(prepared, body, chosen)
    return chosen


def ordered_choice(candidates: list[list[Placement]]) -> list[Placement | None]:
    """Return one candidate or None per entry, positions strictly increasing, best total score."""
    positions = sorted({c.position for group in candidates for c in group})
    rank = {position: index + 1 for index, position in enumerate(positions)}
    tree = [(0.0, None)] * (len(positions) + 1)

    def query(index):
        best = (0.0, None)
        while index > 0:
            best = max(best, tree[index], key=lambda item: item[0])
            index -= index & -index
        return best

    def update(index, item):
        while index < len(tree):
            if item[0] > tree[index][0]:
                tree[index] = item
            index += index & -index

    for entry, group in enumerate(candidates):
        made = [(query(rank[c.position] - 1), c) for c in group]
        for (value, link), candidate in made:
            update(rank[candidate.position], (value + candidate.score, (entry, candidate, link)))
    chosen: list[Placement | None] = [None] * len(candidates)
    link = query(len(positions))[1]
    while link:
        entry, candidate, link = link
        chosen[entry] = candidate
    return chosen


def _fill_between(prepared, predicted, body, chosen, page_count) -> None:
    """Place the rest between their placed neighbours, keeping order: long titles first, so
    that a short one placed after them searches between them ("PREFACE" before the
    "HISTORICAL INTRODUCTION" found on page 9, not the 62 pages before the first letter)."""
    for index in sorted(range(len(prepared)), key=lambda i: len(prepared[i].rest) < GLOBAL_KEY):
        title = prepared[index]
        if chosen[index]:
            continue
        before = next((c for c in reversed(chosen[:index]) if c), None)
        after = next((c for c in chosen[index + 1:] if c), None)
        low = before.page if before else 1
        high = after.page if after else page_count
        # A title printed without a page (a part's) lies no later than the next entry's page,
        # where only the contents and folios give it (the following entries not found).
        coming = next((p for p in predicted[index + 1:] if p is not None), None)
        if coming is not None and low <= coming < high:
            high = coming
        guess = predicted[index]
        if guess is not None:
            low, high = max(low, guess - WIDE), min(high, guess + WIDE)
        elif high - low > (FAR_BETWEEN if len(title.rest) < GLOBAL_KEY else FAR_LONG):
            continue
        found = [
            c for c in search(title, body, range(low, high + 1), guess)
            if (not before or c.position > before.position)
            and (not after or c.position < after.position)
        ]
        if found:
            chosen[index] = found[0]


def _find_anywhere(prepared, body, chosen) -> None:
    """Place long titles found exactly once anywhere in the book, flagged as far."""
    taken = {c.position for c in chosen if c}
    for index, title in enumerate(prepared):
        if chosen[index] or len(title.rest) < GLOBAL_KEY:
            continue
        hits = [
            row for row in body.find_exact(title.rest)
            if (row.page, row.index) not in taken
            and (not title.number or not row.number or row.number == title.number)
        ]
        if len(hits) == 1:
            row = hits[0]
            chosen[index] = Placement(row.page, row.line, row.index, 0.5, 1.0, far=True)
            taken.add((row.page, row.index))
