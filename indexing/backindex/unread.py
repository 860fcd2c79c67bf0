"""What OCR could not read in a scanned index, left out or left unresolved rather than shown
wrong (pure functions).

An index's symbols (\\\\, ~, –) are where OCR fails most: it reads them as digits, as a
stray kanji or as a letter, and the entry then sends the reader to a page that holds no
such thing. A page number OCR cut short ("44" read as "4") sends them to the wrong page.
Neither can be mended, but both can be seen: the first by the pages the entry points to,
the second by the order an index prints its page numbers in.
"""

import re
import unicodedata
from dataclasses import replace

from indexing.backindex.model import Locator

DIGITS_ALONE = re.compile(r"\d[\d\s]*[^\w\s]?")
# A TeX control symbol: a backslash and one mark ("\\,", "\\:"); never a letter or a digit.
CONTROL_SYMBOL = re.compile(r"\\[^\w\s]")
BRACKETS = "()（）[]「」"
NEAR = 1  # pages either side of a locator where its term may have run on or back


def legible(entries: list, page_text: dict[int, str] | None = None) -> list:
    """Return the entries less those whose term OCR could not read, and their sub-entries:
    a term read as digits alone ("11", "11*", "1-": \\\\ read as 11), and a term of one
    character ("夫", "\\e", "\\0") found on none of the pages it points to (page_text: the
    OCR'd text of the book's pages by number), where a symbol it stands for would be."""
    page_text = {number: _flat(text) for number, text in (page_text or {}).items()}

    def unreadable(entry) -> bool:
        plain = [unicodedata.normalize("NFKC", term).strip()
                 for term in (entry.term, *entry.parents)]
        if any(DIGITS_ALONE.fullmatch(term) for term in plain):
            return True
        return _lone(plain[0]) and not _found(plain[0], entry, page_text)

    return [entry for entry in entries if not unreadable(entry)]


def in_order(entries: list) -> list:
    """Return the entries with each page number printed after a higher one left unresolved
    ("\\right ... 42, 4", where OCR lost a digit of 44): an index prints an entry's pages in
    the order of the book, and the label stays as printed rather than send the reader to
    the wrong page."""
    return [replace(entry, locators=_ordered(entry.locators)) for entry in entries]


def _ordered(locators: tuple[Locator, ...]) -> tuple[Locator, ...]:
    out, highest = [], None
    for locator in locators:
        number = _arabic(locator.label)
        if number is not None and highest is not None and number < highest:
            out.append(Locator(locator.label))
            continue
        if number is not None:
            highest = number
        out.append(locator)
    return tuple(out)


def _arabic(label: str) -> int | None:
    match = re.match(r"\d+", unicodedata.normalize("NFKC", label).strip())
    return int(match.group()) if match else None


def _lone(term: str) -> bool:
    """Return True for a term of one letter, kana, kanji or digit, a backslash before it and
    brackets after it aside; a TeX control symbol ("\\,") is a symbol read as printed."""
    if CONTROL_SYMBOL.fullmatch(term):
        return False
    core = term.lstrip("\\").rstrip(BRACKETS + ".,")
    return len(core) == 1 and core.isalnum()


def _found(term: str, entry, page_text: dict[int, str]) -> bool:
    """Return True when term is on a page entry points to (or one either side), or where
    the pages' text is not known."""
    pages = [n for loc in entry.locators if loc.page is not None
             for n in range(loc.page - NEAR, (loc.last or loc.page) + NEAR + 1)]
    known = [n for n in pages if n in page_text]
    if not known:
        return True
    needle = _flat(term.rstrip(BRACKETS + ".,"))
    return any(needle in page_text[n] for n in known)


def _flat(text: str) -> str:
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text or "")).casefold()
