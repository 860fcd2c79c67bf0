"""Heading candidates on body pages and how well a TOC title matches them (pure functions)."""

import re
import unicodedata
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import cached_property
from statistics import median

from toc.folio_reads import TOP_BAND
from toc.layout import Row, body_height, frame_boxes, leading, rows, stands_apart
from toc.text import bigrams, key, numbering

ROW_GAP = 2.5  # line heights: farther apart on one baseline are separate columns
HEADING_HEIGHT = 1.1  # rows this much taller than body text look like headings
MIN_FUZZY = 0.8
LABEL = 0.9  # a row that is only the entry's label ("LETTER XIII." over the letter)
FRAMED_ROWS = 3  # a heading that frames its title stands among a page's first rows
FRAMED_LENGTH = 3  # and is at most this many times as long as the title
FIRST_WORD = re.compile(r"[^\W\d_]+")
JOINED = 4  # rows of a heading joined at most
SHORT_KEY = 6  # keys this short must match exactly
WHOLE_KEY = 4  # a row that is exactly a title this long is the title
MAX_HEADING_KEY = 200
TIGHT = 0.5  # body lines: a row closer than this to the row below is a line of the text
HEAD_SHARE = 0.3  # a book has running heads when this share of its pages shows one
HEAD_SLACK = 0.35  # body lines a running head's centre may stray from the book's
STYLE_SAMPLE = 150  # pages looked at to learn a book's style


@dataclass(frozen=True)
class BodyRow:
    """A row of a body page reduced to what matching needs."""

    page: int
    line: int
    index: int  # position of the row from the top of the page
    key: str  # the whole row
    rest: str  # the row without its numbering
    number: str
    tall: float  # row height over the page's body text height
    text: str = ""
    kind: object = None  # numbering kind, see text.numbering
    joined: bool = False  # the row and rows after it, as one (with_next)

    @cached_property
    def grams(self) -> frozenset:
        return frozenset(bigrams(self.rest))


