"""Which book to read first: the one whose body holds most of the answer.

Every candidate section carries its probability of holding the answer
(``retrieval.ranking.rank``); a book's coverage is the sum over its body sections
(bibliographies, licences and change logs do not count). A chapter that is
about the topic gathers many sections and so beats a passing mention; the
reason names that chapter when it holds most of the book's share. Books are
recommended when the question asks which book, or when two or more books
cover the topic well enough to choose between. Unasked, the question wants a
place, not a book: the book of the best section leads, at that section (the
first card and the guide say the same), and the others follow as alternatives.
"""

import math
from collections import defaultdict

from retrieval.index import contents
from retrieval.question import units
from retrieval.text import analysis
from retrieval.results import Recommendation

MAX_BOOKS = 5
SECOND_BOOK = 0.25
SECOND_SECTION = 0.25
"""Unasked, a second book is worth naming when it covers this share of the first's and its
best section scores SECOND_SECTION of the first's best: many faint resemblances in a long
book are not a place to read."""
ASKED_SECOND = 0.05
"""Asked which book, any book with this share of the first's coverage is an alternative
where a section of it holds a word of the question (or a translation: a share taken by
faint meaning alone is no coverage; asked 「脚注について詳しく書かれている本はどれ？」,
the FAQ held 0.056 of it in sections on Knoppix), and so is one with a section that
holds the question's words ASKED_WORDS as well and holds its most distinctive word
(``distinctive``). A best section's BM25 differs little from book to book (one shared
common word scores), so without that nearly every book passed: asked about plotting or
poems, the packaging manuals were alternatives. With it the ten natural
which-book questions name 34 books instead of 42, each runner-up stays, and a harbour
guide's passing mention of a bowline is still one. (Where the word had only to be in the
book, they named 36: asked which book to read on plotting data, memoir's "An array data
structure" scored on "data" while "plot" stood elsewhere in memoir.)"""
ASKED_WORDS = 0.25
HOLDING_LIMIT = 5000
"""At most this many sections are looked up as holding the distinctive words (the rarest
of the question's: few sections hold them)."""
ASKED_MEANING = 0.8
"""…or one whose best section is as near the question in meaning, at this share of the
first's (in another language the words do not meet)."""
CHAPTER_SHARE = 0.5
ONE_SECTION = 0.5
"""A chapter (or part) holding CHAPTER_SHARE of a book's share is about the topic where no
one section of it holds more than ONE_SECTION of the chapter's, or where its title holds a
telling word of the question (not one that many sections hold, such as "debian").
Otherwise the topic is one section in it: asked which book to read on footnotes, the
LaTeX guide's 2.9 脚注 held its chapter "第2章 テキストの組版", and the guide said the book
had a whole chapter on footnotes and offered its 20 pages to download; beamer's 12.12
Footnotes made it "a part on it", 86 pages."""
ANSWERING = 0.1
"""…and where a tenth of its sections answer at least a fifth as well as its best: asked
which book to read on NMUs, the Developer's Reference's 79-section chapter on handling
packages held most of the book's share in faint pieces, three sections answering; the
place is 5.11 Non-Maintainer Upload, its subsections answering (``_holding_section``), not
40 pages."""
CHAPTER_BONUS = 2.0
PROFILE_WEIGHT = 1.0
PROFILE_TEMPERATURE = 0.1
"""Asked which book, what each book is about (its profile: title, title page, chapters)
counts beside its coverage: the book about slides is the one to read on slides, whichever
book happens to mention them most. Books' profiles lie 0.01–0.03 apart in cosine for a
question two of them could answer; at 0.05 such a gap weighed up to twice, so restoring one
chapter's title to a profile could turn the pick (memoir over the LaTeX guide for 数式)."""
PROFILE_FAR, PROFILE_NEAR = 0.1, 0.25
"""The profiles say as much as the nearest of them is near the question: nothing at
PROFILE_FAR, all of PROFILE_WEIGHT from PROFILE_NEAR. A one-word topic is near no book's
profile (「脚注について詳しく書かれている本はどれ？」: 0.08 at most), and a softmax over such
cosines is noise that outweighed a book's real coverage: octave's preface came before
beamer's section on footnotes. The ten natural which-book questions' nearest profiles
lie at 0.23–0.52."""


def coverage(scored, shelf) -> dict[int, float]:
    """Return book id → the share of the answer its body sections hold."""
    mass = defaultdict(float)
    for s in scored:
        if not shelf.chunk(s.book_id, s.key).back_matter:
            mass[s.book_id] += s.score
    return dict(mass)


