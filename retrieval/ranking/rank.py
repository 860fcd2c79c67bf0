"""Ranking sections for a question: words and meaning, fused by how sure each one is.

Three signals score a section:

- **words**: BM25 over the shelf's word index (``retrieval.index.lexical``): the
  question's analysed terms in the section's title, path and text;
- **meaning**: the best cosine between the question and one of the section's
  passages, from the multilingual encoder (any language to any language) and,
  for an English question, from the English one (``retrieval.index.embeddings``).

Candidates are the best of each signal over the whole shelf (never a scan of
every book). Each signal's scores over the candidates become a probability
by a softmax with a fixed temperature, so a signal that singles out one
section speaks loudly and one that finds everything alike hardly at all; the
mixture is the section's probability of holding the answer (the section both
encoders put first counts AGREED times as much). The books a
question names (``retrieval.question.naming``) multiply their sections' share, and
sections that are not the book's subject (bibliographies, licences, change
logs) are discounted. The title words of the named books are left out of
the words signal: they choose the book, and within it every section would
match them.
"""

import re
from dataclasses import dataclass, field

import numpy as np

from retrieval.index import embeddings
from retrieval.question import naming
from retrieval.question.analysed import Question
from retrieval.ranking.shelf import POOL_BOOKS

LEXICAL_POOL = 300
VECTOR_POOL = 300
# Candidates come from at most POOL_BOOKS books (those with the best candidates first): a
# question reads that many books' files, whatever the shelf's size.
TEMPERATURE = {"words": 0.15, "meaning": 0.06}
WEIGHTS = {  # (words, multilingual, English) for an English question; Japanese has no English
    True: (0.4, 0.3, 0.3),
    False: (0.4, 0.6, 0.0),
}
WORDS_FULL = 0.45
"""The words signal is read against what the question's own terms could score (each in a
section's heading and text, ``Shelf.potential``) at this share, as well as against the
best section: a section holding a small part of the question is weak evidence however it
stands among the others. Read against the best alone, asked 「gnuplot で線の太さを変える
には？」, gnuplot's "Changes" (変える, "change", in a heading) took the whole signal. On
the natural questions the best section holds 0.24–1.03 of it; at 0.3–0.45 lookup hit@1
is 31/40 instead of 30, at 0.6 29/40."""
NAMED = 3.0
"""A named book's sections count e^(NAMED × strength) times as much…"""
NAMED_OUTRIGHT = 5.0
"""…and e^NAMED_OUTRIGHT where the question names it outright ("in the Octave manual",
「LuaTeX-ja で」): the reader asked for that book. At e^3, asked 「LuaTeX-ja で縦書きに
するには？」, beamer's "Mode Specifications" and gnuplot's "Timestamp" (vertical, written)
stood before the LuaTeX-ja manual's chapter on vertical typesetting, which never writes
縦書き. The natural and known-item figures are the same at e^3 and e^5."""
BACK_MATTER = 0.3
AGREED = 2.0
"""An English question is read by two encoders; the section both put first counts this
much more. They agree on the first place in a third of the natural English lookups and
were right each time, while the words can single out a section for one shared heading
word ("caption" in "Captions", asked for a caption beside the picture: "Side captions").
Only for a question of AGREED_FROM terms or more: encoders read sentences, and given two
keywords ("triangular sail") both lean to the heading that holds one of them."""
AGREED_FROM = 4
PARENT = 0.7
"""A section with subsections answers with its opening only: the deepest section that
holds the answer is the place to read, so a parent's own text counts this much."""
QUOTED = 3.0
QUOTED_FROM = 0.75
"""A question most of whose neighbouring term pairs stand side by side in a section
(QUOTED_FROM of them or more: it quotes that section) weighs the section e^(QUOTED ×
share) times as much. Readers paste a sentence they remember. At 0.6 a short question in
its own words met it by chance (3 of 5 pairs: "file on my Debian system"); pasted
sentences hold nearly all their pairs, and none of the known-item questions is lost."""
UNNAMED = 0.2
"""The words of a Japanese question written in Latin script name things (programs, files,
formats: lintian, quilt, GPG), and every book about them writes them so. A section that
shares no word with the question, in a book where none of those names occurs, was found
by the multilingual encoder on the rest of the question alone (「lintian の警告」 read as
Octave's "Warnings"): it counts this much, wherever some book of the shelf holds a name,
and the words it matched only in translation (``retrieval.question.bilingual``) count for nothing."""
BEGINNER = 2.0
"""For a reader starting out, sections in an introduction or tutorial count this much more."""
_INTRODUCTORY = re.compile(
    r"(?i)\b(?:introduction|getting\s+started|first\s+steps?|tutorial|basics|overview|"
    r"quick\s*start|primer)\b|はじめ|入門|チュートリアル|基本|概要|まずは"
)
_NAME = re.compile(r"[a-z][a-z0-9]*(?:[-_.+:/][a-z0-9]+)*")


