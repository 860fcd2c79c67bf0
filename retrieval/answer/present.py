"""Present: the places gathered, as cards and as an answer: the books to read first, the
places the guide points to, and the guide.

The last step of ``retrieval.pipeline``. Cards are made one by one, the first
as soon as it is known; the rest of the answer is made once all are.
"""

from dataclasses import replace
from functools import lru_cache

from django.db.models import Q

from books.models import Page
from retrieval import kinds
from retrieval.answer import guide, interview, quotes
from retrieval.index import contents, embeddings, lexical
from retrieval.question import bilingual, units
from retrieval.text import analysis
from retrieval.ranking import indexed, recommend
from retrieval.ranking.found import Found
from retrieval.results import Result

QUOTED = 5  # results that get a quoted sentence (the rest keep an excerpt)
WEAK = {embeddings.MULTILINGUAL: 0.32, embeddings.ENGLISH: 0.35}
"""A lookup or which-book question whose candidate sections all stay under these cosines,
by every encoder that reads it, is one the books do not seem to answer: no book is
recommended and the guide says so over the nearest places. Asked how to bake bread, the
Debian FAQ's "How do I create Debian packages myself?" was the book to read first. On the
dev books, 17 of 22 questions on other subjects (bread, football, passports, パンの焼き方,
確定申告) stay under them (best multilingual 0.20–0.34, English 0.18–0.40; the capital of
France, taxes and tomatoes do not); none of the 70 natural questions does (the nearest
come to 0.38 multilingual, 0.46 English), nor one of the 140 known-item sentences but a
vague fragment ("This is usually not such a big problem, but it can"). At 0.35 and 0.43,
21 of 22 were caught, but a paraphrase with no word in common with its section ("make my
boat fast to the dock" for a cleat hitch) was too. The model's index terms still search
again after the cards (``pipeline.refine``): they may bridge what the encoders do not."""
WEAK_NOTE = {
    "en": "None of the books seems to answer this; these are the nearest places.",
    "ja": "どの本にも答えは見当たりません。近い箇所を挙げます。",
}
NEAREST_UNITS = {"en": " The chapters they are in: {units}.", "ja": "含まれる章：{units}。"}
NEAREST = 3
"""Where no book answers, the chapters of the first cards are named, up to this many: a
reader who asked what the books do not hold is offered where they come nearest, as units
to browse, not one page that stands for an answer."""


def cards(batch: list[Found], shelf, shown: int):
    """Yield the Result of each place in batch, the first as soon as it is made; shown: how
    many cards came before (the first few are quoted, the very first read closely)."""
    labels = _labels(shelf, batch)
    for n, found in enumerate(batch, shown):
        # The first place is read closely: the guide quotes it.
        result = _result(shelf, found, labels, quote=n < QUOTED, closely=n == 0)
        yield replace(result, part=found.part, indexed=found.indexed)


def weak(kind, gathered, reading=None) -> bool:
    """Return True if this question is not one the books answer: it may be weak (a lookup,
    a which-book question) and no candidate comes near it in meaning (``WEAK``). A question
    that names where to look is answered there: the few sections inside a scope are no
    measure of the shelf (「新メンテナーガイドの 4.4 節で、テストを走らせないようにするには」
    stayed under the bars beside the 4.4.3 that answers it). Nor is one whose first places
    the book's own index gives: asked how to avoid Hurenkinder, memoir's index sends the
    reader ("see widow") to the card the encoders left under their bars. Nor one where the
    heading of one of the first NEAREST cards names what it asks (``named_in_heading``): the
    banner and the cards speak from the same evidence (asked in Japanese about Pascal's
    Jesuits and 蓋然説, Letter V came first, its "probabilism" misread, Letter VI's
    "doctrine of probability" third)."""
    if not kind.may_be_weak or not gathered.scored or gathered.scoped:
        return False
    first = gathered.batches[0] if gathered.batches else ()
    if any(found.indexed for found in first[:indexed.OFFERED]):
        return False
    if reading is not None and any(named_in_heading(reading, gathered.asked, found)
                                   for found in first[:NEAREST]):
        return False
    roles = [role for role in gathered.asked.vectors if role in WEAK]
    return bool(roles) and all(
        max(s.meaning.get(role, 0.0) for s in gathered.scored) < WEAK[role] for role in roles)


