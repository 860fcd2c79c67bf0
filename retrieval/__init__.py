"""Questions answered with places in the books: retrieval over sections.

Python API (stable; the chat page builds on it)::

    from retrieval import ask, iter_results, synthesis

    answer = ask("How do I pin a package?", user=request.user, book_ids=None, context=None)
    answer.type            # "lookup" | "compare" | "aggregate" | "which_book" | "navigate"
    answer.results         # [Result], best first (compare: grouped by answer.parts)
    answer.recommendation  # [Recommendation] for which_book, else None
    answer.note            # why there are no results, for people ("" otherwise)
    answer.context()       # JSON-safe dict: pass it as context= with the next question

    for item in iter_results(question, user=..., book_ids=..., context=...):
        ...  # each Result as soon as it is found; the last item is the Answer

``Result``: book_id, book_title, breadcrumb (list of titles, top first),
heading_id (None for a page window of a book without structure),
page_start/page_end (physical, 1-based, inclusive), printed_start/printed_end
(the printed page labels, None where unknown: never guessed), excerpt (the
real text), terms (words to highlight in the excerpt), score, part (which
part of a comparison it answers). ``Recommendation``: book_id, book_title,
score, sections, pages, unit ("chapter" | "section" | "mentions"), reason
(a sentence in the question's language), where (the Result that shows it).

``user`` limits the books to those the user may see (None: all, for
commands); ``book_ids`` narrows further. ``context`` makes follow-ups work:
"only in <title>" / 「<title>だけ」 repeats the previous question in that
book, "the next section" / 「次の節」 and "previous" step through the book
from the previous first result, "more" / 「もっと」 excludes what was shown
(``retrieval.query.follow_up`` resolves them into filters).

``synthesis(question, answer)`` returns a short answer text from
``chat.synthesis.synthesize(question, answer)`` when that module exists and
a model is configured, else None.

Query types are decided by rules (``retrieval.query.plan``); the local
model (``llm.load()``) is asked only to split a short comparison the rules
cannot split, and only parts found word for word in the question are kept.
Ranking
(``retrieval.rank``) mixes full text (FTS5 trigram pages mapped to
sections), vectors (``LIBRARIAN_EMBEDDINGS``, faiss files per book written
by the ``embed`` stage) and a term graph (networkx, personalised PageRank),
keeping candidates with a skyline. JSON: ``GET|POST /api/ask`` and
``manage.py ask``.
"""

from retrieval.results import Answer, Recommendation, Result

__all__ = ["Answer", "Recommendation", "Result", "ask", "iter_results", "synthesis"]


def ask(question, *, user=None, book_ids=None, context=None, limit=10) -> Answer:
    from retrieval.answers import ask as _ask

    return _ask(question, user=user, book_ids=book_ids, context=context, limit=limit)


def iter_results(question, *, user=None, book_ids=None, context=None, limit=10):
    from retrieval.answers import iter_results as _iter

    return _iter(question, user=user, book_ids=book_ids, context=context, limit=limit)


def synthesis(question: str, answer: Answer) -> str | None:
    """Return the chat's short answer to question from answer's places, or None without one."""
    try:
        from chat.synthesis import synthesize
    except ImportError:
        return None
    text = synthesize(question, answer)
    if text is None or isinstance(text, str):
        return text
    return "".join(text)  # a stream of tokens
