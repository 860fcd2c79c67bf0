"""Where each character of a page's lines is printed, for the highlights on the page image.

A born-digital page says it exactly: its text layer carries every character's
box, read again here from the PDF (``text_layer_boxes``) and lined up with the
stored lines, which were made from the same layer. A scanned page's OCR lines
carry only the line's box; re-reading the page for word boxes would cost an
OCR pass per view, so a character is placed along its line by the advance
width a proportional font (Helvetica) gives it (``advances``): the best
estimate there is without the glyphs themselves, far closer on Latin text
than counting characters ("multiplot" was marked "et multipl").
"""

import logging
import unicodedata
from functools import lru_cache

import pymupdf

from indexing.textlayer import DICT_FLAGS, line_text

logger = logging.getLogger(__name__)
Box = tuple[float, float, float, float]
SAME_BOX = 0.5  # points: a stored line's box is its text-layer line's, rounded to 0.1


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
