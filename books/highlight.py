"""Where on a page the searched words and a quoted sentence are (pure functions).

A page's lines carry their text and box; a match inside a line takes the
boxes of its own characters where the page's text layer gives them
(``books.glyphs``), else it is placed along the line's box by the widths a
proportional font gives the characters before it. Boxes come out in per
cent of the page, so the highlight scales with the image at any zoom.

A word is marked only where it stands as a word of its own, never inside a
longer one: "plot" not in "splot" or "multiplot", 語 not in 言語. In Latin
script a word ends where its letters do, and a form of the same word counts
as the search counts it (the Snowball stemmer: "Oarlocks" for "oarlock",
"plotting" for "plot"); in Japanese, Sudachi, as the search's own analysis,
says where the words of a line begin and end.
"""

import unicodedata
from dataclasses import dataclass

from rapidfuzz import fuzz
from sudachipy import SplitMode

from books import japanese
from books.glyphs import advances
from books.text import for_search, stem

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
    """Return a mark for every occurrence of each term in each line as a word of its own,
    longest terms first (``word_spans``)."""
    marks = []
    for number, line in enumerate(lines):
        _, source = fold(line.get("text", ""))
        for start, end in word_spans(line.get("text", ""), terms):
            marks.append(Mark(number, source[start], source[end - 1] + 1, "word"))
    return sorted(marks, key=lambda mark: (mark.line, mark.start))


def word_spans(text: str, terms) -> list[tuple[int, int]]:
    """Return (start, end) in text folded (``fold``) of each occurrence of terms that stands
    as a word: in Latin script not inside a longer word ("plot" in "splot" or "multiplot",
    "solve" in "desolve"), in Japanese on Sudachi's word bounds (語 inside 言語); longest
    terms first, none overlapping."""
    folded, _ = fold(text)
    needles = sorted({for_search(term).casefold() for term in terms or () if term.strip()}, key=len,
                     reverse=True)
    taken = [False] * len(folded)
    bounds = None
    spans = []
    for needle in needles:
        start = folded.find(needle)
        while start >= 0:
            end = start + len(needle)
            if _wide(needle[0]) or _wide(needle[-1]):
                bounds = word_bounds(folded) if bounds is None else bounds
            if not _stands_alone(folded, start, end, needle, bounds):
                end = _inflected(folded, start, end, needle)
            if end and not any(taken[start:end]):
                taken[start:end] = [True] * (end - start)
                spans.append((start, end))
            start = folded.find(needle, end or start + len(needle))
    return sorted(spans)


def _inflected(text: str, start: int, end: int, needle: str) -> int | None:
    """Return where the Latin word at text[start:] ends if it is a form of needle's last word
    ("oarlocks" for "oarlock"), else None ("splot" is no form of "plot")."""
    if _wide(needle[-1]) or not needle[-1].isalpha() or _letter(text[start - 1:start]):
        return None
    stop = end
    while _letter(text[stop:stop + 1]):
        stop += 1
    word, last = text[start:stop].split()[-1:], needle.split()[-1:]
    return stop if word and last and stem(word[0]) == stem(last[0]) else None


def _stands_alone(text: str, start: int, end: int, needle: str, bounds) -> bool:
    """Return True if needle at text[start:end] begins and ends a word."""
    before = start in bounds if _wide(needle[0]) else not _letter(text[start - 1:start])
    after = end in bounds if _wide(needle[-1]) else not _letter(text[end:end + 1])
    return before and after


def _wide(char: str) -> bool:
    return unicodedata.east_asian_width(char) in "WF"


def _letter(char: str) -> bool:
    """Return True for a letter or digit of a Latin-script word (not a Japanese one)."""
    return bool(char) and char.isalnum() and not _wide(char)


def word_bounds(text: str) -> set[int]:
    """Return the offsets in text where a word begins or ends (Sudachi's longest units)."""
    bounds = {0, len(text)}
    for morpheme in japanese.tokenizer().tokenize(text[:MAX_LINE], SplitMode.C):
        bounds.update((morpheme.begin(), morpheme.end()))
    return bounds


def segments(text: str, terms) -> list[tuple[str, bool]]:
    """Return text as (piece, marked) pairs, the terms marked where they stand as words
    (``word_spans``): a card's excerpt as the chat shows it."""
    _, source = fold(text)
    out, position = [], 0
    for start, end in word_spans(text, terms):
        begin, stop = source[start], source[end - 1] + 1
        if begin > position:
            out.append((text[position:begin], False))
        out.append((text[begin:stop], True))
        position = stop
    if position < len(text):
        out.append((text[position:], False))
    return out


MAX_LINE = 10_000  # characters: Sudachi refuses inputs over 49,149 bytes



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


def box_of(line: dict, start: int, end: int, glyphs=None) -> tuple[float, float, float, float]:
    """Return the part of line's box (x0, y0, x1, y1 in points) that chars start..end take:
    the union of their own boxes (glyphs, one per character, None for a space) where given,
    else estimated from a proportional font's widths."""
    text = line.get("text", "")
    x0, y0, x1, y1 = line["box"]
    printed = [box for box in (glyphs or [])[start:end] if box]
    if printed:
        return (min(b[0] for b in printed), min(b[1] for b in printed),
                max(b[2] for b in printed), max(b[3] for b in printed))
    widths = advances(text) or [1.0]
    total = sum(widths)
    before, inside = sum(widths[:start]) / total, sum(widths[start:end]) / total
    if line.get("dir") == "v":
        top = y0 + (y1 - y0) * before
        return x0, top, x1, top + (y1 - y0) * inside
    left = x0 + (x1 - x0) * before
    return left, y0, left + (x1 - x0) * inside, y1


def boxes(lines: list[dict], marks: list[Mark], size: tuple[float, float],
          glyphs=None) -> list[dict]:
    """Return each mark's box in per cent of the page {x, y, w, h, kind}, quotes first
    (glyphs: per line, its characters' boxes or None, ``books.glyphs``)."""
    width, height = size
    out = []
    for mark in sorted(marks, key=lambda m: m.kind != "quote"):
        line = lines[mark.line]
        if not line.get("box") or not width or not height:
            continue
        x0, y0, x1, y1 = box_of(line, mark.start, mark.end,
                                glyphs[mark.line] if glyphs else None)
        # Breathing room across the line; little along it, where the next letter is close.
        vertical = line.get("dir") == "v"
        thickness = (x1 - x0) if vertical else (y1 - y0)
        across, along = 0.1 * thickness, 0.05 * thickness
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
