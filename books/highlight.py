"""Where on a page the searched words and a quoted sentence are (pure functions).

A page's lines carry their text and box; a match inside a line is placed
along the box by the widths of the characters before it (full-width CJK
characters count one em, others a little over half), which is exact for
Japanese and close for Latin text. Boxes come out in per cent of the page,
so the highlight scales with the image at any zoom.
"""

import unicodedata
from dataclasses import dataclass

from rapidfuzz import fuzz

from books.text import for_search

QUOTE_SCORE = 85  # rapidfuzz partial ratio a quote must reach to be taken as found
MAX_QUOTE = 1000


@dataclass(frozen=True)
class Mark:
    line: int
    start: int  # character offsets in the line's text
    end: int
    kind: str  # "word" or "quote"


def fold(text: str) -> tuple[str, list[int]]:
    """Return text folded for matching (NFKC, case-folded) and, per folded char, its source index."""
    folded, source = [], []
    for index, char in enumerate(text):
        for piece in unicodedata.normalize("NFKC", char).casefold():
            folded.append(piece)
            source.append(index)
    return "".join(folded), source


def word_marks(lines: list[dict], terms: list[str]) -> list[Mark]:
    """Return a mark for every occurrence of each term in each line, longest terms first."""
    needles = sorted({for_search(term).casefold() for term in terms if term.strip()}, key=len,
                     reverse=True)
    marks = []
    for number, line in enumerate(lines):
        text, source = fold(line.get("text", ""))
        taken = [False] * len(text)
        for needle in needles:
            start = text.find(needle)
            while start >= 0:
                end = start + len(needle)
                if not any(taken[start:end]):
                    taken[start:end] = [True] * len(needle)
                    marks.append(Mark(number, source[start], source[end - 1] + 1, "word"))
                start = text.find(needle, end)
    return sorted(marks, key=lambda mark: (mark.line, mark.start))


def quote_marks(lines: list[dict], quote: str) -> list[Mark]:
    """Return marks covering the quoted sentence across lines, or [] if it is not on the page.

    Letters and digits alone are compared, so line breaks, hyphenation and
    OCR's spacing and punctuation do not matter; a near match is taken too.
    """
    wanted = "".join(char for char in fold(quote[:MAX_QUOTE])[0] if char.isalnum())
    if len(wanted) < 4:
        return []
    chars, where = [], []
    for number, line in enumerate(lines):
        text, source = fold(line.get("text", ""))
        for char, index in zip(text, source):
            if char.isalnum():
                chars.append(char)
                where.append((number, index))
    haystack = "".join(chars)
    start = haystack.find(wanted)
    end = start + len(wanted)
    if start < 0:
        found = fuzz.partial_ratio_alignment(wanted, haystack, score_cutoff=QUOTE_SCORE)
        if found is None or found.dest_end <= found.dest_start:
            return []
        start, end = found.dest_start, found.dest_end
    return _spans(where[start:end])


def _spans(positions: list[tuple[int, int]]) -> list[Mark]:
    """Return one quote mark per line from the (line, char) positions it covers."""
    by_line: dict[int, list[int]] = {}
    for line, index in positions:
        by_line.setdefault(line, []).append(index)
    return [Mark(line, min(indexes), max(indexes) + 1, "quote") for line, indexes in by_line.items()]


def _width(char: str) -> float:
    if char.isspace():
        return 0.35
    return 1.0 if unicodedata.east_asian_width(char) in "WF" else 0.58


def box_of(line: dict, start: int, end: int) -> tuple[float, float, float, float]:
    """Return the part of line's box (x0, y0, x1, y1 in points) that chars start..end take."""
    text = line.get("text", "")
    x0, y0, x1, y1 = line["box"]
    widths = [_width(char) for char in text] or [1.0]
    total = sum(widths)
    before, inside = sum(widths[:start]) / total, sum(widths[start:end]) / total
    if line.get("dir") == "v":
        top = y0 + (y1 - y0) * before
        return x0, top, x1, top + (y1 - y0) * inside
    left = x0 + (x1 - x0) * before
    return left, y0, left + (x1 - x0) * inside, y1


def boxes(lines: list[dict], marks: list[Mark], size: tuple[float, float]) -> list[dict]:
    """Return each mark's box in per cent of the page {x, y, w, h, kind}, quotes first."""
    width, height = size
    out = []
    for mark in sorted(marks, key=lambda m: m.kind != "quote"):
        line = lines[mark.line]
        if not line.get("box") or not width or not height:
            continue
        x0, y0, x1, y1 = box_of(line, mark.start, mark.end)
        # Breathing room across the line; little along it, where the next letter is close.
        vertical = line.get("dir") == "v"
        thickness = (x1 - x0) if vertical else (y1 - y0)
        across, along = 0.15 * thickness, 0.05 * thickness
        pad_x, pad_y = (across, along) if vertical else (along, across)
        out.append({"x": 100 * (x0 - pad_x) / width, "y": 100 * (y0 - pad_y) / height,
                    "w": 100 * (x1 - x0 + 2 * pad_x) / width,
                    "h": 100 * (y1 - y0 + 2 * pad_y) / height,
                    "kind": mark.kind, "line": mark.line})
    return out


def rows(lines: list[dict], marks: list[Mark]) -> list[list[tuple[str, str]]]:
    """Return each line as (segment, kind) pairs, kind "" for plain text, for the text panel.

    Where a word falls inside the quote, the word's mark wins.
    """
    out = []
    for number, line in enumerate(lines):
        text = line.get("text", "")
        kinds = [""] * len(text)
        for mark in marks:
            if mark.line == number:
                for index in range(mark.start, min(mark.end, len(text))):
                    if kinds[index] != "word":
                        kinds[index] = mark.kind
        out.append(_segments(text, kinds))
    return out


def _segments(text: str, kinds: list[str]) -> list[tuple[str, str]]:
    segments: list[tuple[str, str]] = []
    for char, kind in zip(text, kinds):
        if segments and segments[-1][1] == kind:
            segments[-1] = (segments[-1][0] + char, kind)
        else:
            segments.append((char, kind))
    return segments
