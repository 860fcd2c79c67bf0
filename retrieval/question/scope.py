"""Read the scope a question names, and find the sections inside it (the first move of the
reference interview).

"In the memoir manual's chapter on page notes, how do I …", "Around pages
96–99 of the beamer guide, …", "In section 6.5 of …", 「4.4 節で、…」,
「数式の章で、…」, 「…を扱っている第 III 部のうち、…」: the reader says where to
look before asking. The question is then answered inside that place, at the
most specific section that answers the rest of it; the place named is never
the answer itself. ``read`` is pure; ``sections`` finds the place on the shelf.
"""

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

import llm
from retrieval.index import contents, embeddings
from retrieval.question import units
from retrieval.text import analysis
from retrieval.question import narrowing
from retrieval.question.query import CHAPTER, JA_NUMERAL, PART, unit_number

PAGES, SECTION = "pages", "section"
AROUND = 2
""""Around page N" is printed pages N−2 … N+2."""
NEAR_TITLE = 0.35
"""A unit named by its topic is one whose title comes at least this near the topic (the
multilingual encoder's cosine), unless a word of the topic is in its title."""

OTHER_KIND = 0.25
"""A reader's "chapter" may be the book's part and the reverse, but the kind named comes first:
a unit of the other kind is taken where it comes this much nearer the topic. "The
introductory part of the beamer guide" is Part I Getting Started (0.51), not chapter 1
Introduction (0.57); a part titled as the reader's "chapter" names it comes ahead by far
more (a title's own words count a whole point)."""

BOOK_NEAR, BOOK_APART = 0.45, 0.05
"""A scope's book named in the other language (「開発者リファレンス」 for "Debian Developer's
Reference", "the Japanese Debian New Maintainers' Guide" for 「Debian 新メンテナーガイド」)
shares no word with its title: the multilingual encoder reads them alike (0.51 and 0.84 on
the dev books, the next title 0.27 and 0.64 behind; "the Octave manual" comes nearest the
Octave manual's title at 0.46)."""
ONE_UNIT = 0.1
"""A unit named by its topic in a question that names no book is looked for in every book;
the books whose unit comes within this of the nearest are searched (the reader means one
unit: 「パッケージ作りのおすすめのやり方をまとめた章」 is the developer's reference's chapter
on best practice, not the nearest chapter of every manual on the shelf)."""
_END_EN = r"\s*(?:[,:;]|—|–\s)\s*"
_BOOK_EN = r"(?:\s+(?:of|in)\s+(?P<book>[^,:;?]+?))?"
_PAGES_EN = re.compile(
    r"(?i)^(?P<phrase>(?:(?P<around>somewhere\s+)?(?:around|near|about)\s+|on\s+|in\s+|at\s+)?"
    r"(?:pp?\.|pages?)\s*(?P<a>\d+)(?:\s*(?:-|–|—|~|to|through|and)\s*(?P<b>\d+))?"
    + _BOOK_EN + r")" + _END_EN)
_SECTION_EN = re.compile(
    r"(?i)^(?P<phrase>(?:in|within|inside|under)\s+(?:section|§)\s*(?P<n>\d+(?:\.\d+)*)"
    + _BOOK_EN + r")" + _END_EN)
_ABOUT_EN = (  # "on", "that walks through", "which is about", "explaining", "dealing with"
    r"(?:on|about|(?:that|which)\s+(?:is\s+about|[a-z]+s(?:\s+(?:through|over|with|about|on))?)|"
    r"[a-z]+ing(?:\s+(?:through|over|with|about|on))?)")
_UNIT_EN = re.compile(
    r"(?i)^(?P<phrase>(?:in|within|inside)\s+(?:(?P<owner>[^,:;]+?)['’]s\s+|the\s+|its\s+)?"
    r"(?P<unit>chapter|part)\s+(?:(?P<n>\d+|[ivxlc]+)\b" + _BOOK_EN + r"|" + _ABOUT_EN +
    r"\s+(?P<topic>[^,:;]+?)))" + _END_EN)
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
             "ninth", "tenth")
