"""Answering a question with places in the books, by query type.

``iter_results`` reads the question (``retrieval.query``), resolves a
follow-up against the previous answer (``retrieval.followups``), finds the
books it names (``retrieval.books``), ranks sections (``retrieval.rank``) and
yields each place as soon as it is known; the last item is the Answer, with
the books to read first (``retrieval.recommend``), the places the guide
points to and the guide itself (``retrieval.guide``).
"""

import logging
import re
from dataclasses import dataclass, replace

from django.db.models import Q

from books.models import Book, Page
from retrieval import books as named_books
from retrieval import (analysis, embeddings, followups, guide, lexical, names, narrowing, query,
                       quotes, recommend, suggest, units)
from retrieval.parts import PART_CHOICES, assigned
from retrieval.query import AGGREGATE, COMPARE, LOOKUP, NAVIGATE, RANGE, WHICH_BOOK
from retrieval.rank import Question, pool
from retrieval.results import Answer, Result
from retrieval.shelf import Shelf

logger = logging.getLogger(__name__)
QUOTED = 5  # results that get a quoted sentence (the rest keep an excerpt)
STRONG = 0.5  # a book named at least this strongly is one the question asks about
TELLING_FLOOR = 10
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
again after the cards (``refine``): they may bridge what the encoders do not."""
WEAK_NOTE = {
    "en": "None of the books seems to answer this; these are the nearest places.",
    "ja": "どの本にも答えは見当たりません。近い箇所を挙げます。",
}
OTHER_BOOK_CARDS = 2
"""Asked which book, each book named after the first shows this many cards (the first
book the rest): asked for a book on footnotes, memoir's 33 places came before the LaTeX
guide's 2.9 脚注, at card 34 of 40."""
_JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]")
_PRONOUN = re.compile(r"(?i)\b(?:it|its|them|they|this|that|these|those)\b|それ|これ|その|この")


@dataclass
class Found:
    """A place chosen for the answer: a section, how sure, and what it answers."""

    book_id: int
    key: int
    score: float
    part: str | None = None
    unit: str | None = None
    question: Question | None = None


def visible_books(user, book_ids=None) -> dict[int, Book]:
    """Return id → book for the books user may search (None: a command run on the server)."""
    if user is not None and not user.is_authenticated:
        return {}
    books = Book.objects.only("id", "title", "sha256", "page_count", "toc_pages", "lot_pages",
                              "original_filename")
    if book_ids is not None:
        books = books.filter(pk__in=list(book_ids))
    return {book.pk: book for book in books.order_by("pk")}


def iter_results(question, *, user=None, book_ids=None, context=None, limit=10, suggested=None):
    """Yield each Result as soon as it is found, then the complete Answer (always last).

    suggested: whether the local model's index terms are searched too (``retrieval.suggest``);
    None: where they come before the ranking (``suggest.BEFORE``)."""
    books = visible_books(user, book_ids)
    resolved = followups.follow_up(question, context, {pk: b.title for pk, b in books.items()})
    if resolved.book_ids is not None:
        books = {pk: book for pk, book in books.items() if pk in resolved.book_ids}
    plan = query.plan(resolved.question)
    if plan.unsure:
        parts = llm_parts(resolved.question)
        plan = query.Plan(COMPARE, plan.topic, parts=parts) if len(parts) > 1 else plan
    answer = Answer(plan.type, resolved.question, parts=plan.parts, book_ids=sorted(books),
                    language="ja" if _JAPANESE.search(resolved.question) else "en")
    if not books:
        answer.note = "There is no book to search."
        yield answer
        return
    shelf = Shelf(books, narrowed=book_ids is not None or resolved.book_ids is not None)
    if suggested is None:
        suggested = suggest.when() == suggest.BEFORE
    reading = _Reading(plan, shelf, resolved.question, suggested)
    if resolved.navigate:
        answer.type = NAVIGATE
        pairs = followups.navigate(shelf, context, resolved.navigate)
        found = [[Found(b, k, 1.0, question=reading.question()) for b, k in pairs]]
    elif resolved.chapter or resolved.within:
        found = [reading.in_chapter(context, resolved, limit)]
        answer.type = RANGE if resolved.chapter else answer.type
    else:
        exclude = followups.previous(shelf, context) if resolved.exclude_previous else set()
        found = reading.found(limit, exclude, answer)
    for batch in found:
        for result in _results(batch, shelf, answer):
            answer.results.append(result)
            yield result
    reading.finish(answer)
    if not answer.results and not answer.note:
        answer.note = "The books do not seem to answer this."
    yield answer


