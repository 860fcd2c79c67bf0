"""Gather a follow-up: the places a reply to the previous answer asks for, read from that
answer (``retrieval.question.followups``) rather than ranked over the shelf.

Beside ``retrieval.ranking.gather``, whose ``Gathered`` they return: the place the reader
chose among those the librarian asked about, the section after or before the previous
first place, and the chapter that holds it (or the best places inside it).
"""

from retrieval.index import contents
from retrieval.question import followups, query, units
from retrieval.ranking.found import Found
from retrieval.ranking.gather import Gathered, Gatherer
from retrieval.ranking.rank import pool


def gatherer(reading, kind) -> Gatherer | None:
    """Return the gathering function for a follow-up, or None for a question of its own
    (``gather.gatherer``): the place chosen, the next or previous section (its kind's, the
    NAVIGATE row of ``kinds.KINDS``), that chapter (a range) or the best places inside it."""
    follow_up = reading.follow_up
    if follow_up.choice is not None:
        return chosen
    if follow_up.navigate:
        return kind.gather
    if follow_up.chapter or follow_up.within:
        return in_chapter
    return None


def navigate(reading, limit, exclude) -> Gathered:
    """Return the section after (a step of 1) or before (-1) the previous answer's first."""
    pairs = followups.navigate(reading.shelf, reading.previous, reading.follow_up.navigate)
    question = reading.question()
    return Gathered([[Found(b, k, 1.0, question=question) for b, k in pairs]])


def chosen(reading, limit, exclude) -> Gathered:
    """Return the place the reader chose among those the librarian asked about."""
    option = reading.follow_up.choice
    book_id = option.get("book_id")
    if book_id not in reading.shelf.books:
        return Gathered([[]])
    chunks = reading.shelf.index(book_id).chunks
    key = next((c.key for c in chunks if followups.same(c, option)), None)
    found = [Found(book_id, key, 1.0, question=reading.question())] if key is not None else []
    return Gathered([found])


def in_chapter(reading, limit, exclude) -> Gathered:
    """Return the chapter that holds the previous first place (where the follow-up asks for
    that chapter), or the best places in it."""
    shelf, out, whole = reading.shelf, Gathered(), reading.follow_up.chapter
    first = (reading.previous or {}).get("sections", [{}])[0]
    book_id = first.get("book_id")
    if book_id not in shelf.books:
        return out
    chunks = shelf.index(book_id).chunks
    here = next((c.key for c in chunks if followups.same(c, first)), None)
    graph = shelf.index(book_id).tree
    chapter = units.containing(chunks, graph, here) if here is not None else None
    if chapter is None:
        out.batches.append([])
        return out
    question = reading.question()
    if whole:
        out.batches.append([Found(book_id, chapter, 1.0, unit=query.CHAPTER, question=question)])
        return out
    scored = pool(question, shelf, allowed={book_id: contents.subtree(graph, chapter)})
    out.batches.append([Found(s.book_id, s.key, s.score, question=question)
                        for s in scored[:limit]])
    return out
