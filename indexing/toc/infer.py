"""A structure inferred from the body when the book has no usable TOC (pure functions).

Heading-like rows: numbered rows set larger than body text, and short rows near
the top of a page set much larger. At most three levels, from the numbering
depth or, for unnumbered rows, from their size.
"""

from indexing.toc.model import Entry

MAX_TITLE = 80
NUMBERED_TALL = 1.05
UNNUMBERED_TALL = 1.3
TOP_ROWS = 4


def infer(pages: list[dict], body, page_count: int) -> list[Entry]:
    """Return heading entries found in the body, in page order, statuses exact."""
    found = []
    for page in pages:
        number = page["number"]
        if number in body.contents_pages:
            continue
        seen = set()
        for row in body.rows(number):
            if row.line in seen or not row.text or len(row.text) > MAX_TITLE:
                continue
            seen.add(row.line)
            level = heading_level(row)
            if level:
                found.append((level, row))
    entries = [
        Entry(level, row.text, None, row.page, None, "exact", 0.5, row.line, 0, 0, row.number)
        for level, row in found
    ]
    return _with_ends(entries, page_count)


def heading_level(row) -> int | None:
    """Return the level of a heading-like row, None for body text."""
    kind = row.kind
    if kind in ("part", "chapter") and row.tall >= NUMBERED_TALL:
        return 1
    if isinstance(kind, int) and row.tall >= NUMBERED_TALL:
        return min(kind, 3)
    if kind is None and row.index < TOP_ROWS and row.tall >= UNNUMBERED_TALL:
        return 1 if row.tall >= 1.6 else 2
    return None


def _with_ends(entries: list[Entry], page_count: int) -> list[Entry]:
    from indexing.toc.recover import with_ends

    return with_ends(entries, page_count)
