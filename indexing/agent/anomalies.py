"""Disagreements between the contents and the body, read off the placed headings (pure).

The contents stage already reports what the folios show (missing, duplicated and
out-of-order pages) and code placements far from where the TOC puts them. This
adds what is only visible once every placement is in, the agent's included:
headings whose pages go backwards against the TOC order, and agent placements
far from the page their printed number maps to. Each report carries
``"by": "verify"`` so that a re-run replaces its own reports and nothing else.
"""

from toc.model import ANOMALY_WORDS

NEAR = 2  # pages: closer than this to the printed number's page is not an anomaly
BY = "verify"


def report(headings: list[dict], labels: dict[int, str]) -> list[dict]:
    """Return the anomalies of a book's headings (TOC order; "title", "page", "status", …)."""
    return _inversions(headings) + _far_agent(headings, labels)


def _inversions(headings: list[dict]) -> list[dict]:
    found, previous = [], None
    for heading in headings:
        if heading["page"] is None:
            continue
        if previous and heading["page"] < previous["page"]:
            found.append(_report("order_inversion", [heading["page"], previous["page"]],
                                 "order_inversion", title=heading["title"], page=heading["page"],
                                 before=previous["title"], before_page=previous["page"]))
        previous = heading
    return found


def _far_agent(headings: list[dict], labels: dict[int, str]) -> list[dict]:
    by_label: dict[str, list[int]] = {}
    for page, label in sorted(labels.items()):
        by_label.setdefault(label.lower(), []).append(page)
    found = []
    for heading in headings:
        printed = (heading.get("printed_page") or "").lower()
        expected = by_label.get(printed) if printed else None
        if heading["status"] != "agent" or not expected:
            continue
        if min(abs(page - heading["page"]) for page in expected) > NEAR:
            found.append(_report("far_from_toc", [heading["page"], expected[0]],
                                 "far_from_toc_agent", title=heading["title"],
                                 page=heading["page"], printed=printed, expected=expected[0]))
    return found


def _report(kind: str, pages: list[int], code: str, **values) -> dict:
    """Return an anomaly as the book stores it: said by code and values, its detail in
    English (``toc.model.anomaly`` for the contents stage's)."""
    return {"kind": kind, "by": BY, "pages": pages, "detail": ANOMALY_WORDS[code] % values,
            "code": code, "values": values}


def merged(existing: list[dict], ours: list[dict]) -> list[dict]:
    """Return the book's anomalies with this module's earlier reports replaced by ours."""
    return [anomaly for anomaly in existing if anomaly.get("by") != BY] + ours
