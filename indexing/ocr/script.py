"""Which recogniser reads a page's lines: the Latin one where its first lines are Latin script.

The small recogniser reads every script the shelf holds; the Latin one
(indexing.ocr.latin) reads Latin print in about a quarter of the time but
knows no kana. So the first few lines of a page (in the detector's order, top
to bottom) are read by the Latin one, and only when what it reads is Latin
script does it read the rest: a Japanese line comes out of it as Chinese
characters or as nothing it is sure of, and then the small recogniser reads
the whole page. A Latin-model line it is unsure of (a Japanese phrase in an
English manual, a symbol it lacks) is read again by the small recogniser, so a
mixed page costs time, never text.
"""

from __future__ import annotations

import unicodedata

SAMPLE_LINES = 4  # the first lines that tell the script
LINE_RATIO = 3.0  # a crop this much wider than high is a line of text, not a folio or a mark
MIN_LETTERS = 12  # fewer letters than this say nothing about the script: the small one reads all
LATIN_SHARE = 0.95  # of the sample's letters, for a Latin page
RECHECK_BELOW = 0.9  # a Latin-model line less sure than this is read again by the small one


def sample(shapes: list[tuple[int, int]], count: int = SAMPLE_LINES) -> list[int]:
    """Return the indices of the first count crops that are lines of text, from crop shapes
    (height, width) in the detector's order; the first crops whatever they are where too
    few are lines."""
    lines = [i for i, (height, width) in enumerate(shapes) if width >= LINE_RATIO * height]
    if len(lines) < count:
        lines += [i for i in range(len(shapes)) if i not in lines]
    return sorted(lines[:count])


def is_latin(texts: list[str]) -> bool:
    """Return True when the texts hold at least MIN_LETTERS letters and nearly all are Latin."""
    letters = [char for text in texts for char in text if char.isalpha()]
    latin = sum(unicodedata.name(char, "").startswith("LATIN") for char in letters)
    return len(letters) >= MIN_LETTERS and latin >= LATIN_SHARE * len(letters)


def unsure(read: list[tuple[str, float]], threshold: float = RECHECK_BELOW) -> list[int]:
    """Return the indices of the Latin model's lines (text, score) to read again with the
    small one: those it is unsure of, and those holding a letter beyond ASCII. On English
    print it puts accents where there are none ("Cròss referencing", "Writiig to a fle"
    is the other kind), and a real one (Barbé, rôle) is as well read by the small model."""
    return [i for i, (text, score) in enumerate(read)
            if score < threshold or any(char.isalpha() and not char.isascii() for char in text)]
