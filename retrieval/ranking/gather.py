"""Gather: the places that answer, one function per kind of question (``kinds.KINDS``).

The second step of ``retrieval.pipeline``. Each gatherer takes the question
read (``retrieval.question.reading.Reading``), a limit and the places to leave out,
and returns batches of ``Found`` (shown in order) with what the later steps
need to know (``Gathered``). Ranking itself is ``retrieval.ranking.rank.pool``; a
follow-up's places, read from the previous answer, are ``retrieval.ranking.following``'s.
"""

import re
from dataclasses import dataclass, field, replace
from typing import Protocol

from books import bookindex
from books.text import language_of
from retrieval.index import shown
from retrieval.index import contents, names
from retrieval.question import locator, query, scope, units
from retrieval.ranking import captions, indexed, rerank, titled
from retrieval.question import narrowing
from retrieval.question.parts import PART_CHOICES, assigned
from retrieval.ranking.found import Found
from retrieval.question.analysed import Question
from retrieval.ranking.rank import pool

OTHER_BOOK_CARDS = 2
"""Asked which book, each book named after the first shows this many cards (the first
book the rest): asked for a book on footnotes, memoir's 33 places came before the LaTeX
guide's 2.9 脚注, at card 34 of 40."""
_PRONOUN = re.compile(r"(?i)\b(?:it|its|them|they|this|that|these|those)\b|それ|これ|その|この")


@dataclass
class Gathered:
    """What gathering found: batches of places, and what the later steps read of it."""

    batches: list[list[Found]] = field(default_factory=list)
    scored: list = field(default_factory=list)
    """Every candidate for the whole question, best first (the books to read come from it)."""
    asked: Question | None = None
    """The whole question as ranked (None where no whole-question ranking was made)."""
    chosen: list = field(default_factory=list)
    """(part, (book id, key)): the place given to each part of a comparison."""
    note: str = ""
    scoped: bool = False
    """The places are inside the scope the question names (``within_scope``)."""
    to_order: list[Found] | None = None
    """A which-book answer's places, before they follow the books to read first: those are
    named (by presentation) from this ranking, then the pipeline orders them (``in_book_order``)."""


class Gatherer(Protocol):
    """The one signature of every gathering function (each row of ``kinds.KINDS``, the
    follow-ups', ``within_scope``): the question read, how many places at most, the
    (book id, key) places to leave out. Those that need neither take them all the same."""

    def __call__(self, reading, limit: int, exclude: set) -> Gathered: ...


def lookup(reading, limit, exclude) -> Gathered:
    """Return the places that answer the whole question best, with the place the book's own
    index gives for its term among the first (``ranking.indexed``)."""
    out = Gathered()
    found = _ranked(reading, reading.question(), limit, exclude, out)
    found = indexed.offer(found, reading.shelf, out.asked, out.scored, exclude)
    page = _captioned(reading, found, out.asked, out.scored)
    if page is not None:  # the caption's page first, its section not shown twice
        found = [page, *(f for f in found if (f.book_id, f.key) != (page.book_id, page.key))]
    out.batches.append(readable_first(reading.shelf, found))
    return out


def readable_first(shelf, found: list[Found]) -> list[Found]:
    """Return found with the places before the first that holds words to read past its
    heading (``shown.readable``: not a chapter's title page, nor a section that goes straight
    into its subsections) moved to the end: a heading alone answers nothing. Asked about
    eigenvalues of a manual without them, a reader was sent to an empty chapter-title page.
    Places are read only until one has words: most often the first."""
    for n, place in enumerate(found):
        index = shelf.index(place.book_id)
        if shown.readable(index.full(place.key), index.furniture):
            return [*found[n:], *found[:n]]
    return found


def _captioned(reading, found, question, scored) -> Found | None:
    """Return the page of the figure or table the question asks for, under its section, where
    a book's list names it (``ranking.captions``), else None."""
    books = list(dict.fromkeys([*reading.strong, *(f.book_id for f in found[:indexed.BOOKS])]))
    item = captions.caption(question, books)
    if item is None:
        return None
    page = item.pages[0]
    key = locator.section_at(reading.shelf, item.book_id, page)
    if key is None:
        return None
    score = next((s.score for s in scored if (s.book_id, s.key) == (item.book_id, key)), 0.0)
    return Found(item.book_id, key, score, question=question,
                 part=captions.label(item, language_of(reading.text)), pages=(page, page))


def within_scope(reading, limit, exclude) -> Gathered:
    """Return the places inside the scope the question names (in the books it names) that
    answer what it asks there; where the scope is not on the shelf, the ordinary lookup."""
    books = reading.strong or scope.named_book(reading.scope, reading.shelf, names.all_names())
    allowed = scope.sections(reading.scope, reading.shelf, books or reading.shelf.book_ids)
    if not allowed:
        return lookup(reading, limit, exclude)
    out, question = Gathered(scoped=True), reading.question()
    out.scored = rerank.reranked(question.text, reading.shelf,
                                 pool(question, reading.shelf, allowed=allowed, exclude=exclude))
    out.asked = question
    out.batches.append(readable_first(reading.shelf, [
        Found(s.book_id, s.key, s.score, question=question) for s in out.scored[:limit]]))
    return out