_NOT_TOPICS = {"same", "next", "previous", "following", "preceding", "last", "final", "other",
               "whole", "entire", "earlier", "later", "this", "that", "another"}
"""Words that point at a unit by where it stands, not by what it is about: "the next chapter
of the manual" is not a chapter about "next"."""
_UNIT_NAMED_EN = re.compile(  # "In the introductory part of the beamer guide, …"
    r"(?i)^(?P<phrase>(?:in|within|inside)\s+the\s+(?P<topic>[a-z][a-z-]*(?:\s+[a-z][a-z-]*)?)"
    r"\s+(?P<unit>chapter|part)\s+(?:of|in)\s+(?P<book>[^,:;?]+?))" + _END_EN)
_JA_END = r"\s*(?:で(?:は)?|の(?:うち|中で)|において|では)\s*[、,]?\s*"
_PAGES_JA = re.compile(
    r"(?P<phrase>(?P<a>\d+)\s*(?:(?:〜|～|~|-|–|から)\s*(?P<b>\d+)\s*)?(?:ページ|頁)目?\s*"
    r"(?P<around>あたり|辺り|付近|前後|周辺)?)" + _JA_END)
_SECTION_JA = re.compile(
    rf"(?P<phrase>(?P<n>\d+(?:\.\d+)+)\s*節|第\s*(?P<k>{JA_NUMERAL})\s*節)" + _JA_END)
_UNIT_JA = re.compile(
    rf"(?P<phrase>(?P<topic>[^、。,，」』]*?)(?:第\s*(?P<n>{JA_NUMERAL})\s*)?(?P<unit>章|部|編))"
    + _JA_END)
_TOPIC_JA_TAIL = re.compile(
    r"(?:について|に関して|に関する|を扱(?:う|った|っている)|を説明(?:する|した|している)|"
    r"が(?:書かれた|書いてある|載っている)|について(?:の|書かれた|書いてある|説明した)|"
    r"(?:書かれた|書いてある|説明した|扱っている|扱った))$")
_OWNER_JA = re.compile(r"^[^、。,，?？!！]+?(?:の\s*[、,]?|[」』])\s*$")
"""「開発者リファレンスの、」 before the scope phrase: the book it is in (the English forms hold
it in the phrase: "of the beamer guide", "the memoir manual's")."""
_UNITS = {"chapter": CHAPTER, "part": PART, "章": CHAPTER, "部": PART, "編": PART}


@dataclass(frozen=True)
class Scope:
    """Where a question says to look."""

    kind: str
    """PAGES, SECTION, CHAPTER or PART."""
    text: str
    """The phrase as written in the question."""
    rest: str
    """The question without the phrase: what is asked inside the scope."""
    pages: tuple[int, int] | None = None
    """Printed page numbers (a page scope)."""
    number: str | None = None
    """The number printed before the heading ("6.5", "iii", "12")."""
    topic: str = ""
    """What the unit is about, as the reader says it ("page notes", 「数式」)."""
    book: str = ""
    """The book the scope is in, as the reader names it ("the memoir manual",
    「開発者リファレンス」), "" where the phrase names none."""


def read(question: str) -> Scope | None:
    """Return the scope question names before it asks, or None."""
    text = unicodedata.normalize("NFKC", question).strip()
    return _read_en(text) or _read_ja(text)


