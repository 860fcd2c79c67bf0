"""A born-digital PDF's own outline (bookmarks) checked against the printed contents (pure).

The printed contents stay the path that must be right by itself: scans carry
no outline. Where the outline agrees with the printed contents on a title (in
the same order), the outline confirms the entry's level and its page; where it
disagrees (another page, a title on one side only, another order), both are
shown as an anomaly and the page that holds the title wins.
"""

from bisect import bisect_left
from dataclasses import dataclass, replace
from difflib import SequenceMatcher

from toc.ends import section_ends
from toc.model import Anomaly, Entry, TocResult, anomaly
from toc.text import key, numbering

MIN_MARKS = 3  # fewer bookmarks than this are no outline of the book
MIN_SIMILAR = 0.8  # titles this alike (between two agreed ones) are the same entry
MAX_GAP_PAIRS = 20_000  # titles compared by likeness between two agreed ones, at most
MAX_LISTED = 20  # disagreements shown one by one; the rest are counted in one anomaly
OUTLINE_CONFIDENCE = 0.97  # a page the outline and the pages agree on


@dataclass(frozen=True)
class Mark:
    """One bookmark of the outline: its depth (1 = top), title and physical page."""

    level: int
    title: str
    page: int | None  # 1-based; None: the bookmark points nowhere in the document


def marks_of(toc: list, page_count: int) -> list[Mark]:
    """Return the bookmarks of PyMuPDF's ``get_toc()`` rows ([level, title, page, …])."""
    marks = []
    for row in toc:
        level, title, page = int(row[0]), str(row[1] or "").strip(), int(row[2])
        if title:
            marks.append(Mark(level, title, page if 1 <= page <= page_count else None))
    return marks


def check(entries: list[Entry], marks: list[Mark], page_lines: dict[int, list[str]]
          ) -> tuple[list[Entry], list[Anomaly]]:
    """Return the entries as the outline confirms them, and the disagreements as anomalies.

    page_lines: physical page → the texts of its lines (where titles are looked for).
    Entries get the outline's level and page where the titles agree; ends
    (page_end) are left for the caller to recompute.
    """
    if len(marks) < MIN_MARKS or not entries:
        return entries, []
    pairs = align([e.title for e in entries], [m.title for m in marks])
    holds = _Holds(page_lines)
    shift = min(marks[j].level for _, j in pairs) - min(e.level for e in entries) if pairs else 0
    matched = dict(pairs)
    out, anomalies = [], []
    for index, entry in enumerate(entries):
        mark = marks[matched[index]] if index in matched else None
        if mark is None:
            out.append(entry)
            continue
        level = max(1, mark.level - shift)
        if level != entry.level:
            anomalies.append(anomaly("outline_level", [p for p in [entry.page] if p],
                                     "outline_level", title=entry.title, printed=entry.level,
                                     outline=level))
        entry = replace(entry, level=level)
        confirmed, disagreement = _page(entry, mark, holds)
        out.append(confirmed)
        anomalies += [disagreement] if disagreement else []
    out = _follow_levels(entries, out, matched)
    anomalies += _one_sided(entries, marks, pairs, shift)
    return out, _capped(anomalies)


def _page(entry: Entry, mark: Mark, holds) -> tuple[Entry, Anomaly | None]:
    """Return the entry placed where the outline and the pages say, and any disagreement."""
    if mark.page is None:
        return entry, None
    on_mark = holds(mark.page, entry.title)
    if entry.page == mark.page:
        if entry.status == "exact" or not on_mark:
            return entry, None
        return replace(entry, status="exact", confidence=OUTLINE_CONFIDENCE), None
    line = holds.line(mark.page, entry.title) if on_mark else None
    if entry.page is None:
        status, confidence = ("exact", OUTLINE_CONFIDENCE) if on_mark else ("offset", 0.7)
        return replace(entry, page=mark.page, line=line, status=status,
                       confidence=confidence), None
    take_mark = on_mark or not holds(entry.page, entry.title)
    disagreement = anomaly("outline_page", sorted({entry.page, mark.page}), "outline_page",
                           title=entry.title, printed=entry.page, outline=mark.page,
                           taken=mark.page if take_mark else entry.page)
    if not take_mark:
        return entry, disagreement
    status = "exact" if on_mark else "offset"
    return replace(entry, page=mark.page, line=line, status=status,
                   confidence=OUTLINE_CONFIDENCE if on_mark else 0.7), disagreement


