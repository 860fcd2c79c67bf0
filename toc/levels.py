"""Entry levels from numbering patterns and indentation (pure functions).

Numbering gives a rank (part 0, chapter 1, 1.2 → 2, 1.2.3 → 3 …). Indentation is
measured after aligning every contents page on its numbered entries (recto and
verso pages, and scans, sit at different x). An unnumbered entry takes the rank
of the numbered entries at its indentation, or the rank of the entries that are
set off by extra space above when it is too. Levels then follow from ranks with a
stack, so a chapter before the first part is level 1 and those after it level 2.
"""

from collections import Counter
from statistics import median

from toc.parse import Raw

SAME_INDENT = 0.6  # line heights
BIG_GAP = 1.4  # spacing above a row, over the usual spacing, that sets off a top entry
RANKS = {"part": 0, "roman": 0, "chapter": 1, "letter": 1, "item": 3}  # item: 一 under a 節
PART_INDENT = 1.0  # line heights: a part printed at its chapters' indentation
PART_PAGES = 2  # a part's page is its first chapter's, or a page or two before
PART_TYPE = 0.9  # an entry in type this much smaller than the parts' is no part
MEASURED = 0.8  # the share of entries whose type was measured on the scan, to go by it


def ranks(entries: list[Raw]) -> list[int | None]:
    """Return the rank each entry's numbering implies, None when unnumbered."""
    letters = _appendix_letters(entries)
    prefixes = {e.number.split(".")[0] for e in entries if isinstance(e.kind, int)}
    romans = {e.number for e in entries if e.kind == "roman"}
    found = []
    for entry in entries:
        kind = entry.kind
        if kind == "letter" and len(letters) < 2 and entry.number not in prefixes:
            kind = None  # "A Sample…": an article, not appendix A
        if kind == "roman" and len(romans) < 2:
            kind = None
        found.append(kind if isinstance(kind, int) else RANKS.get(kind))
    return found


def _appendix_letters(entries: list[Raw]) -> set[str]:
    """Return the letters that number appendices: A, B, C… in a run from A. A title that
    begins with a capital letter as a word ("A collection of…", "C decimal arithmetic")
    is no appendix: such letters skip."""
    letters = sorted({e.number for e in entries if e.kind == "letter"})
    run = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[:len(letters)]
    return set(letters) if "".join(letters) == run else set()


def levels(entries: list[Raw]) -> list[int]:
    """Return the level (1 = top) of each entry."""
    if not entries:
        return []
    known = part_ranks(entries, ranks(entries))
    indents = aligned_indents(entries, known)
    clusters = _clusters(indents)
    known = _chapters_under_parts(entries, known, clusters)
    votes = _votes(clusters, known)
    known = _demote_misplaced(known, clusters, votes)
    known = _demote_set_in(indents, known)
    filled = _fill(entries, known, clusters, votes, _nearest_ranks(indents, known))
    filled = _over_their_runs(entries, filled)
    stack: list[int] = []
    out = []
    for rank in filled:
        while stack and stack[-1] >= rank:
            stack.pop()
        out.append(len(stack) + 1)
        stack.append(rank)
    return out


def part_ranks(entries: list[Raw], known: list[int | None]) -> list[int | None]:
    """Return ranks with parts told from chapters where indentation and numbering do not.

    Parts printed at the chapters' indentation whose numerals OCR lost or
    misread ("l Gnuplot", "11 Plotting styles" between chapters 2 and 3) are
    entries that each open a run of chapters: unnumbered, or numbered out of
    the chapters' sequence; printed where the next chapter is; on its page or
    a page or two before it; and at least one of them between two chapters, so
    that a preface before chapter 1 or an index after the last stays a chapter.
    """
    chapters = [i for i, rank in enumerate(known) if rank == 1 and entries[i].number.isdigit()]
    if len(chapters) < 3:
        return known
    in_order = _increasing(chapters, entries)
    misread = set(chapters) - in_order
    found = [i for i in range(len(entries) - 1)
             if (known[i] is None or i in misread) and i + 1 in in_order
             and _opens(entries[i], entries[i + 1])]
    if len(found) < 2 or not any(i > min(in_order) for i in found):
        return known
    return [0 if i in found else rank for i, rank in enumerate(known)]


def _chapters_under_parts(entries, known, clusters) -> list[int | None]:
    """Return ranks where the unnumbered entries printed at the parts' indentation in
    smaller type than the parts are chapters (gnuplot sets "I Gnuplot" in 12 pt and its
    chapters, "Copyright", "Introduction"…, in 10 pt at the same indentation)."""
    parts = [i for i, rank in enumerate(known) if rank == RANKS["part"]]
    if len(parts) < 2:
        return known
    sizes = type_sizes(entries)
    height = median(sizes[i] for i in parts)
    home = Counter(clusters[i] for i in parts).most_common(1)[0][0]
    return [RANKS["chapter"] if rank is None and clusters[i] == home
            and sizes[i] < PART_TYPE * height else rank
            for i, rank in enumerate(known)]


