"""The real set's measures: OCR of real scans against their proofread text (pure functions).

Distributed Proofreaders' text (``scripts/make_real_set.py``) is the page's
words as printed, less what proofreaders leave out: the running head and the
page number, and the hyphen of a word broken at a line's end (the word is
joined on the upper line). So a page's character errors are counted after
what the engine read at the top and the bottom of the page beyond the
proofread words (its furniture) is set aside, and with hyphens and case
folded away: what is left is the reading of the words.
"""

import re
import unicodedata

from rapidfuzz.distance import Levenshtein

_NOT_COUNTED = re.compile(r"[\s\-‐‑–—_]+")


def squeeze(text: str) -> str:
    """Return the text folded for counting: NFKC, case folded, without spaces or dashes."""
    text = unicodedata.normalize("NFKC", text).casefold()
    return _NOT_COUNTED.sub("", text.replace("--", "—"))


def char_errors(reference: str, lines: list[str], edges: int = 2) -> tuple[int, int]:
    """Return (errors, reference length) of a page read as lines (in reading order) against
    its proofread text: the edit distance between the squeezed texts, with up to ``edges``
    lines left out at the top and at the bottom where that is nearer the text (a running
    head, a folio: proofreaders leave them out)."""
    reference = squeeze(reference)
    if not reference:
        return 0, 0
    best = None
    for top in range(min(edges, len(lines)) + 1):
        for bottom in range(min(edges, len(lines) - top) + 1):
            kept = lines[top:len(lines) - bottom]
            distance = Levenshtein.distance(reference, squeeze("".join(kept)), score_cutoff=best)
            best = distance if best is None else min(best, distance)
    return best, len(reference)


def load_truth(path) -> dict:
    """Return a real book's ground truth (``bench/real/gt``) with ``page_labels`` expanded
    from its label runs, in the form of the synthetic set's truth."""
    import json
    from pathlib import Path

    from toc.numbers import label

    truth = json.loads(Path(path).read_text())
    if "page_labels" not in truth:
        labels = [""] * truth["pages"]
        for first, last, kind, value in truth.get("label_runs", []):
            for number in range(first, last + 1):
                labels[number - 1] = label(kind, value + number - first)
        truth["page_labels"] = labels
    return truth


def real_ids(role: str = "dev") -> list[str]:
    """Return the ids of the real set's books of one role ("dev" or "held_out")."""
    import json
    from pathlib import Path

    sources = Path(__file__).resolve().parent / "real" / "sources.json"
    return [book["id"] for book in json.loads(sources.read_text())["books"]
            if book["role"] == role and book["lang"] in ("en", "ja")]
