"""The seam between chat and the retrieval package: the answer's flow, as it is made.

``respond`` is ``retrieval.respond``: it yields each ``Result`` as soon as it
is found, then the ``Answer``, then the model's extras (``Thinking``,
``Refined``, ``Written``), all declared in ``retrieval.results``. Tests
replace it with a fake that yields the same types.
"""

from retrieval import respond

__all__ = ["respond"]