def locate(reading, limit, exclude) -> Gathered:
    """Return the pages the books' own indexes give for the term asked about (or for the
    term their "see" sends the reader to), each under the section it falls in, then the
    best places the words find (the term mentioned elsewhere); without an index entry,
    the ordinary lookup."""
    shelf, term = reading.shelf, reading.plan.topic
    books = reading.strong or shelf.book_ids
    entries = next((found for found in (bookindex.lookup(variant, books, follow=True)
                                        for variant in locator.term_variants(term)) if found), [])
    question = reading.question(term)
    asked = {"": question}  # a page the index refers on to quotes the entry it names
    from_index, seen = [], set()
    for entry in entries:
        if entry.via and entry.term not in asked:
            asked[entry.term] = reading.question(entry.term)
        quoted = asked[entry.term if entry.via else ""]
        for page in entry.pages:
            key = locator.section_at(shelf, entry.book_id, page, entry.term)
            if key is not None and (entry.book_id, page) not in seen:
                seen.add((entry.book_id, page))
                label = f"{entry.parent} > {entry.term}" if entry.parent else entry.term
                label = f"{entry.via} → {label}" if entry.via else label
                from_index.append(Found(entry.book_id, key, 1.0, part=label, question=quoted,
                                     pages=(page, page)))
    out = Gathered(note="" if entries else locator.NO_ENTRY[language_of(reading.text)])
    more = _ranked(reading, question, limit, exclude, out)
    # "Also mentioned on": the places whose text holds the term, not those near in meaning.
    mentioned = [Found(s.book_id, s.key, s.score, question=question)
                 for s in out.scored if s.words > 0][:limit]
    if mentioned or entries:
        more = mentioned
    else:
        out.note = locator.NOT_FOUND[language_of(reading.text)]
    shown = {(f.book_id, f.key) for f in from_index}
    out.batches.append(from_index[:limit] + [f for f in more if (f.book_id, f.key) not in shown])
    out.batches[0] = out.batches[0][:max(limit, len(from_index[:limit]) + 3)]
    return out


def which_book(reading, limit, exclude) -> Gathered:
    """Return the places in the books that treat the topic, still to be ordered (``to_order``):
    the cards follow the books to read first, which are named from this ranking."""
    out = Gathered()
    out.to_order = _ranked(reading, reading.question(reading.plan.topic or reading.text,
                                                    named={}), 4 * limit, exclude, out)
    return out


def in_book_order(gathered, picks, shelf, limit) -> Gathered:
    """Return gathered with its which-book places (``to_order``) as its one batch of cards,
    in the order of picks, the books to read first (``by_book``)."""
    return replace(gathered, batches=[by_book(gathered.to_order, picks, limit,
                                              lambda f: shelf.chunk(f.book_id, f.key).heading_id)])


def several(reading, limit, exclude) -> Gathered:
    """Return the best place for each part (or each named book), then the rest."""
    plan, out = reading.plan, Gathered()
    parts = [part for part in plan.parts if reading.about_something(part)]
    if len(parts) == 1:
        whole = reading.question(parts[0])
    elif not parts:  # the parts only name books: look for what the question says first
        whole = reading.question(plan.scene or None)
    else:
        whole = reading.question()
    groups = []
    if plan.each and len(reading.strong) >= 2:
        for book_id in reading.strong:
            groups.append(_ranked(reading, whole, limit, exclude, None, book_ids=[book_id]))
    parts = parts if len(parts) > 1 else []
    per_part = []
    for i, part in enumerate(parts):
        text = f"{part} ({parts[i - 1]})" if i and _PRONOUN.search(part) else part
        text = f"{text}（{plan.scene}）" if plan.scene else text
        groups.append(_ranked(reading, reading.question(text), limit, exclude, None, part=part))
        per_part.append((part, groups[-1]))
    groups.insert(len(groups) - len(per_part), _ranked(reading, whole, limit, exclude, out))
    found = _interleaved(groups, limit)
    out.chosen = _assign_parts(found, per_part)
    out.batches.append(found)
    return out


