"""Printed page labels from folios: a per-page mapping, not one global offset (pure functions).

Each page's header and footer rows give candidate folios. A candidate counts when
a nearby page reads a folio of the same kind with the same offset (physical −
printed): single reads are OCR noise or numbers in running heads. Pages between
agreeing anchors are filled in; where offsets change, only unambiguous pages are
filled: unnumbered plates where there is room for them, and where printed pages
are missing, a page's own read that falls in the gap. What the labels then say
about the scan (pages missing, doubled, out of order) is ``toc.sequence``'s.
"""

import re
from dataclasses import dataclass, field, replace

from toc.folio_reads import Folio, candidates
from toc.model import Anomaly
from toc.numbers import label
from toc.repair import plausible_repair
from toc.sequence import Stray, faults, order, strays

SUPPORT_WINDOW = 3  # pages each way where an agreeing folio supports a read
STRONG_WINDOW = 4  # anchors this close on both sides make a page's label well supported
PLATE_SHARE = 0.3  # a page with under this share of the median line count may be a plate
REFITS = 3  # mappings made again without the folios found misread
SAME_TEXT = 0.5  # a page scanned twice shares this share of its words with its twin, at least
CJK = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


@dataclass
class Mapping:
    """The printed label of each physical page, where it can be established."""

    labels: dict[int, str] = field(default_factory=dict)
    values: dict[int, tuple[str, int]] = field(default_factory=dict)
    anchors: dict[int, Folio] = field(default_factory=dict)
    strong: set[int] = field(default_factory=set)
    anomalies: list[Anomaly] = field(default_factory=list)
    folio_lines: dict[int, set[int]] = field(default_factory=dict)
    missing: set[tuple[str, int]] = field(default_factory=set)  # printed pages not in the scan
    page_count: int = 0

    def pages_for(self, kind: str, value: int) -> list[int]:
        """Return the physical pages labelled with this printed value, in order."""
        return [page for page, got in sorted(self.values.items()) if got == (kind, value)]

    def predict(self, kind: str, value: int) -> tuple[int | None, bool]:
        """Return (physical page, well supported) for a printed value; (None, False) if unknown."""
        found = self.pages_for(kind, value)
        if found:
            return found[0], found[0] in self.strong
        near = [f for f in self.anchors.values() if f.kind == kind]
        if not near:
            return None, False
        closest = min(near, key=lambda folio: abs(folio.value - value))
        page = value + closest.offset
        return (page if 1 <= page <= self.page_count else None), False


def fit(pages: list[dict]) -> Mapping:
    """Return the printed→physical mapping read from the folios of every page.

    Folios that put their pages off the book's order where the pages themselves say
    otherwise are misreads, and the mapping is made again without them (``_misread_strays``).
    """
    reads = {page["number"]: candidates(page) for page in pages}
    anchors = _misreads_read_right(_supported(reads))
    line_counts = {page["number"]: len(page.get("lines") or []) for page in pages}
    by_number = {page["number"]: page for page in pages}
    kept = dict(anchors)
    for _ in range(REFITS):
        mapping = Mapping(page_count=len(pages))
        _fill(mapping, sorted(kept.values(), key=lambda f: f.page), line_counts, reads)
        wrong = _misread_strays(mapping.values, by_number, len(pages)) & kept.keys()
        if not wrong:
            break
        kept = {page: folio for page, folio in kept.items() if page not in wrong}
    mapping.anchors = kept
    for folio in anchors.values():  # a misread folio is still its page's folio, not text
        mapping.folio_lines.setdefault(folio.page, set()).add(folio.line)
    mapping.anomalies, mapping.missing = faults(mapping.values, _plates(line_counts))
    mapping.labels = {page: label(*value) for page, value in sorted(mapping.values.items())}
    return mapping


