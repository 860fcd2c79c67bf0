"""Sudachi, the Japanese morphological analyser, shared by the page viewer and the questions."""

import threading
from functools import lru_cache

from sudachipy import Dictionary, SplitMode

_local = threading.local()  # a Sudachi tokenizer is not safe to share between threads


def tokenizer():
    """Return this thread's Sudachi tokenizer (core dictionary, longest units: mode C)."""
    found = getattr(_local, "sudachi", None)
    if found is None:
        found = _local.sudachi = _dictionary().tokenizer(SplitMode.C)
    return found


@lru_cache(maxsize=1)
def _dictionary():
    return Dictionary(dict="core")
