"""A sentence encoder and a reranker as services: embeddings and relevance from a server.

``ServedEncoder`` asks an OpenAI-style ``/embeddings`` endpoint (llama.cpp's
``llama-server --embedding``, llama-cpp-python's server with ``embedding``, vLLM,
TEI, Ollama) for the vectors of texts, a batch at a time; ``ServedReranker`` asks
a rerank endpoint (llama.cpp's ``/v1/rerank`` under ``--reranking``, TEI's
``/rerank``, vLLM's ``/rerank``) how relevant each of a few texts is to a
question. Both check what comes back (one finite vector of one width per text;
one score per text, each index once) and treat anything else as the server's
failure: ``llm.service.Unavailable``, the service put to rest, the caller going
on without it. A server that gives a vector per token (llama-cpp-python's, serving a
GGUF that names no pooling of its own) is read by their mean.
"""

import math

import numpy as np

from llm.service import ENCODER, RERANKER, Endpoint, Service, service, v1

BATCH = 32
"""Texts sent in one request: servers bound a request's inputs (TEI: 32 by default)."""


class ServedEncoder:
    """A server's embeddings model: encode(texts) → one row per text (not normalised)."""

    def __init__(self, endpoint: Endpoint, query_prefix: str = "", passage_prefix: str = ""):
        self.endpoint = endpoint
        self.prefixes = {True: query_prefix, False: passage_prefix}

    @property
    def service(self) -> Service:
        return service(ENCODER, self.endpoint)

    def encode(self, texts: list[str], query: bool = False) -> np.ndarray:
        """Return the vectors of texts, each read as a question (query) or a passage, with
        the prefix the model wants for it (e5: "query: ", "passage: ")."""
        prefix = self.prefixes[query]
        rows = []
        for start in range(0, len(texts), BATCH):
            rows.extend(self._batch([prefix + text for text in texts[start:start + BATCH]]))
        return np.asarray(rows, dtype=np.float32).reshape(len(texts), -1)

    def _batch(self, texts: list[str]) -> list[list[float]]:
        served = self.service
        answer = served.post("/embeddings", {"model": served.model_name(), "input": texts})
        try:
            items = sorted(answer["data"], key=lambda item: item.get("index", 0))
            rows = [_pooled(item["embedding"]) for item in items]
        except (KeyError, TypeError, AttributeError, ValueError):
            raise self.service.failed("/embeddings answered without data and embeddings") \
                from None
        widths = {len(row) if isinstance(row, list) else -1 for row in rows}
        if len(rows) != len(texts) or len(widths) != 1 or min(widths) < 1 or not all(
                isinstance(x, (int, float)) and math.isfinite(x) for row in rows for x in row):
            raise self.service.failed(f"/embeddings gave {len(rows)} vectors of widths "
                                      f"{sorted(widths)} for {len(texts)} texts")
        return rows


def _pooled(row):
    """Return row, or the mean of its tokens' vectors where it is one per token."""
    if isinstance(row, list) and row and all(isinstance(token, list) for token in row):
        return np.asarray(row, dtype=np.float64).mean(axis=0).tolist()
    return row


class ServedReranker:
    """A server's reranking model: scores(question, texts) → one relevance per text."""

    def __init__(self, endpoint: Endpoint):
        self.endpoint = endpoint

    @property
    def service(self) -> Service:
        return service(RERANKER, self.endpoint)

    def scores(self, question: str, texts: list[str], timeout: float | None = None) -> list[float]:
        """Return how relevant each text is to question, higher more (the model's own scale).

        The request carries the texts as ``documents`` (llama.cpp, vLLM, Jina, Cohere) and
        as ``texts`` (TEI); either answer is read: {"results": [{"index",
        "relevance_score"}]} or [{"index", "score"}]."""
        if not texts:
            return []
        body = {"model": self.service.endpoint.name or None, "query": question,
                "documents": texts, "texts": texts, "top_n": len(texts)}
        answer = self.service.post("", {k: v for k, v in body.items() if v is not None},
                                   timeout=timeout)
        return self._read(answer, len(texts))

    def _read(self, answer, count: int) -> list[float]:
        items = answer.get("results") if isinstance(answer, dict) else answer
        found: dict[int, float] = {}
        try:
            for item in items:
                index = int(item["index"])
                score = float(item.get("relevance_score", item.get("score")))
                if not 0 <= index < count or index in found or not math.isfinite(score):
                    raise ValueError(index)
                found[index] = score
        except (KeyError, TypeError, ValueError):
            raise self.service.failed("the rerank endpoint answered what is not one score "
                                      "per text") from None
        if len(found) != count:
            raise self.service.failed(f"the rerank endpoint scored {len(found)} of {count} texts")
        return [found[i] for i in range(count)]


def encoder_endpoint(url: str, name: str) -> Endpoint:
    """Return an embeddings endpoint from settings (an OpenAI-style base URL)."""
    return Endpoint.from_settings(v1(url), name)


def reranker_endpoint(url: str, name: str) -> Endpoint:
    """Return a rerank endpoint from settings: the URL is the whole endpoint's
    (…/v1/rerank for llama.cpp, …/rerank for TEI and vLLM): servers differ."""
    return Endpoint.from_settings(url, name)
