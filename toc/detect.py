"""Find the table-of-contents pages and the lists of figures and tables (pure functions).

A contents page has a contents heading or, failing that, mostly rows that end in a
page number. Consecutive such pages form a block; a new heading starts a new block.
"""

import re
from dataclasses import dataclass
from itertools import groupby
from statistics import median

from toc.folio_reads import TOP_BAND
from toc.layout import Row, body_height, frame_boxes, rows
from toc.numbers import old_style_digits, parse_page
from toc.text import numbering, strip_trailing_leaders

CONTENTS = re.compile(
    r"^(?:(?:table\s+of\s+)?contents?|(?:short|brief|summary\s+of|detailed|general)\s+contents|"
    r"contents\s+at\s+a\s+glance|目\s*次|もくじ|目\s*録|inhalt(?:sverzeichnis)?|"
    r"table\s+des\s+mati[èe]res|sommaire|[íi]ndice|contenido|indice)"
    r"(?:\s*[(（].*[)）])?$",
    re.I,
)
LISTS = re.compile(
    r"^(?:list\s+of\s+\w+(?:\s+\w+)?|(?:figures|tables|illustrations|plates|examples|"
    r"exercises|listings|programs|maps|charts|diagrams)|"
    r"[図表写真]\s*目\s*次|[図表例]\s*一\s*覧|図表目次|例題(?:一覧|目次)?|演習問題(?:一覧)?)$",
    re.I,
)
FRONT_SHARE, FRONT_MIN = 0.2, 40  # where a TOC may start
MIN_ENTRY_ROWS = 3
ENTRY_SHARE = 0.45
HEAD_ROWS = 4  # a heading is among the first rows of a page
WRAP_RUN = 5  # rows without a page number that may still be one entry (a label, four lines)
ORDER_MIN, IN_ORDER = 5, 0.7  # of a page's page numbers, this share rises down the page
STACK_HEIGHT = 2.5  # line heights: numbers alone in a line this tall are several rows' pages
NUMBERS = re.compile(r"[0-9０-９ivxlc]+(?:[\s.．]+[0-9０-９ivxlc]+)+[\s.．]*")


@dataclass(frozen=True)
class Block:
    """Consecutive contents pages under one heading: kind "toc" or "lot"."""

    kind: str
    pages: tuple[int, ...]
    entry_rows: int


def trailing_page(text: str) -> tuple[str, str] | None:
    """Return (title, page token) when the text ends in a page number, else None."""
    match = TRAILING.match(text)
    if not match:
        return None
    title, token = match.group(1), match.group(2).replace(" ", "")
    token = old_style_digits(token) or token
    if parse_page(token, roman_upper=False) is None:
        return None
    if title and len(title) + len(token) == len(text) and _glued(title, token):
        return None
    if DOTTED_END.search(text):
        return None  # "3.1": a section number, not a title and its page
    return strip_trailing_leaders(title).rstrip(" ·•:"), token


TRAILING = re.compile(
    r"^(.*?)[\s.．・·•…‥⋯_]*((?<![0-9A-Za-z])[0-9０-９]{1,4}|"
    # Lower-case roman; OCR may capitalise a letter of it ("xxV").
    r"(?<=[\s.．・·•…‥⋯_])(?=[ivxlcdmIVXLCDM]*[ivxlcdm])[ivxlcdmIVXLCDM]{1,8}|"
    # Old-style figures OCR read as letters ("IOO", "6o"): toc.numbers.old_style_digits.
    r"(?<=[\s.．・·•…‥⋯_])(?=[0-9IilOo|]*[0-9Oo])[0-9IilOo|]{2,4}|"
    # Kanji numerals; a vertical number's digits may come back as separate boxes ("一 五").
    r"(?<=[\s.．・·•…‥⋯_])[〇一二三四五六七八九十百千](?: ?[〇一二三四五六七八九十百千]){0,5})$"
)


DOTTED_END = re.compile(r"\d[.．]\d{1,4}$")
# A leader dot OCR read after a contents row's page number ("Debian?. 5.").
PAGE_STOP = re.compile(r"(?<=[0-9０-９])[.．]$")
# A row whose leader dots run to a page number OCR lost is still a contents row.
LEADERS_END = re.compile(r"[^\s.．・·•…‥⋯](?:\s*[.．・·•…‥⋯]){2,}\s*$")


