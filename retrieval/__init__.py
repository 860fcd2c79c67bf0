"""Questions answered with places in the books: retrieval over sections.

The flow is ``retrieval.pipeline`` (read → gather → present → the model's extras);
what it returns is declared in ``retrieval.results``. Python API (stable; chat, the
API and ``manage.py ask`` build on it)::

    from retrieval import ask, iter_results, respond

    answer = ask("How do I pin a package?", user=request.user, book_ids=None, context=None)
    answer.type            # "lookup" | "compare" | "range" | "aggregate" | "which_book" | "navigate"
    answer.results         # (Result, ...), best first (compare: each part's best first)
    answer.recommendation  # (Recommendation, ...), the book to read first then the
                           # alternatives, when two or more books cover it or the question
                           # asks; else None
    answer.places          # (Result, ...): where the guide says to read
    answer.guide           # the written answer, composed by code, in the question's language
    answer.language        # "en" | "ja"
    answer.note            # why there are no results, for people ("" otherwise)
    answer.context()       # JSON-safe dict: pass it as context= with the next question
    answer.suggested       # the local model's index terms searched too (() where not asked)

    for item in iter_results(question, user=..., book_ids=..., context=...):
        ...  # each Result as soon as it is found; the last item is the Answer

    for item in respond(question, user=..., ...):
        ...  # the same, then the model's extras: Thinking, Refined, Written

``user`` limits the books to those the user may see (None: all, for
commands); ``book_ids`` narrows further. ``context`` makes follow-ups work
(``retrieval.question.followups``). JSON: ``GET|POST /api/ask`` and ``manage.py ask
--json`` (``results.answer_json``).
"""

from retrieval.results import (Answer, Clarification, Option, Recommendation, Refined, Result,
                               Thinking, Written)

__all__ = ["Answer", "Clarification", "Option", "Recommendation", "Refined", "Result", "Thinking",
           "Written", "answered", "ask", "iter_results", "refine", "respond"]


# The flow imports the models: it is loaded on first use, not when Django loads the app.


def ask(question, **asked) -> Answer:
    from retrieval.pipeline import ask as _ask

    return _ask(question, **asked)


def iter_results(question, **asked):
    from retrieval.pipeline import iter_results as _iter

    return _iter(question, **asked)


def respond(question, **asked):
    from retrieval.pipeline import respond as _respond

    return _respond(question, **asked)


def answered(question, **asked):
    from retrieval.pipeline import answered as _answered

    return _answered(question, **asked)


def refine(question, shown, **asked):
    from retrieval.pipeline import refine as _refine

    return _refine(question, shown, **asked)
