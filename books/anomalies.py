"""Which printed pages a book's scan lacks, and the contents entries whose page is not there.

The contents stage stores each anomaly the folios show (``toc.sequence``) with the printed
pages concerned (first and last) and, for missing pages, how many; its sentence is
worded when shown (``indexing.notes``).
"""

from toc.numbers import label, parse_label


def not_in_scan(anomalies: list[dict]) -> set[str]:
    """Return the printed pages (labels, "371" or "xii") that are surely not in the scan."""
    found: set[str] = set()
    for anomaly in anomalies or []:
        printed = anomaly.get("printed") or []
        if anomaly.get("kind") == "missing_page" and 1 <= len(printed) <= 2:
            stretch = _stretch(printed)
            if anomaly.get("count") == len(stretch):  # fewer: which ones is not known
                found.update(stretch)
    return found


def mark_not_in_scan(headings, anomalies: list[dict]) -> None:
    """Set not_in_scan on each heading: unplaced, and its printed page is not in the scan."""
    missing = not_in_scan(anomalies)
    for heading in headings:
        heading.not_in_scan = heading.status == "unresolved" and heading.printed_page in missing


def _stretch(printed: list[str]) -> list[str]:
    """Return the labels from the first printed page to the last ([] if they do not parse)."""
    first, last = parse_label(printed[0]), parse_label(printed[-1])
    if not first or not last or first[0] != last[0]:
        return []
    return [label(first[0], value) for value in range(first[1], last[1] + 1)]
