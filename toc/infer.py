"""A structure inferred from the body when the book has no usable contents (pure functions).

Section numbers are the strongest evidence a scan offers: real headings number
on from each other (1.2 → 1.3, 1.3 → 1.3.1, 1.3.1 → 2), while numbered list
items, cross-references and code restart or jump. The numbered candidates
(toc.headlines) are chained in reading order by a longest-path pass
that only links a number to one that can follow it, allowing for a heading or
two that OCR missed; what the chain leaves out is not a heading. Parts (Part
II, 第2部) form a sequence of their own above the chapters. Unnumbered rows
count only when set as large as the chapters (Preface, Index), or, in a book
that numbers nothing, by their size: the largest type is level 1. At most
three levels are kept, and every entry is marked as inferred.
"""

from dataclasses import dataclass
from statistics import median

from toc.headlines import TALL, Candidate, candidates
from toc.model import Entry, with_ends
from toc.numbers import parse_page

MAX_LEVEL = 3
LOOKBACK = 400  # candidates a number may follow across
MAX_SKIP = 3  # missing numbers bridged between two chained headings
DISPLAY = 1.3  # unnumbered headings in a book without numbers are set at least this large
SIZE_STEP = 0.1  # sizes closer than this share one level
MIN_CHAIN = 3  # fewer chained numbers than this: the book is taken as unnumbered
CONFIDENCE = 0.5


@dataclass(frozen=True)
class Placed:
    candidate: Candidate
    level: int


def infer(pages: list[dict], body, page_count: int) -> list[Entry]:
    """Return heading entries found in the body, in reading order, at most three levels."""
    found = candidates(pages, body.contents_pages, body.folio_lines, body.style)
    chain = numbered_chain(found)
    parts = part_sequence(found)
    if len(chain) >= MIN_CHAIN:
        placed = _with_numbers(found, chain, parts)
    else:
        placed = by_size(found)
    entries = [
        Entry(p.level, p.candidate.text, None, p.candidate.page, None, "exact", CONFIDENCE,
              p.candidate.line, 0, 0, p.candidate.number)
        for p in sorted(placed, key=lambda p: (p.candidate.page, p.candidate.index))
        if p.level <= MAX_LEVEL
    ]
    return with_ends(entries, page_count)


def as_tuple(candidate: Candidate) -> tuple | None:
    """Return a section number as a tuple ((1, 2) for 1.2, ("A", 1) for A.1), None if it is none."""
    if candidate.kind in ("part", "roman") or not candidate.number:
        return None
    out = []
    for piece in candidate.number.split("."):
        if piece.isdigit():
            out.append(int(piece))
        elif len(piece) == 1 and piece.isupper():
            out.append(piece)
        else:
            return None
    return tuple(out)


def relative_depth(candidate: Candidate) -> int | None:
    """Return the depth of a number that counts within its parent (第2節: 2), else None."""
    if isinstance(candidate.kind, int) and "." not in candidate.number:
        return candidate.kind
    return None


def evidence(candidate: Candidate) -> float:
    """Return how much a candidate looks like a heading, whatever its number."""
    value = 0.3 + 0.5 * (candidate.tall >= TALL) + 0.3 * candidate.apart + 0.2 * candidate.short
    if candidate.wrapped > 1 and candidate.kind in ("chapter", "part"):
        value += 0.3  # "Chapter 4" over its title
    if len(candidate.text) > 100:
        value -= 0.6
    return value


def step(previous: tuple, following: tuple) -> float | None:
    """Return the cost of following one number with another, None when it cannot follow.

    0 for the next sibling or the first child; more for numbers OCR may have
    missed between them; None for a restart or a jump backwards.
    """
    if following[:len(previous)] == previous and len(following) == len(previous) + 1:
        gap = _gap(None, following[-1])
        return None if gap is None else 0.4 * gap
    for depth in range(min(len(previous), len(following))):
        if following[:depth] != previous[:depth]:
            break
        gap = _gap(previous[depth], following[depth])
        if gap is None:
            continue
        rest = following[depth + 1:]
        if all(value == 1 for value in rest) and len(rest) <= 2:
            return 0.4 * gap + 0.3 * len(rest)  # a parent heading (or two) was missed
    return None