def books(scored, shelf, place_of, japanese: bool, asked: bool,
          question_vector=None, distinct=(), terms=()) -> list[Recommendation]:
    """Return the books to read, best first ([] when only one covers it and none was asked).

    place_of(book id, key, unit, lead) makes the Result that shows a book's place (lead: the
    first book's, whose quote the guide shows);
    question_vector: the question's multilingual vector, to read the books' profiles;
    distinct: the question's most distinctive terms (``distinctive``);
    terms: the question's telling terms and their translations (a chapter whose title holds
    one is about the question).
    """
    mass = coverage(scored, shelf)
    terms = frozenset(terms)
    units_of = {b: _unit([s for s in scored if s.book_id == b], shelf, b, terms) for b in mass}
    if asked:
        # A book with a whole chapter on it beats one that mentions it here and there.
        mass = {b: m * (CHAPTER_BONUS if units_of[b][0] == "chapter" else 1.0)
                for b, m in mass.items()}
    covered = mass
    if asked and question_vector is not None:
        mass = _with_profiles(mass, shelf, question_vector)
    holding = None
    if asked and distinct:  # the sections that hold the question's distinctive words
        holding = {(hit.book_id, hit.key)
                   for hit in shelf.words(list(distinct), list(mass), HOLDING_LIMIT)}
    chosen = _worth_naming(scored, mass, covered, asked, holding)
    if len(chosen) < 2 and not asked:
        return []
    if not asked:  # the place that answers best leads; coverage orders the alternatives
        best = scored[0]
        chosen = [best.book_id] + [b for b in chosen if b != best.book_id][:MAX_BOOKS - 1]
        units_of[best.book_id] = _section_of(shelf, best)
    return [_recommendation(scored, shelf, place_of, b, mass.get(b, 0.0), units_of[b], japanese,
                            lead=b == chosen[0])
            for b in chosen]


def distinctive(terms, translated, doc_freq) -> list[str]:
    """Return the rarest of a question's own terms and the rarest of its translations
    (doc_freq(term) → how many sections hold it): the words a book that really treats the
    topic holds, where the common ones ("data", "package") are everywhere."""
    out = []
    for group in (list(terms), list(translated)):
        if group:
            out.append(min(group, key=doc_freq))
    return out


def _worth_naming(scored, mass, covered, asked: bool, holding=None) -> list[int]:
    """Return the books worth naming, in the order of mass: asked which book, any with a fair
    share of the coverage or a best section as near the question; unasked, only one with a
    share of the first's coverage and a section of its own that answers as the first's best
    does (the first: the book of the best section, not a long book of faint resemblances).
    covered: the body's coverage alone (a profile orders the books, but what a book is
    about does not make it cover the topic);
    holding: the (book id, key) of the sections holding the question's distinctive words
    (None: not asked); a book's words count where such a section scores them."""
    ranked = sorted(mass, key=mass.get, reverse=True)
    if not ranked:
        return []
    lead = max(covered, key=covered.get)  # the book whose body covers it most
    top = covered[lead]
    words, meaning, best, held = {}, {}, {}, {}
    for s in scored:
        best[s.book_id] = max(best.get(s.book_id, 0.0), s.score)
        words[s.book_id] = max(words.get(s.book_id, 0.0), s.words)
        if holding is None or (s.book_id, s.key) in holding:
            held[s.book_id] = max(held.get(s.book_id, 0.0), s.words)
        near = s.meaning.get("multilingual", 0.0)
        meaning[s.book_id] = max(meaning.get(s.book_id, 0.0), near)

    first = scored[0].book_id  # unasked, the book of the best section leads

    def worth(b) -> bool:
        if not asked:
            return (b == first or covered[b] >= SECOND_BOOK * covered.get(first, 0.0)
                    and best[b] >= SECOND_SECTION * best[first])
        return (covered[b] >= ASKED_SECOND * top and (words.get(b, 0) > 0 or b == lead)
                or held.get(b, 0) >= ASKED_WORDS * words.get(lead, 0) > 0
                or meaning.get(b, 0) >= ASKED_MEANING * meaning.get(lead, 0) > 0)

    return [b for b in ranked if worth(b)][:MAX_BOOKS]


def _recommendation(scored, shelf, place_of, book_id, mass, unit_key, japanese,
                    lead=False) -> Recommendation:
    """Return what the guide says of one book: where it covers the topic, and why read it."""
    mine = [s for s in scored if s.book_id == book_id]
    unit, key = unit_key
    whole = unit in ("chapter", "part")  # shown over its full range, its subsections listed
    where = place_of(book_id, key, unit if whole else None, lead)
    pages = _pages([shelf.index(book_id).chunks[s.key] for s in mine[:12]])
    book = shelf.books[book_id]
    return Recommendation(
        book_id=book_id, book_title=book.title, score=round(mass, 4),
        sections=len([s for s in mine if s.score >= 0.05 * mine[0].score]),
        pages=where.page_end - where.page_start + 1 if whole else pages,
        unit=unit, reason=reason(book.title, unit, where, japanese, book.page_count),
        where=where, book_pages=book.page_count,
    )


