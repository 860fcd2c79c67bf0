"""The reference interview: one short question when the best places are close.

A librarian who finds two or three places that answer about equally well to
the words given does not guess: they ask which one is meant, naming each by
what tells it apart. ``clarification`` decides from what the ranking already
knows (how close the scores are, whether the places are apart in the book)
and never asks where the question names its place (a book, a scope, a
quoted sentence) or narrows a previous answer. The cards still follow it.
"""

from retrieval import kinds
from retrieval.answer import guide
from retrieval.question import analysis, naming
from retrieval.ranking import indexed
from retrieval.results import Clarification, Option

CLOSE = 0.8
"""The second place's score is at least this share of the first's: too close to guess."""
MAX_OPTIONS = 3
QUESTION = {
    "en": {2: "Two places answer this about equally well. Which one do you mean?",
           3: "A few places answer this about equally well. Which one do you mean?"},
    "ja": {2: "同じくらい当てはまる箇所が2つあります。どちらのことですか？",
           3: "同じくらい当てはまる箇所がいくつかあります。どれのことですか？"},
}
EVERYDAY = 5.0
"""An English word this common (wordfreq's Zipf: "make" 6.1, "line" 5.5, "inspect" 3.7) tells
no place apart where another word of the question does."""
INDEXED = {"en": "the book's index: “{entry}”", "ja": "索引の「{entry}」"}
NONE_OF_THESE = {"en": "None of these", "ja": "どれでもない"}


def clarification(answer, reading, gathered, follow_up: bool) -> Clarification | None:
    """Return the one question to ask about answer, or None where the evidence is clear."""
    if not kinds.of(answer.type).one_place or follow_up or reading.scope is not None or answer.weak:
        return None
    named = any(weight >= naming.EXPLICIT for weight in reading.named.values())
    if named or (gathered.asked is not None and gathered.asked.quoted):
        return None  # the question names a book, or quotes a sentence of one
    options = _close_places(answer.results, reading.shelf)
    if len(options) < 2:
        return None
    ja = answer.language == "ja"
    books_differ = len({r.book_id for r in options}) > 1
    return Clarification(
        QUESTION[answer.language][min(len(options), 3)],
        tuple(Option(r, label(r, ja, books_differ), _why(r, options, ja)) for r in options))


def _close_places(results, shelf) -> list:
    """Return the first results by score, while each scores CLOSE to the first and none is a
    section of another (a section and its own subsection are one place to a reader); the
    place the book's own index offers among the first cards (``ranking.indexed``) is one of
    them where there is room."""
    if not results or results[0].score <= 0:
        return []
    chosen = [results[0]]
    for result in sorted(results[1:], key=lambda r: -r.score):
        if len(chosen) == MAX_OPTIONS or result.score < CLOSE * results[0].score:
            break
        if not any(_nested(result, other) for other in chosen):
            chosen.append(result)
    offered = next((r for r in results[1:indexed.OFFERED] if r.indexed), None)
    if 2 <= len(chosen) < MAX_OPTIONS and offered is not None and not results[0].indexed \
            and not any(_nested(offered, other) for other in chosen):
        chosen.append(offered)
    return chosen


def _nested(a, b) -> bool:
    """Return True if a and b are the same place or one holds the other."""
    if a.book_id != b.book_id:
        return False
    crumbs = a.breadcrumb, b.breadcrumb
    shorter, longer = sorted(crumbs, key=len)
    return list(longer[:len(shorter)]) == list(shorter) and (
        a.page_start <= b.page_end and b.page_start <= a.page_end)


def label(result, ja: bool, with_book: bool) -> str:
    """Return how a reader tells the place apart: its last two headings and printed pages,
    and its book where the options are in several."""
    crumb = " › ".join(result.breadcrumb[-2:])
    pages = guide.pages(result, ja)
    if not with_book:
        return f"{crumb}（{pages}）" if ja else f"{crumb}, {pages}"
    return f"『{result.book_title}』{crumb}（{pages}）" if ja else \
        f"{result.book_title}: {crumb}, {pages}"


def _why(result, options, ja: bool) -> str:
    """Return the words of the question this place holds that the others do not, each once
    and without everyday English words ("make", "line"): what made it a candidate ("" where
    the options share all their words: its headings tell it apart); for the place the
    book's own index gives, its entry."""
    if result.indexed and result is not options[0]:
        return INDEXED["ja" if ja else "en"].format(entry=result.indexed)
    others = {_stem(t) for o in options if o is not result for t in o.terms}
    telling = [t for t in result.terms
               if _stem(t) not in others and not analysis.common_word(t, EVERYDAY)]
    shown = list({_stem(t): t for t in telling[::-1]}.values())[::-1]  # each word once
    return ("、" if ja else ", ").join(shown[:4])


def _stem(word: str) -> str:
    found = analysis.terms(analysis.fold(word))
    return found[0] if found else analysis.fold(word)
