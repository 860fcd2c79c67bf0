"""Scoring a book's read index against bookbench ground truth (pure functions).

Entries match by their ``parent > term`` key after NFKC, case folding,
collapsing spaces and trimming a trailing comma or period (each part of the
chain alike), counted with multiplicity (an index can print a term twice).
A pair is (entry key, physical page of a locator); a range counts by its first page.
"""

import re
import unicodedata
from collections import Counter


def norm(text: str) -> str:
    folded = re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text)).strip().casefold()
    return re.sub(r"[,.]+$", "", folded).strip()


def entry_key(term: str, parent: str | None) -> str:
    chain = [norm(part) for part in parent.split(" > ")] if parent else []
    return " > ".join(chain + [norm(term)])


def score(found: list[dict], truth: list[dict]) -> dict:
    """Return counts for one book; found and truth items are {term, parent, pages}.

    pages of found items may hold None for a locator left unresolved.
    """
    truth_keys = Counter(entry_key(e["term"], e["parent"]) for e in truth)
    found_keys = Counter(entry_key(e["term"], e["parent"]) for e in found)
    truth_pairs = Counter((entry_key(e["term"], e["parent"]), p) for e in truth for p in e["pages"])
    found_pairs = Counter((entry_key(e["term"], e["parent"]), p)
                          for e in found for p in e["pages"] if p is not None)
    return {
        "gt_entries": sum(truth_keys.values()),
        "found_entries": sum(found_keys.values()),
        "entries_matched": sum((truth_keys & found_keys).values()),
        "gt_pairs": sum(truth_pairs.values()),
        "found_pairs": sum(found_pairs.values()),
        "pairs_matched": sum((truth_pairs & found_pairs).values()),
        "unresolved": sum(1 for e in found for p in e["pages"] if p is None),
        "missed": sorted((truth_keys - found_keys).elements()),
        "extra": sorted((found_keys - truth_keys).elements()),
        "wrong_pairs": sorted((found_pairs - truth_pairs).elements(), key=str),
    }
