"""TOC entries from the rows of contents pages, deterministically (pure functions)."""

import re
from dataclasses import dataclass, replace
from difflib import SequenceMatcher

from toc.columns import merged_columns
from toc.detect import HEAD_ROWS, content_rows, entry_page, heading_kind, trailing_page
from toc.kanji import garbled_page, kanji_items
from toc.layout import Row, frame_boxes, is_vertical, number_only, type_size
from toc.layout import rows as make_rows
from toc.numbers import parse_page
from toc.text import KANJI_ITEM, key, numbering, strip_trailing_leaders, tidy_title

# "A 12, B 13"; OCR may drop the space before a dotted section number ("249,12.5.3").
RUN_IN = re.compile(r"(?<=[0-9ivxlc])[,;](?:\s+(?=[^\W_a-z])|(?=\d{1,3}(?:\.\d{1,3})+\s))")
WRAP_REACH = 0.75  # a row reaching this far across its column is wrapped when it lacks a page
_BROKEN_WORD = re.compile(r"(?<=[A-Za-z])[-\u2010]$")
_LOWER_START = re.compile(r"[a-z]")
WRAP_GAP = 1.8  # at most this many line heights between a wrapped row and its continuation
SET_SOLID = 0.5
"""Line heights between a row ending in a comma and the row after it, at most, where the two
are one entry: an entry's lines are set at the text's spacing, whereas entries printed with a
comma before their leaders ("PREFACE, . . . vii") stand farther apart (0.74 of a line on
pascal's contents, where OCR lost the preface's page)."""
KNOWN_WORD = 2.0  # wordfreq's Zipf: a word this common is a word ("principles" 4.6)
CENTRED_IN, CENTRED_OFF = 2.0, 1.5  # line heights: in from the left edge, off the middle
CENTRED_WIDTH = 0.7  # a centred row is at most this share of its column's width
LABEL_GAP = 3.0  # at most this many line heights between a number's label and its title
CORRIDOR = (0.3, 0.7)  # where the gutter of a two-column page may lie, as a share of width
LEADER_END = re.compile(r"[・·•…‥⋯.．]{2,}\s*$")
MAX_TITLE = 300
MAX_LABELLED = 600  # an argument under its label ("LETTER V.") runs to five lines
SPECK_CONF = 0.6  # an unnumbered entry none of whose lines OCR read surer than this is dust
CJK_SPACE = re.compile(r"(?<=[\u3040-\u30ff\u4e00-\u9fff])\s+(?=[\u3040-\u30ff\u4e00-\u9fff])")
MAX_UNPAGED = 100  # characters of an entry printed without a page number
LONE_FOLIO = re.compile(r"[ivxlc]{1,8}")
STAMP = re.compile(r"[0-9]{5,}")  # a library's accession number stamped on a scanned page
# The leaders' page number OCR read as a mark or a stray character ("INTRODUCTION, . 口").
UNREAD_PAGE = re.compile(r"(?<=[.．・·•…‥⋯_])\s*[^\sA-Za-z0-9.．・·•…‥⋯_]{1,2}$")
OLD_STYLE_ONE = ("I", "l", "|")  # an old-style 1 as OCR reads it, a line of its own
ONE_OFF = 0.5  # line heights: its right edge lies this near the page numbers' column edge
ONE_APART = 1.0  # line heights: and it stands at least this far from the title's last word
CAPITALS_MIN, CAPITALS_SLIP = 8, 0.1  # letters of a title in capitals, the share OCR read lower
HEAD_LIKE = 0.8  # how like the heading a later page's running head reads (difflib's ratio)
SENTENCE_BREAK = re.compile(r"[。．](?=.)|[.!?](?=\s+[A-Z])")


@dataclass(frozen=True)
class Raw:
    """An entry as printed: title, page token and position on the contents page."""

    title: str
    token: str | None
    toc_page: int
    toc_line: int
    indent: float  # from the column's left edge, in line heights
    height: float
    number: str
    kind: object  # numbering kind, see text.numbering
    x: float = 0.0  # left edge on the page, in points
    gap: float | None = None  # space above the row over the column's usual line spacing
    column: int = 0
    repaired: bool = False  # the page number was misread and repaired by page order
    right: float = 0.0  # right edge of the page number on the page, in points (0: none)
    centred: bool = False  # its first row is set in the middle of the column
    size: float | None = None  # its type's size on a scan (toc.layout.type_size), if measured

    @property
    def printed(self) -> tuple[str, int] | None:
        return parse_page(self.token, roman_upper=False) if self.token else None


