"""Heading candidates of body pages, for a structure inferred without a contents (pure functions).

A candidate is a row that could start a section: it carries a section number
(1.2, 第3章, Chapter 4 and the like), or it is set larger than the book's body
text, short and apart. A number printed alone above its title ("Chapter 1",
then the title) is joined with it, and so is a title wrapped onto the next row
(same size, or hanging under the title's first word). Rows that are never
headings are left out: folios and running heads (also rows repeated at the top
of many pages), index entries and other rows ending in a page number, bare
numbers, lines of program code, and body lines that run the full measure.
"""

import re
from collections import Counter
from dataclasses import dataclass

from toc.detect import trailing_page
from toc.folio_reads import TOP_BAND
from toc.layout import Row, frame_boxes, rows
from toc.match import ROW_GAP, Style
from toc.text import key, numbering

MAX_CHARS = 160  # longer rows are paragraphs
TALL = 1.12  # set this much larger than the body text: a heading's type
DISPLAY = 1.3  # a chapter's type
WRAP_GAP = 0.9  # line heights between a heading row and its continuation
REPEATED_PAGES = 3  # a top row seen on this many pages is a running head
CODE_CHARS = set("{}[]();=<>$#\\|&*/_`\"'")
CODE_SHARE = 0.12
HEAD_APART = 1.0  # body lines between a running head and the text below it
ALIGNED = 2.0  # body lines from the left edge (or the centre) a heading starts within
MAX_ROWS = 3  # rows one heading may take, its label included
WRAPPED = 0.7  # a heading row reaching this share of the measure may wrap onto the next
FULL_MEASURE = 0.9  # a body line reaching this share of the text block's width
SENTENCE_END = ("。", ".", "．", ":", ";", ",", "、")
LEADING_SPECKS = re.compile(r"^[.,'`·:;]+\s*(?=\d)")  # dust OCR reads before a number
ENDS = SENTENCE_END + ("?", "!", "？", "！")  # a heading ending so is whole


@dataclass(frozen=True)
class Candidate:
    """A row that may be a heading, with the evidence for it."""

    page: int
    line: int
    index: int  # row position on the page
    text: str
    number: str  # "1.2", "3", "A.1", "II"; "" unnumbered
    kind: object  # numbering kind (text.numbering)
    tall: float  # height over the body text's
    apart: bool  # space above it, or first on its page
    short: bool  # ends well before the right edge of the text block
    wrapped: int = 1  # rows joined into it
    aligned: bool = True  # starts at the text block's left edge, or is centred on it

    @property
    def key(self) -> str:
        return key(numbering(self.text)[2])


def candidates(pages: list[dict], skip: set[int], folio_lines: dict[int, set[int]],
               style: Style) -> list[Candidate]:
    """Return the heading candidates of the book's pages, in reading order."""
    found = []
    for page in pages:
        if page["number"] not in skip:
            found += page_candidates(page, folio_lines.get(page["number"], set()), style)
    repeated = _repeated_tops(found)
    # The chapter title itself is set large; the running heads repeating it are not.
    return [c for c in found if not (c.index < 3 and c.key in repeated and c.tall < TALL)]