def _with_profiles(mass, shelf, vector) -> dict[int, float]:
    """Return mass plus each book's share of a softmax over its profile's cosine."""
    profiles = {b: shelf.index(b).profile for b in mass}
    known = {b: float(p @ vector) for b, p in profiles.items()
             if p is not None and p.shape == vector.shape}
    if not known:
        return mass
    top = max(known.values())
    weights = {b: math.exp((c - top) / PROFILE_TEMPERATURE) for b, c in known.items()}
    total = sum(weights.values())
    said = PROFILE_WEIGHT * min(1.0, max(0.0, (top - PROFILE_FAR) / (PROFILE_NEAR - PROFILE_FAR)))
    return {b: m + said * weights.get(b, 0.0) / total for b, m in mass.items()}


def _unit(mine, shelf, book_id, terms=frozenset()) -> tuple[str, int]:
    """Return how much of the book is about the topic and the section that shows it."""
    chunks, graph = shelf.index(book_id).chunks, shelf.index(book_id).tree
    chapters = set(units.units(chunks, units.CHAPTER))
    total = sum(s.score for s in mine) or 1
    for unit, wanted in (("chapter", chapters), ("part", set(units.units(chunks, units.PART)))):
        held = defaultdict(float)
        for s in mine:
            where = units.containing(chunks, graph, s.key, wanted=wanted)
            if where is not None:
                held[where] += s.score
        if held:  # a part counts where no chapter of it holds most of the book's share
            best = max(held, key=held.get)
            if (unit == "chapter" or units.is_part(chunks[best])) and _holds(
                    mine, contents.subtree(graph, best), chunks[best], total, terms):
                return unit, best
    holder = _holding_section(mine, chunks, graph, total, terms)
    if holder is not None:
        return "section", holder
    return _section_of(shelf, mine[0])


def _holding_section(mine, chunks, graph, total: float, terms=frozenset()) -> int | None:
    """Return the deepest section above the best one that holds CHAPTER_SHARE of the book's
    share and is about the question (``_holds``), or None: asked about NMUs, 5.11
    Non-Maintainer Upload with its subsections, not its 5.11.4 alone."""
    key = chunks[mine[0].key].parent_key
    while key is not None:
        if _holds(mine, contents.subtree(graph, key), chunks[key], total, terms):
            return key
        key = chunks[key].parent_key
    return None


def _holds(mine, below, chunk, total: float, terms) -> bool:
    """Return True if the unit chunk (below: the keys of its sections, its own among them)
    holds CHAPTER_SHARE of the book's share (total) in three scored sections or more, and
    is about the question: it treats it throughout, or its title holds a telling word."""
    inside = [s for s in mine if s.key in below]
    held = sum(s.score for s in inside)
    return held >= CHAPTER_SHARE * total and len(inside) >= 3 and (
        _throughout(inside, held, len(below)) or bool(terms & set(analysis.terms(chunk.title))))


def _throughout(inside, held: float, sections: int) -> bool:
    """Return True if a chapter's scored sections (inside, holding held in all, of its
    sections) treat the topic throughout: no one of them holds more than ONE_SECTION of
    it, and ANSWERING of its sections answer at least a fifth as well as its best."""
    top = max(s.score for s in inside)
    answering = sum(1 for s in inside if s.score >= 0.2 * top)
    return top <= ONE_SECTION * held and answering >= ANSWERING * sections


def _section_of(shelf, scored) -> tuple[str, int]:
    """Return the unit of one scored section shown by itself: a part's opening page can
    match best ("II Building a Presentation"), and the part is then the place, not a 節."""
    chunk = shelf.chunk(scored.book_id, scored.key)
    if not chunk.heading_id:
        return "mentions", scored.key
    return ("part" if units.is_part(chunk) else "section"), scored.key


def _pages(chunks) -> int:
    pages = set()
    for chunk in chunks:
        pages.update(range(chunk.page_start, chunk.page_end + 1))
    return len(pages)


def reason(title: str, unit: str, where, japanese: bool, book_pages=None) -> str:
    """Return why to read this book, in the question's language."""
    place = " > ".join(where.breadcrumb)
    printed = where.printed_start
    if japanese:
        how = {"chapter": "章を通して扱っています", "part": "部で扱っています",
               "section": "節で扱っています", "mentions": "本文で触れています"}[unit]
        page = f"{printed}ページ" if printed else f"PDFの{where.page_start}ページ目"
        return f"『{title}』は{how}（{place}、{page}から）。"
    how = {"chapter": "covers this in a whole chapter", "part": "has a part on it",
           "section": "has a section on it", "mentions": "mentions it"}[unit]
    page = f"p. {printed}" if printed else f"page {where.page_start} of the PDF"
    return f"{title} {how}: {place}, from {page}."