def ask(question, *, user=None, book_ids=None, context=None, limit=10, suggested=None) -> Answer:
    """Return the Answer to question (see iter_results)."""
    *_, answer = iter_results(question, user=user, book_ids=book_ids, context=context, limit=limit,
                              suggested=suggested)
    return answer


@dataclass
class Refined:
    """What the local model's terms change, asked for after the cards (``suggest.AFTER``)."""

    terms: list[str]
    place: Result | None = None
    """The place the ranking puts first with the terms, where card [1] is another."""
    card: int | None = None
    """The number of the card that shows that place already, if one does."""


def refine(question, shown, *, user=None, book_ids=None, context=None) -> Refined | None:
    """Return what the model's terms change for a lookup answered without them.

    shown: (book id, heading id, first page, last page) of the answer's cards, in
    order. None where the terms are not asked for after the cards, or the model
    suggests none, or the question is not a lookup (a unit, a list or a book
    asked for is not one better place).
    """
    if suggest.when() != suggest.AFTER or not shown:
        return None
    again = ask(question, user=user, book_ids=book_ids, context=context, limit=1, suggested=True)
    if again.type != LOOKUP or not again.suggested or not again.results:
        return None
    first = again.results[0]
    key = (first.book_id, first.heading_id, first.page_start, first.page_end)
    if key == tuple(shown[0]):
        return Refined(again.suggested)
    card = next((n for n, place in enumerate(shown, 1) if tuple(place) == key), None)
    return Refined(again.suggested, first, card)


