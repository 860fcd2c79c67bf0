"""The book's own index as the questions read it: the sections its entries send a reader to.

A back-of-book entry is a person's answer to "where is this treated?"
(``books.bookindex``): the gnuplot index sends "linewidth" to the two pages a
reader asking how to change the line width of a plot wants. When a book's
index is built (``writer.build``), each entry is stored with what a question
must hold to name it (its words as ``analysis`` reads them; a sub-entry's
parents' words too) and the sections its pages fall in. Asked a question,
``named`` returns the entries it names. An entry that sends a reader to
more than MAX_PLACES sections is a concordance of the word, not an answer to
where it is treated, and is not stored. An entry with no pages that refers the
reader on ("Hurenkinder, see widow") is stored with the sections of the entry it
names: the book's author foresaw the reader's word for it.
"""

import json
from dataclasses import dataclass

from books import bookindex
from toc.ends import section_holding
from retrieval.text import analysis

MAX_PLACES = 3


@dataclass(frozen=True)
class Entry:
    """An index entry as questions meet it."""

    label: str
    """As printed, with its parents: "margin > left"."""
    needs: tuple
    """For each word of the entry, the ways a question may hold it: the word itself, or the
    words it is written from ("linewidth": line and width)."""
    keys: tuple[int, ...]
    """The sections its pages fall in, in the order the index gives them."""
    share: float
    """The share of the book's sections whose words hold the entry's: an entry whose words
    are everywhere in the book (memoir's "page") is no sign of where a question points."""

    def named_by(self, terms: set) -> bool:
        """Return True if a question of terms holds every word of the entry."""
        return _holds(self.needs, terms)

    def as_list(self) -> list:
        return [self.label, [[list(way) for way in ways] for ways in self.needs],
                list(self.keys), round(self.share, 4)]

    @classmethod
    def from_list(cls, stored: list) -> "Entry":
        label, needs, keys, share = stored
        return cls(label, tuple(tuple(tuple(way) for way in ways) for ways in needs), tuple(keys),
                   share)


def needs(text: str) -> tuple:
    """Return what a question must hold to name text: for each word (the outermost of the
    terms ``analysis.tokens`` reads at a place), its term, or the words read inside it where
    they spell all of it ("linewidth" → line, width; "\\logo" → logo; not "is_same_file",
    whose "is" and "same" are stop words)."""
    found = analysis.tokens(analysis.fold(text))
    out = []
    for token in found:
        if _inside(token, found):
            continue  # read inside a longer word: one of that word's ways
        ways = _ways(token, found, text)
        if ways not in out:
            out.append(ways)
    return tuple(out)


def _inside(token, found) -> bool:
    return any(o.start <= token.start and token.end <= o.end and (o.start, o.end) != (
        token.start, token.end) for o in found)


def _ways(token, found, text) -> tuple:
    """Return the ways a question may hold token: its term, or the words that spell it."""
    inner = [t for t in found if token.start <= t.start and t.end <= token.end
             and t is not token and t.term[:1].isalnum()]
    words = [t for t in inner if not _inside(t, inner)]
    letters = sum(ch.isalnum() for ch in analysis.fold(text)[token.start:token.end])
    if not words or sum(t.end - t.start for t in words) < letters:
        return ((token.term,),)
    spelt = [()]
    for word in words:  # each word as itself, or as the words it is written from
        parts = tuple(p.term for p in inner
                      if word.start <= p.start and p.end <= word.end and p is not word)
        choices = [(word.term,), parts] if parts else [(word.term,)]
        spelt = [way + choice for way in spelt for choice in choices]
    return tuple(dict.fromkeys([(token.term,), *spelt]))


def book_entries(book, chunks, fields) -> list[Entry]:
    """Return the entries of book's index that send a reader to at most MAX_PLACES of its
    sections (chunks, with their texts), with those sections; fields: each section's words
    as the word index stores them (``cut.word_fields``)."""
    pages = _Pages(chunks)
    holding = {}
    for n, (_, title, path, text) in enumerate(fields):
        for term in {*title, *path, *text}:
            holding.setdefault(term, set()).add(n)
    def stored(label, wanted, keys) -> Entry | None:
        keys = tuple(dict.fromkeys(keys))
        if not wanted or not keys or len(keys) > MAX_PLACES:
            return None
        return Entry(label, wanted, keys, len(_holding(wanted, holding)) / max(1, len(fields)))

    out, headed, referring = [], {}, []
    for entry in bookindex.terms(book).only("term", "parent", "pages", "see"):
        label = f"{entry.parent} > {entry.term}" if entry.parent else entry.term
        wanted = needs(" ".join(label.split(" > ")))
        if entry.see and not any(entry.pages):
            referring.append((label, wanted, entry.see))
            continue
        found = stored(label, wanted, (key for key in (pages.section(page, wanted)
                                                       for page in entry.pages if page)
                                       if key is not None))
        if found:
            out.append(found)
            headed.setdefault(bookindex.fold(entry.term), []).append(found)
    for label, wanted, see in referring:
        found = stored(f"{label} → {'; '.join(see)}", wanted,
                       (key for target in see for key in _referred(target, headed)))
        if found:
            out.append(found)
    return out


