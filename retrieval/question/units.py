"""The units of a book a reader asks for: its parts, chapters and appendices (pure functions).

A book's contents tree comes with its sections (``retrieval.index.contents``).
Parts are top-level headings numbered as parts ("Part II", "II Building a Presentation",
「第2部」) that hold other headings; chapters are the headings below the
parts, or the top level in a book without parts; appendices are
headings titled "Appendix E …", 「付録」, or lettered after the chapters
("E Installing Octave").
"""

import re

import networkx as nx

from retrieval.question.query import APPENDIX, CHAPTER, JA_NUMERAL, JA_UNIT, PART, unit_number

_PART = re.compile(r"(?i)^\s*(?:part\s+[0-9ivxlc]+\b|[IVXLC]+\b(?!\.\d)"
                   rf"|第\s*(?:{JA_NUMERAL})\s*[部編])")
_APPENDIX = re.compile(r"(?i)^\s*(?:appendix\b|付録|[A-Z](?:\s|$)(?!\s*\d))")
_NUMBER = re.compile(  # "3.2 Title", "3ソース" (OCR dropped the space), "Part II", "A."
    r"(?i)^(?:chapter|part|section|appendix)?\s*(?:([0-9]+(?:\.[0-9]+)*)(?!\.?[0-9])|([ivxlc]+|[a-z])\b)"
)


def is_part(chunk) -> bool:
    return chunk.parent_key is None and bool(chunk.children) and is_part_title(chunk.title)


def is_part_title(title: str) -> bool:
    """Return True for a title numbered as a part's ("Part II", "II Building …", 第2部)."""
    return bool(_PART.match(title))


def is_appendix(chunk) -> bool:
    return bool(_APPENDIX.match(chunk.title))


def units(chunks, unit: str) -> list[int]:
    """Return the keys of the sections that are the book's units of kind unit, in order."""
    top = [c for c in chunks if c.heading_id and c.parent_key is None]
    parts = [c for c in top if is_part(c)]
    if unit == PART:
        return [c.key for c in parts] or [c.key for c in top if c.children]
    chapters = [chunks[k] for c in top for k in (c.children if is_part(c) else [c.key])]
    if unit == APPENDIX:
        found = [c.key for c in chapters if is_appendix(c)]
        return found or [c.key for c in top if is_appendix(c)]
    return [c.key for c in chapters]


def heading_number(title: str) -> str | None:
    """Return the number a heading is printed with ("4", "3.2", "ii", "a"), or None."""
    title = title.strip()
    match = JA_UNIT.search(title)
    value = unit_number(match[1]) if match else None
    if value is not None:
        return str(value)
    match = _NUMBER.match(title)
    if not match or not (match[1] or match[2]):
        return None
    return (match[1] or match[2]).casefold()


def numbered(chunks, kind: str, number: str) -> int | None:
    """Return the key of the section printed with number as a kind ("chapter", 章, …)."""
    wanted = number.casefold()
    matches = [c for c in chunks if c.heading_id and heading_number(c.title) == wanted]
    if not matches:
        return None
    if kind in ("chapter", "part", "appendix", "章", "部", "編"):
        return min(matches, key=lambda c: (c.level, c.key)).key
    deeper = [c for c in matches if c.level > 1] or matches
    return deeper[0].key


def japanese_numbered(title: str) -> bool:
    return bool(JA_UNIT.search(title))


def containing(chunks, graph: nx.DiGraph, key: int, unit: str = CHAPTER,
               wanted=None) -> int | None:
    """Return the unit (a chapter, by default) that holds section key, or None.

    wanted: the book's units of that kind, when the caller already has them.
    """
    wanted = set(units(chunks, unit)) if wanted is None else wanted
    for ancestor in [key, *nx.ancestors(graph, key)] if key in graph else []:
        if ancestor in wanted:
            return ancestor
    return None
