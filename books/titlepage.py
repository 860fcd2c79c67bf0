"""What a book's own pages say it is: title, authors and year, read from the title page
and, in a Japanese book, from its colophon (奥付) at the back (pure functions over OCR lines).

A title page sets the title in large type, often over several lines, then
"BY" and the author, and the publisher's place and the year at the foot
("LONDON: … MDCCCXXI.", "NEW YORK THE MACMILLAN COMPANY 1927"); a half-title,
a frontispiece or a blank may come first. The title page is the front page
with the largest type, a by-line or an imprint year and few lines each
counting for more, so that it beats a half-title, a copyright page and a
chapter heading set larger. Without "BY", a line listing two or more names
under the title gives the authors. The year, failing the title page, is the
latest one a copyright line states, then the latest date signing a preface.
A colophon prints 書名, 著者 and the 発行 date as labelled lines.

Lines are {text, box, dir, conf}, as the ocr stage stores them.
"""

import re
import statistics
import unicodedata
from dataclasses import dataclass

from books import authors
from books.text import CJK
from toc.numbers import kanji_value, roman_value

TITLE_OVER_BODY = 1.3  # the title is set this much larger than the text around it, at least
MAIN_SHARE = 0.75  # lines this near the largest line's size are the title; smaller, its subtitle
TITLE_FLOOR = 0.35  # lines above the by-line smaller than this share of the largest are not title
MAX_TITLE = 200
# A title page's own marks: a by-line or an imprint year, and little else on the page. Each
# counts as type this much larger when title pages are compared: a chapter opening set
# larger than the title, a half-title or a copyright page gives way to the title page.
MARKED, SPARSE = 1.25, 1.25
SPARSE_LINES = 15
MIN_CONFIDENCE = 0.6  # OCR reads below this on a title page are ornaments and specks
FIRST_YEAR = 1450
# Headings of front matter that are set large but name no book.
NOT_A_TITLE = re.compile(r"(?i)^\s*(table of )?contents|^\s*目\s*次"
                         r"|^\s*(preface|foreword|introduction|dedication|errata|illustrations"
                         r"|list of [a-z ]+|prefatory note)\W*$"
                         r"|^\s*(はじめに|序文?|まえがき|献辞)\s*$")
YEAR = re.compile(r"(?<!\d)(1[4-9]\d\d|20\d\d)(?!\d)")
ROMAN_YEAR = re.compile(r"^\s*(M{1,3}[MDCLXVI]+)\s*\.?\s*$")
BY = re.compile(r"^\s*by\b[\s.:]*(.*)$", re.IGNORECASE)
NAME_WORD = re.compile(r"^([A-ZÀ-Þ][\w'’.-]*|[A-Z]\.|and|&|de|van|von|der|la|le|du|of)[,.]?$")
HONOURS = re.compile(r",?\s+(esq|m\.\s?a|b\.\s?a|d\.\s?d|ll\.\s?d|ph\.\s?d|m\.\s?d|f\.\s?r\.\s?s"
                     r"(\.\s?e)?|author of\b)\b.*$", re.IGNORECASE)
STATED = re.compile(r"(?i)copyright|©|\(c\)|entered according|published|first (edition|printed)"
                    r"|printed in")
MONTHS = ("january|february|march|april|may|june|july|august|september|october|november"
          "|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec")
DATED = re.compile(rf"(?i)\b({MONTHS})\b\.?\s*(\d{{1,2}}(st|nd|rd|th)?,?\s*)?(1[4-9]\d\d|20\d\d)\b")
ADDRESS = re.compile(r"https?://|www\.|\S@\S")  # a web or mail address names no book
# A line that lists its authors without "by": two or more names, each of two to four
# capitalised words or of two to six kana and kanji, between commas, "and" or 、.
NAME_LIST = re.compile(r"\s*(?:[,，、;；&]|\band\b)\s*")
CJK_NAME = re.compile(rf"^[{CJK}々]{{2,6}}$")
NOT_A_NAME = re.compile(r"(?i)\b(press|company|publish\w*|library|university|society|verlag|inc"
                        r"|ltd|co)\b")
SMALL_WORDS = {"a", "an", "and", "as", "at", "by", "for", "from", "in", "into", "of", "on", "or",
               "the", "to", "with"}