def _read_en(text: str) -> Scope | None:
    match = _PAGES_EN.match(text)
    if match:
        return Scope(PAGES, match["phrase"], _rest(text, match), pages=_pages(match),
                     book=_book(match["book"]))
    match = _SECTION_EN.match(text)
    if match:
        return Scope(SECTION, match["phrase"], _rest(text, match), number=match["n"],
                     book=_book(match["book"]))
    match = _UNIT_EN.match(text)
    if match:
        number = match["n"].casefold() if match["n"] else None
        return Scope(_UNITS[match["unit"].casefold()], match["phrase"], _rest(text, match),
                     number=number, topic=(match["topic"] or "").strip(),
                     book=_book(match["owner"] or match["book"]))
    match = _UNIT_NAMED_EN.match(text)
    if match and not set(match["topic"].casefold().split()) & _NOT_TOPICS:
        topic = match["topic"].strip()
        ordinal = topic.casefold()
        number = str(_ORDINALS.index(ordinal) + 1) if ordinal in _ORDINALS else None
        return Scope(_UNITS[match["unit"].casefold()], match["phrase"], _rest(text, match),
                     number=number, topic="" if number else topic, book=_book(match["book"]))
    return None


def _read_ja(text: str) -> Scope | None:
    for pattern in (_PAGES_JA, _SECTION_JA, _UNIT_JA):
        match = pattern.search(text)
        if not match or not _rest(text, match):
            continue
        # the book named before the phrase (「新メンテナーガイドの 4.4 節で」) is not what is asked
        owned = _OWNER_JA.match(text[:match.start()])
        start = 0 if owned else match.start()
        phrase, rest = text[start:match.end("phrase")], _rest(text, match, start)
        book = _book(re.sub(r"の?\s*[、,]?\s*$", "", text[:match.start()])) if owned else ""
        if pattern is _PAGES_JA:
            return Scope(PAGES, phrase, rest, pages=_pages(match), book=book)
        if pattern is _SECTION_JA:
            number = match["n"] or str(unit_number(match["k"]) or "")
            return Scope(SECTION, phrase, rest, number=number or None, book=book)
        topic = _TOPIC_JA_TAIL.sub("", match["topic"].strip(" のをは")).strip(" の")
        number = unit_number(match["n"]) if match["n"] else None
        if topic or number is not None:
            return Scope(_UNITS[match["unit"]], phrase, rest,
                         number=_roman_or_digits(match["n"], number), topic=topic, book=book)
    return None


def _book(named: str | None) -> str:
    """Return how the reader names the scope's book, without quotes and articles."""
    return re.sub(r"(?i)^(?:the|its)\s+", "", (named or "").strip(" 「」『』\"'“”")).strip()


def _roman_or_digits(written: str | None, value: int | None) -> str | None:
    """Return the unit number as headings print it: roman where written roman, else digits."""
    if written is None or value is None:
        return None
    written = unicodedata.normalize("NFKC", written).strip()
    return written.casefold() if re.fullmatch(r"(?i)[ivxlc]+", written) else str(value)


def _pages(match) -> tuple[int, int]:
    first = int(match["a"])
    last = int(match["b"]) if match["b"] else first
    first, last = min(first, last), max(first, last)
    if match["around"] and first == last:
        return max(1, first - AROUND), last + AROUND
    return first, last


def _rest(text: str, match, start: int | None = None) -> str:
    """Return text without the matched scope phrase (and its joining words), from start
    where it is given."""
    start = match.start() if start is None else start
    rest = (text[:start] + " " + text[match.end():]).strip(" ,、:;")
    return re.sub(r"\s+", " ", rest)


def sections(scope: Scope, shelf, book_ids) -> dict[int, set[int]]:
    """Return book id → the keys of the sections inside scope, in the books of book_ids, less
    the unit named itself where it has sections of its own (the answer lies inside it). A
    unit named by its topic is one unit: where several books have one near it, those whose
    unit comes within ONE_UNIT of the nearest."""
    found, nearness = {}, {}
    for book_id in book_ids:
        chunks, graph = shelf.index(book_id).chunks, shelf.index(book_id).tree
        if scope.kind == PAGES:
            keys = _in_pages(shelf, book_id, chunks, scope.pages)
        else:
            key, nearness[book_id] = _unit_key(scope, chunks)
            keys = contents.subtree(graph, key)
            if key is not None and len(keys) > 1:
                keys = keys - {key}
        if keys:
            found[book_id] = keys
    near = [nearness[b] for b in found if nearness.get(b) is not None]
    if near:
        found = {b: keys for b, keys in found.items() if nearness[b] >= max(near) - ONE_UNIT}
    return found


