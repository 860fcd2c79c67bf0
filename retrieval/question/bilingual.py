"""A question's words in the shelf's other language, from a Japanese–English dictionary.

A Japanese question about an English manual shares no word with it, and the
multilingual encoder alone reads a short question poorly across languages:
asked 「beamer で目次を表示するには？」 it ranked "Mode Specifications" first
and "Adding a Table of Contents" fourth. So the words of a question are looked
up in JMdict (the Electronic Dictionary Research and Development Group's
Japanese–English dictionary, CC BY-SA 4.0; the ``jamdict-data`` package ships it
as SQLite), and their translations join the question's terms at a lower weight:

- a Japanese question's words, longest first (逆行列 before 逆 and 行列, from
  Sudachi's morphemes), give the English glosses of their first SENSES senses
  (目次 → "table of contents");
- an English question's phrases, longest first ("table of contents" before
  "table"), give the common Japanese words that translate them, where at most
  MAX_HEADWORDS do (holiday → 休暇, 休日, 祝日…; a vaguer word is skipped).

A word with several senses shares its weight among them: each translation
counts WEIGHT over the number of senses of the word it came from, against 1 for
a word of the question itself. A gloss of several words translates one word, so
its words share it too (数式, "numerical formula": numer and formula a half
each): at full weight each, 「数式の中でベクトルを太字にしたい」 found Octave's
"Numeric Data Types" by numer, type and character (太字, "bold-type", "thick
characters") before the LaTeX guide's chapter on formulas. And they count only
together: asked 「LuaTeX-ja で縦書きにするには？」 (縦書き, "vertical writing"),
memoir's "Writing to a file" and "Vertical centering" came first, each holding one
word of the gloss.

``LIBRARIAN_DICTIONARY`` names another database of the same form, or ``none``.
"""

import logging
import re
import sqlite3
import threading
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path


from books.text import is_japanese
from librarian.config import setting
from retrieval.text import analysis

log = logging.getLogger(__name__)

SENSES = 3
MAX_HEADWORDS = 6
WEIGHT = 1.0
LONGEST = 3
"""Words and phrases are looked up up to this many morphemes or words long."""
_PAREN = re.compile(r"\([^)]*\)")
_WORD = re.compile(r"[a-z][a-z0-9'-]*")
_local = threading.local()


@dataclass(frozen=True)
class Translation:
    weights: dict
    """Each term of the translation → its weight (see the module)."""
    together: list = field(default_factory=list)
    """Groups of terms that count only together: the words of a gloss of several words
    ("vertical writing" for 縦書き). A section holding one of them holds a word of the
    gloss, not its meaning: "Writing to a file" is not about 縦書き."""
    bound: frozenset = frozenset()
    """The terms that count only in their groups (a word that is a gloss by itself as
    well counts alone too)."""


CERTAIN = 1.0
"""The weight of a translation that is its word: a word of one sense glossed by one word
(グラフ "graph", デバッグ "debug", 脚注 "footnote"), or the words of a gloss of several that
are one together (目次 "table of contents"); not 設定's "set", one of many senses beside
"establishment" and "configuration", nor 株's "stock"."""


def certain(word: str) -> tuple[frozenset[str], tuple[tuple[str, ...], ...]]:
    """Return the terms of word's translation that are the word by themselves, and the
    groups of terms that are it together (see CERTAIN)."""
    return _certain(str(path()), word)


def translated(word: str) -> Translation:
    """Return the translation of one word of a question (``translate``), read once for each
    dictionary: every card of an answer asks for its words' translations again."""
    return _translated(str(path()), word)


@lru_cache(maxsize=20_000)
def _certain(dictionary: str, word: str) -> tuple[frozenset[str], tuple[tuple[str, ...], ...]]:
    translation = _translated(dictionary, word)
    weights = translation.weights
    alone = frozenset(t for t, w in weights.items() if w >= CERTAIN and t not in translation.bound)
    groups = tuple(g for g in translation.together
                   if sum(weights.get(t, 0.0) for t in g) >= CERTAIN)
    return alone, groups


@lru_cache(maxsize=20_000)
def _translated(dictionary: str, word: str) -> Translation:
    return translate(word)


def translations(text: str) -> dict[str, float]:
    """Return the index terms of text's translation with their weights (see the module)."""
    return translate(text).weights


def translate(text: str) -> Translation:
    """Return text's translation: its terms, and those that count only together."""
    if _database() is None:
        return Translation({})
    text = unicodedata.normalize("NFKC", text)
    if not is_japanese(text):
        return Translation(_into_japanese(text))
    weights, groups, alone = _into_english(text)
    return Translation(weights, groups, frozenset(t for g in groups for t in g) - alone)


def _into_english(text: str) -> tuple[dict[str, float], list[tuple[str, ...]], set[str]]:
    out, alone, groups = {}, set(), []
    for word in _japanese_words(text):
        senses = _senses(word)
        for gloss_list in senses:
            for gloss in gloss_list:
                bare = _bare(gloss)
                share = WEIGHT / len(senses) / _words(bare)
                terms = [t for t in analysis.question_terms(bare) if not is_japanese(t)]
                for term in terms:
                    out[term] = max(out.get(term, 0.0), share)
                words = tuple(dict.fromkeys(
                    analysis.stem(w) for w in re.findall(r"[a-z0-9]+", bare.casefold())
                    if w not in analysis.STOP_WORDS and analysis.stem(w) in terms))
                if len(words) > 1:
                    groups.append(words)
                else:
                    alone.update(terms)
    unique = {frozenset(g): g for g in groups}  # "vertical writing", "writing vertically"
    return out, [g for g in unique.values() if not set(g) <= alone], alone


