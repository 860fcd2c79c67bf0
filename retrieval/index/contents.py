"""A book's contents tree: each section above its subsections (pure functions).

Each section of an index knows its parent and children; walked as a networkx tree, the
sections under a chapter or inside a page range are found in one step. It lives with the
index (``BookIndex.tree`` keeps one per book) so that the index never reads the question's
rules for parts and chapters (``retrieval.question.units``) to build it.
"""

import networkx as nx


def tree(chunks) -> nx.DiGraph:
    """Return the contents tree: an edge from each section to each of its subsections."""
    headed = [chunk for chunk in chunks if chunk.heading_id]
    graph = nx.DiGraph()
    graph.add_nodes_from(chunk.key for chunk in headed)
    graph.add_edges_from((chunk.parent_key, chunk.key) for chunk in headed
                         if chunk.parent_key is not None)
    return graph


def subtree(graph: nx.DiGraph, key) -> set[int]:
    """Return key and every section below it (empty for None)."""
    if key is None or key not in graph:
        return set()
    return {key} | nx.descendants(graph, key)