@dataclass(frozen=True)
class Style:
    """What a book's body pages share: the text height and where running heads stand."""

    body: float | None = None  # median body text height over the book's pages
    head_cy: float | None = None  # centre of the running heads; None: the book has none

    @classmethod
    def of(cls, pages: list[dict]) -> "Style":
        """Learn the style from up to STYLE_SAMPLE pages spread over the book.

        A running head is a page's first row, in the top band, standing apart from the
        text below (``toc.layout.stands_apart``); the book has running heads when enough of
        its pages show one at the same height.
        """
        pages = [page for page in pages if page.get("lines")]
        step = max(1, len(pages) // STYLE_SAMPLE)
        bodies, tops = [], []
        for page in pages[::step]:
            found = [row for row in rows(page, max_gap=ROW_GAP) if row.text]
            if len(found) < 3:
                continue
            body = body_height(found)
            bodies.append(body)
            first = found[0]
            # the row below it: a folio beside a running head shares its baseline
            second = next((row for row in found[1:] if row.y0 > first.cy), found[1])
            apart = stands_apart(second.y0 - first.y1, first, leading(found))
            if first.cy < TOP_BAND * frame_boxes(page)[2] and apart:
                tops.append(first.cy)
        if not bodies:
            return cls()
        body = median(bodies)
        slack = HEAD_SLACK * body
        best = max(tops, key=lambda cy: sum(abs(o - cy) <= slack for o in tops), default=None)
        near = [cy for cy in tops if best is not None and abs(cy - best) <= slack]
        head = median(near) if len(near) >= max(3, HEAD_SHARE * len(bodies)) else None
        return cls(body, head)

    def running_head(self, row: Row, position: int) -> bool:
        """Return True if row stands where the book's running heads stand."""
        return (
            self.head_cy is not None and position < 2
            and abs(row.cy - self.head_cy) <= HEAD_SLACK * self.body
            and row.height <= 2 * self.body
        )


PLAIN = Style()  # nothing known about the book


def page_rows(page: dict, skip_lines: set[int], style: Style = PLAIN) -> list[BodyRow]:
    """Return the candidate heading rows of one page (folios and running heads left out).

    A page set mostly in small type (a figure's labels, a table) or with only a
    few large rows is measured against the book's body text, not its own.
    """
    found = rows(page, max_gap=ROW_GAP)
    body = body_height(found)
    if style.body and not 0.75 <= body / style.body <= 1.33:
        body = style.body
    height = frame_boxes(page)[2]
    out = []
    for position, row in enumerate(found):
        below = next((other for other in found[position + 1:] if other.y0 > row.cy), None)
        if skip_lines.intersection(row.lines) or _running_head(row, position, body, height, below):
            continue
        if style.running_head(row, position):
            continue
        number, kind, rest = numbering(row.text)
        rest_key = key(rest)
        if (not rest_key and not label_word(row.text)) or len(rest_key) > MAX_HEADING_KEY:
            continue  # a label alone ("LETTER XIII.") stays: an entry may open under it
        out.append(BodyRow(
            page["number"], row.line, position, key(row.text), rest_key, number,
            row.height / max(body, 1.0), row.text, kind,
        ))
    return out


def _running_head(row: Row, position: int, body: float, height: float, below: Row | None) -> bool:
    """Return True for a small row at the top that stands apart from the text below it; one
    close against it is the text's first line (a heading set at body size opening the page)."""
    apart = below is None or below.y0 - row.y1 >= TIGHT * body
    return position < 2 and row.cy < TOP_BAND * height and row.height <= 1.2 * body and apart


def with_next(rows_: list[BodyRow]) -> list[BodyRow]:
    """Return the rows plus each heading-like row joined with the rows after it: the next
    one, and those after it while they are set as headings too, up to JOINED rows in all (a
    title the contents prints on three lines may open its chapter on four: eugenics' "THE
    POSSIBLE IMPROVEMENT OF / THE HUMAN BREED, / UNDER THE EXISTING CONDITIONS OF / LAW AND
    SENTIMENT.")."""
    joined = list(rows_)
    for position, row in enumerate(rows_):
        if not (row.tall >= HEADING_HEIGHT or row.number):
            continue
        key_, rest, previous = row.key, row.rest, row
        for after in rows_[position + 1:position + JOINED]:
            if after.index != previous.index + 1:
                break
            key_, rest = key_ + after.key, rest + after.key
            joined.append(BodyRow(row.page, row.line, row.index, key_, rest, row.number,
                                  row.tall, joined=True))
            if after.tall < HEADING_HEIGHT:
                break
            previous = after
    return joined


@dataclass(frozen=True)
class Title:
    """A TOC title prepared for matching."""

    full: str
    rest: str
    number: str
    grams: frozenset
    label: str = ""  # the word of its label ("letter" of "LETTER XIII. Fidelity…"), if any

    @classmethod
    def of(cls, title: str) -> "Title":
        number, kind, rest = numbering(title)
        rest_key = key(rest) or key(title)
        label = _first_word(title) if number and kind in ("chapter", "part") else ""
        return cls(key(title), rest_key, number, frozenset(bigrams(rest_key)), label)


def label_word(text: str) -> str:
    """Return the word of a row that is only an entry's label ("letter" of "LETTER XIII."),
    "" for any other row."""
    number, kind, rest = numbering(text)
    return _first_word(text) if number and kind in ("chapter", "part") and not key(rest) else ""


def _first_word(text: str) -> str:
    word = FIRST_WORD.match(unicodedata.normalize("NFKC", text).strip())
    return word[0].lower() if word else ""


def same_number(first: str, second: str) -> bool:
    """Return True when two numbers read alike ("XIIL", OCR's "XIII." with its stop, is XIII)."""
    return key(first) == key(second)


def similarity(title: Title, row: BodyRow) -> float:
    """Return 0..1: 1 when the row is the heading exactly, 0 when it is not the heading."""
    if title.number and row.number and not same_number(title.number, row.number):
        return 0.0
    if not row.rest:  # a label alone: the entry opens under it where its label is the same
        return LABEL if title.number and row.number and title.label and \
            title.label == label_word(row.text) else 0.0
    if row.rest == title.rest or (title.full and row.key == title.full):
        return 1.0
    if len(title.rest) < SHORT_KEY and not _same_section(title, row):
        return 0.0
    if row.number and row.rest.startswith(title.rest) and len(title.rest) >= 8:
        return 0.86  # a run-in heading: the paragraph follows on the same row
    if not 0.6 <= len(row.rest) / len(title.rest) <= 1.6:
        return _framed(title, row)
    if len(title.grams & row.grams) < 0.5 * len(title.grams):
        return 0.0
    ratio = SequenceMatcher(None, title.rest, row.rest, autojunk=False).ratio()
    return ratio if ratio >= MIN_FUZZY else 0.0


def _framed(title: Title, row: BodyRow) -> float:
    """Return MIN_FUZZY where a heading's row (tall, at the top of its page, a row as
    printed) begins or ends with the title, as OCR read each: an old book's contents shorten
    its headings ("PREFACE" for "THE TRANSLATOR'S PREFACE.", "HISTORICAL INTRODUCTION" for
    "HISTORICAL INTRODUCTION TO THE PROVINCIAL LETTERS."); 0 elsewhere."""
    size = len(title.rest)
    if row.joined or row.tall < HEADING_HEIGHT or row.index >= FRAMED_ROWS:
        return 0.0
    if size < SHORT_KEY or len(row.rest) > FRAMED_LENGTH * size:
        return 0.0
    ends = (row.rest[:size], row.rest[-size:])
    best = max(SequenceMatcher(None, title.rest, end, autojunk=False).ratio() for end in ends)
    return MIN_FUZZY if best >= MIN_FUZZY else 0.0


def _same_section(title: Title, row: BodyRow) -> bool:
    """Return True when both carry the same section number of two parts or more ("1.1.2"):
    then a short title may match approximately ("LATEX" where OCR read the logo "LTEX")."""
    return "." in title.number.strip(".") and title.number.lower() == row.number.lower()


def score(title: Title, row: BodyRow, similar: float, distance: int) -> float:
    """Return the candidate's score: similarity plus heading evidence, minus distance."""
    value = similar - 0.03 * distance
    if row.tall >= HEADING_HEIGHT:
        value += 0.15
    if title.number and row.number:
        value += 0.1
    if row.index < 3:
        value += 0.05
    return value


def plausible(title: Title, row: BodyRow, similar: float) -> bool:
    """Return False for matches that are too weak for a short or unmarked title."""
    if similar <= 0:
        return False
    if len(title.rest) < SHORT_KEY + 2:
        # A row that is the whole title, its number included, is the heading
        # whatever its size (a vertical book's item headings measure as text).
        whole = similar >= 1.0 and row.key == title.full and len(title.full) >= WHOLE_KEY
        return (row.tall >= HEADING_HEIGHT or bool(title.number and row.number)
                or row.index < 2 or whole)
    return True