def ranges(reading, limit, exclude) -> Gathered:
    """Return the units (chapters, parts, appendices) that hold most of the answer."""
    out = Gathered()
    shelf, unit = reading.shelf, reading.plan.unit
    question = reading.question()
    scored = _ranked(reading, question, len(shelf.book_ids) * 1000, exclude, out)
    mass, trees, inside = {}, {}, {}
    for found in scored:
        inside.setdefault(found.book_id, {})[found.key] = found.score
    for book_id, scores in inside.items():
        chunks, trees[book_id] = shelf.index(book_id).chunks, shelf.index(book_id).tree
        for key in units.units(chunks, unit):
            mass[(book_id, key)] = _mass(scores, trees[book_id], key)
    best = sorted((pair for pair in mass if mass[pair] > 0), key=mass.get, reverse=True)
    named = titled.units_named(reading, question, best, mass)
    rest = [(b, k, unit) for b, k in best if (b, k) not in {(b, k) for b, k, _ in named}]
    out.batches.append([Found(b, k, mass.get((b, k)) or _mass(inside[b], trees[b], k),
                              unit=kind, question=question)
                        for b, k, kind in (named + rest)[:min(limit, 5)]])
    return out


def _mass(scores, graph, key) -> float:
    """Return the share of the ranking (scores: a book's section keys → theirs) that the
    sections of unit key hold."""
    return sum(scores.get(k, 0.0) for k in contents.subtree(graph, key))


def aggregate(reading, limit, exclude) -> Gathered:
    """Return the sections of the range asked for: listed in reading order, or ranked."""
    out, plan, shelf = Gathered(), reading.plan, reading.shelf
    # "part 2 of the LuaTeX-ja manual": that book's part 2, however it prints the number
    allowed = narrowing.ranges(shelf, plan, reading.strong or None)
    if not allowed:
        out.note = "No section of these books falls in that range."
        return out
    question = reading.question(plan.topic or reading.text)
    if query.is_aggregate_listing(plan.topic) or not reading.about_something(plan.topic):
        out.batches.append([Found(b, k, 1.0, question=question)
                            for b, k in narrowing.listing(shelf, allowed)])
        return out
    scored = pool(question, shelf, allowed=allowed, exclude=exclude)
    out.batches.append([Found(s.book_id, s.key, s.score, question=question)
                        for s in scored[:limit]])
    return out


def gatherer(reading, kind) -> Gatherer:
    """Return the gathering function for the question read: its kind's (a row of
    ``kinds.KINDS``), or several places where it asks the same of each of two books it names
    ("in beamer and in memoir"), or the places inside the scope it names."""
    if reading.scope is not None:
        return within_scope
    if reading.plan.each and len(reading.strong) >= 2:
        return several
    return kind.gather


def _ranked(reading, question, limit, exclude, out, book_ids=None, part=None) -> list[Found]:
    """Return the best places for question; out (where given) keeps the whole ranking."""
    scored = rerank.reranked(question.text, reading.shelf,
                             pool(question, reading.shelf, book_ids=book_ids, exclude=exclude))
    if out is not None:
        out.scored, out.asked = scored, question
    return [Found(s.book_id, s.key, s.score, part, question=question) for s in scored[:limit]]


def _assign_parts(found: list[Found], per_part) -> list:
    """Return (part, (book id, key)): one of each part's best places among found
    (``retrieval.question.parts``), and label those places with their parts, so that the cards and
    the guide say the same."""
    shown = {(f.book_id, f.key): f for f in found}
    parts, options = [], []
    for part, places in per_part:
        mine = [f for f in places if (f.book_id, f.key) in shown][:PART_CHOICES]
        if mine:
            parts.append(part)
            options.append([(f.score, (f.book_id, f.key)) for f in mine])
    chosen = [(part, options[n][i][1]) for n, (part, i) in enumerate(zip(parts, assigned(options)))]
    labelled = set()
    for part, pair in chosen:
        if pair not in labelled:  # a place two parts share is labelled with the first
            shown[pair].part = part
            labelled.add(pair)
    return chosen


def by_book(found: list[Found], picks, limit: int, heading_of=None) -> list[Found]:
    """Return the cards of a which-book answer, at most limit: each picked book's places in
    the order of picks, the place the guide names first (heading_of(found) → its heading
    id), OTHER_BOOK_CARDS of each book after the first and the first's up to the limit;
    then the rest as they came."""
    picks = list(picks or [])
    groups = {pick.book_id: [] for pick in picks}
    for f in found:
        if f.book_id in groups:
            groups[f.book_id].append(f)
    out = []
    for n, pick in enumerate(picks):
        named = pick.where.heading_id
        mine = sorted(groups[pick.book_id], key=lambda f: not (
            named is not None and heading_of is not None and heading_of(f) == named))
        share = OTHER_BOOK_CARDS if n else max(OTHER_BOOK_CARDS + 1,
                                               limit - OTHER_BOOK_CARDS * (len(picks) - 1))
        out.extend(mine[:share])
    shown = {id(f) for f in out}
    out.extend(f for f in found if id(f) not in shown)
    return out[:limit]


def _interleaved(groups, limit) -> list[Found]:
    out, seen = [], set()
    for depth in range(limit):
        for group in groups:
            if depth < len(group) and (group[depth].book_id, group[depth].key) not in seen:
                seen.add((group[depth].book_id, group[depth].key))
                out.append(group[depth])
    return out[:limit]

