"""Measures for the bookbench benchmark (pure functions over page texts and lines)."""

import re
import unicodedata
from collections import Counter

from rapidfuzz.distance import Levenshtein

from indexing.ocr.layout import reading_order_horizontal, reading_order_vertical

# A page number at the end of a line, after a space, leader dots or the like.
TRAILING_NUMBER = re.compile(r"(?:^|[^0-9a-z])(\d+|[ivxlcdm]+)$", re.IGNORECASE)
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
    """Return the numbers that end right-aligned lines (page numbers on a TOC page), counted.

    Only lines reaching the right edge of the text count, so that a section
    number read as a line of its own is not taken for a page number.
    """
    numbers = Counter()
    if not lines:
        return numbers
    left = min(line["box"][0] for line in lines)
    right = max(line["box"][2] for line in lines)
    for line in lines:
        if line["box"][2] < right - 0.1 * (right - left):
            continue
        match = TRAILING_NUMBER.search(unicodedata.normalize("NFKC", line["text"]).strip(" ."))
        if match:
            numbers[match.group(1).lower()] += 1
    return numbers


# 127 (after leader dots too), not the parts of 8.1.1
INTEGER = re.compile(r"(?<!\d)(?<!\d\.)(\d+)(?!\.?\d)")


def numbers(lines: list[dict]) -> Counter:
    """Return the whole numbers written anywhere on the lines (after NFKC), counted."""
    return Counter(number for line in lines
                   for number in INTEGER.findall(unicodedata.normalize("NFKC", line["text"])))


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
    # The truth: the printed page of every entry of the printed TOC.
    toc_expected = Counter(item["printed_page"].lower() for item in gt["outline"]
                           if item["in_printed_toc"] and item.get("printed_page"))
    toc_found = Counter()
    for number in gt["toc_pages"]:
        toc_found += trailing_numbers(pages.get(number, []))
    toc_read, toc_total = recall(toc_found, toc_expected)
    # Reading alone, wherever the line ends: the numbers the born twin prints on
    # its TOC pages, found among those OCR read there.
    digits_read, digits_total = recall(
        sum((numbers(pages.get(n, [])) for n in gt["toc_pages"]), Counter()),
        sum((numbers(born.get(n, [])) for n in gt["toc_pages"]), Counter()))
    return {"char_errors": errors, "chars": length, "folios_read": folios_read,
            "folios": folios, "toc_numbers_read": toc_read, "toc_numbers": toc_total,
            "toc_digits_read": digits_read, "toc_digits": digits_total}
