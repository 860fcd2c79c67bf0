"""What the folios show about a book's scan, in the reader's words: pages missing, doubled or
out of order, and the contents entries whose page is not there.

The index stage stores each such anomaly as data (``toc.sequence``): its kind,
the physical pages that show it, the printed pages concerned (first and last)
and, for missing pages, how many. The sentence is made here, when the page is
shown, in the language of the request; older records and the other kinds keep
the English detail they were stored with.
"""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from toc.numbers import label, parse_label

SCAN_KINDS = ("missing_page", "duplicate_page", "out_of_order")


def describe(anomaly: dict) -> str:
    """Return the anomaly as one plain sentence in the active language."""
    printed = anomaly.get("printed") or []
    if anomaly.get("kind") not in SCAN_KINDS or not 1 <= len(printed) <= 2:
        return anomaly.get("detail", "")
    first, last = printed[0], printed[-1]
    kind, count = anomaly["kind"], anomaly.get("count") or 0
    if kind == "missing_page" and count < len(_stretch(printed)):
        return ngettext(
            "Printed pages %(first)s–%(last)s are not all in the scan: %(count)s of them is "
            "missing.",
            "Printed pages %(first)s–%(last)s are not all in the scan: %(count)s of them are "
            "missing.", count) % {"first": first, "last": last, "count": count}
    one = len(printed) == 1
    sentences = {
        "missing_page": (_("Printed page %(first)s is not in the scan.") if one else
                         _("Printed pages %(first)s–%(last)s are not in the scan.")),
        "duplicate_page": (_("Printed page %(first)s is in the scan twice.") if one else
                           _("Printed pages %(first)s–%(last)s are in the scan twice.")),
        "out_of_order": (_("Printed page %(first)s is out of order in the scan.") if one else
                         _("Printed pages %(first)s–%(last)s are out of order in the scan.")),
    }
    return sentences[kind] % {"first": first, "last": last}


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
