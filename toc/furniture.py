"""A page's furniture: its running heads, running feet and folios (pure functions).

A printed page repeats the book's or the chapter's title and its own number in
its margins. A row of the top or bottom band (one of a page's first or last
FURNITURE_ROWS rows) is furniture when it holds the page's folio
(``toc.folios``: the page number that agrees with its neighbours'), or when
the same words stand in the same band on REPEATED pages or more (digits aside:
"Chapter 17: Arithmetic 565"). A quote never shows it as the words of a section
(``retrieval.answer.quotes``): one from the LaTeX guide began "40 第3 章数式の組版".
"""

import re
from collections import Counter

from toc.folio_reads import BOTTOM_BAND, TOP_BAND
from toc.folios import fit
from toc.layout import Row, is_vertical, leading, rows, stands_apart

FURNITURE_ROWS = 2
REPEATED = 3
_DIGITS = re.compile(r"\d+")
_SPACE = re.compile(r"\s+")


def furniture(pages: list[dict]) -> dict[int, list[tuple[int, ...]]]:
    """Return page number → its rows that are furniture (see the module), each as the
    indices of its lines, left to right."""
    folio_lines = fit(pages).folio_lines
    bands = {page["number"]: _band_rows(page) for page in pages}
    seen = Counter()
    for found in bands.values():
        seen.update({(band, shape) for band, row, shapes in found for shape in shapes})
    out: dict[int, list[tuple[int, ...]]] = {}
    for number, found in bands.items():
        for band, row, shapes in found:
            if row.line in folio_lines.get(number, ()) or any(
                    seen[band, shape] >= REPEATED for shape in shapes):
                out.setdefault(number, []).append(row.lines)
    return out


def _band_rows(page: dict) -> list[tuple[str, Row, set[str]]]:
    """Return ("top" or "bottom", row, its shapes) for the rows of the page's top and bottom
    bands, read as ``toc.folios`` reads them (a folio's row is the same row).

    A row's shapes are its own and each of its lines' ("CHAPTER 6. THE DEBIAN ARCHIVES"
    beside the section's title, which changes); a row that does not stand apart from the text
    (``toc.layout.stands_apart``) has none: the first line of a page's text may repeat too
    ("⟨environment contents⟩" in a reference manual)."""
    lines = page.get("lines") or []
    height = float(page.get("height") or 1)
    middle = [(line["box"][1] + line["box"][3]) / 2 for line in lines]
    across = is_vertical(page)  # a vertical page's folios and heads are set across
    edges = {index for index, cy in enumerate(middle)
             if not TOP_BAND * height < cy < BOTTOM_BAND * height
             and not (across and lines[index].get("dir") == "v")}
    if not edges:
        return []
    found = rows(page, physical=True, keep=edges)
    usual = leading(rows(page, physical=True))
    top = [("top", row) for row in found[:FURNITURE_ROWS] if row.cy < TOP_BAND * height]
    bottom = [("bottom", row) for row in found[-FURNITURE_ROWS:] if row.cy > BOTTOM_BAND * height]
    out = []
    for band, row in top + [item for item in bottom if item not in top]:
        others = [lines[i]["box"] for i in range(len(lines)) if i not in row.lines
                  and (middle[i] > row.cy if band == "top" else middle[i] < row.cy)]
        gap = (min((box[1] for box in others), default=height) - row.y1 if band == "top"
               else row.y0 - max((box[3] for box in others), default=0.0))
        shapes = {_shape(row.text)} | {_shape(lines[i]["text"]) for i in row.lines}
        out.append((band, row, {shape for shape in shapes if shape}
                    if stands_apart(gap, row, usual) else set()))
    return out


def _shape(text: str) -> str:
    """Return a row's words with its numbers masked: the same on every page it heads."""
    return _SPACE.sub(" ", _DIGITS.sub("#", text)).strip().casefold()