def page_candidates(page: dict, folio_lines: set[int], style: Style) -> list[Candidate]:
    """Return the heading candidates of one page, top to bottom."""
    page_rows = [row for row in rows(page, max_gap=ROW_GAP) if row.text]
    page_rows = [row for row in page_rows if not folio_lines.intersection(row.lines)]
    if not page_rows:
        return []
    body = style.body or sorted(row.height for row in page_rows)[len(page_rows) // 2]
    height = frame_boxes(page)[2]
    left = min(row.x0 for row in page_rows)
    right = max(row.x1 for row in page_rows)
    out, skip = [], 0
    for position, row in enumerate(page_rows):
        if skip:
            skip -= 1
            continue
        if _running_head(page_rows, position, body, height, style):
            continue
        following = page_rows[position + 1:position + MAX_ROWS]
        joined, used = _joined(row, following, body, left, right)
        skip = used - 1
        made = _candidate(page["number"], position, joined, row, page_rows[position - 1]
                          if position else None, body, left, right, used)
        if made:
            out.append(made)
    return out


def _running_head(page_rows: list[Row], position: int, body: float, height: float,
                  style: Style) -> bool:
    """Return True for the page's running head: its first row, small, in the top band, apart.

    A second row counts only on the first one's baseline (a head in two parts),
    so that a section starting right under the running head stays a candidate,
    and so does a first row set close above the text (a page with no head).
    """
    row = page_rows[position]
    if style.running_head(row, position) and row.height <= 1.25 * body:
        return True  # where the book's heads stand, but not a chapter title set large there
    if position > 1 or row.cy >= TOP_BAND * height or row.height > 1.2 * body:
        return False
    if position == 1:
        return _running_head(page_rows, 0, body, height, style) and \
            abs(row.cy - page_rows[0].cy) <= 0.5 * body
    below = next((r for r in page_rows[1:] if abs(r.cy - row.cy) > 0.5 * body), None)
    return below is None or below.y0 - row.y1 >= HEAD_APART * body


def _joined(row: Row, following: list[Row], body: float, left: float,
            right: float) -> tuple[str, int]:
    """Return (text, rows used): a label row with its title, a wrapped title with its rest."""
    text, used, last = row.text, 1, row
    for after in following:
        if not _carries_on(last, after, body, left, right, label=used == 1 and _label(row)):
            break
        text, used, last = f"{text} {after.text}", used + 1, after
    return text, used


def _carries_on(row: Row, after: Row, body: float, left: float, right: float,
                label: bool) -> bool:
    """Return True when after continues the heading that row starts (or carries on)."""
    reach = 3.0 * body if label else WRAP_GAP * row.height
    if after.y0 - row.y1 > reach or numbering(after.text)[0] or trailing_page(after.text):
        return False
    if label:
        return after.height >= TALL * body
    measure = right - left
    wrapped = (row.x1 - left) >= WRAPPED * measure and not row.text.endswith(ENDS)
    # Both rows in display type, or the second under the title's first word: a
    # section title set little larger than the text is told from the paragraph
    # after it only by that hanging indent (OCR heights vary by a tenth or more).
    display = min(row.height, after.height) >= DISPLAY * body
    same_size = display and abs(after.height - row.height) <= 0.25 * row.height
    hanging = after.x0 > row.x0 + 1.5 * body
    return wrapped and (same_size or hanging)


def _label(row: Row) -> bool:
    """Return True for a number printed alone over its title ("Chapter 1", "第2章", "Part II")."""
    number, kind, rest = numbering(row.text)
    return bool(number) and not rest and kind in ("part", "chapter")


def _candidate(page, position, text, row, above, body, left, right, used) -> Candidate | None:
    number, kind, rest = numbering(LEADING_SPECKS.sub("", text))
    if not any(char.isalpha() for char in rest) or len(text) > MAX_CHARS * used:
        return None
    if trailing_page(text) and (number == "" or text.rstrip()[-1].isdigit()):
        return None  # an index entry or a list with page numbers, not a heading
    bare = text[:1].isdigit()  # a number alone before the title, not "Chapter 4"
    if bare and kind == "chapter" and (rest[:1].islower() or rest[:1] == "\\"):
        return None  # "76 eufrak", "10 \\newtheorem": an index entry read page first
    dotted = isinstance(kind, int)  # "5.18 {pre,post}{inst,rm}": a section about code
    if not dotted and _code(rest) or kind is None and _full_measure(row, left, right):
        return None
    apart = above is None or row.y0 - above.y1 >= 0.6 * body
    short = (row.x1 - left) < FULL_MEASURE * (right - left)
    centre = (left + right) / 2
    aligned = (row.x0 - left <= ALIGNED * body
               or abs((row.x0 + row.x1) / 2 - centre) <= ALIGNED * body)
    text = LEADING_SPECKS.sub("", text)
    return Candidate(page, row.line, position, " ".join(text.split()), number, kind,
                     row.height / max(body, 1.0), apart, short, used, aligned)


def _code(text: str) -> bool:
    """Return True for a line of program code or a command, which no heading is."""
    stripped = text.strip()
    if stripped.startswith(("$ ", "# ", "% ", ">>>", "//", "/*")):
        return True
    chars = [char for char in stripped if not char.isspace()]
    return bool(chars) and sum(char in CODE_CHARS for char in chars) >= CODE_SHARE * len(chars)


def _full_measure(row: Row, left: float, right: float) -> bool:
    return (row.x1 - left) >= FULL_MEASURE * (right - left) and len(row.text) > 50


def _repeated_tops(found: list[Candidate]) -> set[str]:
    """Return the keys of top rows printed on many pages (running heads OCR did not place)."""
    counts = Counter({(c.page, c.key) for c in found if c.index < 3 and c.key})
    counts = Counter(text for _, text in counts)
    return {text for text, count in counts.items() if count >= REPEATED_PAGES}