def _misread_strays(values: dict[int, tuple[str, int]], pages: dict[int, dict],
                    page_count: int) -> set[int]:
    """Return the pages whose folios put them off the book's order and are misread: one
    said to be scanned twice whose words are not its twin's (pascal's "xxii" read "xii"
    ten pages after the real xii; "390" read "300"), and one out of place past the end of
    the book as scanned, each a figure off the value the order gives it ("828" on page 328
    of 404, whose order ends at 392)."""
    wrong, runs = set(), {}
    for stray in strays(values):
        if stray.kind not in runs:
            runs[stray.kind] = order([(page, value) for page, (kind, value)
                                      in sorted(values.items()) if kind == stray.kind])
        run = runs[stray.kind]
        if stray.twins:
            if not any(_same_text(pages.get(a), pages.get(b))
                       for a in stray.pages for b in stray.twins):
                wrong.update(stray.pages)
        elif _past_the_end(values, run, stray, page_count):
            wrong.update(stray.pages)
    return wrong


def _past_the_end(values: dict[int, tuple[str, int]], run: list[tuple[int, int]], stray: Stray,
                  page_count: int) -> bool:
    """Return True when the stray's values lie past the end of the book as scanned, each
    read as the value the order gives its page with one figure misread alike."""
    before = [(page, value) for page, value in run if page < stray.pages[0]]
    if not before or stray.first <= run[-1][1] + page_count - run[-1][0]:
        return False
    offset = before[-1][0] - before[-1][1]
    return all(_alike(str(values[page][1]), str(page - offset)) for page in stray.pages)


def _same_text(first: dict | None, second: dict | None) -> bool:
    """Return True when two pages hold the same text, as a page scanned twice does."""
    words = [_words(page) for page in (first, second)]
    if not all(words):
        return False
    return len(words[0] & words[1]) >= SAME_TEXT * len(words[0] | words[1])


def _words(page: dict | None) -> set[str]:
    """Return a page's words of four letters or more, and the three-character runs of its
    unspaced (Japanese) text."""
    found = set()
    for line in (page or {}).get("lines") or []:
        for token in line["text"].lower().split():
            if CJK.search(token):
                found.update(token[i:i + 3] for i in range(max(1, len(token) - 2)))
            elif len(token) >= 4:
                found.add(token.strip(".,;:!?\"'()[]"))
    return found


def _supported(reads: dict[int, list[Folio]]) -> dict[int, Folio]:
    """Return the best-supported folio of each page that has one."""
    keys = {(f.kind, f.offset, f.page) for folios in reads.values() for f in folios}
    chosen = {}
    for page, folios in reads.items():
        best, best_support = None, 0
        for folio in folios:
            support = sum(
                (folio.kind, folio.offset, other) in keys
                for other in range(page - SUPPORT_WINDOW, page + SUPPORT_WINDOW + 1)
                if other != page
            )
            if support > best_support:
                best, best_support = folio, support
        if best:
            chosen[page] = best
    return chosen


STRETCH = 3
"""Runs side by side that may be one stretch of misread folios."""


def _misreads_read_right(anchors: dict[int, Folio]) -> dict[int, Folio]:
    """Return anchors with the folios OCR misread alike read as the folios around them give.

    A misread is a stretch of up to STRETCH runs, fewer folios than those around it, whose
    offset the folios on both sides agree against, each folio the value theirs give there
    with one figure misread wherever it stands (``_alike``). A book's offset changes where
    plates are bound in or pages are lost, and does not change back: on a real 1856 book,
    pages 137 and 138 read 187 and 188 (a worn 3 read as 8), each supporting the other, and
    a letter printed on 188 was placed on 138. Where the worn figure comes and goes (304 read 804, 305 read right, 307
    read 807 …) a misread is as one digit off the right reads as they are off it: the
    stretch with the most folios about it goes first, and the two sides it parted are one
    run after it. Misreads side by side are one stretch: 98 and 99 of the same book read
    "08" and "90", each a run of its own. A misread folio is kept, read right: it still
    says its page has a folio, and supports the pages about it."""
    runs = _runs(sorted(anchors.values(), key=lambda folio: folio.page))
    while True:
        misread = [(len(runs[i - 1]) + len(runs[j]) - sum(map(len, runs[i:j])), i, j)
                   for i in range(1, len(runs) - 1)
                   for j in range(i + 1, min(i + 1 + STRETCH, len(runs)))
                   if _misread(runs[i - 1], [f for run in runs[i:j] for f in run], runs[j])]
        if not misread:
            return {folio.page: folio for run in runs for folio in run}
        _, i, j = max(misread)
        offset = runs[i - 1][0].offset
        read_right = [replace(folio, value=folio.page - offset)
                      for run in runs[i:j] for folio in run]
        runs[i - 1:j + 1] = [runs[i - 1] + read_right + runs[j]]