def type_sizes(entries: list[Raw]) -> list[float]:
    """Return each entry's type size: measured in the scan's pixels where most entries were
    (``toc.layout.type_size``: OCR's boxes tell 12-point bold from 10-point roman poorly),
    else the height of its row (a text layer's, which follows the font's size)."""
    measured = [entry.size for entry in entries if entry.size]
    if len(measured) < MEASURED * len(entries):
        return [entry.height for entry in entries]
    usual = median(measured)
    return [entry.size or usual for entry in entries]


def _increasing(chapters: list[int], entries: list[Raw]) -> set[int]:
    """Return the chapters whose numbers keep the longest strictly increasing run."""
    from toc.repair import longest_increasing

    values = [int(entries[i].number) for i in chapters]
    return {chapters[p] for p in longest_increasing(values)}


def _opens(entry: Raw, chapter: Raw) -> bool:
    """Return True when entry stands where chapter does and its page leads into chapter's."""
    if abs(entry.x - chapter.x) > PART_INDENT * max(chapter.height, 1.0):
        return False
    here, there = entry.printed, chapter.printed
    if not (here and there) or here[0] != there[0]:
        return here is None  # a part title printed without a page
    return 0 <= there[1] - here[1] <= PART_PAGES


def aligned_indents(entries: list[Raw], known: list[int | None]) -> list[float]:
    """Return each entry's indentation in line heights, pages aligned on numbered entries.

    A page with numbered entries of two ranks or more aligns on them; others take
    the shift of pages on the same side (recto or verso) of the spread.
    """
    unit = median(entry.height for entry in entries) or 1.0
    groups: dict[tuple, list[int]] = {}
    for index, entry in enumerate(entries):
        groups.setdefault((entry.toc_page, entry.column), []).append(index)
    lefts = _lefts(entries, groups, unit)
    usual_left = median(lefts.values())
    shifts = {g: left - usual_left for g, left in lefts.items()}
    for _ in range(2):
        reference = _references(entries, known, groups, shifts)
        shifts = _shifts(entries, known, groups, shifts, reference)
    reference = _references(entries, known, groups, shifts)
    base = min(reference.values()) if reference else usual_left
    return [
        (entry.x - shifts[(entry.toc_page, entry.column)] - base) / unit for entry in entries
    ]


def _lefts(entries: list[Raw], groups: dict[tuple, list[int]], unit: float) -> dict[tuple, float]:
    """Return where each page's (column's) entries would start at the top level.

    A page's leftmost entry is not always at the top level: a contents page may
    hold only the subsections of one long section. Where the page numbers stand
    flush right (their right edges within a line height), the page's left edge
    is its right edge less the widest span of the column's pages (a page that
    holds a top-level entry), so a page of subsections keeps them indented, on
    born pages and on shifted scans alike.
    """
    lefts = {g: min(entries[i].x for i in members) for g, members in groups.items()}
    rights = {}
    for group, members in groups.items():
        edges = sorted(entries[i].right for i in members if entries[i].right)
        if len(edges) >= 2 and edges[-1] - edges[0] <= unit:
            rights[group] = median(edges)
    columns: dict[int, list[float]] = {}
    for group, right in rights.items():
        columns.setdefault(group[1], []).append(right - lefts[group])
    found = dict(lefts)
    for group, right in rights.items():
        spans = columns[group[1]]
        estimate = right - max(spans)
        if len(spans) >= 2 and estimate < lefts[group] - unit:  # OCR's edges wander less
            found[group] = estimate
    return found


def _references(entries, known, groups, shifts) -> dict[int, float]:
    """Return the usual x of each rank's numbered entries once pages are shifted."""
    values: dict[int, list[float]] = {}
    for group, members in groups.items():
        for i in members:
            if known[i] is not None:
                values.setdefault(known[i], []).append(entries[i].x - shifts[group])
    return {rank: median(xs) for rank, xs in values.items()}


def _shifts(entries, known, groups, shifts, reference) -> dict[tuple, float]:
    own = {}
    for group, members in groups.items():
        numbered = [i for i in members if known[i] is not None]
        if len({known[i] for i in numbered}) >= 2:
            own[group] = median(entries[i].x - reference[known[i]] for i in numbered)
    sides: dict[tuple, list[float]] = {}
    for (page, column), shift in own.items():
        sides.setdefault((page % 2, column), []).append(shift)
    return {
        group: own.get(group, median(sides[(group[0] % 2, group[1])])
                       if (group[0] % 2, group[1]) in sides else shifts[group])
        for group in groups
    }


def _clusters(indents: list[float]) -> list[int]:
    """Return a cluster index per indent: indents closer than SAME_INDENT share one."""
    order = sorted(set(indents))
    ids, current, previous = {}, 0, None
    for value in order:
        if previous is not None and value - previous >= SAME_INDENT:
            current += 1
        ids[value] = current
        previous = value
    return [ids[value] for value in indents]