@dataclass
class Scored:
    book_id: int
    key: int
    score: float
    words: float = 0.0
    meaning: dict = field(default_factory=dict)


def rank(question: Question, shelf, *, limit: int = 10, **narrowing) -> list[Scored]:
    """Return the best sections for question, best first (see pool)."""
    return pool(question, shelf, **narrowing)[:limit]


def pool(question: Question, shelf, *, book_ids=None, allowed=None, exclude=()) -> list[Scored]:
    """Return every candidate section with its score, best first; the scores sum to 1.

    shelf: the books searched (``retrieval.ranking.shelf.Shelf``); book_ids: only these
    of them; allowed: book id → the section keys that may be returned (a book
    absent from it is not searched); exclude: (book id, key) pairs.
    """
    book_ids = shelf.book_ids if book_ids is None else [b for b in shelf.book_ids if b in book_ids]
    if allowed is not None:
        book_ids = [b for b in book_ids if b in allowed]
    if not book_ids:
        return []
    question.within = _within(question, shelf, allowed) if allowed is not None else {}
    found = _candidates(question, shelf, book_ids)
    keep = set(exclude)
    pairs = [pair for pair in found if pair not in keep
             and (allowed is None or pair[1] in allowed[pair[0]])]
    if allowed is not None:  # a narrow range: every section in it is a candidate
        pairs = list(dict.fromkeys(pairs + [(b, k) for b in book_ids for k in allowed[b]
                                            if (b, k) not in keep]))
    return _fused(question, shelf, pairs, found)


def _candidates(question, shelf, book_ids) -> dict:
    """Return (book id, key) → BM25 for the candidates of every signal (0: not by words)."""
    found = {}
    free = {t: w for t, w in question.translated.items() if t not in question.bound}
    for term, weight in question.suggested.items():
        free[term] = max(free.get(term, 0.0), weight)
    free.update(question.within)
    terms = [t for t in question.terms if t not in question.within]
    groups = [{t: question.translated[t] for t in group} for group in question.together]
    for hit in shelf.words(terms, book_ids, LEXICAL_POOL, free, groups):
        found[(hit.book_id, hit.key)] = hit.score
    question.quoted = {(hit.book_id, hit.key): hit.score
                       for hit in shelf.quoted(question.terms, book_ids, LEXICAL_POOL)
                       if hit.score >= QUOTED_FROM}
    for pair in question.quoted:
        found.setdefault(pair, 0.0)
    nearest = [shelf.nearest(role, vector, VECTOR_POOL, book_ids)
               for role, vector in question.vectors.items()]
    for pairs in nearest:
        for pair in pairs:
            found.setdefault(pair, 0.0)
    books = _best_books([sorted(found, key=found.get, reverse=True), *nearest])
    return {pair: score for pair, score in found.items() if pair[0] in books}


def _best_books(rankings) -> set[int]:
    """Return the POOL_BOOKS books met first going down the rankings side by side."""
    books, depth = {}, 0
    while len(books) < POOL_BOOKS and any(depth < len(r) for r in rankings):
        for ranking in rankings:
            if depth < len(ranking):
                books.setdefault(ranking[depth][0], None)
        depth += 1
    return set(list(books)[:POOL_BOOKS])


def _fused(question, shelf, pairs, words) -> list[Scored]:
    if not pairs:
        return []
    unnamed = _unnamed(question, shelf, pairs, words)
    # Where the names rule a book out, its translated words found it on the rest alone too.
    lexical_scores = np.array([words.get(pair, 0.0) if off == 1.0 else 0.0
                               for pair, off in zip(pairs, unnamed)])
    meaning = {role: shelf.cosines(role, vector, pairs) for role, vector in question.vectors.items()}
    w_words, w_multi, w_english = WEIGHTS[question.english]
    full = max(lexical_scores.max(), WORDS_FULL * _potential(question, shelf)) or 1
    mixture = w_words * _softmax(lexical_scores / full, TEMPERATURE["words"],
                                 active=lexical_scores.max() > 0)
    multi = meaning.get(embeddings.MULTILINGUAL)
    english = meaning.get(embeddings.ENGLISH)
    if multi is not None:
        mixture = mixture + w_multi * _softmax(multi, TEMPERATURE["meaning"])
    if english is not None and w_english:
        mixture = mixture + w_english * _english_share(english, multi)
    elif multi is not None and w_english:
        mixture = mixture + w_english * _softmax(multi, TEMPERATURE["meaning"])
    prior = np.array([_prior(question, shelf, pair) for pair in pairs])
    if multi is not None and english is not None and len(question.terms) >= AGREED_FROM:
        first = int(np.argmax(english))
        if first == int(np.argmax(multi)):
            prior[first] *= AGREED
    scores = mixture * prior * unnamed
    scores = scores / (scores.sum() or 1)
    order = np.argsort(-scores, kind="stable")
    return [Scored(pairs[i][0], pairs[i][1], float(scores[i]), float(lexical_scores[i]),
                   {role: float(values[i]) for role, values in meaning.items()})
            for i in order]


