"""Which books a question names, by their titles (pure functions, and ``titles``: a shelf's
names, kept while the shelf is the same).

A book is named when the question holds a word of its title (or of its file
name) that tells it from the other books on the shelf: "memoir" names *The
memoir class*, "FAQ" names *The Debian GNU/Linux FAQ*, 「新メンテナーガイド」 names
*Debian 新メンテナーガイド*. Generic words ("the", "manual", "book", 本) never
name a book, and a word in many titles ("Debian" on a Debian shelf) names
each of them only weakly. An explicit reference ("in the Octave manual",
『LaTeX 2ε への道』, and a name the question works in: "in beamer", 「memoir で」) counts
fully; a title word met in passing ("How do I make my
beamer slides…") counts as a hint, since the book about a subject is where a
reader would look first, yet another book may answer better.
"""

import math
import threading
from collections import OrderedDict
from functools import lru_cache
from pathlib import PurePath

from books.text import is_kanji
from retrieval.text import analysis

GENERIC = frozenset(analysis.terms(
    "the a an of for and to in on with class manual manuals guide guides book books user users "
    "handbook documentation introduction edition volume version reference references pdf "
    "本 マニュアル ガイド 入門 手引き 書"
))
EXPLICIT, HINT = 1.0, 0.5
OWN_SHARE = 0.5
"""A title-page word names its book when at least this share of the sections using it
are the book's own."""
COMMON_SHARE = 0.03
"""A title word found in more than this share of the shelf's sections is a word of the
subject, not a name ("Numbers" in a title, "Debian" on a Debian shelf): it names its book
only where it is the book's own, as a title-page word does. A name ("beamer", "memoir",
"FAQ", a file name nobody writes in a book) names it wherever it is met."""


def name_terms(title: str, filename: str = "", cover: str = "", own=None,
               common=None) -> set[str]:
    """Return the terms of a book's title, file name and title page that could name it.

    own(term) tells whether a word is the book's own (mostly found in it:
    ``OWN_SHARE``); common(term) whether it is a common word of the shelf
    (``COMMON_SHARE``). A title page carries slogans and subtitles ("Free Your
    Numbers"), and a title may hold a word of its subject: in any question about
    numbers they would name the book and leave the question without its topic.
    """
    stem = PurePath(filename).stem.replace("_", " ").replace("-", " ") if filename else ""
    found = {t for t in _naming_terms(f"{title} {stem}")
             if common is None or own is None or not common(t) or own(t)}
    extra = _naming_terms(cover) - found
    return found | {t for t in extra if own is None or own(t)}


@lru_cache(maxsize=100_000)
def plain_names(title: str, filename: str = "", cover: str = "") -> tuple[frozenset, frozenset]:
    """Return the terms that name a book where a question holds none of them (those of its
    title and file name: a title-page word names its book only where the question holds
    it, ``name_terms``) and every term that could name it (cached: a shelf's titles
    repeat in every question, and a shelf may hold 10,000)."""
    stem = PurePath(filename).stem.replace("_", " ").replace("-", " ") if filename else ""
    plain = _naming_terms(f"{title} {stem}")
    return plain, plain | _naming_terms(cover)


class Titles:
    """A shelf's books' names, made once for as long as the shelf is the same: each book's
    plain names (``plain_names``), and which books every word could name.

    A question looks up only the books its words could name (``name_terms``); every other
    book is named by its plain names. Going through 10,000 books' names for each question
    took 30 ms of it."""

    def __init__(self, described, covers: dict[int, str]):
        self.described = {pk: (title, filename or "", covers.get(pk, ""))
                          for pk, title, filename in described}
        self.plain, self.naming = {}, {}
        for pk, (title, filename, cover) in self.described.items():
            plain, every = plain_names(title, filename, cover)
            self.plain[pk] = plain
            for term in every:
                self.naming.setdefault(term, []).append(pk)

    def named_by(self, terms) -> set[int]:
        """Return the books whose names hold any of terms."""
        return {pk for term in terms for pk in self.naming.get(term, ())}


_titles: "OrderedDict[tuple, tuple[dict, Titles]]" = OrderedDict()
_titles_lock = threading.Lock()
TITLES_KEPT = 8
"""Shelves whose ``Titles`` are kept: a shelf is what one user may search, and users differ."""


def titles(described: list[tuple[int, str, str]], covers: dict[int, str]) -> Titles:
    """Return the ``Titles`` of the books described ((id, title, file name) each) with their
    title pages' covers, made anew only where a book, its title or a cover changed."""
    key = tuple(described)
    with _titles_lock:
        kept = _titles.get(key)
        if kept is not None and kept[0] is covers:
            _titles.move_to_end(key)
            return kept[1]
    made = Titles(described, covers)
    with _titles_lock:
        _titles[key] = (covers, made)
        while len(_titles) > TITLES_KEPT:
            _titles.popitem(last=False)
    return made


@lru_cache(maxsize=100_000)
def _naming_terms(text: str) -> frozenset[str]:
    """Return the terms of text that could name a book (cached: a shelf's titles repeat in
    every question)."""
    return frozenset(t for t in analysis.terms(text) if _naming(t))


def _naming(term: str) -> bool:
    """Return True for a term that could name a book: not generic, more than one letter
    (a kanji is a word of its own)."""
    return term not in GENERIC and (len(term) > 1 or is_kanji(term))


def named(question: str, refs: list[str], books: dict[int, set[str]]) -> dict[int, float]:
    """Return book id → how strongly the question names it (0–1), for the books named.

    books: id → name terms (``name_terms``); refs: the question's explicit
    references as written (``query.book_refs``).
    """
    asked = set(analysis.terms(question))
    # Only the question's words are counted across the titles: on 10,000 books counting
    # every title word for every question took 30 ms of it.
    held = {pk: terms & asked for pk, terms in books.items()}
    spread = {}
    for shared in held.values():
        for term in shared:
            spread[term] = spread.get(term, 0) + 1
    out = {}
    for pk, shared in held.items():
        if not shared:
            continue
        terms = books[pk]
        rarity = max(_rarity(spread[t], len(books)) for t in shared)
        explicit = any(set(analysis.terms(ref)) & terms for ref in refs)
        out[pk] = round((EXPLICIT if explicit else HINT) * rarity, 3)
    return {pk: weight for pk, weight in out.items() if weight > 0}


def references(refs: list[str], mentions: list[str], books: dict[int, set[str]]) -> list[str]:
    """Return the explicit references: refs, and the names a question works in ("in beamer",
    「memoir で」: ``query.mentions``) that are a book's name terms ("in a figure" is not)."""
    naming = set().union(*books.values()) if books else set()
    return refs + [name for name in mentions
                   if name not in refs and set(analysis.terms(name)) & naming]


def _rarity(count: int, total: int) -> float:
    """Return 1 for a word in one title, less for one in many (0 when in every title
    of a shelf of several books)."""
    if total <= 1:
        return 1.0
    return max(0.0, math.log(total / count) / math.log(total)) if count > 1 else 1.0


def book_words(named_ids, books: dict[int, set[str]]) -> set[str]:
    """Return the title terms of the named books: they pick the book, not the section."""
    return set().union(*(books[pk] for pk in named_ids)) if named_ids else set()
