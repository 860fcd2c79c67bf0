"""Printed page labels mapped to physical pages through the book's own page labels
(pure functions). A label no page carries, or more than one page carries, stays
printed and unresolved: nothing is guessed."""

import re
import unicodedata

from indexing.backindex.locators import span
from indexing.backindex.model import Locator

SPREAD = re.compile(r"^(\d{1,4}|[ivxlcdm]{1,7})\s*[–-]\s*(\d{1,4}|[ivxlcdm]{1,7})$", re.I)


def label_key(label: str) -> str:
    return unicodedata.normalize("NFKC", label).strip().casefold()


def pages_by_label(labels: dict[int, str]) -> dict[str, list[int]]:
    """Return the physical pages of each printed label (folded), in order."""
    found: dict[str, list[int]] = {}
    for page, label in sorted(labels.items()):
        # A two-page spread carries both its book pages' numbers ("58–59").
        halves = SPREAD.match(label or "")
        for one in (halves.groups() if halves else (label,)):
            if one:
                found.setdefault(label_key(one), []).append(page)
    return found


def locate(label: str, by_label: dict[str, list[int]]) -> Locator:
    """Return the locator of a printed label, placed on its physical page where one page has it."""
    first, last, extra = span(label)
    page = _only(by_label.get(label_key(first)))
    if page is None:
        return Locator(label)
    end = _only(by_label.get(label_key(last))) if last else page + extra
    if end is None or end < page:
        end = page
    return Locator(label, page, end)


def _only(pages: list[int] | None) -> int | None:
    return pages[0] if pages and len(pages) == 1 else None
