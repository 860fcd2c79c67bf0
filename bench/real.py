"""The real set's measures: OCR of real scans against their proofread text (pure functions).

Distributed Proofreaders' text (``scripts/make_real_set.py``) is the page's
words as printed, less what proofreaders leave out: the running head and the
page number, and the hyphen of a word broken at a line's end (the word is
joined on the upper line). So a page's character errors are counted after
what the engine read at the top and the bottom of the page beyond the
proofread words (its furniture) is set aside, and with hyphens and case
folded away: what is left is the reading of the words.

The Japanese pages are transcribed by hand (``bench/real/ja``), everything
printed as text, furniture included, in blocks: each a region of the image
(a page of a spread, a tier of a magazine page, a running head) with its
text in reading order. A page is measured block by block (``block_errors``):
each line read counts in the block its centre falls in, so that two tiers
read column by column across both, or two pages of a spread read row by row
across both, are not counted as misreadings; what lies in no block (a
figure, a table, the edge of the facing page) is not measured.
"""

import json
import re
import unicodedata
from pathlib import Path

import numpy as np
from rapidfuzz.distance import Levenshtein

_NOT_COUNTED = re.compile(r"[\s\-‐‑–—_]+")
# Horizontal Japanese prints its comma and full stop either as 、。 or as ，．
# (NFKC: , .), as the house style has it: both are read as the same mark.
_MARKS = str.maketrans({"，": "、", ",": "、", "．": "。", ".": "。"})
BLOCK = re.compile(r"^@\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*$")


def squeeze(text: str) -> str:
    """Return the text folded for counting: NFKC, case folded, without spaces or dashes, with
    one comma and one full stop."""
    text = unicodedata.normalize("NFKC", text).casefold()
    return _NOT_COUNTED.sub("", text.replace("--", "—")).translate(_MARKS)


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
    """Return the ids of the real set's books of one role ("dev" or "held_out") that have a
    contents truth (``bench/real/gt``)."""
    here = Path(__file__).resolve().parent / "real"
    return [book["id"] for book in json.loads((here / "sources.json").read_text())["books"]
            if book["role"] == role and (here / "gt" / f"{book['id']}.gt.json").exists()]


def read_truth(text: str, width: int, height: int) -> list[dict]:
    """Return the blocks of a hand transcription, [{"box": [x0, y0, x1, y1], "text"}], the box
    as shares of the image (width × height pixels).

    The transcription is plain text: a line ``@ x0 y0 x1 y1`` (pixels of the image)
    opens each block, the lines after it are its text in reading order, and lines
    starting with ``#`` are notes.
    """
    blocks: list[dict] = []
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        if found := BLOCK.match(line):
            x0, y0, x1, y1 = (int(value) for value in found.groups())
            box = [round(x0 / width, 4), round(y0 / height, 4),
                   round(x1 / width, 4), round(y1 / height, 4)]
            blocks.append({"box": box, "text": ""})
        elif line.strip():
            if not blocks:
                raise ValueError(f"text before the first block: {line!r}")
            blocks[-1]["text"] += line.strip() + "\n"
    return [{**block, "text": block["text"].rstrip("\n")} for block in blocks]


def block_errors(blocks: list[dict], lines: list[dict], width: float,
                 height: float) -> tuple[int, int]:
    """Return (errors, reference length) of a page read as lines (boxes in points, in reading
    order) against its blocks (boxes as shares of the page, width × height points): each
    block against the lines whose centre falls in it, in their order; lines in no block
    are not counted."""
    found: list[list[str]] = [[] for _ in blocks]
    for line in lines:
        x0, y0, x1, y1 = line["box"]
        x, y = (x0 + x1) / 2 / width, (y0 + y1) / 2 / height
        for index, block in enumerate(blocks):
            left, top, right, bottom = block["box"]
            if left <= x < right and top <= y < bottom:
                found[index].append(line["text"])
                break
    errors = length = 0
    for block, read in zip(blocks, found, strict=True):
        distance, size = char_errors(block["text"], read, edges=0)
        errors, length = errors + distance, length + size
    return errors, length


def transcribed_pages(folder: Path, books: list[dict]) -> list[dict]:
    """Return the hand-transcribed pages of the built books, [{pdf, page, lang, truth}]: the
    PDF's path in folder (scripts/make_real_set.py's output), the page's number in it (1-based),
    its language and its entry of ``<id>.pages.json`` (measure it with ``page_errors``).
    books are sources.json's; those not built in folder are left out."""
    found = []
    for book in books:
        listing = folder / f"{book['id']}.pages.json"
        if "pages" not in book or not listing.is_file():
            continue
        for page in json.loads(listing.read_text()):
            if page.get("blocks"):
                found.append({"pdf": folder / f"{book['id']}.pdf", "page": page["number"],
                              "lang": book["lang"], "truth": page})
    return found


def page_errors(page: dict, lines: list[dict], width: float, height: float) -> tuple[int, int]:
    """Return (errors, reference length) of a page of ``<id>.pages.json`` read as lines: by
    its blocks where it has them (hand transcriptions), else against its proofread text."""
    if page.get("blocks"):
        return block_errors(page["blocks"], lines, width, height)
    return char_errors(page["text"], [line["text"] for line in lines])


def reading_errors(reference: str, lines: list[str]) -> tuple[int, int]:
    """Return (errors, reference length) of the reading alone: each printed line of the
    reference against the stretch of the page's text (its lines joined) that it matches
    best, wherever that lies.

    Order, segmentation and what was read besides (columns of two tiers joined into
    one line, a figure's labels) then cost nothing: what is left is how well the
    characters were read, and what was not read at all.
    """
    page = squeeze("".join(lines))
    errors = length = 0
    for printed in reference.splitlines():
        printed = squeeze(printed)
        errors, length = errors + _best_stretch(printed, page), length + len(printed)
    return errors, length


def _best_stretch(needle: str, text: str) -> int:
    """Return the least edit distance between needle and any stretch of text (the
    alignment may start and end anywhere in text at no cost)."""
    if not needle:
        return 0
    if not text:
        return len(needle)
    haystack = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)
    steps = np.arange(len(text) + 1)
    row = np.zeros(len(text) + 1, dtype=np.int64)  # a stretch may start anywhere
    for index, char in enumerate(needle, 1):
        best = np.empty_like(row)
        best[0] = index
        best[1:] = np.minimum(row[1:] + 1, row[:-1] + (haystack != ord(char)))
        # A gap in the needle's way (a character read in excess) costs one each.
        row = np.minimum.accumulate(best - steps) + steps
    return int(row.min())
