"""Books scanned as two-page spreads: each half read as the book page it is (pure functions).

The ocr stage records where a spread divides (a page's "gutter", in points).
When enough of a book's pages are spreads, each one is cut into its two book
pages before the contents are recovered: folios, indentation and headings are
then measured on a page of their own, as printed. The results are carried back
to the PDF's pages, which clips and citations point at: a heading on the right
half of PDF page 30 is on page 30, and page 30's label reads "58–59".
A vertical (縦書き) book opens from the right, so its right half comes first.
"""

from dataclasses import dataclass, replace

from toc.layout import is_vertical
from toc.model import PageRecord, TocResult, with_ends

MIN_SHARE = 0.3  # share of the pages with text that must be spreads
DASH = "–"


@dataclass(frozen=True)
class Half:
    """One book page of the scan: a PDF page, or one side of a spread."""

    physical: int
    side: str  # "left", "right", or "" for a whole page
    lines: tuple[int, ...]  # indices of its lines on the PDF page


def is_spread_book(pages: list[PageRecord]) -> bool:
    """Return True when enough of the pages with text were scanned as spreads."""
    with_text = [page for page in pages if page.get("lines")]
    spreads = sum(1 for page in with_text if page.get("gutter"))
    return bool(with_text) and spreads >= MIN_SHARE * len(with_text)


def split(pages: list[PageRecord]) -> tuple[list[PageRecord], list[Half]]:
    """Return the book pages (halves numbered in reading order) and where each one lies."""
    vertical = sum(is_vertical(page) for page in pages) * 2 > len(pages)
    logical, halves = [], []
    for page in pages:
        for side, kept, x0, width in _sides(page, vertical):
            lines = [_shifted(page["lines"][index], x0) for index in kept]
            logical.append(PageRecord(number=len(logical) + 1, width=width,
                                      height=page.get("height"), lines=lines))
            halves.append(Half(page["number"], side, tuple(kept)))
    return logical, halves


def _sides(page: PageRecord, vertical: bool):
    """Yield (side, line indices, x offset, width) of each book page on a PDF page."""
    lines, cut, width = page.get("lines") or [], page.get("gutter"), float(page.get("width") or 1)
    if not cut:
        yield "", list(range(len(lines))), 0.0, width
        return
    centre = [(line["box"][0] + line["box"][2]) / 2 for line in lines]
    left = ("left", [i for i, x in enumerate(centre) if x < cut], 0.0, cut)
    right = ("right", [i for i, x in enumerate(centre) if x >= cut], cut, width - cut)
    yield from ((right, left) if vertical else (left, right))


def _shifted(line: dict, x0: float) -> dict:
    x_0, y_0, x_1, y_1 = line["box"]
    return {**line, "box": [round(x_0 - x0, 1), y_0, round(x_1 - x0, 1), y_1]}


def to_physical(result: TocResult, halves: list[Half], page_count: int) -> TocResult:
    """Return result, found on the book pages, on the PDF's pages."""

    def physical(number):
        return halves[number - 1].physical if number else number

    def line(number, index):
        if number is None or index is None:
            return index
        kept = halves[number - 1].lines
        return kept[index] if 0 <= index < len(kept) else None

    entries = [replace(entry, page=physical(entry.page), line=line(entry.page, entry.line),
                       toc_page=physical(entry.toc_page) if entry.toc_page else entry.toc_page,
                       toc_line=line(entry.toc_page or None, entry.toc_line) or 0)
               for entry in result.entries]
    return TocResult(
        with_ends(entries, page_count),
        sorted({physical(p) for p in result.toc_pages}),
        sorted({physical(p) for p in result.lot_pages}),
        labels(result.labels, halves),
        [replace(a, pages=sorted({physical(p) for p in a.pages})) for a in result.anomalies],
        inferred=result.inferred,
        spreads=True,
    )


def labels(found: dict[int, str], halves: list[Half]) -> dict[int, str]:
    """Return each PDF page's label: its book pages' labels, joined ("58–59")."""
    joined: dict[int, list[str]] = {}
    for number, half in enumerate(halves, 1):
        if number in found:
            joined.setdefault(half.physical, []).append(found[number])
    return {page: DASH.join(parts) for page, parts in joined.items()}


def side_of(page: PageRecord, line: int | None) -> str:
    """Return "left" or "right": the half of a spread that holds line; "" when not a spread."""
    lines, cut = page.get("lines") or [], page.get("gutter")
    if not cut or line is None or not 0 <= line < len(lines):
        return ""
    x0, _, x1, _ = lines[line]["box"]
    return "left" if (x0 + x1) / 2 < cut else "right"

