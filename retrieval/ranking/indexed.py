"""The book's own index among the first places: where its entry for the question's term sends
a reader.

When a question names a term the book's index lists (``retrieval.index.entries``), the
entry's pages are the author's answer to "where is this treated?": the gnuplot index sends
"linewidth" to the two pages a reader asking how to change the line width of a plot wants,
which the ranking put 6th and 8th. As a weight on the ranking it gained nothing (an entry
also points into a fifth of the sibling sections: 26 → 25 first places on 54 natural
lookups), so the index does not reorder the ranking: where none of the first OFFERED cards
is a place the index gives, its best place is offered as the second card, and the librarian
may ask which of the two is meant (``retrieval.answer.interview``).
"""

from dataclasses import replace

from retrieval.ranking.found import Found

RARE = 0.1
"""An entry counts where its words are in at most this share of the book's sections:
memoir's index sends "page" to two places, but the word is in half the book."""
OFFERED = 3
"""The index's place is offered where none of the first this many cards is one."""
BOOKS = 5
"""The books of the first this many cards are the ones whose indexes are read."""


def places(question, shelf, book_ids) -> dict:
    """Return (book id, key) → the index entry that sends a reader there, for the entries of
    the books' indexes that question names (the longest first)."""
    out = {}
    for book_id in book_ids:
        found = shelf.index(book_id).entries
        if found is None:
            continue
        for entry in found.named(question.terms):
            if entry.share <= RARE:
                for key in entry.keys:
                    out.setdefault((book_id, key), entry.label)
    return out


def offer(found: list, shelf, question, scored, exclude=()) -> list:
    """Return found (the ranked places, best first) with the index's places marked, and its
    best place as the second where none of the first OFFERED is one."""
    if not found:
        return found
    books = list(dict.fromkeys(f.book_id for f in found[:BOOKS]))
    given = places(question, shelf, books)
    if not given:
        return found
    marked = [replace(f, indexed=given[(f.book_id, f.key)]) if (f.book_id, f.key) in given
              else f for f in found]
    if any(f.indexed for f in marked[:OFFERED]):
        return marked
    left_out = set(exclude)
    candidates = [s for s in scored if (s.book_id, s.key) in given
                  and (s.book_id, s.key) not in left_out]
    if not candidates:
        return marked
    best = candidates[0]
    place = next((f for f in marked if (f.book_id, f.key) == (best.book_id, best.key)), None)
    place = place or Found(best.book_id, best.key, best.score, question=question,
                           indexed=given[(best.book_id, best.key)])
    rest = [f for f in marked[1:] if f is not place]
    return [marked[0], place, *rest][:len(found)]
