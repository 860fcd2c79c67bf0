"""A section's text as a reader is shown it (pure functions): without its pages' furniture,
and where its own words begin after its heading.

Quotes, excerpts, the test of a place with nothing to read (``readable``) and the book's
boilerplate, the sentences it repeats in many sections (``boilerplate``, kept in its index),
all read it so.
"""

import re

from books.text import for_search
from retrieval.index.chunks import shown_text
from retrieval.text import sentences

EMPTY = 20
"""A section whose own text holds fewer letters and digits than this past its heading has
nothing to read: a chapter's title page, a part's divider, the opening of a section that
goes straight into its subsections ("15 Plotting", 「1.1 はじめに」; the shortest section
of its own on the dev books, "5.20 TODO", holds 28: one sentence naming a command)."""
_LABEL = re.compile(
    r"^\s*(?:第\s*[0-9〇一二三四五六七八九十百]+\s*[章部編節]|(?i:chapter|part|appendix)\s+\w+|"
    r"[0-9]+(?:\.[0-9]+)*\.?|[IVXLC]+\.?|[A-Z](?:\.[0-9]+)*\.?)\s+")
"""A heading's number or label ("9", "II", "E.2", 第3章), which the page may print apart."""
_CLOSING = set("?!:.)]？！：。．）」』")
"""What closes a heading after its last letter: its own question mark, colon, bracket."""


def text(chunk, furniture) -> str:
    """Return chunk's text as a reader is shown it: without its pages' furniture where it
    opens or closes a page (``chunks.shown_text``), nor where it stands among the first or
    last NEAR_EDGE characters of a page's text: OCR may read a running head after the
    page's first line, and the LaTeX guide's "40 第3 章数式の組版" then opened a quote. Every
    offset into the text holds."""
    out = shown_text(chunk, furniture)
    if not furniture:
        return out
    bounds = [*chunk.starts, [None, len(out)]]
    for n, ((page, begin), (_, end)) in enumerate(zip(bounds, bounds[1:])):
        # The longest first: a folio is taken beside the running head it stands by.
        for printed in sorted(furniture.get(page, ()), key=len, reverse=True):
            # A section's own first page opens with its heading (``shown_text``).
            opens = n > 0 or chunk.heading_id is None
            reach = NEAR_EDGE + len(printed)
            regions = [(begin, min(end, begin + reach))] if opens else []
            regions.append((max(begin, end - reach), end))
            for low, high in regions:
                at = out.find(printed, low, high)
                if at >= 0 and (len(printed) >= MIN_FURNITURE or _beside_blank(out, at, printed)):
                    out = out[:at] + " " * len(printed) + out[at + len(printed):]
    return out


NEAR_EDGE = 120
"""Characters from a page's edge within which its running head is taken for one, wherever
OCR put it among the first or last line or two."""
MIN_FURNITURE = 6
"""A piece of furniture shorter than this (a folio, "iv") is left where it is not at the
edge, unless it stands beside furniture left out: the text's own numbers are as short."""


def _beside_blank(text: str, at: int, printed: str) -> bool:
    """Return True if printed, at at in text, stands beside a run of blanks that furniture
    left."""
    blank = " " * 4
    return text[max(0, at - 4):at] == blank or text[at + len(printed):at + len(printed) + 4] == blank


def heading_end(chunk) -> int:
    """Return where the section's text begins after its heading line (0 when it does not
    open with it). The page prints the heading its own way: a chapter's number on a line
    of its own or not at all ("Contents lists" for "9 Contents lists"), in capitals
    ("GENERAL CONSIDERATIONS"), a hyphen lost at a line end; a Japanese heading runs
    straight into its first sentence, and OCR may space it differently."""
    title = for_search(chunk.title)
    for wanted in (title, _LABEL.sub("", title, count=1)):
        if end := _after(chunk.text, [char.lower() for char in wanted if char.isalnum()]):
            return end
    return 0


def _after(text: str, wanted: list[str]) -> int:
    """Return where text's letters and digits stop spelling wanted (0: they do not)."""
    if not wanted:
        return 0
    seen = 0
    for position, char in enumerate(text):
        if not char.isalnum():
            continue
        if char.lower() != wanted[seen]:
            return 0
        seen += 1
        if seen == len(wanted):
            after = text[position + 1:position + 2]
            # Latin words end at a word boundary ("Tab" does not open "Tables"); Japanese
            # runs on.
            if char.isascii() and after.isalnum():
                return 0
            end = position + 1
            while end < len(text) and text[end] in _CLOSING:  # the heading's own "?" or "："
                end += 1
            return end
    return 0


def readable(chunk, furniture=None) -> bool:
    """Return True if chunk (with its text) holds EMPTY letters of its own past its heading,
    its pages' furniture aside. Only the text's opening is read: a long section is read
    no further than its first words."""
    start = heading_end(chunk)
    opening = chunk.text[start:start + OPENING]
    for page, _ in chunk.starts[:2]:  # the opening's pages
        for printed in (furniture or {}).get(page, ()):
            opening = opening.replace(printed, " ")
    return sum(char.isalnum() for char in opening) >= EMPTY


OPENING = 400
"""Characters read past a heading to tell whether a section has words of its own."""


REPEATED = 3
"""A sentence found in this many sections of a book or more is the book's boilerplate, not
an answer: a translation's notice opening every chapter ("この入門書を書き換えたものが…として
入手できます。"), a licence line, a running note. It is never quoted."""


def boilerplate(chunks, furniture=None) -> frozenset[str]:
    """Return the keys (``sentences.sentence_key``) of the sentences that stand in REPEATED
    or more of a book's sections (chunks, with their texts), after their headings
    (furniture: the pages' running heads, never part of a sentence, ``chunks.shown_text``)."""
    sections = {}
    for n, chunk in enumerate(chunks):
        for _, sentence in sentences.split(text(chunk, furniture), heading_end(chunk)):
            if not sentences.slight(sentence):
                sections.setdefault(sentences.sentence_key(sentence), set()).add(n)
    return frozenset(key for key, found in sections.items() if len(found) >= REPEATED)
