"""Questions answered with places in the books: retrieval over sections.

Python API (stable; the chat page builds on it)::

    from retrieval import ask, iter_results

    answer = ask("How do I pin a package?", user=request.user, book_ids=None, context=None)
    answer.type            # "lookup" | "compare" | "range" | "aggregate" | "which_book" | "navigate"
    answer.results         # [Result], best first (compare: each part's best first)
    answer.recommendation  # [Recommendation], the book to read first then the alternatives,
                           # when two or more books cover it or the question asks; else None
    answer.places          # [Result]: where the guide says to read
    answer.guide           # the written answer, composed by code, in the question's language
    answer.language        # "en" | "ja"
    answer.note            # why there are no results, for people ("" otherwise)
    answer.context()       # JSON-safe dict: pass it as context= with the next question
    answer.suggested       # the local model's index terms searched too ([] where not asked)

    refined = refine(question, shown, user=..., book_ids=..., context=...)
    # where the model's terms come after the cards (retrieval.suggest): None, or
    # .terms and .place (a better first place than card [1], or None) and .card

    for item in iter_results(question, user=..., book_ids=..., context=...):
        ...  # each Result as soon as it is found; the last item is the Answer

``Result``: book_id, book_title, breadcrumb (titles, top first), heading_id
(None for a page window of a book without structure), page_start/page_end
(physical, 1-based, inclusive), printed_start/printed_end (the printed page
labels, None where unknown: never guessed), excerpt (the real text), quote
and quote_page (the sentence that answers, as printed, and its page), terms
(words to highlight), score, part (which part of a comparison it answers),
unit and subsections (for a whole chapter or part). ``Recommendation``:
book_id, book_title, score (the share of the answer the book's body holds),
sections, pages, unit ("chapter" | "part" | "section" | "mentions"), reason (a
sentence in the question's language), where (the Result that shows it).

``user`` limits the books to those the user may see (None: all, for
commands); ``book_ids`` narrows further. ``context`` makes follow-ups work
(``retrieval.followups``).

How a question is read and ranked: ``retrieval.query`` (the kind of
question, by rules), ``retrieval.analysis`` (Japanese by Sudachi, English by
the Snowball stemmer), ``retrieval.rank`` (BM25 over the shelf's word index
fused with two sentence encoders), ``retrieval.recommend`` (which book),
``retrieval.guide`` (the written answer). JSON: ``GET|POST /api/ask`` and
``manage.py ask --json``; a local model's short answer is optional
(``retrieval.synthesis``).
"""

from retrieval.results import Answer, Recommendation, Result

__all__ = ["Answer", "Recommendation", "Result", "ask", "iter_results", "refine"]


def ask(question, *, user=None, book_ids=None, context=None, limit=10) -> Answer:
    from retrieval.answers import ask as _ask

    return _ask(question, user=user, book_ids=book_ids, context=context, limit=limit)


def iter_results(question, *, user=None, book_ids=None, context=None, limit=10):
    from retrieval.answers import iter_results as _iter

    return _iter(question, user=user, book_ids=book_ids, context=context, limit=limit)


def refine(question, shown, *, user=None, book_ids=None, context=None):
    from retrieval.answers import refine as _refine

    return _refine(question, shown, user=user, book_ids=book_ids, context=context)
