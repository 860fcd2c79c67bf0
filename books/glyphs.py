"""Where each character of a page's lines is printed, for the highlights on the page image.

A born-digital page says it exactly: its text layer carries every character's
box, read again here from the PDF (``text_layer_boxes``) and lined up with the
stored lines, which were made from the same layer. A scanned page's OCR lines
carry only the line's box (with the detector's margin around the ink);
asking the OCR engine for word boxes would cost an OCR pass per view. So the
marked lines' strips of the scan are looked at instead (``scan_boxes``): the
ink's rows give the line's real top and bottom, the gaps between inked
columns its words: a line of n words has its n - 1 widest gaps for spaces,
so each word takes its run of ink. Within a word, or where the gaps cannot
be the spaces (CJK has none; a word OCR split), characters are spread over the ink by the
advance widths a proportional font (Helvetica) gives them (``advances``): an
estimate, far closer on Latin text than counting characters ("multiplot" was
marked "et multipl").
"""

import logging
import re
import unicodedata
from functools import lru_cache

import numpy as np
import pymupdf

from books.page_limits import PageTooLarge, check_page
from books.textlayer import DICT_FLAGS, line_text

logger = logging.getLogger(__name__)
Box = tuple[float, float, float, float]
_WORD = re.compile(r"\S+")
SAME_BOX = 0.5  # points: a stored line's box is its text-layer line's, rounded to 0.1
INK_SCALE = 4.0  # pixels a point at which a line's strip of the scan is looked at (288 dpi)
INK_LEVEL = 128  # grey below this is ink
MIN_SPACE = 0.08  # a space between words is at least this share of the ink's height
SPECK = 2  # inked runs narrower than this many pixels are dust, not letters


def text_layer_boxes(path, number: int, lines: list[dict]) -> list[list[Box | None] | None]:
    """Return, per line of page number, each character's box from the PDF at path (None for
    a space; None for a whole line the text layer does not hold as stored)."""
    try:
        with pymupdf.open(path) as document:
            textdict = document.load_page(number - 1).get_text(
                "rawdict", flags=DICT_FLAGS, sort=True)
    except (OSError, RuntimeError, ValueError, IndexError):
        logger.warning("Could not read the text layer of page %s of %s", number, path)
        return [None] * len(lines)
    return align(lines, layer_lines(textdict))


def layer_lines(textdict: dict) -> list[tuple[Box, list[tuple[str, Box]]]]:
    """Return each text line of PyMuPDF's "rawdict" output as (line box, [(char, box)]), the
    characters spelt as the stored text spells them (``textlayer.line_text``)."""
    out = []
    for block in textdict.get("blocks", []):
        for line in block.get("lines", []) if block.get("type", 0) == 0 else []:
            spans = line.get("spans", [])
            chars = [tuple(c["bbox"]) for span in spans for c in span.get("chars", [])]
            out.append((tuple(line["bbox"]), list(zip(line_text(spans), chars, strict=False))))
    return out


def align(lines: list[dict], layer) -> list[list[Box | None] | None]:
    """Return the character boxes of each stored line from the text layer's line with the
    same box and the same letters (None where there is none)."""
    out = []
    for line in lines:
        box = line.get("box") or ()
        found = None
        for layer_box, chars in layer:
            if len(box) == 4 and all(abs(a - b) <= SAME_BOX for a, b in zip(box, layer_box)):
                found = characters(line.get("text", ""), chars)
                if found is not None:
                    break
        out.append(found)
    return out


def characters(text: str, chars: list[tuple[str, Box]]) -> list[Box | None] | None:
    """Return the box of each character of text from the layer's chars (None for a space), or
    None when text is not spelt by them: the stored text only collapsed their blanks."""
    out: list[Box | None] = []
    printed = iter((char, box) for char, box in chars if not char.isspace())
    for char in text:
        if char.isspace():
            out.append(None)
            continue
        layer_char, box = next(printed, ("", None))
        if layer_char.casefold() != char.casefold():
            return None
        out.append(box)
    return out


def scan_boxes(path, number: int, lines: list[dict], marked, max_image_pixels: int):
    """Return, per line of scanned page number, each character's box placed on the ink of the
    page's image (None for a space; None for a line not marked, vertical, or without ink)."""
    out: list[list[Box | None] | None] = [None] * len(lines)
    try:
        with pymupdf.open(path) as document:
            page = document.load_page(number - 1)
            check_page(page, max_image_pixels)
            for index in sorted(marked):
                line = lines[index]
                if line.get("dir") == "v" or len(line.get("box") or ()) != 4:
                    continue
                clip = pymupdf.Rect(line["box"]) & page.rect
                if clip.is_empty:
                    continue
                pixmap = page.get_pixmap(matrix=pymupdf.Matrix(INK_SCALE, INK_SCALE), clip=clip,
                                         colorspace=pymupdf.csGRAY, alpha=False)
                grey = np.frombuffer(pixmap.samples, np.uint8).reshape(
                    pixmap.height, pixmap.stride)[:, :pixmap.width]
                out[index] = on_ink(line.get("text", ""), tuple(clip), grey < INK_LEVEL)
    except (OSError, RuntimeError, ValueError, IndexError, PageTooLarge):
        logger.warning("Could not look at the ink of page %s of %s", number, path)
    return out


