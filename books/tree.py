"""A book's headings as a tree, built from one ordered query (pure over model rows)."""

from dataclasses import dataclass, field


@dataclass
class Node:
    heading: object
    children: list = field(default_factory=list)


def build_tree(headings) -> list[Node]:
    """Return the top-level nodes of headings given in reading order with parent ids."""
    nodes = {heading.pk: Node(heading) for heading in headings}
    roots = []
    for node in nodes.values():
        parent = nodes.get(node.heading.parent_id)
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