def named_in_heading(reading, question, found) -> bool:
    """Return True if the heading of found holds what question asks about: its rarest word
    on the shelf (of those that tell sections apart, ``Reading.telling``), or a translation
    of it; where several are as rare (words the shelf does not hold at all), any of them.
    Asked in Japanese how to show a table of contents in beamer, "3.6 The Table of
    Contents" came first under 「どの本にも答えは見当たりません」: a question across
    languages stays under the encoders' bars by nature. Its rarest word, not any: asked how
    to apply for a passport, a heading holding 申請 (to apply) names no answer. A
    translation names it where it is the word (``bilingual.certain``): memoir's "Stock paper
    size options" does not answer how to buy shares (株). Asked about Pascal's Jesuits and
    蓋然説 over English books, none of イエス, 蓋然, 説 or 説明 is on the shelf: 蓋然's one
    sense, "probability", names Letter VI ("their doctrine of probability")."""
    if question is None:
        return False
    words = lexical.get()
    own = reading.telling(question.terms)
    if not own:
        return False
    least = min(words.doc_freq(term) for term in own)
    heading = set(analysis.terms(reading.shelf.chunk(found.book_id, found.key).title))
    for rarest in (term for term in own if words.doc_freq(term) == least):
        if rarest in heading:
            return True
        alone, groups = bilingual.certain(rarest)
        if heading & alone or any(set(g) <= heading for g in groups):
            return True
    return False


def books_to_read(kind, reading, gathered, language: str) -> list:
    """Return the books to read first, best first ([] where there is no choice to make)."""
    explicit = any(w >= 1.0 for w in reading.named.values())
    if not gathered.scored or not kind.recommends or (explicit and not kind.asks_book):
        return []
    if weak(kind, gathered, reading):
        return []
    shelf, asked, scored = reading.shelf, gathered.asked, gathered.scored
    distinct = recommend.distinctive(asked.terms, asked.translated,
                                     lexical.get().doc_freq) if kind.asks_book else ()
    return recommend.books(
        scored, shelf,
        lambda b, k, unit, lead: place(shelf, b, k, unit, asked, scored, closely=lead),
        language == "ja", kind.asks_book, asked.vectors.get(embeddings.MULTILINGUAL),
        distinct, terms=reading.telling([*asked.terms, *asked.translated]))


def places(answer, chosen, shelf) -> tuple[Result, ...]:
    """Return where the guide says to read, as the answer's kind says (``Kind.places``): the
    recommended book's place or the first card, each part's, or the units listed."""
    if not answer.results:
        return ()
    how = kinds.of(answer.type).places
    if how == "parts":
        # Each part's place, then the first place of each other search (the whole question,
        # each book it names) as it came; the first card leads where it is no part's place: it
        # is the whole question's, which often answers both parts at once.
        part_places = _part_places(answer, chosen, shelf)
        shown = {place.where for place in part_places}
        lead = answer.results[0]
        first = {} if lead.where in shown else {lead.part or lead.book_id: lead}
        for part in part_places:
            first.setdefault(part.part, part)
        for result in answer.results:
            if result.where not in shown:
                first.setdefault(result.part or result.book_id, result)
        return tuple(first.values())[:4]
    if how == "listed":
        return answer.results[:3]
    if how == "indexed":
        return tuple(r for r in answer.results if r.part)[:5] or answer.results[:1]
    if answer.recommendation:
        # The guide says which book to read first: its place is the one to read.
        return (answer.recommendation[0].where,)
    return answer.results[:1]


