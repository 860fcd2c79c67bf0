"""Disagreements between the contents and the body, read off the placed headings (pure).

The index stage already reports what the folios show (missing, duplicated and
out-of-order pages) and code placements far from where the TOC puts them. This
adds what is only visible once every placement is in, the agent's included:
headings whose pages go backwards against the TOC order, and agent placements
far from the page their printed number maps to. Each report carries
``"by": "verify"`` so that a re-run replaces its own reports and nothing else.
"""

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
            found.append({
                "kind": "order_inversion", "by": BY,
                "pages": [heading["page"], previous["page"]],
                "detail": (f"“{heading['title']}” is on page {heading['page']}, before "
                           f"“{previous['title']}” on page {previous['page']}, though the "
                           "contents list it after"),
            })
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
            found.append({
                "kind": "far_from_toc", "by": BY, "pages": [heading["page"], expected[0]],
                "detail": (f"“{heading['title']}” found by the agent on page "
                           f"{heading['page']}; its printed page {printed} is page "
                           f"{expected[0]}"),
            })
    return found


def merged(existing: list[dict], ours: list[dict]) -> list[dict]:
    """Return the book's anomalies with this module's earlier reports replaced by ours."""
    return [anomaly for anomaly in existing if anomaly.get("by") != BY] + ours