# A colophon's labelled lines (奥付): the author, the publication date, and the lines that
# are neither the title nor the author.
COLOPHON_AUTHOR = re.compile(r"^\s*(?:著\s*者|著\s*作\s*者|編\s*著\s*者|編\s*者)\s*[：:]?\s*(.+)$")
COLOPHON_MARK = re.compile(r"発\s*行|印\s*刷|ISBN|定\s*価")
ERAS = {"明治": 1868, "大正": 1912, "昭和": 1926, "平成": 1989, "令和": 2019}
ERA_YEAR = re.compile(r"(明治|大正|昭和|平成|令和)\s*(元|[0-9]{1,2}|[〇一二三四五六七八九十]{1,3})\s*年")
WESTERN_YEAR = re.compile(r"(1[89]\d\d|20\d\d)\s*年")
# "山田太郎 著", "山田太郎著", "山田太郎 編": a name has no の, and 編 stands apart from it
# (a subtitle ends in 編 too: 「応用編」).
JAPANESE_BY = re.compile(r"^\s*([^\sの]{2,12}(?:\s[^\sの]{1,8})?)(?:\s*(?:編著|著)|\s+編)\s*$")
MAX_SIGNATURE_WORDS = 6  # a date that signs a preface stands on a short line of its own


@dataclass(frozen=True)
class Found:
    """A value read from the book's pages, with where it was read."""

    value: str
    page: int
    source: str  # "title_page", "front_pages" (a copyright line, a dated preface), "colophon"


Pages = list[tuple[int, list[dict]]]


def read(front: Pages, back: Pages = (), now: int = 9999) -> dict[str, Found]:
    """Return what the pages give for "title", "authors" and "year" (only those found).

    front: the first pages, in order; back: the last pages, where a colophon may be.
    The colophon's labelled lines win over the title page's where both give a field.
    """
    found = _from_title_page(front, now)
    for pages in (front, back):
        colophon = _from_colophon(pages, now)
        found.update(colophon)
    return found


def _from_title_page(front: Pages, now: int) -> dict[str, Found]:
    page = title_page(front)
    found: dict[str, Found] = {}
    if page is not None:
        number, lines = page
        by, imprint = _by_line(lines), _imprint_start(lines)
        listed = _listed(lines[:imprint]) if by is None else None
        # The title runs down to the by-line, else to a line of names or the imprint.
        ends = [by] if by is not None else [listed and listed[0], imprint]
        end = min((i for i in ends if i is not None), default=len(lines))
        if title := title_of(lines[:end], by is not None):
            found["title"] = Found(title, number, "title_page")
        names = (_names_after(lines, by) if by is not None else listed[1] if listed
                 else _japanese_author(lines))
        if names:
            found["authors"] = Found(names, number, "title_page")
        if year := _imprint_year(lines[end:], now):  # below the title: the imprint's
            found["year"] = Found(str(year), number, "title_page")
    if "year" not in found and (stated := stated_year(front, now)):
        found["year"] = Found(str(stated[0]), stated[1], "front_pages")
    return found


def line_size(line: dict) -> float:
    """Return a line's type size in points: its height, or its width when set vertically."""
    x0, y0, x1, y1 = line["box"]
    return (x1 - x0) if line.get("dir") == "v" else (y1 - y0)


def title_page(front: Pages) -> tuple[int, list[dict]] | None:
    """Return (number, clean lines) of the title page among the front pages, or None.

    A page qualifies by large type, and by a by-line, an imprint year or few lines
    (a page full of text with neither is no title page, whatever its largest line);
    among those the largest type wins, a page with a by-line or an imprint year, and
    a page with few lines, counting as larger (MARKED, SPARSE).
    """
    pages = [(number, _clean(lines)) for number, lines in front]
    sizes = [line_size(line) for _, lines in pages for line in lines if _wordy(line["text"])]
    if not sizes:
        return None
    body = statistics.median(sizes)
    best, best_key = None, None
    for number, lines in pages:
        wordy = [line for line in lines if _wordy(line["text"])]
        if not wordy or NOT_A_TITLE.match(wordy[0]["text"]):
            continue
        largest = max(line_size(line) for line in wordy)
        if largest < TITLE_OVER_BODY * body:
            continue
        marked = _by_line(lines) is not None or _imprint_year(lines, 9999) is not None
        sparse = len(lines) <= SPARSE_LINES
        if not (marked or sparse):
            continue  # a page of text, its largest line a heading or a misread: no title page
        key = largest * (MARKED if marked else 1) * (SPARSE if sparse else 1)
        if best_key is None or key > best_key:
            best, best_key = (number, lines), key
    return best