def _follow_levels(before: list[Entry], after: list[Entry], matched: dict) -> list[Entry]:
    """Return after with each entry the outline does not hold moved as its own kind was.

    An unmatched entry takes the change of the last matched entry that the
    printed contents gave the same level, so it stays beside its kind.
    """
    moved: dict[int, int] = {}
    out = []
    for index, (old, new) in enumerate(zip(before, after)):
        if index in matched:
            moved[old.level] = new.level - old.level
            out.append(new)
        else:
            out.append(replace(new, level=max(1, old.level + moved.get(old.level, 0))))
    return out


def _one_sided(entries: list[Entry], marks: list[Mark], pairs, shift: int) -> list[Anomaly]:
    """Return anomalies for titles on one side only, or in another order on the other."""
    if not pairs:
        return [anomaly("outline_titles", [], "outline_titles")]
    found = {i for i, _ in pairs}
    used = {j for _, j in pairs}
    deepest = max(marks[j].level for _, j in pairs)
    first, last = pairs[0][1], pairs[-1][1]
    mark_at = {}
    for j, mark in enumerate(marks):
        mark_at.setdefault(_key(mark.title), j)
    anomalies = []
    for index, entry in enumerate(entries):
        if index in found:
            continue
        elsewhere = mark_at.get(_key(entry.title))
        if elsewhere is not None:
            anomalies.append(anomaly("outline_order", [p for p in [entry.page] if p],
                                     "outline_order", title=entry.title, bookmark=elsewhere + 1))
        else:
            anomalies.append(anomaly("outline_missing", [p for p in [entry.page] if p],
                                     "outline_missing", title=entry.title))
    printed = {_key(entry.title) for entry in entries}
    listed = _listing_children(marks, used)
    for j in range(first, last + 1):
        mark = marks[j]
        if j in used or mark.level > deepest or _key(mark.title) in printed:
            continue
        if not listed[j]:
            continue  # the contents list none of its parent's parts: finer, not different
        anomalies.append(anomaly("outline_extra", [p for p in [mark.page] if p], "outline_extra",
                                 title=mark.title, level=max(1, mark.level - shift)))
    return anomalies


def _listing_children(marks: list[Mark], used: set[int]) -> list[bool]:
    """Return, for each bookmark, whether the printed contents list any of its siblings
    (or it is at the top): an index's letter groups under "Index" are no disagreement
    when the contents give "Index" alone."""
    parents: list[int | None] = []
    stack: list[int] = []
    for j, mark in enumerate(marks):
        while stack and marks[stack[-1]].level >= mark.level:
            stack.pop()
        parents.append(stack[-1] if stack else None)
        stack.append(j)
    with_listed = {parents[j] for j in used}
    return [parents[j] is None or parents[j] in with_listed for j in range(len(marks))]


def _capped(anomalies: list[Anomaly]) -> list[Anomaly]:
    """Return the first MAX_LISTED disagreements of each kind and a count of the rest."""
    kept, left = [], {}
    for found in anomalies:
        if sum(1 for a in kept if a.kind == found.kind) < MAX_LISTED:
            kept.append(found)
        else:
            left[found.kind] = left.get(found.kind, 0) + 1
    kept += [anomaly(kind, [], "outline_more", count=count) for kind, count in left.items()]
    return kept


