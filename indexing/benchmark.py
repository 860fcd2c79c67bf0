"""Measures for the bookbench benchmark (pure functions over page texts and lines)."""

import re
import unicodedata
from collections import Counter

from rapidfuzz.distance import Levenshtein

from indexing.ocr.layout import reading_order_horizontal, reading_order_vertical

NUMBER = re.compile(r"(?:\d+|[ivxlcdm]+)$", re.IGNORECASE)
EDGE_LINES = 3  # header and footer lines where folios are printed


LEADERS = re.compile(r"[.・·…‥⋯_-]{3,}")


def squeeze(text: str) -> str:
    """Return text after NFKC with all white space removed (reading order kept).

    Runs of leader dots are dropped: how many dots a TOC line prints (and
    whether the engine reports them at all) says nothing about how well its
    words were read.
    """
    text = "".join(unicodedata.normalize("NFKC", text).split())
    return LEADERS.sub("", text)


def ordered_text(lines: list[dict]) -> str:
    """Return the lines' text in the reading order OCR pages get, whatever their source.

    The text layer's own order (the typesetter's) differs from any order
    computed from boxes; comparing both in one order measures reading, not
    ordering.
    """
    vertical = sum(len(line["text"]) for line in lines if line.get("dir") == "v")
    order = reading_order_vertical if 2 * vertical > sum(len(line["text"]) for line in lines) \
        else reading_order_horizontal
    return "".join(line["text"] for line in order(lines))


def char_errors(reference: str, hypothesis: str) -> tuple[int, int]:
    """Return (edit distance, reference length) between the squeezed texts."""
    reference, hypothesis = squeeze(reference), squeeze(hypothesis)
    return Levenshtein.distance(reference, hypothesis), len(reference)


def edge_tokens(lines: list[dict]) -> set[str]:
    """Return the words of a page's first and last lines, where folios are printed."""
    edges = lines[:EDGE_LINES] + lines[-EDGE_LINES:]
    return {token.lower() for line in edges for token in
            unicodedata.normalize("NFKC", line["text"]).replace("/", " ").split()}


def trailing_numbers(lines: list[dict]) -> Counter:
    """Return the page numbers that end lines (as on a TOC page), counted."""
    numbers = Counter()
    for line in lines:
        words = unicodedata.normalize("NFKC", line["text"]).split()
        if words and NUMBER.fullmatch(words[-1].strip(".")):
            numbers[words[-1].strip(".").lower()] += 1
    return numbers


def recall(found: Counter, expected: Counter) -> tuple[int, int]:
    """Return (matched, expected) counts of a multiset recall."""
    return sum((found & expected).values()), sum(expected.values())


def ratio(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "—"


def measure_ocr(pages: dict[int, list[dict]], born: dict[int, list[dict]], gt: dict) -> dict:
    """Return OCR quality counts for one book.

    pages and born map physical page numbers to lines: as read from the scan,
    and from the born-digital twin's text layer (the truth).
    """
    errors = length = folios = folios_read = 0
    for number, truth in born.items():
        read = pages.get(number, [])
        distance, size = char_errors(ordered_text(truth), ordered_text(read))
        errors, length = errors + distance, length + size
        label = gt["page_labels"][number - 1].lower() if number <= len(gt["page_labels"]) else ""
        if label and label in edge_tokens(truth):
            folios += 1
            folios_read += label in edge_tokens(read)
    toc_found, toc_expected = Counter(), Counter()
    for number in gt["toc_pages"]:
        toc_expected += trailing_numbers(born.get(number, []))
        toc_found += trailing_numbers(pages.get(number, []))
    toc_read, toc_total = recall(toc_found, toc_expected)
    return {"char_errors": errors, "chars": length, "folios_read": folios_read,
            "folios": folios, "toc_numbers_read": toc_read, "toc_numbers": toc_total}
