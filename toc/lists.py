"""Lists of examples, figures, tables or listings caught among the contents entries (pure).

Such a list often follows the contents on the same page ("List of Examples",
then "1. First Example 29", …): read as contents, its items would become
headings (children of the last part) and reach the review queue. A list is
known by its own heading, printed without a page number, or, where its
heading was lost, by a closing run of captions or of items numbered 1, 2, 3 …
whose pages start again from the front of the book. The lists are handed back
on their own (the book's apparatus reads them as maps of their own).
"""

import re

from toc.detect import heading_kind
from toc.parse import Raw
from toc.repair import order_key

CAPTION = re.compile(
    r"^(?:fig(?:ure)?\.?|table|example|exercise|listing|plate|illustration|exhibit|chart|map|"
    r"図|表|例|写真|リスト)\s*[0-9０-９]", re.I)
MIN_ITEMS = 3  # a closing run shorter than this is taken for contents entries


def split_lists(entries: list[Raw]) -> tuple[list[Raw], list[list[Raw]]]:
    """Return (the contents entries, the lists among them: each its heading and items)."""
    contents: list[Raw] = []
    lists: list[list[Raw]] = []
    current: list[Raw] | None = None
    for raw in entries:
        kind = heading_kind(raw.title) if raw.token is None else None
        if kind == "lot":
            current = [raw]
            lists.append(current)
        elif kind == "toc":
            current = None  # the contents go on
            contents.append(raw)
        elif current is not None:
            current.append(raw)
        else:
            contents.append(raw)
    run = _closing_run(contents)
    if run:
        lists.append(contents[-run:])
        contents = contents[:-run]
    return contents, lists


def _closing_run(entries: list[Raw]) -> int:
    """Return how many entries at the end form a list whose heading was not read (0: none).

    The items' pages run on in order, starting before the page the contents
    reached; they are captions, or numbered 1, 2, 3 … in order.
    """
    keys = [order_key(raw.printed) if raw.printed else None for raw in entries]
    highest, reached = [], None
    for key in keys:
        highest.append(reached)
        reached = key if reached is None or (key is not None and key > reached) else reached
    best = 0
    for start in range(len(entries) - 1, 0, -1):
        if keys[start] is None or (start + 1 < len(entries) and keys[start] > keys[start + 1]):
            break
        size = len(entries) - start
        restarts = highest[start] is not None and keys[start] < highest[start]
        if size >= MIN_ITEMS and restarts and _items(entries[start:]):
            best = size
    return best


def _items(run: list[Raw]) -> bool:
    """Return True for captions, or for items numbered 1, 2, 3 … in order."""
    if all(CAPTION.match(raw.title) for raw in run):
        return True
    numbers = [raw.number for raw in run]
    if not all(number.isdigit() for number in numbers):
        return False
    first = int(numbers[0])
    return [int(number) for number in numbers] == list(range(first, first + len(run)))
