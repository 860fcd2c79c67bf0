"""What each page's header and footer rows read as its folio (pure functions).

A page's candidates are the numbers at either end of its first two and last two
rows in the top and bottom bands, kanji folios in any bracket, "12 / 300" and
"- 12 -". A number whose row sits close against the text beside it is a line of
that text (a contents entry and its page at the top of a contents page), not a
folio. Which candidates count is decided across pages (``toc.folios.fit``).
"""

import re
import unicodedata
from dataclasses import dataclass

from toc.layout import body_height, is_vertical, leading, rows, stands_apart
from toc.numbers import old_style_digits, parse_page

TOP_BAND, BOTTOM_BAND = 0.13, 0.85
DUST = 0.45  # a row less tall than this share of the page's text is a speck
PAGE_OF = re.compile(r"(\d{1,4})\s*/\s*\d{1,4}")
DASHED = re.compile(r"^[-–—－]\s*(\S+?)\s*[-–—－]$")
EDGE = "()[]{}-–—－|.,:;·•〔〕【】「」『』（）"
BRACKETS = "()[]{}〔〕【】「」『』（）<>|.・·"
KANJI_DIGITS = set("〇一二三四五六七八九十百")
KANJI_LOOKALIKES = str.maketrans({
    "O": "〇", "o": "〇", "0": "〇", "○": "〇", "◯": "〇", "-": "一", "ー": "一", "—": "一",
    "－": "一", "―": "一", "ニ": "二", "=": "二", "ハ": "八", "+": "十", "t": "十",
})




@dataclass(frozen=True)
class Folio:
    page: int
    kind: str
    value: int
    line: int
    alone: bool = False  # the number is all its row holds
    digits: str = ""
    """An arabic folio's figures as read, leading zeros kept: "06" is 96 with one figure
    misread, not 6 (``toc.folios``)."""

    @property
    def offset(self) -> int:
        return self.page - self.value


def candidates(page: dict) -> list[Folio]:
    """Return the folio candidates read in the page's header and footer rows."""
    height = float(page.get("height") or 1)
    found = []
    # On a vertical page a column's last characters reach into the bottom band
    # (a contents page's page numbers): folios are set across, not down.
    across = is_vertical(page)
    edges = {
        index for index, line in enumerate(page.get("lines") or [])
        if not TOP_BAND * height < (line["box"][1] + line["box"][3]) / 2 < BOTTOM_BAND * height
        and not (across and line.get("dir") == "v")
    }
    inner = _horizontal_rows(page)
    dust = _dust(inner)
    page_rows = [row for row in rows(page, physical=True, keep=edges) if row.line not in dust]
    top = [row for row in page_rows[:2] if row.cy < TOP_BAND * height]
    bottom = [row for row in page_rows[-2:] if row.cy > BOTTOM_BAND * height]
    inner = [row for row in inner if row.line not in dust]
    for row in top + bottom:
        if _row_of_numbers(row.text):
            continue  # the page numbers ending a vertical contents' columns, not a folio
        for token in _tokens(row.text):
            figures = token if parse_page(token) else old_style_digits(token) or ""
            parsed = parse_page(figures)
            alone = row.text.strip(EDGE + " ") == token
            if parsed and (alone or not _in_text(row, inner, row in top)):
                found.append(Folio(page["number"], parsed[0], parsed[1], row.line, alone,
                                   figures if figures.isdigit() else ""))
    return sorted(found, key=lambda folio: not folio.alone)


def _dust(page_rows) -> set[int]:
    """Return the first lines of rows far smaller than the page's text: a speck OCR read as
    "1" or "." beside a running head is neither a folio nor a line of the text."""
    usual = body_height(page_rows)
    return {row.line for row in page_rows if row.height < DUST * usual}


def _horizontal_rows(page: dict):
    lines = page.get("lines") or []
    across = {index for index, line in enumerate(lines) if line.get("dir") != "v"}
    return rows(page, physical=True, keep=across)


def _in_text(row, page_rows, top: bool) -> bool:
    """Return True when row is close against the row on its inner side (below a top row,
    above a bottom one): a line of the text, such as a contents entry and its page at the
    top of a contents page, not a running head or a footer, which stand apart."""
    if top:
        gaps = [other.y0 - row.y1 for other in page_rows if other.y0 > row.cy]
    else:
        gaps = [row.y0 - other.y1 for other in page_rows if other.y1 < row.cy]
    return bool(gaps) and not stands_apart(min(gaps), row, leading(page_rows))


def _row_of_numbers(text: str) -> bool:
    """Return True for a row of three or more separate numbers (a table's, a contents')."""
    words = text.split()
    return len(words) >= 3 and all(parse_page(word.strip(EDGE)) for word in words)


def _tokens(text: str) -> list[str]:
    words = text.split()
    if not words:
        return []
    tokens = [words[0].strip(EDGE), words[-1].strip(EDGE)]
    kanji = kanji_folio(text)
    if kanji:
        tokens.insert(0, kanji)
    tokens += PAGE_OF.findall(text)
    dashed = DASHED.match(text.strip())
    if dashed:
        tokens.append(dashed.group(1))
    return list(dict.fromkeys(token for token in tokens if token))


def kanji_folio(text: str) -> str | None:
    """Return a kanji folio as kanji digits ("〔一二〕" → 一二, "(二ハ」" → 二八), or None.

    Kanji folios come back in any bracket, spaced, with look-alikes for their
    digits (ー for 一, O for 〇, ハ for 八); a reading is used only where
    neighbouring folios agree with it (fit).
    """
    if len(text.split()) > 2:
        return None  # a folio is one number, at most split once by OCR
    squeezed = "".join(unicodedata.normalize("NFKC", text).split())
    plain = squeezed.strip(BRACKETS)
    bracketed = plain != squeezed
    if not plain or len(plain) > 5 or not (bracketed or any(c in KANJI_DIGITS for c in plain)):
        return None
    digits = plain.translate(KANJI_LOOKALIKES)
    return digits if all(char in KANJI_DIGITS for char in digits) else None
