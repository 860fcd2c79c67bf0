"""Answering a question with places in the books, by query type."""

import logging
import math
import re
from collections import defaultdict

from books.models import Book, Page
from retrieval import query, store
from retrieval.query import AGGREGATE, COMPARE, NAVIGATE, WHICH_BOOK
from retrieval.rank import Scored, rank
from retrieval.results import Answer, Recommendation, Result
from retrieval.terms import best_window, highlights, normalise

logger = logging.getLogger(__name__)
LISTING_LIMIT = 30
_NUMBER = re.compile(  # "3.2 Title", "3ソース" (OCR dropped the space), "Part II", "A."
    r"(?i)^(?:chapter|part|section|appendix)?\s*(?:([0-9]+(?:\.[0-9]+)*)(?!\.?[0-9])|([ivxlc]+|[a-z])\b)"
)
_JA_NUMBER = re.compile(r"第\s*([0-9〇一二三四五六七八九十百]+)\s*(章|部|編|節)")


def visible_books(user, book_ids=None) -> dict[int, Book]:
    """Return id → book for the books user may search (None: a command run on the server)."""
    if user is not None and not user.is_authenticated:
        return {}
    books = Book.objects.only("id", "title", "sha256", "page_count", "toc_pages", "lot_pages")
    if book_ids is not None:
        books = books.filter(pk__in=list(book_ids))
    return {book.pk: book for book in books.order_by("pk")}


def iter_results(question, *, user=None, book_ids=None, context=None, limit=10):
    """Yield each Result as soon as it is found, then the complete Answer (always last)."""
    books = visible_books(user, book_ids)
    resolved = query.follow_up(question, context, {pk: b.title for pk, b in books.items()})
    if resolved.book_ids is not None:
        books = {pk: book for pk, book in books.items() if pk in resolved.book_ids}
    plan = query.plan(resolved.question)
    if plan.unsure:
        parts = llm_parts(resolved.question)
        plan = query.Plan(COMPARE, plan.topic, parts=parts) if len(parts) > 1 else plan
    answer = Answer(plan.type, resolved.question, parts=plan.parts, book_ids=sorted(books))
    if not books:
        answer.note = "There is no book to search."
        yield answer
        return
    indexes = {pk: store.get(book) for pk, book in books.items()}
    if resolved.navigate:
        answer.type, found = NAVIGATE, _navigate(indexes, context, resolved.navigate)
    else:
        exclude = _previous(indexes, context) if resolved.exclude_previous else set()
        found = _found(plan, indexes, books, limit, exclude, answer)
    for batch in found:
        for result in _results(batch, indexes, books, resolved.question):
            answer.results.append(result)
            yield result
    if plan.type == WHICH_BOOK and not resolved.navigate:
        answer.recommendation = recommend(answer.results, indexes, plan.topic)
    if not answer.results and not answer.note:
        answer.note = "The books do not seem to answer this."
    yield answer


def ask(question, *, user=None, book_ids=None, context=None, limit=10) -> Answer:
    """Return the Answer to question (see iter_results)."""
    *_, answer = iter_results(question, user=user, book_ids=book_ids, context=context, limit=limit)
    return answer


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


