"""The sentence of a section that answers a question, where it stands, and the words to mark.

The passage of the section nearest the question in meaning (its vectors are
already scored) is where the answer most likely is; within it, and among the
section's sentences that hold the question's rarest words, the sentence with
the most of them is quoted. The quote is the page's own text, never
rewritten, and its physical page comes with it.
"""

import math
import re
from dataclasses import dataclass

import numpy as np

from books.text import CJK, is_japanese
from retrieval.index import embeddings, lexical, shown
from retrieval.index.chunks import embedded
from retrieval.text import analysis, sentences

QUOTE_CHARS = 260
CLOSE_READ = 3
"""Read closely, the sentences that hold most of the question are this many. On the 30
natural lookups whose first place was right, the encoder's pick among them was the sentence
that answers in 11 (the words’ own pick: 9); it adds about 50 ms to the first card on two
cores (p50 82 → 132 ms, p95 113 → 278 ms). English questions on English text only (see
``_nearest_sentence``)."""
LIKELY = 60  # sentences read closely at most
PROSE = 0.8
"""A sentence's score is scaled by (1 − PROSE) + PROSE × its share of prose (``_prose``): a
quote is a sentence a reader reads, and a code listing or a log run into one ("figure (1);
clf (); surf (peaks); print figure1.pdf", "2432 strings out of 60985") holds the question's
words without saying anything about them. On the 31 natural lookups whose first place was
right, the sentence that answers was quoted in 11 instead of 10 at 0.65, 0.8 and 1; two
more quotes became prose, and one command the book writes as a sentence of its own
("To identify the package …: dpkg --search foo") lost to the prose beside it."""
EXCERPT_CHARS = 300


_CJK = re.compile(f"[{CJK}]")
_BLANKS = re.compile(r" {2,}")


@dataclass(frozen=True)
class Quote:
    text: str
    page: int
    start: int
    """Where the quote starts in the section's text."""


def quote(chunk, index, question, closely: bool = False) -> Quote | None:
    """Return the sentence of chunk that best answers question, or None for an empty one.

    closely: the English encoder reads the CLOSE_READ sentences that hold most of an
    English question and picks the one nearest it in meaning (a sentence encoding per
    candidate: kept for the first place, which the guide quotes)."""
    repeated = getattr(index, "boilerplate", frozenset())
    text = shown.text(chunk, getattr(index, "furniture", {}))
    pieces = [(start, s) for start, s in sentences.split(text, shown.heading_end(chunk))
              if sentences.sentence_key(s) not in repeated]
    if not pieces:
        return None
    pieces = [(start, s) for start, s in pieces if not sentences.slight(s)] or pieces
    near = _nearest_passage(chunk, index, question)
    weights = _weights(question)
    scored = []
    for start, sentence in _likely(pieces, near, weights):
        found = set(analysis.terms(sentence)) & weights.keys()
        score = sum(weights[t] for t in found)
        if near and near[0] <= start < near[1]:
            score += 0.5 * (max(weights.values(), default=1.0) or 1.0)
        scored.append((score * ((1 - PROSE) + PROSE * _prose(sentence)), (start, sentence)))
    ranked = [pair for _, pair in sorted(scored, key=lambda item: -item[0])]  # stable: first wins
    start, sentence = (closely and _nearest_sentence(ranked[:CLOSE_READ], question)) or ranked[0]
    return Quote(_shortened(sentence), chunk.page_at(start), start)


def _nearest_sentence(candidates, question):
    """Return the (start, sentence) of candidates nearest an English question for the English
    encoder, or None. Only there: the multilingual encoder reads short sentences too coarsely
    (asked 「もやい結びはどこに書いてありますか？」 it chose "本結び(reef knot) は二本のロープを
    つなぐ。"), and across languages the translated words choose better (「目次を表示するには？」
    read nearest "An outline helps the audience follow the talk", not "The tableofcontents
    command puts a table of contents…")."""
    vector = question.vectors.get(embeddings.ENGLISH)
    english = next((e for e in embeddings.encoders() if e.role == embeddings.ENGLISH), None)
    if len(candidates) < 2 or vector is None or english is None or _CJK.search(question.text):
        return None
    texts = [sentence[:QUOTE_CHARS] for _, sentence in candidates]  # what a quote shows
    if not all(english.applies(text) for text in texts):
        return None
    return candidates[int(np.argmax(english.encode(texts) @ vector))]


def held(found: Quote, question) -> float:
    """Return how much of the question a quote holds: the weights of its terms found in it."""
    weights = _weights(question)
    return sum(weights[t] for t in set(analysis.terms(found.text)) & weights.keys())