def on_ink(text: str, box: Box, ink) -> list[Box | None] | None:
    """Return each character's box for a line of text whose strip (box, in points) of the scan
    has ink (a boolean array, rows by columns), or None where the strip has none."""
    runs = _runs(ink.any(axis=0))
    if not runs or not text.strip():
        return None
    x0, y0, x1, y1 = box
    scale_x, scale_y = ink.shape[1] / (x1 - x0), ink.shape[0] / (y1 - y0)
    lettered = np.zeros(ink.shape[1], bool)  # the rows inked by letters, not by specks
    for left, right in runs:
        lettered[left:right] = True
    rows = np.flatnonzero(ink[:, lettered].any(axis=1))
    top, bottom = y0 + rows[0] / scale_y, y0 + (rows[-1] + 1) / scale_y
    words = [(m.start(), m.end()) for m in _WORD.finditer(text)]
    spans = _words(runs, len(words), MIN_SPACE * (rows[-1] - rows[0] + 1))
    if spans and not _alike([advances(text[a:b]) for a, b in words], spans):
        spans = None  # the ink holds something the text does not (a word OCR dropped)
    if spans is None:  # spread the whole line over its ink
        words = [(len(text) - len(text.lstrip()), len(text.rstrip()))]
        spans = [(runs[0][0], runs[-1][1])]
    out: list[Box | None] = [None] * len(text)
    for (start, end), (left, right) in zip(words, spans, strict=True):
        widths = advances(text[start:end])
        total, before = sum(widths) or 1.0, 0.0
        span = (right - left) / scale_x
        for offset, width in enumerate(widths):
            if not text[start + offset].isspace():
                a = x0 + left / scale_x + span * before / total
                out[start + offset] = (a, top, a + span * width / total, bottom)
            before += width
    return out


def _runs(columns) -> list[tuple[int, int]]:
    """Return the [start, end) pixel columns of each run of inked columns, specks left out."""
    inked = np.flatnonzero(columns)
    if not inked.size:
        return []
    breaks = np.flatnonzero(np.diff(inked) > 1)
    starts = [inked[0], *inked[breaks + 1]]
    ends = [*(inked[breaks] + 1), inked[-1] + 1]
    return [(int(a), int(b)) for a, b in zip(starts, ends, strict=True) if b - a >= SPECK]


def _words(runs, count: int, least: float) -> list[tuple[int, int]] | None:
    """Return the [start, end) columns of count words made of the runs: the count - 1 widest
    gaps are the spaces (in set type a space is wider than any gap inside a word), or None
    where there are too few gaps or one of them is narrower than least."""
    gaps = [runs[i + 1][0] - runs[i][1] for i in range(len(runs) - 1)]
    if count < 1 or len(gaps) < count - 1:
        return None
    spaces = sorted(sorted(range(len(gaps)), key=lambda i: -gaps[i])[:count - 1])
    if spaces and gaps[spaces[0]] < least or any(gaps[i] < least for i in spaces):
        return None
    edges = [-1, *spaces, len(runs) - 1]
    return [(runs[a + 1][0], runs[b][1]) for a, b in zip(edges, edges[1:], strict=False)]


def _alike(widths: list[list[float]], spans, spread: float = 2.0) -> bool:
    """Return True if the words' runs of ink are as wide as their letters say, each within
    a factor spread of the line's usual pixels to an em (one size of type)."""
    scales = [(right - left) / (sum(w) or 1.0) for w, (left, right) in zip(widths, spans,
                                                                             strict=True)]
    usual = float(np.median(scales))
    return all(usual / spread <= scale <= usual * spread for scale in scales)


@lru_cache(maxsize=4096)
def advance(char: str) -> float:
    """Return char's width in ems: one for full-width (CJK) characters, else Helvetica's."""
    if unicodedata.east_asian_width(char) in "WF":
        return 1.0
    width = _helvetica().glyph_advance(ord(char))
    return width if width > 0 else 0.55  # a character Helvetica lacks: an average letter


def advances(text: str) -> list[float]:
    """Return each character's width in ems as a proportional font sets it."""
    return [advance(char) for char in text]


@lru_cache(maxsize=1)
def _helvetica() -> pymupdf.Font:
    return pymupdf.Font("helv")