def _found(plan, indexes, books, limit, exclude, answer):
    """Yield batches of (Scored, part) for plan."""
    all_indexes = list(indexes.values())
    if plan.type == COMPARE:
        share = max(3, limit // len(plan.parts))
        for part in plan.parts:
            yield [(s, part) for s in rank(part, all_indexes, limit=share, exclude=exclude)]
    elif plan.type == AGGREGATE:
        allowed = _ranges(indexes, books, plan)
        if not allowed:
            answer.note = "No section of these books falls in that range."
        elif query.is_aggregate_listing(plan.topic):
            yield [(_placed(pk, key), None) for pk, key in _listing(indexes, allowed)]
        else:
            yield [(s, None) for s in rank(plan.topic, all_indexes, limit=limit, allowed=allowed,
                                           exclude=exclude)]
    else:
        topic = plan.topic if plan.type == WHICH_BOOK else plan.topic or answer.question
        wide = 4 * limit if plan.type == WHICH_BOOK else limit
        yield [(s, None) for s in rank(topic, all_indexes, limit=wide, exclude=exclude)]


def _results(batch, indexes, books, question) -> list[Result]:
    labels = _labels(batch, indexes)
    out = []
    for scored, part in batch:
        book_id, key, score = scored.book_id, scored.key, scored.score
        chunk = indexes[book_id].chunks[key]
        marks = highlights(question, indexes[book_id].texts[key], scored.found) if scored.found else []
        out.append(Result(
            book_id=book_id, book_title=books[book_id].title,
            breadcrumb=chunk.breadcrumb or [chunk.title], heading_id=chunk.heading_id,
            page_start=chunk.page_start, page_end=chunk.page_end,
            printed_start=labels.get((book_id, chunk.page_start)),
            printed_end=labels.get((book_id, chunk.page_end)),
            excerpt=best_window(chunk.text, marks), terms=marks, score=score, part=part,
        ))
    return out


def _placed(book_id: int, key: int) -> Scored:
    """Return a chunk chosen by position (a listing, the next section), not by score."""
    return Scored(book_id, key, 1.0, 0.0, 0.0, 0.0)


def _labels(batch, indexes) -> dict:
    """Return (book id, page) → printed label for the first and last pages of batch."""
    wanted = defaultdict(set)
    for scored, _ in batch:
        chunk = indexes[scored.book_id].chunks[scored.key]
        wanted[scored.book_id].update((chunk.page_start, chunk.page_end))
    labels = {}
    for book_id, numbers in wanted.items():
        rows = Page.objects.filter(book_id=book_id, number__in=numbers).exclude(label="")
        labels.update({(book_id, n): label for n, label in rows.values_list("number", "label")})
    return labels


def _ranges(indexes, books, plan) -> dict[int, set[int]]:
    """Return book id → the chunk keys inside plan's section and page range.

    A section named the way a book prints it (第2章 for 第2章, "chapter 2" for
    "2 Knots") wins over a book where only the number agrees.
    """
    found = {pk: _in_range(index, books[pk], plan) for pk, index in indexes.items()}
    if any(exact for _, exact in found.values()):
        found = {pk: (keys, exact) for pk, (keys, exact) in found.items() if exact}
    return {pk: keys for pk, (keys, _) in found.items() if keys}


def _in_range(index, book, plan) -> tuple[set[int], bool]:
    """Return the keys of index inside plan's section and page range, and whether the
    section is named as the book prints it."""
    keys, exact = set(range(len(index.chunks))), not plan.section
    if plan.section:
        key = _find_section(index, plan.section)
        keys &= _subtree(index, key)
        japanese = plan.section[0] in ("章", "部", "編", "節")
        exact = key is not None and japanese == bool(_JA_NUMBER.search(index.chunks[key].title))
    if plan.pages:
        low, high = _physical(book, plan.pages)
        keys &= {c.key for c in index.chunks if c.span[0] <= high and c.span[1] >= low}
    return keys, exact


def _physical(book, pages) -> tuple[int, int]:
    """Return the physical pages printed as pages; the same numbers where none are printed."""
    labels = Page.objects.filter(book=book).exclude(label="").values_list("number", "label")
    inside = [n for n, label in labels if label.isdigit() and pages[0] <= int(label) <= pages[1]]
    return (min(inside), max(inside)) if inside else pages


def _find_section(index, section) -> int | None:
    kind, number = section
    wanted = number.casefold()
    matches = [c for c in index.chunks if c.heading_id and _heading_number(c.title) == wanted]
    if not matches:
        return None
    if kind in ("chapter", "part", "appendix", "章", "部", "編"):
        return min(matches, key=lambda c: (c.level, c.key)).key
    deeper = [c for c in matches if c.level > 1] or matches
    return deeper[0].key


def _heading_number(title: str) -> str | None:
    title = normalise(title)
    match = _JA_NUMBER.search(title)
    if match:
        return str(query.kanji_number(match[1]))
    match = _NUMBER.match(title)
    return (match[1] or match[2]) if match else None


def _subtree(index, key) -> set[int]:
    if key is None:
        return set()
    keys, todo = set(), [key]
    while todo:
        current = todo.pop()
        keys.add(current)
        todo.extend(index.chunks[current].children)
    return keys


def _listing(indexes, allowed) -> list[tuple[int, int]]:
    """Return the top two levels of what each book's range holds, in reading order."""
    out = []
    for book_id, keys in allowed.items():
        chunks = [indexes[book_id].chunks[key] for key in keys]
        top = min(c.level for c in chunks)
        shown = sorted((c for c in chunks if c.level <= top + 1), key=lambda c: (c.span[0], c.key))
        out.extend((book_id, c.key) for c in shown)
    return out[:LISTING_LIMIT]


def _navigate(indexes, context, step):
    """Yield the section after (step 1) or before (step -1) the previous answer's first."""
    sections = (context or {}).get("sections") or []
    if not sections or sections[0]["book_id"] not in indexes:
        return
    first = sections[0]
    index = indexes[first["book_id"]]
    order = sorted(index.chunks, key=lambda c: (c.span[0], c.key))
    current = [i for i, c in enumerate(order) if _same(c, first)]
    if current and 0 <= current[0] + step < len(order):
        yield [(_placed(index.book_id, order[current[0] + step].key), None)]


def _same(chunk, section) -> bool:
    if section.get("heading_id"):
        return chunk.heading_id == section["heading_id"]
    return chunk.page_start == section.get("page_start")


def _previous(indexes, context) -> set:
    pairs = set()
    for section in (context or {}).get("sections", []):
        index = indexes.get(section["book_id"])
        for chunk in index.chunks if index else []:
            if _same(chunk, section):
                pairs.add((index.book_id, chunk.key))
    return pairs


MAX_BOOKS = 5  # books named in a which-book answer, best first


def recommend(results, indexes, topic) -> list[Recommendation]:
    """Return the books to read on topic, the one that covers it most first."""
    if not results:
        return []
    # Every book that answers at all is named (the second one too: "B has a
    # short section"); within a book, only its strong sections count.
    best = {}
    for result in results:
        best[result.book_id] = max(best.get(result.book_id, 0.0), result.score)
    by_book = defaultdict(list)
    for result in results:
        book_best = best[result.book_id]
        if result.score >= 0.6 * book_best:
            by_book[result.book_id].append(result)
    japanese = bool(re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", topic))
    out = []
    for book_id, found in by_book.items():
        pages = set()
        for r in found:
            pages.update(range(r.page_start, r.page_end + 1))
        score = sum(r.score * math.sqrt(min(r.page_end - r.page_start + 1, 25)) for r in found)
        unit, where = _unit(found, indexes[book_id])
        out.append(Recommendation(
            book_id=book_id, book_title=found[0].book_title, score=round(score, 4),
            sections=len(found), pages=len(pages), unit=unit,
            reason=_reason(found[0].book_title, unit, where, japanese), where=where,
        ))
    out.sort(key=lambda r: -r.score)
    return out[:MAX_BOOKS]


def _unit(found, index):
    """Return how much of the book's structure covers the topic, and the place that shows it."""
    by_heading = {c.heading_id: c for c in index.chunks if c.heading_id}
    for result in found:
        chunk = by_heading.get(result.heading_id)
        if chunk and chunk.level == 1 and chunk.children:
            return "chapter", result
    parents = defaultdict(list)
    for result in found:
        chunk = by_heading.get(result.heading_id)
        if chunk and chunk.parent_key is not None:
            parents[chunk.parent_key].append(result)
    for parent_key, children in parents.items():
        parent = index.chunks[parent_key]
        if len(children) >= 2 and len(children) * 2 >= len(parent.children) and parent.level == 1:
            return "chapter", children[0]
    best = found[0]
    return ("section" if best.heading_id else "mentions"), best


def _reason(title, unit, where, japanese) -> str:
    place = " > ".join(where.breadcrumb)
    printed = where.printed_start
    if japanese:
        how = {"chapter": "章全体で扱っています", "section": "短い節で扱っています",
               "mentions": "本文で触れています"}[unit]
        page = f"{printed}ページ" if printed else f"PDFの{where.page_start}ページ目"
        return f"『{title}』は{how}（{place}、{page}から）。"
    how = {"chapter": "covers this in a whole chapter", "section": "has a short section on it",
           "mentions": "mentions it"}[unit]
    page = f"p. {printed}" if printed else f"page {where.page_start} of the PDF"
    return f"{title} {how}: {place}, from {page}."