def _referred(target: str, headed: dict) -> list[int]:
    """Return the sections of the entries a "see" reference names, as ``bookindex.lookup``
    follows it (headed: folded term → the stored entries of that term, whatever their
    parent: "widow" is "line > widow"): the entry itself, or its head where the reference
    names a sub-entry ("margin, outer" → margin)."""
    found = headed.get(bookindex.fold(target)) or headed.get(bookindex.fold(target.split(",")[0]))
    return [key for entry in found or () for key in entry.keys]


def on_page(chunks, page: int, term: str = "") -> int | None:
    """Return the key of the section of chunks (with their texts) that a page of the index
    sends a reader to for term (see ``_Pages.section``)."""
    return _Pages(chunks).section(page, needs(term) if term else ())


class _Pages:
    """Which section a page of the index sends a reader to."""

    def __init__(self, chunks):
        self.chunks = chunks
        self.on_page = {}
        for chunk in chunks:
            for page in range(chunk.span[0], chunk.span[1] + 1):
                self.on_page.setdefault(page, []).append(chunk)
        self._words = {}

    def section(self, page: int, wanted) -> int | None:
        """Return the key of the section on page whose text there holds the entry's words
        (two sections share a page where one ends and the next begins), else the one that
        starts last on it (``toc.ends.section_holding``, as the contents tree names a page's
        section)."""
        def holds_words(chunk) -> bool:
            return _holds(wanted, self._words_on(chunk, page))

        found = section_holding(page, self.on_page.get(page, []), pages=lambda c: c.span,
                                start=lambda c: (c.page_start, c.level),
                                prefer=holds_words if wanted else None)
        return found.key if found else None

    def _words_on(self, chunk, page: int) -> set:
        if (chunk.key, page) not in self._words:
            starts = [offset for number, offset in chunk.starts if number == page]
            after = [offset for number, offset in chunk.starts if number > page]
            text = chunk.text[starts[0]:after[0] if after else None] if starts else ""
            self._words[(chunk.key, page)] = set(analysis.terms(analysis.fold(text)))
        return self._words[(chunk.key, page)]


def _holding(wanted, holding: dict) -> set:
    """Return the sections (by number) whose words hold every word of wanted (holding: term →
    the sections holding it)."""
    found = None
    for ways in wanted:
        some = set().union(*(set.intersection(*(holding.get(t, set()) for t in way))
                             for way in ways))
        found = some if found is None else found & some
    return found or set()


def _holds(wanted, terms) -> bool:
    return all(any(set(way) <= terms for way in ways) for ways in wanted)


def by_first_word(rows) -> dict[str, list[int]]:
    """Return each term a question may hold an entry's first word as → the numbers of those
    entries (rows: the entries as stored, ``Entry.as_list``)."""
    out = {}
    for n, row in enumerate(rows):
        for way in (json.loads(row) if isinstance(row, str) else row)[1][0]:
            out.setdefault(way[0], []).append(n)
    return out


class Entries:
    """A book's stored entries, found by the words a question holds."""

    def __init__(self, entries: list[Entry]):
        self._stored, self._rows, self._by_term = None, None, None
        self._made = dict(enumerate(entries))

    @classmethod
    def stored(cls, rows) -> "Entries":
        """Return the entries of an index file: rows (``Entry.as_list``, each one as a list or
        as its JSON text) with their numbers by first word (``by_first_word``; None: made from
        the rows), or a function that returns the two. Each entry is made when a question
        first names it: a question ranks the sections of up to ``shelf.POOL_BOOKS`` books
        and looks up the entries of most of them before its first card, and making all of
        memoir's 3,500 entries took longer than reading its sections."""
        out = cls([])
        out._stored = rows
        return out

    @property
    def entries(self) -> list[Entry]:
        self._read()
        return [self._entry(n) for n in range(len(self._rows) if self._rows is not None
                                              else len(self._made))]

    def _read(self) -> None:
        if self._stored is not None:
            self._rows, by_term = self._stored() if callable(self._stored) else self._stored
            self._by_term = self._by_term or by_term
            self._stored = None

    def _entry(self, n: int) -> Entry:
        if n not in self._made:
            row = self._rows[n]
            self._made[n] = Entry.from_list(json.loads(row) if isinstance(row, str) else row)
        return self._made[n]

    def named(self, terms) -> list[Entry]:
        """Return the entries all of whose words the question's terms hold, the longest first,
        leaving out those whose words a longer one named holds ("input stack size" is named:
        "stack" and "size" are not)."""
        self._read()
        if self._by_term is None:
            self._by_term = (by_first_word(self._rows) if self._rows is not None else
                             by_first_word(entry.as_list() for entry in self._made.values()))
        terms = set(terms)
        seen = {n for term in terms for n in self._by_term.get(term, ())}
        found = [entry for entry in map(self._entry, sorted(seen)) if entry.named_by(terms)]
        found.sort(key=lambda entry: -len(entry.needs))
        kept = []
        for entry in found:
            if not any(set(entry.needs) < set(longer.needs) for longer in kept):
                kept.append(entry)
        return kept