def entry_page(text: str) -> tuple[str, str] | None:
    """Return trailing_page of a contents row, forgiving a stop read after its number.

    Only on contents rows: in running text "see chapter 2." ends a sentence.
    """
    return trailing_page(text) or (trailing_page(PAGE_STOP.sub("", text))
                                   if PAGE_STOP.search(text) else None)


def _glued(title: str, token: str) -> bool:
    """Return True when the number sticks to a Latin letter: part of the title, not a page."""
    return title[-1].isascii() and title[-1].isalnum()


def heading_kind(text: str) -> str | None:
    """Return "toc" or "lot" when the text is a contents or list heading."""
    plain = strip_trailing_leaders(text).strip()
    if CONTENTS.match(plain):
        return "toc"
    if LISTS.match(plain):
        return "lot"
    return None


# A column's head over the page numbers or the chapter numbers ("PAGE", "Page.", "CHAP.").
COLUMN_HEAD = re.compile(r"^(?:pages?|pp?|chap(?:ter)?s?|no|頁|ページ)\s*[.．:]?$", re.I)
HEAD_WORDS = ("page", "pages")
HEAD_SIDE = 0.8  # a column's head over the page numbers ends this far across the text


def content_rows(page: dict, folio_lines: set[int]) -> list[Row]:
    """Return the page's rows without its folio rows, small running heads, column heads
    ("PAGE") and stacked numbers."""
    keep = _unstacked(page) - _column_heads(page)
    page_rows = [row for row in rows(page, keep=keep) if row.text]
    body = body_height(page_rows)
    height = frame_boxes(page)[2]
    kept = []
    for index, row in enumerate(page_rows):
        if folio_lines.intersection(row.lines) or COLUMN_HEAD.match(row.text) or \
                not any(char.isalnum() for char in row.text):
            continue  # a folio, a column's head, or a speck or leaders on a row of their own
        below = page_rows[index + 1] if index + 1 < len(page_rows) else None
        running = (index < 2 and row.cy < TOP_BAND * height and row.height <= 1.2 * body
                   and _apart(row, below, body) and not numbering(row.text)[0])
        # A short contents heading ("目次") at the top is not a running head.
        if running and not trailing_page(row.text) and not heading_kind(row.text):
            continue
        kept.append(row)
    return kept


def _column_heads(page: dict) -> set[int]:
    """Return the lines that are the head of the page-number column as OCR read it, a letter
    wrong ("PAGI" over pascal's "vii"), set at the right of the text. Set a little above the
    first entry, the line would otherwise join that entry's row and its title."""
    boxes = frame_boxes(page)[0]
    right = max((box[2] for box in boxes), default=0.0)
    left = min((box[0] for box in boxes), default=0.0)
    heads = set()
    for index, (line, box) in enumerate(zip(page.get("lines") or [], boxes)):
        word = line["text"].strip(" .．:").lower()
        if box[2] < left + HEAD_SIDE * (right - left):
            continue
        if COLUMN_HEAD.match(line["text"].strip()) or any(
                len(word) == len(head) and word[:2] == head[:2]
                and sum(a != b for a, b in zip(word, head)) <= 1 for head in HEAD_WORDS):
            heads.add(index)
    return heads


def _apart(row: Row, below: Row | None, body: float) -> bool:
    """Return True when row stands apart from the row below it by more than half a line, as a
    running head does; the first entry of a page, close over its next line, does not (nor,
    however far, one that is numbered: "CHAPTER VII" over its title)."""
    return below is None or below.y0 - row.y1 > 0.5 * body


def _unstacked(page: dict) -> set[int]:
    """Return the page's lines but those where OCR read a column of page numbers as one tall
    line ("2222 3" over the rows of 72, 72, 72, 73): in one row it would lend them all to one
    entry. The entries it spans lose their pages and are grounded between their neighbours."""
    boxes = frame_boxes(page)[0]
    heights = [box[3] - box[1] for box in boxes]
    usual = median(heights) if heights else 0.0
    return {index for index, (line, height) in enumerate(zip(page.get("lines") or [], heights))
            if not (height >= STACK_HEIGHT * usual and NUMBERS.fullmatch(line["text"].strip()))}