def align(left: list[str], right: list[str]) -> list[tuple[int, int]]:
    """Return (left index, right index) pairs of titles that agree, in both orders.

    Titles equal once normalised (with or without their numbering) anchor the
    alignment: the longest chain of them increasing on both sides. Between two
    anchors, titles alike enough are paired in order.
    """
    index: dict[str, list[int]] = {}
    for j, title in enumerate(right):
        for k in _keys(title):
            index.setdefault(k, []).append(j)
    candidates = []
    for i, title in enumerate(left):
        js = sorted({j for k in _keys(title) for j in index.get(k, [])}, reverse=True)
        candidates += [(i, j) for j in js]
    anchors = _increasing(candidates)
    return _fill_gaps(anchors, left, right)


def _increasing(candidates: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Return the longest chain of (i, j) with j increasing (candidates by i, then j down)."""
    tails: list[int] = []  # smallest j ending a chain of each length
    ends: list[int] = []  # candidate index ending it
    back = [-1] * len(candidates)
    for n, (_, j) in enumerate(candidates):
        at = bisect_left(tails, j)
        back[n] = ends[at - 1] if at else -1
        if at == len(tails):
            tails.append(j)
            ends.append(n)
        else:
            tails[at], ends[at] = j, n
    chain, n = [], ends[-1] if ends else -1
    while n >= 0:
        chain.append(candidates[n])
        n = back[n]
    return chain[::-1]


def _fill_gaps(anchors, left: list[str], right: list[str]) -> list[tuple[int, int]]:
    pairs, bounds = [], [(-1, -1), *anchors, (len(left), len(right))]
    for (i0, j0), (i1, j1) in zip(bounds, bounds[1:]):
        j = j0 + 1
        if (i1 - i0) * (j1 - j0) > MAX_GAP_PAIRS:
            j = j1  # no anchors over a long stretch: nothing there is paired by likeness
        for i in range(i0 + 1, i1):
            a = _key(left[i])
            for jj in range(j, j1):
                if a and SequenceMatcher(None, a, _key(right[jj])).ratio() >= MIN_SIMILAR:
                    pairs.append((i, jj))
                    j = jj + 1
                    break
        if (i1, j1) != (len(left), len(right)):
            pairs.append((i1, j1))
    return pairs


def _keys(title: str) -> set[str]:
    return {key(title), key(numbering(title)[2])} - {""}


def _key(title: str) -> str:
    return key(numbering(title)[2]) or key(title)


class _Holds:
    """Where a page's lines hold a title (its words, numbering aside), cached per page."""

    def __init__(self, page_lines: dict[int, list[str]]):
        self.page_lines, self.keys = page_lines, {}

    def __call__(self, page: int | None, title: str) -> bool:
        """Return True when the page's text holds the title."""
        if page is None:
            return False
        if page not in self.keys:
            self.keys[page] = key(" ".join(self.page_lines.get(page, ())))
        wanted = _key(title)
        return bool(wanted) and wanted in self.keys[page]

    def line(self, page: int, title: str) -> int | None:
        """Return the index of the line that opens the title on the page, None if none does."""
        wanted = _key(title)
        for index, text in enumerate(self.page_lines.get(page, ())):
            for read in {key(text), _key(text)} - {""}:
                if len(read) >= min(len(wanted), 4) and (
                        read.startswith(wanted) or wanted.startswith(read)):
                    return index
        return None


def with_outline(result: TocResult, marks: list[Mark], pages: list[dict]) -> TocResult:
    """Return result checked against the PDF's outline (unchanged without one), ends anew."""
    if len(marks) < MIN_MARKS or not result.entries:
        return result
    page_lines = {page["number"]: [line.get("text", "") for line in page.get("lines") or []]
                  for page in pages}
    entries, anomalies = check(result.entries, marks, page_lines)
    found = section_ends([(e.level, e.page, e.line) for e in entries], len(pages))
    entries = [replace(entry, page_end=end) for entry, end in zip(entries, found)]
    return replace(result, entries=entries, anomalies=[*result.anomalies, *anomalies])
