"""A book's headings as a tree, built from one ordered query (pure over model rows)."""

from dataclasses import dataclass, field

from toc.ends import section_holding


@dataclass
class Node:
    heading: object
    children: list = field(default_factory=list)


REJECTED = "rejected"  # Heading.Status.REJECTED: kept with its history, never shown
NOT_ON_A_PAGE = {"unresolved", "absent", "rejected"}
SECTION_FIELDS = ("pk", "book_id", "parent_id", "title", "level", "page", "page_end", "line",
                  "status", "position")
"""What section_at and breadcrumb read of a heading: load only these for many headings."""


def build_tree(headings) -> list[Node]:
    """Return the top-level nodes of headings given in reading order with parent ids.

    Rejected entries are left out; their children (if any) hang from the
    nearest kept ancestor, else from the top.
    """
    headings = list(headings)
    by_id = {heading.pk: heading for heading in headings}
    nodes = {heading.pk: Node(heading) for heading in headings if heading.status != REJECTED}
    roots = []
    for node in nodes.values():
        parent_id = node.heading.parent_id
        while parent_id in by_id and parent_id not in nodes:
            parent_id = by_id[parent_id].parent_id
        parent = nodes.get(parent_id)
        (parent.children if parent else roots).append(node)
    return roots


def breadcrumb(headings, heading) -> list:
    """Return the headings from the top of the tree down to heading."""
    by_id = {item.pk: item for item in headings}
    path = []
    while heading is not None:
        path.append(heading)
        heading = by_id.get(heading.parent_id)
    return path[::-1]


def section_at(headings, number: int, line: int | None = None) -> list:
    """Return the breadcrumb (top first) of the section that holds page number, [] if none.

    The section is the placed heading whose pages hold the page and that
    starts last (before line, where the words are on the page, if line is
    known): the deepest one there, since a section starts after the one that
    holds it. Level alone would name a subsection that ended on the page over
    the section that follows it there. The rule is ``toc.ends.section_holding``,
    as the book's index names the section of a page it gives.
    """
    def may_hold(heading) -> bool:  # placed, and not starting below the words on the page
        if heading.status in NOT_ON_A_PAGE or heading.page is None:
            return False
        return not (heading.page == number and line is not None and (heading.line or 0) > line)

    deepest = section_holding(number, [heading for heading in headings if may_hold(heading)],
                              pages=lambda h: (h.page, max(h.page, h.page_end or h.page)),
                              start=lambda h: (h.page, h.position))
    return breadcrumb(headings, deepest) if deepest else []


def heading_counts(headings) -> dict[str, int]:
    """Return how many kept headings there are, how many are placed, absent and not placed."""
    kept = [heading for heading in headings if heading.status != REJECTED]
    placed = sum(1 for heading in kept if heading.page is not None)
    absent = sum(1 for heading in kept if heading.status == "absent")
    return {"total": len(kept), "placed": placed, "absent": absent,
            "unresolved": len(kept) - placed - absent, "rejected": len(headings) - len(kept)}
