"""What the printed page numbers say about the scan: pages missing, doubled or out of order.

Pure functions over the label of each physical page (``toc.folios``). The
book's own order is the longest run of printed pages that rises through the
scan; a page off that run reads a number the run has too (a page scanned twice)
or one it lacks (a page out of place). A printed page that no physical page
reads, between two pages of the run with nothing unnumbered between them, is
not in the scan: a page the scanner skipped, or two pages turned at once.
Unnumbered pages between (a chapter opening whose folio was not read) may be
some of the missing ones; then only how many are missing is known, and the
stretch is reported as not all there.
"""

from dataclasses import dataclass

from toc.model import ANOMALY_WORDS, Anomaly
from toc.numbers import label
from toc.repair import longest_increasing

KINDS = ("roman", "arabic")


def faults(values: dict[int, tuple[str, int]], plates: set[int]
           ) -> tuple[list[Anomaly], set[tuple[str, int]]]:
    """Return the anomalies of the printed sequence, and the printed pages surely not in it.

    values: physical page → (kind, printed value), where known. plates: pages
    that hold no printed page (blank or nearly so), which may stand anywhere.
    """
    anomalies: list[Anomaly] = []
    missing: set[tuple[str, int]] = set()
    for stray in strays(values):
        if stray.twins:
            anomalies.append(_doubled(stray.kind, sorted(stray.pages + stray.twins),
                                      stray.first, stray.last))
        elif not stray.apart:
            anomalies.append(_misplaced(stray.kind, stray.pages, stray.first, stray.last))
    for kind in KINDS:
        read = [(page, value) for page, (k, value) in sorted(values.items()) if k == kind]
        run = order(read)
        present = {value for _, value in read}
        for before, after in zip(run, run[1:]):
            absent = [v for v in range(before[1] + 1, after[1]) if v not in present]
            unnumbered = [p for p in range(before[0] + 1, after[0])
                          if p not in values and p not in plates]
            pages = [before[0], after[0]]
            if unnumbered and len(absent) > len(unnumbered):
                anomalies.append(_missing(kind, pages, absent, len(unnumbered)))
            elif not unnumbered:
                for _, first, last in _stretches([(v, v) for v in absent]):
                    anomalies.append(_missing(kind, pages, list(range(first, last + 1)), 0))
                missing.update((kind, value) for value in absent)
    return sorted(anomalies, key=lambda anomaly: anomaly.pages), missing


def order(read: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Return the book's own order among (page, value) reads of one kind: the longest run of
    values that rises through the scan."""
    return [read[index] for index in longest_increasing([value for _, value in read])]


@dataclass(frozen=True)
class Stray:
    """Pages off the book's order, reading consecutive values first…last: a page scanned
    twice (twins: the pages of the order that read the same) or out of place (no twins)."""

    kind: str
    pages: list[int]
    first: int
    last: int
    twins: list[int]
    apart: bool = False
    """After the order's last page, its values before the order's first: matter paged apart
    (a publisher's catalogue bound in after the book, "6"–"9" after pascal's 392), no page of
    the book out of place."""


def strays(values: dict[int, tuple[str, int]]) -> list[Stray]:
    """Return the stretches of pages whose printed values are off the book's order."""
    found = []
    for kind in KINDS:
        read = [(page, value) for page, (k, value) in sorted(values.items()) if k == kind]
        run = order(read)
        on_run = {value for _, value in run}
        stray = [item for item in read if item not in set(run)]
        for pages, first, last in _stretches([s for s in stray if s[1] in on_run]):
            twins = [page for page, value in run if first <= value <= last]
            found.append(Stray(kind, pages, first, last, twins))
        for pages, first, last in _stretches([s for s in stray if s[1] not in on_run]):
            apart = pages[0] > run[-1][0] and last < run[0][1]
            found.append(Stray(kind, pages, first, last, [], apart))
    return found


def _stretches(items: list[tuple[int, int]]) -> list[tuple[list[int], int, int]]:
    """Return (pages, first value, last value) for each run of consecutive pages that read
    consecutive values."""
    found: list[tuple[list[int], int, int]] = []
    for page, value in items:
        if found and found[-1][0][-1] == page - 1 and found[-1][2] == value - 1:
            found[-1] = (found[-1][0] + [page], found[-1][1], value)
        else:
            found.append(([page], value, value))
    return found


def _printed(kind: str, first: int, last: int) -> tuple[str, ...]:
    return (label(kind, first),) if first == last else (label(kind, first), label(kind, last))


def _missing(kind: str, pages: list[int], absent: list[int], unnumbered: int) -> Anomaly:
    printed = _printed(kind, absent[0], absent[-1])
    count = len(absent) - unnumbered
    code = "scan_missing_some" if unnumbered else "scan_missing"
    return _said("missing_page", pages, code, printed, count)


def _doubled(kind: str, pages: list[int], first: int, last: int) -> Anomaly:
    return _said("duplicate_page", pages, "scan_twice", _printed(kind, first, last))


def _misplaced(kind: str, pages: list[int], first: int, last: int) -> Anomaly:
    return _said("out_of_order", pages, "scan_out_of_order", _printed(kind, first, last))


def _said(kind: str, pages: list[int], code: str, printed: tuple[str, ...],
          count: int = 0) -> Anomaly:
    """Return the anomaly said by code (one page's words where the stretch is one page)."""
    code += "_one" if len(printed) == 1 else ""
    values = {"first": printed[0], "last": printed[-1], **({"count": count} if count else {})}
    return Anomaly(kind, pages, ANOMALY_WORDS[code] % values, code, values, printed, count)
