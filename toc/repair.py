"""Page-number repair: printed pages never decrease through a TOC (pure functions).

Roman front matter comes before arabic numbering. An entry whose printed page
breaks the order (an OCR digit drop, "64" read as "6") is marked suspect: its
number is not used to predict a page, and grounding may confirm a better one.
"""

from bisect import bisect_left, bisect_right


def order_key(printed: tuple[str, int]) -> tuple[int, int]:
    """Return a sortable key: roman pages before arabic ones."""
    kind, value = printed
    return (0 if kind == "roman" else 1, value)


def suspects(printed: list[tuple[str, int] | None]) -> set[int]:
    """Return the indices of printed pages outside the longest non-decreasing run."""
    indexed = [(index, order_key(value)) for index, value in enumerate(printed) if value]
    # Run backwards on negated keys: among equally long runs, the one keeping larger
    # values wins, since a dropped digit makes a number smaller.
    backwards = [(-key[0], -key[1]) for _, key in reversed(indexed)]
    kept = {len(indexed) - 1 - p for p in longest_non_decreasing(backwards)}
    return {indexed[position][0] for position in range(len(indexed)) if position not in kept}


def longest_non_decreasing(keys: list) -> list[int]:
    """Return the positions of one longest non-decreasing subsequence."""
    return _longest_chain(keys, bisect_right)


def bounds(printed: list[tuple[str, int] | None], bad: set[int], index: int):
    """Return the trusted printed pages just before and after an entry (None at the ends)."""
    before = next(
        (printed[i] for i in range(index - 1, -1, -1) if printed[i] and i not in bad), None
    )
    after = next(
        (printed[i] for i in range(index + 1, len(printed)) if printed[i] and i not in bad), None
    )
    return before, after


def plausible_repair(read: str, candidate: str) -> bool:
    """Return True when the read number is the candidate with digits dropped or misread."""
    if read == candidate:
        return True
    if len(read) < len(candidate):
        it = iter(candidate)
        return all(char in it for char in read)
    if len(read) == len(candidate):
        return sum(a != b for a, b in zip(read, candidate)) <= 1
    return False


def longest_increasing(values: list[int]) -> list[int]:
    """Return the positions of one longest strictly increasing subsequence of values.

    Among equally long ones, a later equal value is kept ("1 Gnuplot" misread
    from "I", then "1 Copyright": the chapter is the second).
    """
    return _longest_chain(values, bisect_left)


def _longest_chain(keys: list, slot_of) -> list[int]:
    """Return the positions of one longest chain of keys in order (patience sorting):
    slot_of bisect_left keeps it strictly increasing, bisect_right non-decreasing."""
    tails: list = []
    tail_positions: list[int] = []
    parents: list[int | None] = []
    for position, value in enumerate(keys):
        slot = slot_of(tails, value)
        if slot == len(tails):
            tails.append(value)
            tail_positions.append(position)
        else:
            tails[slot], tail_positions[slot] = value, position
        parents.append(tail_positions[slot - 1] if slot else None)
    chain, position = [], tail_positions[-1] if tail_positions else None
    while position is not None:
        chain.append(position)
        position = parents[position]
    return chain[::-1]
