"""The units a reader names by their titles.

Asked to "clip the whole chapter about plotting styles", a reader names the part titled
"Plotting styles", however many sections of another chapter mention plotting styles
(gnuplot's "Set-show", 97 pages of them, held the most of the question's words). A part,
chapter or appendix whose title says what the request asks for, and nothing else, is the
unit asked for; the ranking's sum over a unit's sections only chooses among the rest
(``gather.ranges``).
"""

import re
import unicodedata
from functools import lru_cache

from retrieval.question import bilingual, query, units
from retrieval.text import analysis

HALF = 0.5
"""A title names the request where every word of it is asked and it holds at least this
share of what is asked: "Debugging" for "the chapter on debugging code", not "Notes" for
"the chapter about page notes, footnotes and side notes"."""
FRAME = frozenset(analysis.terms(
    "clip cut extract export download give send need want show find print copy please me "
    "whole entire complete full chapter chapters part parts appendix appendices section "
    "page pages pdf book manual guide covers explains describes discusses deals talks treats "
    "walks introduces"
) + analysis.terms("章を全部、全体を丸ごと、ページから何ページまでを切り抜いて切り出して抜き出して書き出して"
                   "ダウンロードしてください。欲しい。説明している、扱っている、紹介している、解説している、"
                   "書いてある、載っている、まとめている本の節、付録、部、編")) | {"丸ごと"}
"""Words of a request for a unit that most often say nothing of its topic ("clip the whole
chapter that covers", 「…を説明している章を全部切り抜いて」)."""
_LABEL = re.compile(
    r"^\s*(?:(?i:chapter|part|appendix)\s+)?(?:第\s*[0-9〇一二三四五六七八九十百IVXLC]+\s*[章部編]|"
    r"[0-9]+(?:\.[0-9]+)*\.?|[IVXLC]+\.?|[A-Z](?:\.[0-9]+)*\.?|付録\s*[A-ZＡ-Ｚ]?)(?=\s|$|[^\x00-\x7f])\s*")
"""A unit's number or label before its title ("13", "II", "Appendix D", 第3章, 付録A)."""


def topic(text: str) -> list[str]:
    """Return the terms of a request for a whole unit (the words that frame it among them:
    ``naming`` asks them of a title only where it holds them)."""
    return list(dict.fromkeys(analysis.terms(text)))


@lru_cache(maxsize=20_000)
def title_terms(title: str) -> frozenset[str]:
    """Return the terms of a unit's title, without its number or label."""
    bare = _LABEL.sub("", unicodedata.normalize("NFKC", title), count=1)
    return frozenset(t for t in analysis.terms(bare) if not t.isdigit())


def naming(asked: list[str], title: str, translated=frozenset(),
           book_words=frozenset()) -> float:
    """Return the share of asked (the request's topic terms) that title names, where every
    word of the title is asked, in the reader's words or in translated (the terms of their
    translation, for a title in the other language); 0 where the title holds another word
    or less than HALF of what is asked. The words that frame the request (FRAME) and
    book_words, those that name the book asked of ("the memoir chapter on …"), are asked
    only where the title holds them ("plot" names the Plotting Manual and its part on
    plotting styles; "page" frames "clip the pages of …" and names memoir's "Page notes")."""
    words = title_terms(title)
    asked = [t for t in asked if (t not in book_words and t not in FRAME) or t in words]
    if not words or not asked:
        return 0.0
    own = words & set(asked)
    if not words <= own | set(translated):
        return 0.0
    # A translated title holds a translation of a word asked for each of its other words.
    share = min(len(asked), len(own) + len(words - own)) / len(asked)
    return share if share >= HALF else 0.0


def units_named(reading, question, books_in, mass) -> list[tuple[int, int, str]]:
    """Return (book id, key, its kind) of the units whose titles name what a request for a
    whole unit asks for (``naming``), in the books the ranking found (books_in: (book id,
    key) pairs, best first): the most named first, then the one holding more of the words
    asked ("12 Page notes" before the back matter's "Notes", asked for the chapter about
    page notes), then those in the book the question names, the kind asked for and the
    most of the ranking's share. A title in the other language names it only by
    translations that are their words (``bilingual.CERTAIN``): the dictionary's glosses
    are many ("set" is one of 設定's, and octave's "27 Sets" is no chapter on settings)."""
    shelf, asked_kind = reading.shelf, reading.plan.unit
    asked, book_words = topic(reading.text), reading.book_words(reading.named)
    certain = {t for t, weight in question.translated.items() if weight >= bilingual.CERTAIN}
    found = []
    for book_id in dict.fromkeys(b for b, _ in books_in):
        chunks = shelf.index(book_id).chunks
        kinds = {}
        for kind in (asked_kind, *(k for k in (query.PART, query.CHAPTER, query.APPENDIX)
                                   if k != asked_kind)):
            for key in units.units(chunks, kind):
                kinds.setdefault(key, _kind_of(chunks[key], kind))
        for key, kind in kinds.items():
            share = naming(asked, chunks[key].title, certain, book_words)
            if share:  # of two titles naming all they hold, the one holding more
                held = len(title_terms(chunks[key].title) & set(asked))
                found.append((-share, -held, -reading.named.get(book_id, 0.0),
                              kind != asked_kind, -mass.get((book_id, key), 0.0),
                              book_id, key, kind))
    return [(book_id, key, kind) for *_, book_id, key, kind in sorted(found)]


def _kind_of(chunk, listed: str) -> str:
    """Return the kind of unit chunk is: a part or an appendix by its title, else the kind
    it was listed as."""
    if units.is_part(chunk):
        return query.PART
    return query.APPENDIX if units.is_appendix(chunk) else listed
