"""Where a section ends: one rule for the contents tree, the cards and the clips."""

from types import SimpleNamespace

import pytest

from books import clip
from books.tree import section_at
from toc.ends import last_page, section_ends
from retrieval.index.book import BookIndex
from retrieval.index.chunks import section_chunks
from retrieval.question import locator


@pytest.mark.parametrize("following, end", [
    (None, 40),  # the last section runs to the end of the book
    ((14, 0), 13),  # the next heading opens its page: that page is not this section's
    ((14, 1), 13),  # under a running head, it still opens the page
    ((14, None), 13),  # line unknown: taken to open its page
    ((14, 12), 14),  # half-way down: the page is shared
    ((12, 20), 12),  # on the same page
])
def test_last_page(following, end):
    assert last_page(12, following, 40) == end


def test_a_section_ends_before_the_chapter_that_opens_the_next_page():
    # 5 Solving (p. 50), 5.3 desolve (p. 57), 6 Plotting opens p. 61.
    headings = [(1, 50, 0), (2, 57, 14), (1, 61, 0)]
    assert section_ends(headings, 100) == [60, 60, 100]


def test_an_unplaced_heading_bounds_nothing():
    assert section_ends([(1, 5, 0), (1, None, None), (1, 9, 0)], 20) == [8, None, 20]


def row(pk, level, title, page, line, parent=None):
    return SimpleNamespace(pk=pk, book_id=1, parent_id=parent, position=pk, level=level,
                           title=title, page=page, page_end=None, line=line, status="exact")


# 5.1 on p. 170; 5.1.3 on p. 172; 5.2 half-way down p. 174; 6 opens p. 176.
ROWS = [row(1, 1, "5 Plots", 160, 0), row(2, 2, "5.1 Mouse", 170, 3, 1),
        row(3, 3, "5.1.3 Zoom", 172, 8, 2), row(4, 2, "5.2 Multiplot", 174, 20, 1),
        row(5, 1, "6 Fits", 176, 0)]
PAGES = {n: [f"line {i} of page {n}." for i in range(30)] for n in range(160, 181)}


def with_ends(rows):
    for heading, end in zip(rows, section_ends([(h.level, h.page, h.line) for h in rows], 180)):
        heading.page_end = end
    return rows


def test_the_card_the_tree_and_the_clip_give_one_range():
    rows = with_ends(ROWS)
    cards = {c.heading_id: (c.page_start, c.page_end) for c in section_chunks(rows, PAGES)
             if c.heading_id}
    tree = {h.pk: (h.page, h.page_end) for h in rows}
    clipped = clip.section_ends(rows, 180)
    assert cards == tree
    assert {pk: end for pk, (_, end) in tree.items()} == clipped
    assert tree[3] == (172, 174) and tree[1] == (160, 175)


def test_a_page_is_named_after_the_deepest_section_at_the_words():
    rows = with_ends(ROWS)
    assert [h.title for h in section_at(rows, 173)] == ["5 Plots", "5.1 Mouse", "5.1.3 Zoom"]
    # Above 5.2 on p. 174 the words are still in 5.1.3; below it they are in 5.2, although
    # 5.1.3 (deeper) runs onto the page.
    assert section_at(rows, 174, 5)[-1].title == "5.1.3 Zoom"
    assert [h.title for h in section_at(rows, 174, 25)] == ["5 Plots", "5.2 Multiplot"]
    assert section_at(rows, 176)[-1].title == "6 Fits"


@pytest.mark.parametrize("page, line, term", [
    (173, None, ""),
    (174, None, ""),  # two sections share the page: the one that starts there
    (174, 25, ""),  # the words are below 5.2's heading
    (174, 5, "rubber band"),  # above it, in 5.1.3's part of the page
    (176, None, ""),
])
def test_the_contents_tree_and_the_books_index_name_one_section_for_a_page(page, line, term):
    rows = with_ends(ROWS)
    pages = {**PAGES, 174: [*PAGES[174][:5], "Drag a rubber band round it.", *PAGES[174][6:]]}
    index = BookIndex(1, section_chunks(rows, pages))
    shelf = SimpleNamespace(index=lambda book_id: index)
    key = locator.section_at(shelf, 1, page, term)
    assert index.chunks[key].heading_id == section_at(rows, page, line)[-1].pk