def finished(answer, kind, reading, gathered, picks):
    """Return answer with the books to read first, the places and the guide filled in."""
    if weak(kind, gathered, reading):
        answer = replace(answer, weak=True,
                         note=WEAK_NOTE[answer.language] + nearest_units(answer))
    answer = replace(answer, recommendation=tuple(picks) or None,
                     suggested=reading.suggested_so_far())
    shown = places(answer, gathered.chosen, reading.shelf)
    if answer.weak:  # the nearest place's sentence would read as an answer
        shown = tuple(replace(place, quote="", quote_page=None, quote_label=None)
                      for place in shown)
    answer = replace(answer, places=shown)
    return replace(answer, guide=guide.compose(answer))


def nearest_units(answer) -> str:
    """Return the sentence that names the chapters (or parts) holding the answer's first
    cards, each citing its first card, in the answer's language ("" without cards)."""
    ja = answer.language == "ja"
    found = {}
    for n, result in enumerate(answer.results, 1):
        crumbs = result.breadcrumb or [result.book_title]
        # A part's chapter is the unit a reader browses ("II Building … > 8 Creating Frames").
        unit = crumbs[1] if len(crumbs) > 2 and units.is_part_title(crumbs[0]) else crumbs[0]
        found.setdefault((result.book_id, unit), (result.book_title, unit, n))
        if len(found) == NEAREST:
            break
    if not found:
        return ""
    shown = [f"『{book}』{unit} [{n}]" if ja else f"{unit} ({book}) [{n}]"
             for book, unit, n in found.values()]
    return NEAREST_UNITS["ja" if ja else "en"].format(units=("、" if ja else "; ").join(shown))


def _part_places(answer, chosen, shelf) -> list[Result]:
    """Return the card chosen for each part of a comparison, labelled with the part."""
    by_place = {r.where: r for r in answer.results}
    out = []
    for part, (book_id, key) in chosen:
        chunk = shelf.chunk(book_id, key)
        card = by_place.get((book_id, chunk.heading_id, chunk.page_start, chunk.page_end))
        if card is not None:
            out.append(card if card.part == part else replace(card, part=part))
    return out


def place(shelf, book_id, key, unit, question, scored=(), closely=False) -> Result:
    """Return the Result for one section or unit (used for recommendations' places).

    A unit's quote comes from its own opening or from its section that scored
    best, whichever sentence holds more of the question's words (a chapter's
    opening seldom holds the sentence that answers); its excerpt is its opening.
    """
    found = Found(book_id, key, 0.0, unit=unit, question=question)
    quoted = None
    if unit:
        inside = contents.subtree(shelf.index(book_id).tree, key)
        quoted = next((s.key for s in scored
                       if s.book_id == book_id and s.key in inside and s.key != key), None)
    found_places = [found] + ([Found(book_id, quoted, 0.0)] if quoted is not None else [])
    return _result(shelf, found, _labels(shelf, found_places), quote=True, quoted=quoted,
                   closely=closely)


def _result(shelf, found: Found, labels, quote: bool, quoted: int | None = None,
            closely: bool = False) -> Result:
    """Return the card of found; quoted: the section to quote from, when not its own;
    closely: choose the quote by meaning too (``quotes.quote``)."""
    index = shelf.index(found.book_id)
    chunk = index.full(found.key)
    if found.pages:  # a page the book's index names: quote and show that page's text
        chunk = _on_pages(chunk, *found.pages)
    said = (quotes.quote(chunk, index, found.question, closely=closely)
            if quote and found.question else None)
    text = quotes.excerpt(chunk, said, furniture=index.furniture)
    if said and quoted is not None:
        inner = quotes.quote(index.full(quoted), index, found.question, closely=closely)
        if inner and quotes.held(inner, found.question) > quotes.held(said, found.question):
            said = inner
    terms = marked_terms(found.question) if found.question else []
    book = shelf.books[found.book_id]
    first, last = found.pages or (chunk.page_start, chunk.page_end)
    subsections = [{"title": index.chunks[k].title, "page_start": index.chunks[k].page_start,
                    "page_end": index.chunks[k].page_end}
                   for k in chunk.children] if found.unit else []
    return Result(
        book_id=found.book_id, book_title=book.title,
        breadcrumb=_breadcrumb(chunk), heading_id=chunk.heading_id,
        page_start=first, page_end=last,
        printed_start=labels.get((found.book_id, first)),
        printed_end=labels.get((found.book_id, last)),
        excerpt=text, terms=quotes.marks(text, terms, getattr(found.question, "terms", ())),
        score=round(found.score, 4),
        quote=said.text if said else "", quote_page=said.page if said else None,
        quote_label=labels.get((found.book_id, said.page)) if said else None,
        subsections=subsections, book_pages=book.page_count, unit=found.unit,
        inferred=chunk.inferred,
    )