def named_book(scope: Scope, shelf, covers) -> list[int]:
    """Return [the book the scope's own words name], where the question's words named none:
    the book whose title (covers: book id → the title on its title page) the multilingual
    encoder puts nearest them, at least BOOK_NEAR and BOOK_APART ahead of the next; else []."""
    if not scope.book or not shelf.book_ids:
        return []
    titles = [covers.get(pk) or shelf.books[pk].title for pk in shelf.book_ids]
    model = _multilingual().name
    try:
        near = _title_vectors(model, tuple(titles)) @ _title_vectors(model, (scope.book,))[0]
    except llm.LlmError:  # a served encoder that fails now: no book by its title's meaning
        return []
    order = np.argsort(-near)
    best = float(near[order[0]])
    second = float(near[order[1]]) if len(order) > 1 else 0.0
    return [shelf.book_ids[int(order[0])]] if best >= BOOK_NEAR and best - second >= BOOK_APART \
        else []


@lru_cache(maxsize=64)
def _title_vectors(model: str, titles: tuple[str, ...]) -> np.ndarray:
    """Return the titles' vectors by the multilingual encoder named model (a shelf's titles
    are read once)."""
    return _multilingual().encode(list(titles))


def _multilingual():
    return next(e for e in embeddings.encoders() if e.role == embeddings.MULTILINGUAL)


def _in_pages(shelf, book_id, chunks, printed) -> set[int]:
    """Return the sections whose pages meet the printed range, less those that hold the whole
    range and more (the deepest section spanning the range is not what was asked)."""
    low, high = narrowing.physical(shelf.books[book_id], printed)
    inside = {c.key for c in chunks if c.heading_id and c.page_start <= high and c.page_end >= low}
    wider = {c.key for c in chunks if c.key in inside and c.page_start <= low and
             c.page_end >= high and (c.page_start, c.page_end) != (low, high) and
             any(k in inside for k in c.children)}
    return inside - wider


def _unit_key(scope: Scope, chunks) -> tuple[int | None, float | None]:
    """Return the key of the unit scope names: by its number, or the unit whose title is
    nearest its topic (a reader's "chapter" may be the book's part, and the reverse), with
    how near it is (None for a number)."""
    if scope.number is not None:
        kind = "section" if scope.kind == SECTION else scope.kind
        return units.numbered(chunks, kind, scope.number), None
    if not scope.topic:
        return None, None
    asked = units.units(chunks, scope.kind)
    other = [k for k in units.units(chunks, PART if scope.kind == CHAPTER else CHAPTER)
             if k not in asked]
    candidates = [chunks[k] for k in asked + other]
    if not candidates:
        return None, None
    near = _nearness(scope.topic, [c.title for c in candidates])
    # The kind the reader named comes first unless a unit of the other kind is clearly nearer.
    near[len(asked):] -= OTHER_KIND
    best = int(np.argmax(near))
    return (candidates[best].key, float(near[best])) if near[best] >= NEAR_TITLE else (None, None)


def _nearness(topic: str, titles: list[str]) -> np.ndarray:
    """Return how near each title is to topic: the share of the topic's words it holds plus
    the multilingual encoder's cosine (「誤りがないか確かめる」 is 「エラーの検証」 in other
    words)."""
    words = set(analysis.question_terms(topic))
    shared = np.array([len(words & set(analysis.terms(title))) / max(1, len(words))
                       for title in titles])
    encoder = _multilingual()
    if encoder.symmetric:
        vectors = encoder.vectors_of([topic, *titles])
    else:
        asked, read = encoder.vectors_of([topic], query=True), encoder.vectors_of(titles)
        vectors = None if asked is None or read is None else np.vstack([asked, read])
    return shared if vectors is None else shared + vectors[1:] @ vectors[0]
