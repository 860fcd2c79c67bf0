"""Scoring a recovered table of contents against bookbench ground truth (pure functions).

Recovered entries are aligned to the ground-truth entries of the printed TOC
by an order-preserving alignment (dynamic programming, like a diff) that
maximises total title similarity; a pair may align only when the similarity
of their normalised titles (NFKC, case, look-alikes, letters and digits only;
with and without the numbering prefix) is at least 0.75.
"""

from difflib import SequenceMatcher

from toc.text import key, numbering

MIN_SIMILAR = 0.75
BAND = 60  # how far from the diagonal the alignment looks


def keys_of(title: str) -> set[str]:
    return {key(title), key(numbering(title)[2])} - {""}


def similar(left: set[str], right: set[str]) -> float:
    best = 0.0
    for a in left:
        for b in right:
            if a == b:
                return 1.0
            matcher = SequenceMatcher(None, a, b, autojunk=False)
            if matcher.quick_ratio() > best:
                best = max(best, matcher.ratio())
    return best


def align(found: list, truth: list[dict]) -> list[tuple[int, int]]:
    """Return (found index, truth index) pairs of an order-preserving best alignment."""
    found_keys = [keys_of(entry.title) for entry in found]
    truth_keys = [keys_of(item["toc_text"] or item["title"]) | keys_of(item["title"])
                  for item in truth]
    n, m = len(found), len(truth)
    score = [[0.0] * (m + 1) for _ in range(n + 1)]
    move = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        centre = i * m // max(n, 1)
        for j in range(1, m + 1):
            best, how = score[i - 1][j], 1
            if score[i][j - 1] > best:
                best, how = score[i][j - 1], 2
            if abs(j - centre) <= BAND:
                sim = similar(found_keys[i - 1], truth_keys[j - 1])
                if sim >= MIN_SIMILAR and score[i - 1][j - 1] + sim > best:
                    best, how = score[i - 1][j - 1] + sim, 3
            score[i][j], move[i][j] = best, how
    pairs, i, j = [], n, m
    while i and j:
        how = move[i][j]
        if how == 3:
            pairs.append((i - 1, j - 1))
            i, j = i - 1, j - 1
        elif how == 1:
            i -= 1
        else:
            j -= 1
    return pairs[::-1]


def score_toc(found: list, labels: dict[int, str], toc_pages: list[int], gt: dict) -> dict:
    """Return counts for one book: entries found and matched, levels, pages, labels.

    found: entries in reading order with .title, .level, .page (None if unplaced).
    """
    truth = [item for item in gt["outline"] if item["in_printed_toc"]]
    pairs = align(found, truth)
    matched = [(found[i], truth[j]) for i, j in pairs]
    placed = [(entry, item) for entry, item in matched if entry.page is not None]
    gt_labels = gt["page_labels"]
    return {
        "truth": len(truth),
        "found": len(found),
        "matched": len(pairs),
        "level_right": sum(1 for entry, item in matched if entry.level == item["level"]),
        "exact": sum(1 for entry, item in placed if entry.page == item["page"]),
        "near": sum(1 for entry, item in placed if abs(entry.page - item["page"]) <= 1),
        "wrong": sum(1 for entry, item in placed if abs(entry.page - item["page"]) > 1),
        "unresolved": sum(1 for entry in found if entry.page is None),
        "labels_right": sum(1 for number, label in enumerate(gt_labels, 1)
                            if labels.get(number, "") == label),
        "labels": len(gt_labels),
        "toc_pages_right": int(list(toc_pages) == list(gt["toc_pages"])),
    }