def title_of(lines: list[dict], bounded: bool) -> str:
    """Return the title set in lines: all those above a by-line (bounded), else the largest.

    Lines near the largest size are the title, smaller ones after them its
    subtitle, set off by a colon where nothing else ends the title. Lines in
    capitals are given capitals as a title has them.
    """
    wordy = [line for line in lines if _wordy(line["text"])
             and not NOT_A_TITLE.match(line["text"]) and not ADDRESS.search(line["text"])]
    if not wordy:
        return ""
    largest = max(line_size(line) for line in wordy)
    share = TITLE_FLOOR if bounded else MAIN_SHARE
    parts, after_main = "", False
    for line in wordy:
        size = line_size(line)
        if size < share * largest:
            continue
        text = _title_case(_title_line(line["text"]), opening=not parts)
        main = size >= MAIN_SHARE * largest
        if after_main and not main and parts[-1] not in ".,:;!?—-":
            parts += ":"  # the subtitle, in smaller type
        parts = f"{parts} {text}" if parts else text
        after_main = main
    return parts.strip(" .,:;")[:MAX_TITLE]


def stated_year(front: Pages, now: int) -> tuple[int, int] | None:
    """Return (year, page): the latest year a copyright or publication line states, else the
    latest date signing a preface or dedication ("21st February 1898"), else None."""
    signatures = [(number, [line for line in lines
                            if len(line["text"].split()) <= MAX_SIGNATURE_WORDS])
                  for number, lines in front]
    for pattern, pages in ((STATED, front), (DATED, signatures)):
        found = [(int(year), number) for number, lines in pages for line in lines
                 if pattern.search(line["text"]) for year in YEAR.findall(line["text"])
                 if FIRST_YEAR <= int(year) <= now + 1]
        if found:
            return max(found)
    return None


def _clean(lines: list[dict]) -> list[dict]:
    """Return the lines worth reading: specks and ornaments read with low confidence go."""
    return [line for line in lines
            if line.get("text", "").strip() and line.get("conf", 1.0) >= MIN_CONFIDENCE]


def _wordy(text: str) -> bool:
    """Return True for text with letters in it (not a folio, a date or leader dots)."""
    return sum(char.isalpha() for char in text) >= 2


def _by_line(lines: list[dict]) -> int | None:
    """Return the index of the line that opens the author ("BY", "By Wendell Berge")."""
    for index, line in enumerate(lines):
        match = BY.match(line["text"])
        if match and (not match.group(1) or _name_like(match.group(1))):
            return index
    return None


def _name_like(text: str) -> bool:
    """Return True for words that can be names: capitalised, initials, particles; not
    "THE AUTHOR OF …" or "A LADY"."""
    words = _name_text(text).split()
    return (1 <= len(words) <= 8 and words[0].lower() not in SMALL_WORDS
            and all(NAME_WORD.match(word) for word in words))


def _names_after(lines: list[dict], by: int) -> str:
    """Return the authors named by the by-line at index by: on its own row, or on the rows
    set close under a lone "BY" at the size of the first."""
    rest = BY.match(lines[by]["text"]).group(1)
    if rest:
        return _names(rest)
    taken: list[dict] = []
    for line in lines[by + 1:]:
        if taken and (_gap(taken[-1], line) > 0.8 * line_size(taken[-1])
                      or line_size(line) < 0.8 * line_size(taken[0])):
            break
        if not _name_like(line["text"]):
            break
        taken.append(line)
    return _names(" ".join(line["text"] for line in taken))


def _listed(lines: list[dict]) -> tuple[int, str] | None:
    """Return (index, names) of the first line below the title that lists two or more
    authors without a "by" ("Till Tantau, Joseph Wright, Vedran Miletić"), or None."""
    for index, line in enumerate(lines[1:], start=1):
        text = unicodedata.normalize("NFKC", _tidy(line["text"]))
        parts = [part for part in NAME_LIST.split(text) if part]
        if len(parts) >= 2 and not NOT_A_NAME.search(text) and all(
            CJK_NAME.match(part) or (2 <= len(part.split()) <= 4 and _name_like(part))
            for part in parts
        ):
            return index, authors.stored([_title_case(part) for part in parts])
    return None


def _gap(upper: dict, lower: dict) -> float:
    return lower["box"][1] - upper["box"][3]


def _names(text: str) -> str:
    """Return the names of a by-line as Book.authors keeps them, honours left off."""
    return authors.stored([_title_case(name) for name in authors.declared(_name_text(text))])


def _name_text(text: str) -> str:
    """Return a by-line's names without honours ("ESQ.", "M.A.") and with initials read
    through ornament ("A:CAMPBELL" → "A. CAMPBELL")."""
    text = re.sub(r"\b([A-Z])\s*[:;·,]\s*(?=[A-Z])", r"\1. ", _tidy(text))
    return _tidy(HONOURS.sub("", text))