class _Reading:
    """One question being answered: its plan, the books it names, its ranked sections."""

    def __init__(self, plan, shelf, text, suggested=False):
        self.plan, self.shelf, self.text = plan, shelf, text
        self.asks_model = suggested
        covers, words = names.all_names(), lexical.get()
        asked = set(analysis.terms(text))

        def own(pk):  # only the question's words are looked up
            def check(term):
                share = words.share_in(term, pk) if term in asked else 0.0
                return share is None or share >= named_books.OWN_SHARE
            return check

        sections = max(1, words.size())

        def common(term):
            return term in asked and words.doc_freq(term) > named_books.COMMON_SHARE * sections

        self.names = {pk: named_books.name_terms(b.title, b.original_filename or "",
                                                 covers.get(pk, ""), own(pk), common)
                      for pk, b in shelf.books.items()}
        self.refs = named_books.references(plan.refs, plan.mentions, self.names)
        self.named = named_books.named(text, self.refs, self.names)
        self.strong = [pk for pk, weight in self.named.items() if weight >= STRONG]
        self.scored = []
        self._suggested = None
        self.picks = None
        self.parts = []
        """(part, its places best first) for each part of a comparison."""
        self.chosen = []
        """(part, (book id, key)): the place given to each part (``_assign_parts``)."""

    def question(self, text: str | None = None, named=None) -> Question:
        named = self.named if named is None else named
        text = text or self.text
        explicit = [ref for ref in self.refs
                    if any(named[pk] >= named_books.EXPLICIT and set(analysis.terms(ref)) &
                           self.names[pk] for pk in named)]
        # The model's terms are for the question as asked, not for a part or topic of it.
        suggested = self.suggested() if text == self.text else ()
        return Question.of(text, named, self._book_words(named), beginner=self.plan.beginner,
                           meant=query.without_refs(text, explicit) if explicit else None,
                           suggested=suggested)

    def suggested(self) -> list[str]:
        """Return the index terms the local model suggests for the question, asked once."""
        if self._suggested is None:
            self._suggested = suggest.terms(self.text) if self.asks_model else []
        return self._suggested

    def _book_words(self, named) -> set[str]:
        """Return the words that name books rather than say what is asked: the named
        books' title words, and every word of a title the question quotes."""
        words = named_books.book_words([pk for pk in named if named[pk] >= STRONG], self.names)
        if any(weight >= named_books.EXPLICIT for weight in named.values()):
            words |= {term for ref in self.refs for term in analysis.terms(ref)}
        return words

    def found(self, limit, exclude, answer):
        """Yield batches of Found for the plan."""
        kind = self.plan.type
        if kind == AGGREGATE:
            yield from self._aggregate(limit, exclude, answer)
        elif kind == RANGE:
            yield self._range(limit, exclude)
        elif kind == COMPARE or (self.plan.each and len(self.strong) >= 2):
            yield self._several(limit, exclude)
        elif kind == WHICH_BOOK:
            found = self._lookup(self.question(self.plan.topic or self.text, named={}), 4 * limit,
                                 exclude)
            # Asked which book, the cards follow the books in the order the guide names them.
            yield _by_book(found, self.recommend(answer), limit,
                           lambda f: self.shelf.chunk(f.book_id, f.key).heading_id)
        else:
            yield self._lookup(self.question(), limit, exclude)

    def in_chapter(self, context, resolved, limit) -> list[Found]:
        """Return the chapter that holds the previous first place, or the best places in it."""
        first = (context or {}).get("sections", [{}])[0]
        book_id = first.get("book_id")
        if book_id not in self.shelf.books:
            return []
        chunks = self.shelf.index(book_id).chunks
        here = next((c.key for c in chunks if followups.same(c, first)), None)
        graph = units.tree(chunks)
        chapter = units.containing(chunks, graph, here) if here is not None else None
        if chapter is None:
            return []
        question = self.question()
        if resolved.chapter:
            return [Found(book_id, chapter, 1.0, unit=query.CHAPTER, question=question)]
        allowed = {book_id: units.subtree(graph, chapter)}
        scored = pool(question, self.shelf, allowed=allowed)
        return [Found(s.book_id, s.key, s.score, question=question) for s in scored[:limit]]

    def _lookup(self, question, limit, exclude, book_ids=None, part=None) -> list[Found]:
        scored = pool(question, self.shelf, book_ids=book_ids, exclude=exclude)
        if book_ids is None and part is None:
            self.scored, self.asked = scored, question
        return [Found(s.book_id, s.key, s.score, part, question=question) for s in scored[:limit]]

    def _several(self, limit, exclude) -> list[Found]:
        """Return the best place for each part (or each named book), then the rest."""
        parts = [part for part in (self.plan.parts if self.plan.type == COMPARE else [])
                 if self._about_something(part)]
        if len(parts) == 1:
            whole = self.question(parts[0])
        elif not parts:  # the parts only name books: look for what the question says first
            whole = self.question(self.plan.scene or None)
        else:
            whole = self.question()
        groups = []
        if self.plan.each and len(self.strong) >= 2:
            for book_id in self.strong:
                groups.append(self._lookup(whole, limit, exclude, book_ids=[book_id]))
        parts = parts if len(parts) > 1 else []
        for i, part in enumerate(parts):
            text = f"{part} ({parts[i - 1]})" if i and _PRONOUN.search(part) else part
            text = f"{text}（{self.plan.scene}）" if self.plan.scene else text
            groups.append(self._lookup(self.question(text), limit, exclude, part=part))
            self.parts.append((part, groups[-1]))
        groups.append(self._lookup(whole, limit, exclude))
        found = _interleaved(groups, limit)
        self._assign_parts(found)
        return found

    def _about_something(self, text: str) -> bool:
        """Return True if text asks about a subject, not only names books ("show me where
        the beamer guide and the memoir manual each explain them", 「航海の手引きの第1章」)."""
        words = self._book_words(self.named) | named_books.GENERIC
        return any(term not in words for term in analysis.question_terms(text))

    def _range(self, limit, exclude) -> list[Found]:
        """Return the units (chapters, parts, appendices) that hold most of the answer."""
        question = self.question()
        scored = self._lookup(question, len(self.shelf.book_ids) * 1000, exclude)
        mass = {}
        for book_id in {f.book_id for f in scored}:
            chunks = self.shelf.index(book_id).chunks
            graph = units.tree(chunks)
            inside = {f.key: f.score for f in scored if f.book_id == book_id}
            for key in units.units(chunks, self.plan.unit):
                mass[(book_id, key)] = sum(inside.get(k, 0.0) for k in units.subtree(graph, key))
        best = sorted((pair for pair in mass if mass[pair] > 0), key=mass.get, reverse=True)
        return [Found(b, k, mass[(b, k)], unit=self.plan.unit, question=question)
                for b, k in best[:min(limit, 5)]]

    def _aggregate(self, limit, exclude, answer):
        # "part 2 of the LuaTeX-ja manual": that book's part 2, however it prints the number
        allowed = narrowing.ranges(self.shelf, self.plan, self.strong or None)
        if not allowed:
            answer.note = "No section of these books falls in that range."
            return
        question = self.question(self.plan.topic or self.text)
        topic = self.plan.topic
        if query.is_aggregate_listing(topic) or not self._about_something(topic):
            yield [Found(b, k, 1.0, question=question) for b, k in narrowing.listing(self.shelf, allowed)]
            return
        scored = pool(question, self.shelf, allowed=allowed, exclude=exclude)
        yield [Found(s.book_id, s.key, s.score, question=question) for s in scored[:limit]]

    def recommend(self, answer) -> list | None:
        """Return the books to read first, or None where there is no choice to make (made
        once: asked which book, the cards are ordered by it before they are shown)."""
        if self.picks is None:
            self.picks = self._recommendation(answer) or []
        return self.picks or None

    def _recommendation(self, answer) -> list:
        kind = self.plan.type
        asked = kind == WHICH_BOOK
        explicit = any(w >= 1.0 for w in self.named.values())
        if not self.scored or kind in (NAVIGATE, RANGE, AGGREGATE) or (explicit and not asked):
            return []
        if self.weak():
            return []
        return recommend.books(
            self.scored, self.shelf,
            lambda b, k, unit, lead: _place(self.shelf, b, k, unit, self.asked, self.scored,
                                            closely=lead),
            answer.language == "ja", asked, self.asked.vectors.get(embeddings.MULTILINGUAL),
            recommend.distinctive(self.asked.terms, self.asked.translated,
                                  lexical.get().doc_freq) if asked else (),
            terms=self._telling([*self.asked.terms, *self.asked.translated]))

    def _telling(self, terms) -> list[str]:
        """Return those of terms that tell sections apart: not held by a share of the shelf's
        sections over COMMON_SHARE ("debian", "package" in a shelf of Debian manuals), nor by
        more than TELLING_FLOOR sections on a small shelf."""
        words = lexical.get()
        most = max(TELLING_FLOOR, named_books.COMMON_SHARE * words.size())
        return [term for term in terms if words.doc_freq(term) <= most]

    def weak(self) -> bool:
        """Return True if this lookup or which-book question is not one the books answer:
        no candidate comes near it in meaning (``WEAK``)."""
        if self.plan.type not in (LOOKUP, WHICH_BOOK) or not self.scored:
            return False
        roles = [role for role in self.asked.vectors if role in WEAK]
        return bool(roles) and all(
            max(s.meaning.get(role, 0.0) for s in self.scored) < WEAK[role] for role in roles)

    def finish(self, answer) -> None:
        """Fill in the books to read first, the places the guide points to, and the guide."""
        if self.weak():
            answer.weak, answer.note = True, WEAK_NOTE[answer.language]
        answer.recommendation = self.recommend(answer)
        answer.suggested = list(self._suggested or [])
        answer.places = _places(answer, self._part_places(answer))
        answer.guide = guide.compose(answer)

    def _assign_parts(self, found: list[Found]) -> None:
        """Give each part of a comparison one of its best places among found
        (``retrieval.parts``), and label those places with their parts, so that the cards
        and the guide say the same."""
        shown = {(f.book_id, f.key): f for f in found}
        parts, options = [], []
        for part, places in self.parts:
            mine = [f for f in places if (f.book_id, f.key) in shown][:PART_CHOICES]
            if mine:
                parts.append(part)
                options.append([(f.score, (f.book_id, f.key)) for f in mine])
        self.chosen = [(part, options[n][i][1])
                       for n, (part, i) in enumerate(zip(parts, assigned(options)))]
        labelled = set()
        for part, pair in self.chosen:
            if pair not in labelled:  # a place two parts share is labelled with the first
                shown[pair].part = part
                labelled.add(pair)

    def _part_places(self, answer) -> list[Result]:
        """Return the card chosen for each part of a comparison, labelled with the part."""
        cards = {guide.where(r): r for r in answer.results}
        out = []
        for part, (book_id, key) in self.chosen:
            chunk = self.shelf.chunk(book_id, key)
            card = cards.get((book_id, chunk.heading_id, chunk.page_start, chunk.page_end))
            if card is not None:
                out.append(card if card.part == part else replace(card, part=part))
        return out