def _into_japanese(text: str) -> dict[str, float]:
    words = _WORD.findall(text.casefold())
    out, i = {}, 0
    while i < len(words):
        for n in range(min(LONGEST, len(words) - i), 0, -1):
            phrase = " ".join(words[i:i + n])
            if n == 1 and (phrase in analysis.STOP_WORDS or phrase in analysis.QUESTION_WORDS):
                continue
            headwords = _headwords(phrase)
            if headwords:
                for headword in headwords:
                    for term in analysis.question_terms(headword):
                        out[term] = max(out.get(term, 0.0), WEIGHT / len(headwords))
                i += n
                break
        else:
            i += 1
    return out


def _words(gloss: str) -> int:
    """Return how many words a gloss has that are not stop words (at least 1)."""
    words = [w for w in re.findall(r"[a-z]+", gloss.casefold()) if w not in analysis.STOP_WORDS]
    return max(1, len(words))


def _japanese_words(text: str) -> list[str]:
    """Return the dictionary words of text's Japanese runs, longest first: consecutive
    morphemes that stand in the dictionary together are one word."""
    found = []
    for morphemes in analysis.japanese_runs(text):
        i = 0
        while i < len(morphemes):
            for n in range(min(LONGEST, len(morphemes) - i), 0, -1):
                word = _word(morphemes[i:i + n])
                if word and _senses(word):
                    found.append(word)
                    i += n
                    break
            else:
                i += 1
    return found


def _word(run) -> str | None:
    """Return the word to look up for a run of morphemes: a content word's dictionary form
    (not one that frames a question), or several morphemes that begin and end with one."""
    if len(run) > 1:
        return "".join(surface for surface, _, _ in run) if run[0][2] and run[-1][2] else None
    _, base, term = run[0]
    framing = analysis.JAPANESE_QUESTION_WORDS
    return base if term and term not in framing and base not in framing else None


@lru_cache(maxsize=20_000)
def _senses(word: str) -> tuple[tuple[str, ...], ...]:
    """Return the English glosses of word's first SENSES senses in each of its entries."""
    db = _database()
    rows = db.execute(
        "SELECT s.idseq, s.ID, g.text FROM Sense s JOIN SenseGloss g ON g.sid = s.ID "
        "WHERE s.idseq IN (SELECT idseq FROM Kanji WHERE text = ?1 "
        "                  UNION SELECT idseq FROM Kana WHERE text = ?1) "
        "ORDER BY s.idseq, s.ID", (word,)).fetchall()
    senses, seen = {}, {}
    for idseq, sense, gloss in rows:
        seen.setdefault(idseq, [])
        if sense not in seen[idseq]:
            if len(seen[idseq]) == SENSES:
                continue
            seen[idseq].append(sense)
        senses.setdefault(sense, []).append(gloss)
    return tuple(tuple(glosses) for glosses in senses.values())


@lru_cache(maxsize=20_000)
def _headwords(phrase: str) -> tuple[str, ...]:
    """Return the common Japanese words (a priority mark in JMdict) one of whose first
    SENSES senses is phrase, or () when there are none or more than MAX_HEADWORDS."""
    db = _database()
    rows = db.execute(
        "SELECT DISTINCT s.idseq, s.ID FROM SenseGloss g JOIN Sense s ON s.ID = g.sid "
        "WHERE g.text IN (?1, ?2, ?3)", (phrase, "to " + phrase, phrase.capitalize())).fetchall()
    found = []
    for idseq, sense in rows:
        first = [r[0] for r in db.execute(
            "SELECT ID FROM Sense WHERE idseq = ? ORDER BY ID LIMIT ?", (idseq, SENSES))]
        if sense not in first:
            continue
        word = db.execute(
            "SELECT k.text FROM Kanji k WHERE k.idseq = ?1 AND EXISTS "
            "(SELECT 1 FROM KJP p WHERE p.kid = k.ID) ORDER BY k.ID LIMIT 1", (idseq,)).fetchone()
        word = word or db.execute(
            "SELECT k.text FROM Kana k WHERE k.idseq = ?1 AND EXISTS "
            "(SELECT 1 FROM KNP p WHERE p.kid = k.ID) ORDER BY k.ID LIMIT 1", (idseq,)).fetchone()
        if word and word[0] not in found:
            found.append(word[0])
    return tuple(found) if len(found) <= MAX_HEADWORDS else ()


def _bare(gloss: str) -> str:
    """Return a gloss without its notes in brackets and its infinitive's "to"."""
    gloss = _PAREN.sub(" ", gloss).strip()
    return gloss[3:] if gloss.startswith("to ") else gloss


def path() -> Path | None:
    """Return the dictionary's file (None: ``LIBRARIAN_DICTIONARY`` is none)."""
    chosen = setting("DICTIONARY")
    if chosen == "none":
        return None
    if chosen:
        return Path(chosen)
    try:
        import jamdict_data
    except ImportError:
        return None
    return Path(jamdict_data.__file__).resolve().parent / "jamdict.db"


def _database():
    if getattr(_local, "path", False) is not False and _local.path == path():
        return _local.db
    chosen = path()
    db = None
    if chosen is not None:
        if chosen.is_file():
            db = sqlite3.connect(f"file:{chosen}?mode=ro&immutable=1", uri=True)
        else:
            _missing(str(chosen))
    _local.path, _local.db = chosen, db
    return db


@lru_cache(maxsize=4)
def _missing(where: str) -> None:
    log.warning("No Japanese-English dictionary at %s: questions are not translated", where)