def _misread(before: list[Folio], stretch: list[Folio], after: list[Folio]) -> bool:
    """Return True if stretch reads a figure wrong in each folio where before and after
    agree (its figures as read: "06" on page 96 is one figure off, 6 is not), and is not
    the values they give there in another order."""
    offset = before[0].offset
    return (after[0].offset == offset and before[0].kind == after[0].kind == "arabic"
            and all(folio.kind == "arabic" for folio in stretch)
            and len(stretch) < len(before) + len(after)
            # leaves bound out of order: the values the folios around give, in another order
            and sorted(f.value for f in stretch) != sorted(f.page - offset for f in stretch)
            and all(_alike(folio.digits or str(folio.value), str(folio.page - offset))
                    for folio in stretch))


def _runs(folios: list[Folio]) -> list[list[Folio]]:
    """Return the folios (in page order) in runs of the same kind and offset."""
    runs = []
    for folio in folios:
        if runs and (runs[-1][-1].kind, runs[-1][-1].offset) == (folio.kind, folio.offset):
            runs[-1].append(folio)
        else:
            runs.append([folio])
    return runs


def _fill(mapping: Mapping, anchors: list[Folio], line_counts: dict[int, int],
          reads: dict[int, list[Folio]]) -> None:
    for folio in anchors:
        mapping.values[folio.page] = (folio.kind, folio.value)
    for left, right in zip(anchors, anchors[1:]):
        _fill_gap(mapping, left, right, line_counts, reads)
    _extrapolate(mapping, anchors)
    _mark_strong(mapping, anchors)


