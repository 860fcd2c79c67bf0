"""A served reranker over the first places (``LIBRARIAN_RERANK_URL``), where a deployment runs one.

The ranking (``rank.pool``) reads words and meaning over the whole shelf; a
cross-encoder reranker reads the question and one place's text together, which
is better and far too slow for the whole shelf: it is given the first
``LIBRARIAN_RERANK_TOP`` places (each as its breadcrumb and the start of its
text) and puts them in its order. Each place takes the score of the rank it
takes, so the scores keep the ranking's shape (the interview and the guide read
how close the first places are) and only the order is the reranker's. A reranker
that fails, is resting after a failure, or answers nonsense leaves the ranking's
order (``llm.Unavailable``); the answer says so once (``pipeline``).
"""

import logging
from dataclasses import replace
from functools import lru_cache

import llm
from librarian.config import setting

logger = logging.getLogger(__name__)

TEXT_CHARS = 1200
"""The characters of a place's text the reranker reads after its breadcrumb (rerankers
read about 512 tokens)."""


def enabled() -> bool:
    return bool(setting("RERANK_URL"))


def reranked(question: str, shelf, scored: list) -> list:
    """Return scored (``rank.Scored``, best first) with its first places in the reranker's
    order, each with the score of the rank it takes; scored itself where there is no
    reranker or it gives no usable answer now."""
    top = scored[:setting("RERANK_TOP")]
    if not enabled() or len(top) < 2 or not question.strip():
        return scored
    texts = [_text(shelf, place) for place in top]
    try:
        relevance = _reranker().scores(question, texts)
    except llm.LlmError as error:
        logger.warning("The reranker gave no order: %s", error)
        return scored
    order = sorted(range(len(top)), key=lambda i: -relevance[i])  # stable: ties keep theirs
    return [replace(top[i], score=top[rank].score) for rank, i in enumerate(order)] + \
        scored[len(top):]


def _text(shelf, place) -> str:
    chunk = shelf.index(place.book_id).full(place.key)
    return " > ".join(chunk.breadcrumb) + "\n" + chunk.text[:TEXT_CHARS]


@lru_cache(maxsize=4)
def _served(url: str, name: str, *_):
    from llm.encoders import ServedReranker, reranker_endpoint

    return ServedReranker(reranker_endpoint(url, name))


def _reranker():
    return _served(setting("RERANK_URL"), setting("RERANK_NAME"),
                   setting("SERVED_CONNECT_SECONDS"), setting("SERVED_IDLE_SECONDS"),
                   setting("SERVED_RETRY_SECONDS"))