def _japanese_author(lines: list[dict]) -> str:
    """Return the name a Japanese title page gives with 著 or 編, below its title, or ""."""
    largest = max((line_size(line) for line in lines), default=0)
    for line in lines:
        match = JAPANESE_BY.match(_tidy(unicodedata.normalize("NFKC", line["text"])))
        if match and line_size(line) < largest:
            return authors.stored([match.group(1)])
    return ""


def _imprint_start(lines: list[dict]) -> int | None:
    """Return the index of the first line after the title that holds a year, or None."""
    for index, line in enumerate(lines):
        if index and (YEAR.search(line["text"]) or ROMAN_YEAR.match(line["text"])):
            return index
    return None


def _imprint_year(lines: list[dict], now: int) -> int | None:
    """Return the year of the lowest line holding one ("1853.", "MDCCCXXI."), or None."""
    for line in reversed(lines):
        text = line["text"]
        years = [int(y) for y in YEAR.findall(text) if FIRST_YEAR <= int(y) <= now + 1]
        roman = ROMAN_YEAR.match(text)
        if roman and (value := roman_value(roman.group(1))) and FIRST_YEAR <= value <= now + 1:
            years.append(value)
        if years:
            return years[-1]
    return None


def _from_colophon(pages: Pages, now: int) -> dict[str, Found]:
    """Return the title, authors and year a colophon (奥付) prints, {} if there is none."""
    for number, lines in reversed(pages):
        lines = _clean(lines)
        texts = [unicodedata.normalize("NFKC", line["text"]) for line in lines]
        issued = [i for i, text in enumerate(texts) if re.search(r"発\s*行", text)]
        author = next((m.group(1) for t in texts if (m := COLOPHON_AUTHOR.match(t))), None)
        if not issued or author is None:
            continue
        found = {"authors": Found(authors.stored([" ".join(author.split())]), number, "colophon")}
        # The first dated 発行 line: the first edition, before its reprints (刷).
        years = [year for i in issued if (year := _japanese_year(texts[i], now))]
        if years:
            found["year"] = Found(str(years[0]), number, "colophon")
        if title := _colophon_title(lines[:issued[0]]):
            found["title"] = Found(title, number, "colophon")
        return found
    return {}


def _colophon_title(lines: list[dict]) -> str:
    """Return the largest unlabelled line above the first 発行 line: the book's name."""
    plain = [line for line in lines if _wordy(line["text"])
             and not COLOPHON_AUTHOR.match(line["text"]) and not COLOPHON_MARK.search(line["text"])]
    if not plain:
        return ""
    return _tidy(max(plain, key=line_size)["text"])[:MAX_TITLE]


def _japanese_year(text: str, now: int) -> int | None:
    """Return the year of a 発行 line: 2009年, or an era's (昭和45年, 平成元年)."""
    if match := WESTERN_YEAR.search(text):
        year = int(match.group(1))
        return year if FIRST_YEAR <= year <= now + 1 else None
    if match := ERA_YEAR.search(text):
        number = match.group(2)
        count = 1 if number == "元" else int(number) if number.isdigit() else kanji_value(number)
        return ERAS[match.group(1)] + count - 1 if count else None
    return None


def _title_line(text: str) -> str:
    """Return a line of the title tidied as _tidy does, the stop ending it kept."""
    text = " ".join(text.split())
    text = re.sub(r"([.,:;])(\s*[.,:;·•*_|~])+$", r"\1", text)
    stop = text[-1] if text and text[-1] in ".,:;" else ""
    return _tidy(text) + stop


def _tidy(text: str) -> str:
    """Return text with its spacing made single and ornaments at its ends taken off."""
    return " ".join(text.split()).strip(" .,:;·•*_|~-—–")


def _title_case(text: str, opening: bool = True) -> str:
    """Return a line set in capitals as a title is written ("IRISH MELODIES" → "Irish
    Melodies", "THE ART OF KNOTS" → "The Art of Knots"); other lines as they are."""
    letters = [char for char in text if char.isalpha()]
    if not letters or not all(char.isupper() for char in letters) or len(letters) < 2:
        return text
    words = text.split()
    return " ".join(_title_word(word, opening and index == 0) for index, word in enumerate(words))


def _title_word(word: str, first: bool) -> str:
    bare = word.strip(".,:;!?()[]'\"")
    if roman_value(bare) and len(bare) > 1 or (len(bare) == 1 and bare.isalpha()):
        return word  # a numeral (II, XIV) or an initial stays in capitals
    if not first and bare.lower() in SMALL_WORDS:
        return word.lower()
    return re.sub(r"[A-Za-zÀ-ÿ][A-Za-zÀ-ÿ'’]*", lambda m: m.group(0).capitalize(), word)
