"""Where a section ends, and which section a page is in: the rules the contents tree, the
cards, the clips and the book's index share (pure).

A section runs from its heading to the next heading at its level or above.
It takes that heading's page too unless the heading opens the page: a
chapter that starts at the top of its first page leaves that page out of the
section before it, while a section that starts half-way down a page shares
the page with the one before. A heading whose line is not known is taken to
open its page (headings placed by page numbers alone are mostly chapters).
"""

TOP_LINES = 2  # a running head and a folio may stand above a heading that opens a page


def opens_page(line: int | None) -> bool:
    """Return True when a heading on this line (None: unknown) opens its page."""
    return line is None or line < TOP_LINES


def last_page(page: int, following: tuple[int, int | None] | None, page_count: int) -> int:
    """Return the last page of a section that starts on page, given the (page, line) of
    the next heading at its level or above (None: it runs to the end of the book)."""
    if following is None:
        return max(page, page_count)
    next_page, next_line = following
    if next_page <= page:
        return page
    return next_page - 1 if opens_page(next_line) else next_page


def section_ends(headings: list[tuple[int, int | None, int | None]],
                 page_count: int) -> list[int | None]:
    """Return the last page of each heading's section (None for one on no page).

    headings: (level, page, line) in reading order; one on no page (None)
    bounds nothing, so the section before it runs on to the next placed one.
    """
    ends: list[int | None] = [None] * len(headings)
    following: list[int] = []  # indexes after the current one, each above the one after it
    for index in range(len(headings) - 1, -1, -1):
        level, page, _ = headings[index]
        if page is None:
            continue
        while following and headings[following[-1]][0] > level:
            following.pop()
        after = headings[following[-1]] if following else None
        ends[index] = last_page(page, after[1:] if after else None, page_count)
        following.append(index)
    return ends


def section_holding(page: int, sections, pages, start, prefer=None):
    """Return the one of sections that holds page and starts last, None if none holds it.

    A section holds the pages of the sections inside it, and two sections share
    the page where one ends and the next begins: of those holding a page, the one
    that starts last is the innermost, or the one that goes on below. pages(s):
    the first and last page s holds; start(s): where s starts, in reading order.
    prefer(s): where several hold the page, only those it accepts count, if any
    does (the words asked about are in that section's part of the page).
    """
    there = sorted((s for s in sections if pages(s)[0] <= page <= pages(s)[1]), key=start)
    if len(there) > 1 and prefer is not None:
        there = [s for s in there if prefer(s)] or there
    return there[-1] if there else None
