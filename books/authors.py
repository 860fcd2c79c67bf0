"""A book's authors: several names kept in one field, "; " between them (no table of their own).

People type one name a line (or "; " between names); a PDF's Author entry
joins them as its program liked ("A and B", "A, B & C", 「著者A、著者B」). The
names are kept in ``Book.authors`` joined by ``SEPARATOR``, listed by
``Book.author_list`` and shown by ``byline``.
"""

import re

from books.text import is_japanese

SEPARATOR = "; "
MAX_LENGTH = 500  # Book.authors
# What people type between names: a new line, or a semicolon (ASCII or full width).
TYPED = re.compile(r"\s*(?:[;；]|\n)\s*")
# What a PDF's Author entry puts between names besides those.
DECLARED = re.compile(r"\s*(?:[;；、&＆]|\n|\band\b)\s*", re.IGNORECASE)


def typed(text: str) -> list[str]:
    """Return the names typed in text: one a line, or with semicolons between them."""
    return _names(TYPED.split(text or ""))


def declared(text: str) -> list[str]:
    """Return the names in a PDF's Author entry.

    Commas part names only where every part is a name of several words ("Ann
    Lee, Bo Chen"), never a family name from its given name ("Lee, Ann").
    """
    names = []
    for part in _names(DECLARED.split(text or "")):
        pieces = _names(part.split(","))
        names += pieces if len(pieces) > 1 and all(" " in piece for piece in pieces) else [part]
    return names


def stored(names: list[str]) -> str:
    """Return names as Book.authors keeps them, the last names left out if too long."""
    kept = []
    for name in names:
        if len(SEPARATOR.join([*kept, name])) > MAX_LENGTH:
            break
        kept.append(name)
    return SEPARATOR.join(kept)


def byline(names: list[str]) -> str:
    """Return names as a line under a title: "A, B", 「著者A、著者B」, or "Lee, Ann; Bo Chen"
    where a name has a comma of its own."""
    if all(is_japanese(name) for name in names):
        return "、".join(names)
    return ("; " if any("," in name for name in names) else ", ").join(names)


def _names(parts) -> list[str]:
    seen, names = set(), []
    for part in parts:
        name = " ".join(part.split()).strip(" ,")
        if name and name.casefold() not in seen:
            seen.add(name.casefold())
            names.append(name)
    return names
