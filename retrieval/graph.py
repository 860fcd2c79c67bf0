"""The term graph: terms linked to the sections where they occur, ranked by
personalised PageRank from a question's terms.

The graph is built with networkx when a book's index is loaded; the random
walk itself runs on arrays taken from it, so a question costs a few
milliseconds per book.
"""

import math
from collections import Counter

import networkx as nx
import numpy as np

TERMS_PER_SECTION = 40


def section_terms(counts: list[Counter], top: int = TERMS_PER_SECTION) -> list[dict[str, float]]:
    """Return each section's strongest terms with tf-idf weights (idf over the sections)."""
    frequency = Counter(term for count in counts for term in count)
    total = len(counts) or 1
    out = []
    for count in counts:
        weights = {
            term: (1 + math.log(n)) * math.log(1 + total / frequency[term])
            for term, n in count.items()
        }
        strongest = sorted(weights.items(), key=lambda item: item[1], reverse=True)[:top]
        out.append({term: round(weight, 3) for term, weight in strongest})
    return out


def build(terms: list[dict[str, float]]) -> nx.Graph:
    """Return the bipartite graph: ("t", term) — ("s", section key), weighted."""
    graph = nx.Graph()
    for key, weights in enumerate(terms):
        graph.add_node(("s", key))
        graph.add_weighted_edges_from((("t", term), ("s", key), w) for term, w in weights.items())
    return graph


class TermGraph:
    """Personalised PageRank over one book's term graph."""

    def __init__(self, graph: nx.Graph):
        nodes = list(graph.nodes)
        self.index = {node: i for i, node in enumerate(nodes)}
        self.sections = np.array([i for i, node in enumerate(nodes) if node[0] == "s"], dtype=np.int64)
        self.section_keys = np.array([nodes[i][1] for i in self.sections], dtype=np.int64)
        edges = [(self.index[u], self.index[v], w) for u, v, w in graph.edges(data="weight")]
        src, dst, weight = (np.array(column) for column in zip(*edges)) if edges else ([], [], [])
        self.src = np.concatenate([src, dst]).astype(np.int64)
        self.dst = np.concatenate([dst, src]).astype(np.int64)
        weight = np.concatenate([weight, weight]).astype(np.float64)
        degree = np.bincount(self.src, weights=weight, minlength=len(nodes))
        self.prob = weight / np.maximum(degree[self.src], 1e-12)
        self.count = np.bincount(self.src, minlength=len(nodes))
        self.size = len(nodes)

    def has(self, term: str) -> bool:
        return ("t", term) in self.index

    def rank(self, seeds: dict[str, float], alpha: float = 0.7, iterations: int = 12) -> dict:
        """Return section key → visit probability of a walk that restarts at the seed terms."""
        restart = np.zeros(self.size)
        for term, weight in seeds.items():
            node = self.index.get(("t", term))
            if node is not None:  # rarer terms say more about where to look
                restart[node] = weight * math.log(1 + len(self.sections) / self.count[node])
        if not restart.any():
            return {}
        restart /= restart.sum()
        rank = restart.copy()
        for _ in range(iterations):
            spread = np.bincount(self.dst, weights=rank[self.src] * self.prob, minlength=self.size)
            rank = (1 - alpha) * restart + alpha * spread
        scores = rank[self.sections]
        keep = scores > 0
        return dict(zip(self.section_keys[keep].tolist(), scores[keep].tolist()))