def _gap(before, after) -> int | None:
    """Return how many numbers are missing between before and after (0: after comes next)."""
    if before is None:
        start = 1 if isinstance(after, int) else "A"
        return _gap_values(start, after, inclusive=True)
    if isinstance(before, int) and isinstance(after, str):
        return 0 if after == "A" else None  # appendices after the chapters
    return _gap_values(before, after, inclusive=False)


def _gap_values(start, value, inclusive: bool) -> int | None:
    if type(start) is not type(value):
        return None
    if isinstance(value, str):
        start, value = ord(start), ord(value)
    missing = value - start - (0 if inclusive else 1)
    return missing if 0 <= missing <= MAX_SKIP else None


def numbered_chain(found: list[Candidate]) -> dict[int, tuple]:
    """Return {candidate index: its full number} for the best chain of section numbers."""
    numbered = [(i, c) for i, c in enumerate(found) if as_tuple(c) and _may_chain(c)]
    best: list[tuple[float, int | None, tuple]] = []
    for j, (_, candidate) in enumerate(numbered):
        own, value = evidence(candidate), as_tuple(candidate)
        start = 0.0 if value in ((1,), (1, 1), ("A",)) else -0.5
        choice = (own + start, None, value)
        for i in range(max(0, j - LOOKBACK), j):
            score, _, before = best[i]
            full = _absolute(candidate, value, before)
            cost = step(before, full) if full else None
            if cost is not None and score + own - cost > choice[0]:
                choice = (score + own - cost, i, full)
        best.append(choice)
    if not best:
        return {}
    chain, j = {}, max(range(len(best)), key=lambda k: best[k][0])
    while j is not None:
        chain[numbered[j][0]] = best[j][2]
        j = best[j][1]
    return chain


def _may_chain(candidate: Candidate) -> bool:
    """Return False for a chapter number without a heading's type or space above it."""
    if candidate.kind == "letter":  # "A note on …": an article, unless set as a heading
        return candidate.tall >= TALL and not candidate.text[2:3].islower()
    top = len(as_tuple(candidate)) == 1
    return not top or candidate.tall >= TALL or candidate.apart or candidate.wrapped > 1


def _absolute(candidate: Candidate, value: tuple, before: tuple) -> tuple | None:
    depth = relative_depth(candidate)
    if depth is None:
        return value
    if len(before) < depth - 1:
        return None
    return before[:depth - 1] + value


def part_sequence(found: list[Candidate]) -> set[int]:
    """Return the indices of part headings: display type, numbered on from each other."""
    parts = []
    for index, candidate in enumerate(found):
        if candidate.kind not in ("part", "roman") or not (candidate.tall >= DISPLAY
                                                           or candidate.wrapped > 1):
            continue
        parsed = parse_page(candidate.number.lower())
        if parsed:
            parts.append((index, parsed[1]))
    kept, expected = set(), 1
    for index, value in parts:
        if value == expected:
            kept.add(index)
            expected += 1
    return kept if len(kept) >= 2 else set()


def _with_numbers(found: list[Candidate], chain: dict[int, tuple], parts: set[int]) -> list[Placed]:
    first_part = min(parts, default=len(found))  # chapters before it stand at the top
    placed = [Placed(found[i], len(number) + (i > first_part)) for i, number in chain.items()]
    placed += [Placed(found[i], 1) for i in parts]
    tops = [found[i].tall for i, number in chain.items() if len(number) == 1]
    big = max(DISPLAY, 0.9 * median(tops)) if tops else DISPLAY
    taken = set(chain) | parts
    for index, candidate in enumerate(found):
        if index in taken or candidate.number or len(candidate.text) > 80:
            continue
        if candidate.tall >= big and candidate.index < 3 and candidate.short and candidate.aligned:
            placed.append(Placed(candidate, 1))
    return placed


def by_size(found: list[Candidate]) -> list[Placed]:
    """Return the headings of a book that numbers none: display type, levels by size."""
    display = [c for c in found if c.tall >= DISPLAY and c.short and c.apart and c.aligned
               and len(c.text) <= 80]
    sizes = sorted({round(c.tall / SIZE_STEP) for c in display}, reverse=True)
    levels, level, previous = {}, 0, None
    for size in sizes:
        if previous is None or previous - size > 1:
            level += 1
        levels[size], previous = level, size
    return [Placed(c, levels[round(c.tall / SIZE_STEP)]) for c in display]