def _by_book(found: list[Found], picks, limit: int, heading_of=None) -> list[Found]:
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
        where = getattr(pick, "where", None)
        named = getattr(where, "heading_id", None)
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


def _places(answer, part_places=()) -> list[Result]:
    if not answer.results:
        return []
    if answer.recommendation and answer.type not in (COMPARE, AGGREGATE):
        # The guide says which book to read first: its place is the one to read.
        return [answer.recommendation[0].where]
    if answer.type == COMPARE:
        # Each part's place, then the first place of each other search (the whole question,
        # each book it names) as it came.
        first = {part.part: part for part in part_places}
        shown = {guide.where(place) for place in part_places}
        for result in answer.results:
            if guide.where(result) not in shown:
                first.setdefault(result.part or result.book_id, result)
        return list(first.values())[:4]
    if answer.type == AGGREGATE:
        return answer.results[:3]
    return answer.results[:1]


def _results(batch: list[Found], shelf, answer):
    """Yield the Result of each place in batch, the first as soon as it is made."""
    labels = _labels(shelf, batch)
    for found in batch:
        # The first place is read closely: the guide quotes it.
        result = _result(shelf, found, labels, quote=len(answer.results) < QUOTED,
                         closely=not answer.results)
        result.part = found.part
        yield result


def _place(shelf, book_id, key, unit, question, scored=(), closely=False) -> Result:
    """Return the Result for one section or unit (used for recommendations' places).

    A unit's quote comes from its own opening or from its section that scored
    best, whichever sentence holds more of the question's words (a chapter's
    opening seldom holds the sentence that answers); its excerpt is its opening.
    """
    found = Found(book_id, key, 0.0, unit=unit, question=question)
    quoted = None
    if unit:
        inside = units.subtree(units.tree(shelf.index(book_id).chunks), key)
        quoted = next((s.key for s in scored
                       if s.book_id == book_id and s.key in inside and s.key != key), None)
    places = [found] + ([Found(book_id, quoted, 0.0)] if quoted is not None else [])
    return _result(shelf, found, _labels(shelf, places), quote=True, quoted=quoted,
                   closely=closely)


