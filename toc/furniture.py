"""A page's furniture: its running heads, running feet and folios (pure functions).

A printed page repeats the book's or the chapter's title and its own number in
its margins. A row of the top or bottom band (one of a page's first or last
FURNITURE_ROWS rows) is furniture when it holds the page's folio
(``toc.folios``: the page number that agrees with its neighbours'), or when
the same words stand in the same band on REPEATED pages or more (digits aside:
"Chapter 17: Arithmetic 565"). A quote never shows it as the words of a section
(``retrieval.answer.quotes``): one from the LaTeX guide began "40 第3 章数式の組版".

A page's footnotes are set apart the same way (``footnotes``): in the lower half of the
page, a row that opens with a note's mark (*, †, ‡, §, ¶, ※, "(1)", 注1) and the
rows under it, where they are set in smaller type than the page's text. A sentence that
runs on to the next page then reads on there, not into the note: eugenics' "…combined
with" ran on into "* Address to a meeting of the Eugenics Education Society".
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
    for page in pages:
        taken = {index for row in out.get(page["number"], ()) for index in row}
        notes = [row for row in footnotes(page) if not taken.intersection(row)]
        if notes:
            out.setdefault(page["number"], []).extend(notes)
    return out


NOTE_MARK = re.compile(r"^\s*(?:[*†‡§¶※]|\(\d{1,2}\)|注\s*\d)")
"""A note's mark. A bullet (•) is none: the manuals' lists end pages in small type (45 of
their pages would have lost a list's last items); nor is "[1]", a bibliography's."""
NOTE_SIZE = 0.85  # a note's type is at most this share of the page's text's
MIN_ROWS = 6  # rows of a page, at least, whose text's type can be told


def footnotes(page: dict) -> list[tuple[int, ...]]:
    """Return the rows of the page's footnotes (see the module), each as its lines' indices,
    left to right; [] where it has none."""
    lines = page.get("lines") or []
    if not lines or is_vertical(page):
        return []
    found = [row for row in rows(page, physical=True) if row.text]
    if len(found) < MIN_ROWS:
        return []
    measured = all(line.get("band") for line in lines)
    sizes = [_size(row, lines, measured) for row in found]
    body = sorted(sizes)[len(sizes) // 2]
    height = float(page.get("height") or 1)
    for position, row in enumerate(found):
        if row.cy < height / 2 or not NOTE_MARK.match(row.text):
            continue
        words = [(below, size) for below, size in zip(found[position:], sizes[position:])
                 if len(below.text.strip()) > 3 and not _DIGITS.fullmatch(below.text.strip())]
        text_pitch = _pitch(found[:position])
        if len(words) >= 2 and text_pitch:
            # Notes are set solid in small type: their lines stand closer than the text's
            # (a row's measured size strays: pascal's daggers read larger than the text).
            small = _pitch([below for below, _ in words]) < NOTE_SIZE * text_pitch
        else:
            small = bool(words) and words[0][1] < NOTE_SIZE * body
        return [below.lines for below in found[position:]] if small else []
    return []


def _pitch(rows_: list[Row]) -> float:
    """Return the median distance between the middles of consecutive rows (0: too few)."""
    steps = sorted(b.cy - a.cy for a, b in zip(rows_, rows_[1:]) if b.cy > a.cy)
    return steps[len(steps) // 2] if steps else 0.0


def _size(row: Row, lines: list[dict], measured: bool) -> float:
    """Return a row's type size: the median band its lines' ink fills where the OCR stage
    measured it (``indexing.ocr.typography``), else the row's height."""
    if not measured:
        return row.height
    bands = sorted(lines[index]["band"] for index in row.lines)
    return bands[len(bands) // 2]


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