def _plates(line_counts: dict[int, int]) -> set[int]:
    """Return the pages with too few lines to be a page of text: blanks and plates."""
    counts = sorted(line_counts.values())
    typical = counts[len(counts) // 2] if counts else 0
    return {page for page, count in line_counts.items() if count <= PLATE_SHARE * typical}


def _fill_gap(mapping: Mapping, left: Folio, right: Folio, line_counts, reads=None) -> None:
    gap = list(range(left.page + 1, right.page))
    if left.kind != right.kind:
        return
    extra = right.offset - left.offset
    if extra == 0:
        for page in gap:
            mapping.values[page] = (left.kind, page - left.offset)
    elif 0 < extra <= len(gap):
        _fill_plates(mapping, left, right, gap, extra, line_counts)
    elif extra < 0 and gap and reads:
        _fill_missing(mapping, left, right, gap, line_counts, reads)


def _fill_missing(mapping: Mapping, left: Folio, right: Folio, gap, line_counts, reads) -> None:
    """Label the pages of a gap where printed pages are missing by their own reads.

    A read too lonely to be an anchor is still evidence here: the gap leaves
    only the values between its two sides, in order. A read one digit off the
    value that continues either side ("315" beside 376) counts as that value.
    Pages between two pages so labelled are filled as any gap is.
    """
    found, previous = [], left
    for index, page in enumerate(gap):
        after = right.value - (len(gap) - index)  # the value if the right side runs back here
        options = [previous.value + 1] if previous.page == page - 1 else []
        options.append(after)
        value = _gap_value(reads.get(page, []), left.kind, previous.value, right.value, options)
        if value is not None:
            previous = Folio(page, left.kind, value, -1)
            found.append(previous)
    points = [left, *found, right]
    for inner_left, inner_right in zip(points, points[1:]):
        mapping.values[inner_left.page] = (inner_left.kind, inner_left.value)
        _fill_gap(mapping, inner_left, inner_right, line_counts)


def _gap_value(reads: list[Folio], kind: str, low: int, high: int,
               options: list[int]) -> int | None:
    """Return the value a gap page's reads give between low and high (exclusive), or None."""
    inside = [read.value for read in reads if read.kind == kind and low < read.value < high]
    if inside:
        return inside[0]
    for option in options:
        if low < option < high and any(
            read.kind == kind == "arabic" and _one_off(str(read.value), str(option))
            for read in reads
        ):
            return option
    return None


def _alike(read: str, value: str) -> bool:
    """Return True when read is value with one figure misread wherever it stands (a worn 3
    read as 8: 333 as "888", 332 as "882")."""
    swaps = {(right, wrong) for right, wrong in zip(value, read) if right != wrong}
    return len(read) == len(value) and len(swaps) == 1


def _one_off(read: str, value: str) -> bool:
    """Return True when read is value with one digit misread (same length, one differs)."""
    return len(read) == len(value) and plausible_repair(read, value)


def _fill_plates(mapping, left: Folio, right: Folio, gap, extra, line_counts) -> None:
    """Fill a gap holding `extra` unnumbered pages when the sparsest pages are clearly plates."""
    plates = sorted(gap, key=lambda page: line_counts.get(page, 0))[:extra]
    if not set(plates) <= _plates(line_counts):
        return
    value = left.value
    for page in gap:
        if page not in plates:
            value += 1
            mapping.values[page] = (left.kind, value)


def _extrapolate(mapping: Mapping, anchors: list[Folio]) -> None:
    """Extend the first and last runs to the pages before and after them."""
    if not anchors:
        return
    first, last = anchors[0], anchors[-1]
    for page in range(first.page - 1, 0, -1):
        value = page - first.offset
        if value < 1:
            break
        mapping.values[page] = (first.kind, value)
    arabic = [f for f in anchors if f.kind == "arabic"]
    roman = [f for f in anchors if f.kind == "roman"]
    if arabic and roman and roman[-1].page < arabic[0].page:
        start = arabic[0]
        for page in range(start.page - 1, roman[-1].page, -1):
            if page - start.offset < 1:
                break
            mapping.values[page] = ("arabic", page - start.offset)
        for page in range(roman[-1].page + 1, start.page):
            if page not in mapping.values:
                mapping.values[page] = ("roman", page - roman[-1].offset)
    run = [f for f in anchors if f.kind == last.kind and f.offset == last.offset]
    if len(run) >= 3:
        for page in range(last.page + 1, mapping.page_count + 1):
            mapping.values[page] = (last.kind, page - last.offset)


def _mark_strong(mapping: Mapping, anchors: list[Folio]) -> None:
    pages = [f.page for f in anchors]
    by_page = {f.page: f for f in anchors}
    for page, value in mapping.values.items():
        before = [p for p in pages if page - STRONG_WINDOW <= p <= page]
        after = [p for p in pages if page <= p <= page + STRONG_WINDOW]
        offset = page - value[1]
        agree = lambda group: any(  # noqa: E731
            by_page[p].offset == offset and by_page[p].kind == value[0] for p in group
        )
        # A numbering's first page, its folio unprinted (a body's first page after the
        # preface's last roman one), has the other numbering's folio on the page before, or
        # is its page 1 (eugenics' first essay, after front matter paged nowhere).
        starts = (page - 1 in by_page and by_page[page - 1].kind != value[0]) or value[1] == 1
        if (agree(before) or starts) and agree(after):
            mapping.strong.add(page)