def parse_pages(pages: list[dict], folio_lines: dict[int, set[int]]) -> list[Raw]:
    """Return the entries printed on the given contents pages, in reading order."""
    entries: list[Raw] = []
    heading = None
    for page in pages:
        number = page["number"]
        page_rows = content_rows(page, folio_lines.get(number, set()))
        if heading is None:
            heading = next((_plain_head(row.text) for row in page_rows[:HEAD_ROWS]
                            if heading_kind(row.text)), "")
        else:
            page_rows = [row for index, row in enumerate(page_rows)
                         if index >= 2 or not _repeats(row.text, heading)]
        page_rows = _lone_capital_roman(page, _after_heading(page_rows))
        vertical = is_vertical(page)
        for index, column in enumerate(_columns(page, page_rows)):
            entries += _parse_column(column, number, index, vertical, page.get("lines") or [])
    return kanji_items(entries)


def _plain_head(text: str) -> str:
    """Return a row's words but its page numbers, case-folded, without its stops."""
    words = [word for word in text.split() if not parse_page(word.strip(".,:;·"))]
    return " ".join(words).strip(" .,:;·").casefold()


def _repeats(text: str, heading: str) -> bool:
    """Return True when text is the contents' heading over a later page as OCR read it:
    beside that page's folio, a letter or two wrong ("CONTENTE.  1" under "CONTENTS." read
    on the first page, its folio "v" read as "1"). As an entry it went to review with no
    page, one entry too many."""
    plain = _plain_head(text)
    return bool(heading and plain) and SequenceMatcher(None, plain, heading).ratio() >= HEAD_LIKE