def _profile(page: dict, folio_lines: set[int]):
    """Return (heading kind, heading text, rows ending in a page number, entries, rows).

    Entries count a run of up to WRAP_RUN rows without a page number as one (an entry over
    several lines, "CHAPTER V" over its title), so that a contents of long entries reads as
    mostly entries; a longer run is running text, each row counted.
    """
    page_rows = content_rows(page, folio_lines)
    kind, heading = None, ""
    for row in page_rows[:HEAD_ROWS]:
        kind = heading_kind(row.text)
        if kind:
            heading = strip_trailing_leaders(row.text).strip().casefold()
            break
    ends = [bool(trailing_page(row.text) or LEADERS_END.search(row.text)) for row in page_rows]
    runs = [len(list(group)) for ended, group in groupby(ends) if not ended]
    entries = sum(ends) + sum(1 if run <= WRAP_RUN else run for run in runs)
    return kind, heading, sum(ends), entries, page_rows


def _in_order(page_rows: list[Row]) -> bool:
    """Return True unless the page numbers ending the rows mostly go back and forth: a
    contents' pages rise down its page, a table's figures do not."""
    from toc.repair import longest_non_decreasing

    values = []
    for row in page_rows:
        found = trailing_page(row.text)
        parsed = parse_page(found[1], roman_upper=False) if found else None
        if parsed and parsed[0] == "arabic":
            values.append(parsed[1])
    if len(values) < ORDER_MIN:
        return True
    return len(longest_non_decreasing(values)) >= IN_ORDER * len(values)


def find_blocks(pages: list[dict], folio_lines: dict[int, set[int]]) -> list[Block]:
    """Return the contents and list blocks at the front of the book, in page order."""
    limit = max(FRONT_MIN, int(len(pages) * FRONT_SHARE))
    profiles: dict[int, tuple] = {}

    def profile(index: int) -> tuple[str | None, bool, int, int, str]:
        if index not in profiles:
            page = pages[index]
            folios = folio_lines.get(page["number"], set())
            kind, heading, ending, entries, page_rows = _profile(page, folios)
            # A table's or a chart's figures go up and down; a contents' pages rise.
            total = len(page_rows) if _in_order(page_rows) else -1
            like = total > 0 and ending >= MIN_ENTRY_ROWS and \
                ending >= ENTRY_SHARE * max(entries - 1, 1)
            profiles[index] = (kind, like, ending, total, heading)
        return profiles[index]

    blocks: list[Block] = []
    current: dict | None = None
    for index, page in enumerate(pages):
        kind, like, ending, total, heading = profile(index)
        next_like = index + 1 < len(pages) and profile(index + 1)[1]
        # A running head that repeats the heading ("CONTENTS" over every page
        # of the contents) continues the block rather than starting one.
        repeated = current and like and heading == current["heading"]
        if kind and (like or next_like) and index < limit and not repeated:
            _close(blocks, current)
            current = {"kind": kind, "pages": [page["number"]], "rows": ending, "heading": heading}
        elif current and (like or 0 < total == ending):
            # A list or contents may end on a page of one or two entries ("5.4 数式フォント
            # 70", "5.5 TeXでの単位 74" under a running head): every row there is an entry.
            current["pages"].append(page["number"])
            current["rows"] += ending
        else:
            current = _close(blocks, current)
            if index >= limit:
                break
    _close(blocks, current)
    if not any(block.kind == "toc" for block in blocks):
        blocks += _headless(pages[:limit], profile)
    return _with_blank_pages(blocks, lambda number: profile(number - 1)[3] == 0)


def _with_blank_pages(blocks: list[Block], blank) -> list[Block]:
    """Return the blocks, each holding a blank page that separates it from the next."""
    joined = []
    for block, after in zip(blocks, blocks[1:] + [None]):
        gap = block.pages[-1] + 1
        if after and after.pages[0] == gap + 1 and blank(gap):
            block = Block(block.kind, block.pages + (gap,), block.entry_rows)
        joined.append(block)
    return joined


def _close(blocks: list[Block], current: dict | None) -> None:
    if current:
        blocks.append(Block(current["kind"], tuple(current["pages"]), current["rows"]))
    return None


def _headless(pages: list[dict], profile) -> list[Block]:
    """Return the longest run of entry-like front pages when no heading was read."""
    best: list[int] = []
    run: list[int] = []
    for index, page in enumerate(pages):
        _, like, ending, _, _ = profile(index)
        if like and ending >= 6:
            run.append(page["number"])
            best = max(best, run, key=len)
        else:
            run = []
    return [Block("toc", tuple(best), 0)] if best else []