def _breadcrumb(chunk) -> list[str]:
    """Return the headings that lead to chunk; none for a window of pages no heading covers
    (``chunks.page_windows``), whose title is its PDF pages: a card showed "pp. 60–61"
    where a breadcrumb belongs, beside its printed pages lx–lxi. Its pages say where it is."""
    if chunk.breadcrumb:
        return list(chunk.breadcrumb)
    return [] if chunk.heading_id is None else [chunk.title]


def marked_terms(question) -> list[str]:
    """Return the terms whose words a card marks, the asked term first: the question's own
    words (its rarest, the asked term, first; no everyday English word where it has
    others), and of their translations only those where the translation is the term
    (``_translated_as_the_term``). A Japanese question about an English book marked "take",
    "use" and "change" on every page."""
    # Every card of an answer asks for the same question's: read once (for the shelf's
    # word index as it stands, which says which word is rarest).
    return list(_marked(id(lexical.get()), tuple(question.terms),
                        frozenset(question.translated), tuple(question.suggested)))


@lru_cache(maxsize=256)
def _marked(_index, terms, translated, suggested) -> tuple[str, ...]:
    own = sorted(dict.fromkeys(terms), key=lexical.get().doc_freq)
    # Everyday words of the question ("use", "one", "page") mark every page where it holds
    # others: asked how to use multiplot, "page" lit up each "see also: [fdisp], page 283".
    telling = [t for t in own if not analysis.common_word(t, interview.EVERYDAY)]
    own = telling or own
    marked = [t for n, term in enumerate(own) for t in _translated_as_the_term(term, n == 0)
              if t in translated]
    return tuple(dict.fromkeys([*own[:1], *marked, *own[1:], *suggested]))


def _translated_as_the_term(term: str, asked: bool) -> list[str]:
    """Return the translations of term that are the term (``bilingual.certain``: グラフ
    "graph", "table of contents"), and for the asked term, its other senses that are no
    everyday words (凡例 "legend", not 移動 "move")."""
    alone, groups = bilingual.certain(term)
    out = [*sorted(alone), *(t for g in groups for t in g)]
    if asked:
        translation = bilingual.translated(term)
        out.extend(t for t in translation.weights if t not in translation.bound
                   and not analysis.common_word(t, interview.EVERYDAY))
    return list(dict.fromkeys(out))


def _on_pages(chunk, first: int, last: int):
    """Return chunk cut to the text it has on pages first … last."""
    starts = [(page, offset) for page, offset in chunk.starts]
    begin = next((offset for page, offset in starts if page >= first), len(chunk.text))
    end = next((offset for page, offset in starts if page > last), len(chunk.text))
    return replace(chunk, text=chunk.text[begin:end], starts=[[first, 0]],
                   span=[first, last], children=[])


def _labels(shelf, batch) -> dict:
    """Return (book id, page) → printed label for the pages batch may show, in one query."""
    wanted = {}
    for found in batch:
        chunk = shelf.chunk(found.book_id, found.key)
        wanted.setdefault(found.book_id, set()).update(
            range(chunk.page_start, chunk.page_start + 1), {chunk.page_end},
            (n for n, _ in chunk.starts), found.pages or ())
    if not wanted:
        return {}
    condition = Q()
    for book_id, numbers in wanted.items():
        condition |= Q(book_id=book_id, number__in=sorted(numbers))
    rows = Page.objects.filter(condition).exclude(label="")
    return {(b, n): label for b, n, label in rows.values_list("book_id", "number", "label")}
