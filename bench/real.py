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
