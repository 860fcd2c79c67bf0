"""Hybrid ranking of chunks: full text, vectors and the term graph, kept by a skyline.

Full text: the pages FTS5 finds for the question's terms (``books.search``'s
trigram index, any term may match, bm25 weighs them) are mapped to the
chunks whose text covers them, and each chunk is scored by how much of the
question its own text holds. Vectors: the best cosine between the question
and any passage of the chunk. Graph: personalised PageRank from the
question's terms. Candidates are the skyline over (graph, text, vector),
topped up with the best of each; they are ranked by a weighted sum.
"""

from dataclasses import dataclass, field

import numpy as np

from books import search
from retrieval import embeddings, skyline, terms

WEIGHTS = {"text": 0.55, "vector": 0.3, "graph": 0.15}
# When some sections of a book hold the question's words, a section of that book
# holding none of them must score at least this share of the book's best: below
# it, it is noise.
NOISE_FLOOR = 0.6
PER_SOURCE = 20
FTS_PAGES = 120


@dataclass
class Scored:
    book_id: int
    key: int
    score: float
    text: float
    vector: float
    graph: float
    found: list[str] = field(default_factory=list)


def rank(question: str, indexes: list, *, limit: int = 10, allowed=None, exclude=()) -> list[Scored]:
    """Return the best chunks of indexes for question, best first.

    allowed: book id → the chunk keys that may be returned (a range filter);
    a book absent from it is not searched. exclude: (book id, key) pairs.
    """
    if allowed is not None:
        indexes = [index for index in indexes if index.book_id in allowed]
    match = terms.match_terms(question)
    seeds = terms.graph_terms(question)
    if not indexes or not (match or seeds or question.strip()):
        return []
    query_vector = _query_vector(question, indexes)
    pages = search.page_scores(match, [index.book_id for index in indexes], FTS_PAGES)
    page_score = pages or {}
    top_page = max(page_score.values(), default=0) or 1
    graph_scores = {index.book_id: index.graph.rank(seeds) for index in indexes}
    top_graph = max((max(s.values(), default=0) for s in graph_scores.values()), default=0) or 1
    points, found = {}, {}
    width = max(80, int(1.5 * len(terms.normalise(question))))
    for index in indexes:
        vectors = index.vector_scores(query_vector)
        keys = _candidates(index, pages, vectors, graph_scores[index.book_id])
        if allowed is not None:
            keys &= set(allowed[index.book_id])
        for key in keys - {k for b, k in exclude if b == index.book_id}:
            cover, hits = terms.coverage(match, index.texts[key])
            near = terms.proximity(hits, index.texts[key], width) * cover if cover >= 0.5 else 0
            chunk = index.chunks[key]
            span = range(chunk.span[0], chunk.span[1] + 1)
            bm25 = max((page_score.get((index.book_id, n), 0) for n in span), default=0) / top_page
            points[(index.book_id, key)] = (
                graph_scores[index.book_id].get(key, 0.0) / top_graph,
                0.5 * cover + 0.3 * near + 0.2 * bm25,
                max(0.0, float(vectors[key])),
            )
            found[(index.book_id, key)] = hits
    chosen = skyline.candidates(points, minimum=max(3 * limit, 15))
    scored = [_scored(pair, points[pair], found[pair]) for pair in chosen]
    scored.sort(key=lambda s: (-s.score, s.book_id, s.key))
    return without_noise(scored)[:limit]


def without_noise(scored: list[Scored]) -> list[Scored]:
    """Drop sections without any of the question's words that score far below their book's best.

    Book by book, and only in a book where some section does hold them: a
    book that answers in other words (another language, found by vectors
    alone) keeps its candidates.
    """
    best, holding = {}, set()
    for s in scored:  # best first, so a book's first section is its best
        best.setdefault(s.book_id, s.score)
        if s.found:
            holding.add(s.book_id)
    return [s for s in scored
            if s.found or s.book_id not in holding or s.score >= NOISE_FLOOR * best[s.book_id]]


def _scored(pair, point, found) -> Scored:
    graph, text, vector = point
    score = WEIGHTS["text"] * text + WEIGHTS["vector"] * vector + WEIGHTS["graph"] * graph
    return Scored(pair[0], pair[1], round(score, 4), text, vector, graph, found)


def _query_vector(question, indexes):
    if not any(index.vectors is not None for index in indexes):
        return None
    return embeddings.encode([question])[0]


def _candidates(index, pages, vectors, graph_scores) -> set[int]:
    """Return the keys worth scoring in index: text hits, nearest vectors, graph neighbours."""
    if pages is None:
        return set(range(len(index.chunks)))
    keys = set()
    for (book_id, number), _ in pages.items():
        if book_id == index.book_id:
            keys.update(index.by_page.get(number, ()))
    if len(vectors):
        keys.update(np.argsort(-vectors)[:PER_SOURCE].tolist())
    keys.update(sorted(graph_scores, key=graph_scores.get, reverse=True)[:PER_SOURCE])
    return {key for key in keys if 0 <= key < len(index.chunks)}