def _result(shelf, found: Found, labels, quote: bool, quoted: int | None = None,
            closely: bool = False) -> Result:
    """Return the card of found; quoted: the section to quote from, when not its own;
    closely: choose the quote by meaning too (``quotes.quote``)."""
    index = shelf.index(found.book_id)
    chunk = index.full(found.key)
    said = (quotes.quote(chunk, index, found.question, closely=closely)
            if quote and found.question else None)
    text = quotes.excerpt(chunk, said, furniture=index.furniture)
    if said and quoted is not None:
        inner = quotes.quote(index.full(quoted), index, found.question, closely=closely)
        if inner and quotes.held(inner, found.question) > quotes.held(said, found.question):
            said = inner
    terms = ([*found.question.terms, *found.question.translated, *found.question.suggested]
             if found.question else [])
    book = shelf.books[found.book_id]
    subsections = [{"title": index.chunks[k].title, "page_start": index.chunks[k].page_start,
                    "page_end": index.chunks[k].page_end} for k in chunk.children] if found.unit else []
    return Result(
        book_id=found.book_id, book_title=book.title,
        breadcrumb=chunk.breadcrumb or [chunk.title], heading_id=chunk.heading_id,
        page_start=chunk.page_start, page_end=chunk.page_end,
        printed_start=labels.get((found.book_id, chunk.page_start)),
        printed_end=labels.get((found.book_id, chunk.page_end)),
        excerpt=text, terms=quotes.marks(text, terms), score=round(found.score, 4),
        quote=said.text if said else "", quote_page=said.page if said else None,
        quote_label=labels.get((found.book_id, said.page)) if said else None,
        subsections=subsections, book_pages=book.page_count, unit=found.unit,
        inferred=chunk.inferred,
    )


def _labels(shelf, batch) -> dict:
    """Return (book id, page) → printed label for the pages batch may show, in one query."""
    wanted = {}
    for found in batch:
        chunk = shelf.chunk(found.book_id, found.key)
        wanted.setdefault(found.book_id, set()).update(
            range(chunk.page_start, chunk.page_start + 1), {chunk.page_end},
            (n for n, _ in chunk.starts))
    if not wanted:
        return {}
    condition = Q()
    for book_id, numbers in wanted.items():
        condition |= Q(book_id=book_id, number__in=sorted(numbers))
    rows = Page.objects.filter(condition).exclude(label="")
    return {(b, n): label for b, n, label in rows.values_list("book_id", "number", "label")}


PARTS_SCHEMA = {
    "type": "object",
    "properties": {"parts": {"type": "array", "items": {"type": "string"}, "maxItems": 4}},
    "required": ["parts"],
}
PARTS_PROMPT = (
    "The user asks a question that compares things. Reply in JSON as {\"parts\": [...]}: "
    "the things compared, each copied word for word from the question."
)


def llm_parts(question: str) -> list[str]:
    """Return the parts of a comparison the rules could not split, as the local model reads
    them; only parts that occur in the question are kept. [] without a model."""
    import llm

    model = llm.load()
    if model is None:
        return []
    messages = [{"role": "system", "content": PARTS_PROMPT}, {"role": "user", "content": question}]
    try:
        reply = llm.ask(model, messages, PARTS_SCHEMA, max_tokens=80, timeout=30)
        parts = (llm.parse_json(reply.text) or {}).get("parts") or []
    except (llm.LlmError, llm.LlmTimeout, ValueError, AttributeError):
        logger.warning("The model could not split %r into parts", question, exc_info=True)
        return []
    return [part.strip() for part in parts
            if isinstance(part, str) and len(part.strip()) > 1 and part.strip() in question]