def _votes(clusters: list[int], known: list[int | None]) -> dict[int, Counter]:
    votes: dict[int, Counter] = {}
    for cluster, rank in zip(clusters, known):
        if rank is not None:
            votes.setdefault(cluster, Counter())[rank] += 1
    return votes


def _demote_misplaced(known, clusters, votes) -> list[int | None]:
    """Return ranks where numbering printed at another rank's indentation follows the layout.

    "Chapter 3 Text and fonts" indented among sections, or "A Limerick" among
    subsections, is a sub-entry whatever its words say.
    """
    home = {}
    for rank in {r for r in known if r is not None}:
        counts = Counter(c for c, r in zip(clusters, known) if r == rank)
        home[rank] = counts.most_common(1)[0][0]
    fixed = list(known)
    for index, (cluster, rank) in enumerate(zip(clusters, known)):
        if rank is None or home[rank] == cluster or cluster not in votes:
            continue
        leader, count = votes[cluster].most_common(1)[0]
        strong = count >= 3 and count >= 3 * votes[cluster][rank]
        if leader > rank and strong and home.get(leader) == cluster:
            fixed[index] = leader
    return fixed


def _demote_set_in(indents: list[float], known: list[int | None]) -> list[int | None]:
    """Return ranks where a numbered entry set in from its rank's usual indentation to a
    deeper rank's is that rank ("Chapter 3 Text and fonts" among the notes' entries),
    whether or not the indents chained into one cluster (a scan's)."""
    usual = _usual_indents(indents, known)
    nearest = _nearest_ranks(indents, known)
    return [near if rank is not None and near is not None and near > rank
            and abs(indent - usual[rank]) >= SAME_INDENT else rank
            for indent, rank, near in zip(indents, known, nearest)]


def _usual_indents(indents: list[float], known: list[int | None]) -> dict[int, float]:
    """Return each rank's usual indentation: the median of its numbered entries'."""
    found: dict[int, list[float]] = {}
    for indent, rank in zip(indents, known):
        if rank is not None:
            found.setdefault(rank, []).append(indent)
    return {rank: median(values) for rank, values in found.items()}


def _nearest_ranks(indents: list[float], known: list[int | None]) -> list[int | None]:
    """Return for each entry the rank of the numbered entries printed at its indentation
    (within SAME_INDENT of their usual indentation), None where none are.

    Clusters chain indents closer than SAME_INDENT; on a scan whose line heights
    OCR reads large, one step of indentation and the wander of the edges make a
    continuum that chains sections and chapters into one cluster. The numbered
    entries' own indentation does not chain.
    """
    usual = _usual_indents(indents, known)
    out = []
    for indent in indents:
        near = min(usual, key=lambda rank: abs(usual[rank] - indent), default=None)
        out.append(near if near is not None and abs(usual[near] - indent) < SAME_INDENT / 2
                   else None)
    return out


def _fill(entries, known, clusters, votes, nearest) -> list[int]:
    cluster_rank = _cluster_ranks(clusters, votes)
    set_off = _set_off_ranks(entries, known)
    filled = []
    for index, entry in enumerate(entries):
        rank = known[index]
        if rank is None:
            rank = nearest[index] if nearest[index] is not None else cluster_rank[clusters[index]]
            if entry.gap is not None and entry.gap >= BIG_GAP:
                above = [r for r in set_off if r < rank]
                rank = max(above) if above else rank
        filled.append(rank)
    return filled


def _over_their_runs(entries: list[Raw], ranks_: list[int]) -> list[int]:
    """Return ranks where the unnumbered titles set in the middle of the column without a
    page ("FIRST NUMBER", "APPENDIX" over an old book's songs) stand above the entries that
    follow them, up to the next such title: a part's heading, whatever indentation its
    centring gives it. Two of them at least, each over entries with pages."""
    heads = [i for i, entry in enumerate(entries)
             if entry.centred and entry.token is None and not entry.number]
    ends = heads[1:] + [len(entries)]
    runs = [range(head + 1, end) for head, end in zip(heads, ends)]
    if len(heads) < 2 or not all(any(entries[i].token for i in run) for run in runs):
        return ranks_
    fixed = list(ranks_)
    for head, run in zip(heads, runs):
        fixed[head] = min([fixed[head]] + [ranks_[i] - 1 for i in run])
    return fixed


def _cluster_ranks(clusters, votes) -> dict[int, int]:
    result = {}
    for cluster in sorted(set(clusters)):
        if cluster in votes:
            result[cluster] = votes[cluster].most_common(1)[0][0]
        else:
            left = [result[c] for c in result if c < cluster]
            result[cluster] = (max(left) + 1) if left else 1 + cluster
    return result


def _set_off_ranks(entries, known) -> set[int]:
    """Return the ranks whose numbered entries are mostly set off by extra space above."""
    seen: dict[int, list[bool]] = {}
    for entry, rank in zip(entries, known):
        if rank is not None and entry.gap is not None:
            seen.setdefault(rank, []).append(entry.gap >= BIG_GAP)
    return {rank for rank, flags in seen.items() if sum(flags) >= 0.6 * len(flags)}
