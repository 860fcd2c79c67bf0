"""Scoring who placed the headings (code, agent, nobody) against bookbench truth (pure)."""

from bench.contents import align

CODE = ("exact", "fuzzy", "offset")


def score_verify(found: list, gt: dict) -> dict:
    """Return counts for one book: headings placed by code, by the agent, left for review,
    and how many of the agent's placements are on the right physical page.

    found: headings in TOC order with .title, .status, .page.
    """
    truth = [item for item in gt["outline"] if item["in_printed_toc"]]
    right = {i: truth[j]["page"] for i, j in align(found, truth)}
    agent = [i for i, heading in enumerate(found) if heading.status == "agent"]
    return {
        "headings": len(found),
        "code": sum(1 for heading in found if heading.status in CODE),
        "agent": len(agent),
        "review": sum(1 for heading in found if heading.status == "unresolved"),
        "agent_matched": sum(1 for i in agent if i in right),
        "agent_right": sum(1 for i in agent if right.get(i) == found[i].page),
    }