def _within(question, shelf, allowed) -> dict[str, float]:
    """Return the question's terms → how well each tells apart the sections of the range
    searched (allowed: book id → keys): its inverse document frequency among them, against
    a term only one of them holds. Inside the chapter on page notes, "note" is in every
    section and says nothing of which one; the shelf-wide weights would let it choose. A
    translated term counts so too, at its own weight: inside the chapter on a developer's
    duties, 手続き is in most sections, and its translation "process" only in the one on
    leaving the project (its English lines: "the retirement process")."""
    inside = sum(len(keys) for keys in allowed.values())
    if inside < 2:
        return {}
    weights = {}
    searched = dict.fromkeys(question.terms, 1.0)
    searched.update({term: weight for term, weight in question.translated.items()
                     if term not in question.bound and term not in searched})
    for term, weight in searched.items():
        held = sum(1 for hit in shelf.words([term], list(allowed), LEXICAL_POOL * 10)
                   if hit.key in allowed[hit.book_id])
        if held:
            weights[term] = weight * _idf(held, inside) / _idf(1, inside)
    return weights


def _idf(held: int, sections: int) -> float:
    return float(np.log(1 + (sections - held + 0.5) / (held + 0.5)))


def _potential(question, shelf) -> float:
    """Return what a section holding each of the question's terms scores by words
    (``Shelf.potential``), each term weighted as it is searched."""
    if not question.within:
        return shelf.potential(question.terms)
    return sum(question.within.get(term, 1.0) * shelf.potential([term])
               for term in dict.fromkeys(question.terms))


def _prior(question, shelf, pair) -> float:
    chunk = shelf.chunk(*pair)
    named = question.named.get(pair[0], 0.0)
    weight = np.exp((NAMED_OUTRIGHT if named >= naming.EXPLICIT else NAMED * named)
                    + QUOTED * question.quoted.get(pair, 0.0))
    if question.beginner and any(_INTRODUCTORY.search(title) for title in chunk.breadcrumb):
        weight *= BEGINNER
    weight *= PARENT if chunk.children else 1.0
    return weight * (BACK_MATTER if chunk.back_matter else 1.0)


def _unnamed(question, shelf, pairs, words) -> np.ndarray:
    """Return UNNAMED for each section that shares none of its own words with a Japanese
    question (a translation does not count), in a book holding none of the names the
    question writes in Latin script, else 1 (see UNNAMED). words: (book id, key) → BM25."""
    names = [] if question.english else [t for t in question.terms if _NAME.fullmatch(t)]
    book_ids = {book_id for book_id, _ in pairs}
    holding = shelf.books_holding(names, book_ids) if names else set()
    if not holding:
        return np.ones(len(pairs))
    if question.translated or question.suggested:  # the scores mix in others: own words alone
        own = {(hit.book_id, hit.key)
               for hit in shelf.words(question.terms, list(book_ids), LEXICAL_POOL)}
    else:
        own = {pair for pair in pairs if words.get(pair)}
    return np.array([UNNAMED if pair not in own and pair[0] not in holding else 1.0
                     for pair in pairs])


def _english_share(english, multi) -> np.ndarray:
    """Return the English encoder's share of each section; a section it cannot read (too
    few passages without Japanese, ``index.book.BookIndex.read``: cosine 0) takes the
    multilingual encoder's share instead."""
    unread = english == 0
    if multi is None or not unread.any():
        return _softmax(english, TEMPERATURE["meaning"])
    share = _softmax(multi, TEMPERATURE["meaning"]) * unread
    share[~unread] = (1.0 - share.sum()) * _softmax(english[~unread], TEMPERATURE["meaning"])
    return share


def _softmax(values: np.ndarray, temperature: float, active: bool = True) -> np.ndarray:
    if not active or not len(values):
        return np.zeros(len(values))
    shifted = np.exp((values - values.max()) / temperature)
    return shifted / shifted.sum()