def excerpt(chunk, found: Quote | None, width: int = EXCERPT_CHARS, furniture=None) -> str:
    """Return about width characters of chunk's text around the quote (furniture: its pages'
    running heads, left out, ``chunks.shown_text``)."""
    text = shown.text(chunk, furniture)
    if len(text) <= width:
        return _tidy(text)
    start = max(0, (found.start if found else 0) - width // 6)
    if start:
        space = text.rfind(" ", 0, start)
        start = space + 1 if space > start - 40 else start
    end = min(len(text), start + width)
    return ("…" if start else "") + _tidy(text[start:end]) + ("…" if end < len(text) else "")


def marks(text: str, terms, asked=()) -> list[str]:
    """Return the words of text to highlight, those of terms (the words to mark, the asked
    term first) first: a word whose term is one, never a part of a longer word (the "plot"
    of "multiplot", the 語 of 言語), but a word written from two words of the question
    (asked: all its terms) whole ("linewidth", asked for the line width)."""
    order = {term: n for n, term in enumerate(dict.fromkeys(terms))}
    for term in asked:
        order.setdefault(term, len(order))
    tokens = analysis.tokens(text)
    found = []
    for token in tokens:
        parts = [t for t in tokens if t is not token and token.start <= t.start
                 and t.end <= token.end]
        if _inside(token, tokens):
            continue
        if token.term in order and (not asked or token.term in terms):
            found.append((order[token.term], token))
        elif parts and not is_japanese(token.term) and all(p.term in order for p in parts):
            found.append((min(order[p.term] for p in parts), token))
    words = [text[t.start:t.end] for _, t in sorted(found, key=lambda pair: pair[0])]
    return list(dict.fromkeys(word for word in words if word.strip()))


def _inside(token, tokens) -> bool:
    """Return True if token is a part of another, longer one."""
    return any(other.start <= token.start and token.end <= other.end
               and (other.start, other.end) != (token.start, token.end) for other in tokens)


def _likely(sentences, near, weights):
    """Return the sentences worth reading closely: around the nearest passage, and those that
    hold a question term's first letters (a cheap test; the analysis decides)."""
    stems = [term[:4].casefold() for term in weights if len(term) >= 2]
    out = []
    for start, sentence in sentences:
        around = near and near[0] - 400 <= start <= near[1] + 200
        folded = sentence.casefold()
        if around or any(stem in folded for stem in stems):
            out.append((start, sentence))
    return out[:LIKELY] or sentences[:LIKELY]


def _prose(sentence: str) -> float:
    """Return the share of a sentence that is prose: in Japanese, of its characters that are
    Japanese (half of them or more count fully: a sentence names commands in Latin script);
    else of its words that are common English words, as written ("plots", "the", not
    "surf", "(peaks);" or "\\documentclass[…]")."""
    if _CJK.search(sentence):
        letters = [char for char in sentence if not char.isspace()]
        return min(1.0, 2 * len(_CJK.findall(sentence)) / max(1, len(letters)))
    words = sentence.split()
    plain = [w.rstrip(",.;:!?’”\"')") for w in words]
    return sum(1 for w in plain if w.isalpha() and analysis.common_word(w)) / max(1, len(words))


def _weights(question) -> dict[str, float]:
    """Return term → how much a sentence holding it answers: its rarity on the shelf, times
    its weight in translation for the words of the question in the other language (a
    Japanese question quotes an English section by the English for its words)."""
    words = lexical.get()
    total = max(1, words.size())
    weighted = {**question.translated, **dict.fromkeys(question.terms, 1.0)}
    return {t: w * math.log(1 + total / (1 + words.doc_freq(t))) for t, w in weighted.items()}


def _nearest_passage(chunk, index, question) -> tuple[int, int] | None:
    """Return the span of chunk's text covered by its passage nearest the question."""
    for role in (embeddings.ENGLISH, embeddings.MULTILINGUAL):
        vector, stored = question.vectors.get(role), index.rows.get(role)
        if vector is None or stored is None:
            continue
        rows, keys = stored
        mine = np.flatnonzero(np.asarray(keys) == chunk.key)
        if not len(mine) or rows.shape[1] != vector.shape[0]:
            continue
        encoder = next(e for e in embeddings.encoders() if e.role == role)
        # The rows are those of the passages the encoder reads, in order.
        texts = [piece for text, piece in embedded(chunk) if encoder.applies(text)]
        cosines = np.asarray(rows[mine], dtype=np.float32) @ vector
        order = [i for i in np.argsort(-cosines) if i < len(texts) and texts[i] is not None]
        if order:
            found = chunk.text.find(texts[order[0]][:60])
            if found >= 0:
                return found, found + len(texts[order[0]])
    return None


def _tidy(text: str) -> str:
    """Return text without the blanks a running head left (``chunks.shown_text``): none
    between two Japanese characters, else one space."""
    def blank(match) -> str:
        before, after = text[match.start() - 1:match.start()], text[match.end():match.end() + 1]
        return "" if _CJK.match(before) and _CJK.match(after) else " "

    return _BLANKS.sub(blank, text).strip()


def _shortened(sentence: str) -> str:
    """Return sentence, or its first QUOTE_CHARS cut at a word and before a bracket the cut
    would leave open ("… see the variables …", not "… see the variables (p. …")."""
    sentence = _tidy(sentence)
    if len(sentence) <= QUOTE_CHARS:
        return sentence
    cut = sentence.rfind(" ", 0, QUOTE_CHARS)
    kept = sentence[:cut if cut > QUOTE_CHARS // 2 else QUOTE_CHARS]
    if sentences.runs_on(kept):
        opened = max(kept.rfind(opening) for opening in "([（")
        kept = kept[:opened] if opened > QUOTE_CHARS // 2 else kept
    return kept.rstrip(" ,;:、") + "…"