def _after_heading(page_rows: list[Row]) -> list[Row]:
    for index, row in enumerate(page_rows[: len(page_rows) // 2 + 1]):
        if heading_kind(row.text):
            return page_rows[index + 1:]
    return page_rows


def _lone_capital_roman(page: dict, page_rows: list[Row]) -> list[Row]:
    """Return the rows with a page number read as a capital roman ("V" for "v") lower-cased.

    OCR often reads a lone "v" or "x" as a capital. A capital numeral is taken
    for a page only when it stands alone at the right edge, apart from its row's
    title; in a title ("Part V") it stays with its words.
    """
    if not page_rows:
        return page_rows
    boxes, lines = frame_boxes(page)[0], page.get("lines") or []
    right = max(row.x1 for row in page_rows)
    mid = (min(row.x0 for row in page_rows) + right) / 2
    out = []
    for row in page_rows:
        last = max(row.lines, key=lambda index: boxes[index][0]) if row.lines else None
        token = lines[last]["text"].strip() if last is not None else ""
        near_edge = last is not None and right - boxes[last][2] < 1.5 * max(row.height, 1.0)
        others = [boxes[index][2] for index in row.lines if index != last]
        apart = boxes[last][0] - max(others) > 3 * max(row.height, 1.0) if others else (
            last is not None and boxes[last][0] > mid)
        capital = token.isupper() and (parse_page(token) or ("",))[0] == "roman"
        if capital and near_edge and apart and row.text.endswith(token):
            row = replace(row, text=row.text[: len(row.text) - len(token)] + token.lower())
        out.append(row)
    return out


def _columns(page: dict, page_rows: list[Row]) -> list[list[Row]]:
    """Return the rows split into columns when the page has a clear gutter."""
    boxes, width, _ = frame_boxes(page)
    lines = [index for row in page_rows for index in row.lines]
    if len(lines) < 6:
        texts = [line["text"] for line in page.get("lines") or []]
        return merged_columns(page_rows, boxes, texts) or [page_rows]
    allowed = max(1, 0.05 * len(lines))
    steps = range(int(CORRIDOR[0] * 100), int(CORRIDOR[1] * 100) + 1)
    open_steps = [
        step for step in steps
        if sum(1 for i in lines if boxes[i][0] < width * step / 100 < boxes[i][2]) <= allowed
    ]
    for run in _runs(open_steps):
        cut = width * run[len(run) // 2] / 100
        parts = [
            [row for row in make_rows(page, keep=keep) if row.text]
            for keep in ({i for i in lines if boxes[i][2] <= cut},
                         {i for i in lines if boxes[i][0] >= cut})
        ]
        if min(sum(1 for row in part if _titled(row.text)) for part in parts) >= 3:
            return parts
    texts = [line["text"] for line in page.get("lines") or []]
    return merged_columns(page_rows, boxes, texts) or [page_rows]


def _titled(text: str) -> bool:
    """Return True for a row holding a title (with letters) and its page number."""
    found = trailing_page(text)
    return bool(found) and any(char.isalpha() for char in numbering(found[0])[2])


def _runs(steps: list[int]) -> list[list[int]]:
    runs: list[list[int]] = []
    for step in steps:
        if runs and runs[-1][-1] == step - 1:
            runs[-1].append(step)
        else:
            runs.append([step])
    return runs


def _parse_column(column: list[Row], toc_page: int, number: int,
                  vertical: bool = False, lines: list[dict] = ()) -> list[Raw]:
    if not column:
        return []
    left = min(row.x0 for row in column)
    right = max(row.x1 for row in column)
    # Bottom to bottom, so that a larger title row does not set off the row after it.
    spacing = sorted(b.y1 - a.y1 for a, b in zip(column, column[1:]))
    usual = spacing[len(spacing) // 2] if spacing else 1.0
    gaps = {id(b): (b.y1 - a.y1) / max(usual, 1.0) for a, b in zip(column, column[1:])}
    entries = _parse_rows(column, toc_page, left, right, vertical, lines)
    sizes = {row.line: _size(row, lines) for row in column}
    return [
        Raw(**{**entry.__dict__, "gap": gaps.get(entry.gap), "column": number,
               "size": sizes.get(entry.toc_line)})
        for entry in entries
    ]


def _size(row: Row, lines: list[dict]) -> float | None:
    """Return the median type size of the row's lines of words (its page number aside)."""
    found = sorted(size for index in row.lines if index < len(lines)
                   and not number_only(lines[index]["text"])
                   and (size := type_size(lines[index])))
    return found[len(found) // 2] if found else None


def _parse_rows(column: list[Row], toc_page: int, left: float, right: float,
                vertical: bool = False, lines: list[dict] = ()) -> list[Raw]:
    entries: list[Raw] = []
    pending: list[Row] = []
    for row in column:
        if not vertical and (read := _old_style_one(row, lines, right)):
            row = read
        # A vertical page's kanji numbers are often misread: kept for repair (kanji.py).
        found = entry_page(row.text) or (garbled_page(row.text) if vertical else None)
        if found and not found[0]:
            _attach_page(entries, pending, found[1], toc_page, left, row.x1)
            pending = []
            continue
        if not found:
            if pending and not _continues(pending[-1], row, left, right):
                entries += _emit(pending, None, toc_page, left, right)
                pending = []
            pending.append(row)
            continue
        if pending and not _continues(pending[-1], row, left, right):
            entries += _emit(pending, None, toc_page, left, right)
            pending = []
        entries += _emit(pending + [row], found, toc_page, left, right)
        pending = []
    if pending:
        entries += _emit(pending, None, toc_page, left, right)
    return [entry for entry in entries if entry.title]


def _old_style_one(row: Row, lines: list[dict], right: float) -> Row | None:
    """Return the row with its page read as 1 where it ends in an old-style 1 that OCR read
    as a letter, alone in the column of page numbers (eugenics' first essay, "CONDITIONS OF
    LAW AND SENTIMENT" and, far to its right, "I" over the "35" and "44" below); None for
    any other row."""
    if len(row.lines) < 2 or not lines or max(row.lines) >= len(lines):
        return None
    last = max(row.lines, key=lambda index: lines[index]["box"][2])
    x0, _, x1, _ = lines[last]["box"]
    words = max((lines[index]["box"][2] for index in row.lines if index != last), default=x0)
    height = max(row.height, 1.0)
    if lines[last]["text"].strip() not in OLD_STYLE_ONE or x1 < right - ONE_OFF * height \
            or x0 - words < ONE_APART * height:
        return None
    title = row.text.rstrip()[:-len(lines[last]["text"].strip())].rstrip()
    return replace(row, text=f"{title} 1")


def _continues(previous: Row, row: Row, left: float, right: float) -> bool:
    """Return True when row carries on the title of the page-less row above it."""
    if _label_only(previous.text) and numbering(row.text)[1] is None:
        # "CHAPTER II" on a line of its own names the entry whose title follows it
        return row.y0 - previous.y1 <= LABEL_GAP * max(previous.height, 1.0)
    if row.y0 - previous.y1 > WRAP_GAP * max(previous.height, 1.0):
        return False
    if centred(previous, left, right) and not centred(row, left, right):
        return False  # a heading set in the middle ("SEVENTH NUMBER.") stands on its own
    if previous.text.endswith((",", ";", "-", "‐")) and \
            row.y0 - previous.y1 <= SET_SOLID * max(previous.height, 1.0):
        return True  # run-in entries or a hyphenated word carry on, on the next line
    if LEADER_END.search(previous.text):
        return False  # its leaders ran to a page number OCR lost: the entry is whole
    if numbering(row.text)[1] not in (None, "roman", "letter"):
        return False
    if KANJI_ITEM.match(tidy_title(row.text)):
        return False  # a Japanese item (一, 二 …) starts an entry of its own
    reach = (previous.x1 - left) / max(right - left, 1.0)
    indented = row.x0 > previous.x0 + 0.5 * previous.height
    return reach >= WRAP_REACH or indented


def centred(row: Row, left: float, right: float) -> bool:
    """Return True for a short row set in the middle of its column: well in from the left
    edge, its middle near the column's (a part's title over its entries, a chapter's label),
    not a wrapped title's indented line that runs most of the way across."""
    height = max(row.height, 1.0)
    middle = (row.x0 + row.x1) / 2
    return row.x0 - left >= CENTRED_IN * height and \
        abs(middle - (left + right) / 2) <= CENTRED_OFF * height and \
        row.x1 - row.x0 <= CENTRED_WIDTH * (right - left)


def _label_only(text: str) -> bool:
    """Return True for a row that is only an entry's number label ("CHAPTER II", "Part One",
    "第三章"): its title is on the rows below."""
    number, kind, rest = numbering(text)
    return bool(number) and kind in ("chapter", "part") and not key(rest) and \
        not re.match(r"^\d", text.strip())


def _attach_page(entries, pending, token, toc_page, left, right) -> None:
    """Give a page number printed alone to the title above it."""
    if pending:
        entries += _emit(pending, None, toc_page, left, right)
    if entries and entries[-1].token is None:
        last = entries.pop()
        entries.append(Raw(**{**last.__dict__, "token": token, "right": right}))


def _emit(group: list[Row], found, toc_page: int, left: float, right: float) -> list[Raw]:
    """Return the entries of one printed entry (several when run-in)."""
    first = group[0]
    text = _joined(group)
    sure = max(row.best for row in group)
    pieces = _run_in(text) if found else [text]
    out = []
    for index, piece in enumerate(pieces):
        title, token = _title_and_token(piece)
        if token is None and found and len(pieces) == 1 and text.endswith(found[1]):
            title, token = tidy_title(strip_trailing_leaders(text[:-len(found[1])])), found[1]
        title = in_capitals(title)
        unsure = sure < SPECK_CONF and numbering(title)[1] in (None, "letter", "roman")
        longest = MAX_LABELLED if numbering(title)[0] else MAX_TITLE
        if len(title) > longest or _paragraph(title, token) or _specks(title) or unsure:
            continue  # too long, running text, or specks read as letters
        if token is None and (LONE_FOLIO.fullmatch(title) or STAMP.fullmatch(title)):
            continue  # the page's own folio ("ii"), where folios were not told apart, or a stamp
        number, kind, _ = numbering(title)
        height = first.height
        indent = (first.x0 - left) / max(height, 1.0)
        x = first.x0 + (0.01 if index else 0.0)  # run-in entries follow the first one
        out.append(Raw(title, token, toc_page, first.line, indent, height, number, kind,
                       x, id(first) if not index else None,
                       right=group[-1].x1 if token and index == len(pieces) - 1 else 0.0,
                       centred=centred(first, left, right)))
    return out


def in_capitals(title: str) -> str:
    """Return a title set in capitals or small capitals in capitals throughout: OCR reads a
    small capital o, c or s as the lower-case letter ("THE PoSSIBLE IMPROVEMENT",
    "DEFINITION, ScOPE, AND AIMS"). A title in lower case as well is left as printed."""
    letters = [char for char in title if char.isascii() and char.isalpha()]
    lower = sum(char.islower() for char in letters)
    if len(letters) < CAPITALS_MIN or lower > CAPITALS_SLIP * len(letters):
        return title
    return re.sub(r"[A-Za-z]+", lambda word: word[0].upper()
                  if any(char.isupper() for char in word[0]) else word[0], title)


def _joined(group: list[Row]) -> str:
    """Return the text of an entry's rows as one line: a word hyphenated at a row's end is
    joined again ("Exam-" and "ple: Multiple contents" are "Example: Multiple contents", as
    ``books.text.for_search`` joins the pages' lines; "PHILO-" and "SOPHY" in capitals where
    the whole is a word), unless the row goes on with a compound broken at one of its own
    hyphens ("Right-" and "to-left text")."""
    text = ""
    for row in group:
        if text and _BROKEN_WORD.search(text) and _broken_here(text, row.text):
            whole = "-" in row.text.split(" ", 1)[0]
            text = (text if whole else text[:-1]) + row.text
        else:
            text = f"{text} {row.text}" if text else row.text
    return text


def _broken_here(text: str, following: str) -> bool:
    """Return True when a word broken at a row's end goes on at the start of the next row: a
    lower-case start, or a word in capitals that English knows whole ("PRIN-", "CIPLES")."""
    if _LOWER_START.match(following):
        return True
    head = re.search(r"([A-Z]+)[-\u2010]$", text)
    tail = re.match(r"[A-Z]+(?![a-z])", following)
    if not (head and tail):
        return False
    from wordfreq import zipf_frequency

    return zipf_frequency((head[1] + tail[0]).lower(), "en") >= KNOWN_WORD


def _specks(title: str) -> bool:
    """Return True for a "title" OCR made of dust and stray marks ("0", "一 11 い1 元 s, B").

    A numbered entry is an entry; an unnumbered one is dust when it is a
    single mark, or mostly one- and two-letter scraps.
    """
    number, _, rest = numbering(title)
    if number:
        return not key(rest) and not key(number)
    words = CJK_SPACE.sub("", title).split()  # OCR spaces out kana and kanji ("閉 し る")
    sizes = [sum(char.isalnum() for char in word) for word in words]
    if sum(sizes) < 2:
        return True
    short, longest = sum(1 for size in sizes if size <= 2), max(sizes, default=0)
    return len(words) >= 4 and short >= 0.7 * len(words) and longest <= 3


def _paragraph(title: str, token: str | None) -> bool:
    """Return True for running text caught among the entries (a preface, a note), not an entry.

    An entry without a page number is a part title or a wrapped line, short;
    one with a page number may be long, but not several sentences. A numbered
    entry is an entry however it reads (a FAQ's questions run to sentences).
    """
    if numbering(title)[0]:
        return False
    if token is None and len(title) > MAX_UNPAGED:
        return True
    sentences = len(SENTENCE_BREAK.findall(title))
    return len(title) > MAX_UNPAGED and sentences >= 2


def _run_in(text: str) -> list[str]:
    """Return the entries of a paragraph of run-in entries ("A 12, B 13"), or the text."""
    pieces = RUN_IN.split(text)
    if len(pieces) < 2:
        return [text]
    printed = [trailing_page(piece) for piece in pieces[:-1]]
    if not all(printed) or any(not p.endswith(f[1]) for p, f in zip(pieces, printed)):
        return [text]
    values = [parse_page(found[1], roman_upper=False) for found in printed]
    keys = [(kind == "arabic", value) for kind, value in values]
    return pieces if keys == sorted(keys) else [text]


def _title_and_token(piece: str) -> tuple[str, str | None]:
    """Return an entry's title and page token: the title without the comma old books print
    before the leaders ("PREFACE, . . . vii")."""
    found = entry_page(piece)
    if not found:  # leaders that ran to a page number OCR lost go with it
        title = strip_trailing_leaders(UNREAD_PAGE.sub("", piece.strip()))
        return tidy_title(title).rstrip(" ,、"), None
    return tidy_title(found[0].strip()).rstrip(" ,、"), found[1]
