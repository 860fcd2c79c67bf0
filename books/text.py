"""Text helpers shared by search and display (pure functions)."""

import re
import threading
import unicodedata
from collections import Counter

import Stemmer

from librarian.inputs import clean_text

CJK = r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f"
"""Every Japanese letter: kana, kanji (with the compatibility ones), half-width katakana."""
KATAKANA = r"\u30a0-\u30ff"
HIRAGANA = r"\u3040-\u309f"
_JAPANESE = re.compile(f"[{CJK}]")
_CJK_BREAK = re.compile(rf"(?<=[{CJK}])\n(?=[{CJK}])")
_HYPHEN_BREAK = re.compile(r"(?<=[a-z])-\n(?=[a-z])")
_SPACES = re.compile(r"\s+")
# Zero-width spaces and joiners, the word joiner and the BOM: invisible marks that PDF text
# layers carry (a TeX guide wraps "install-tl" in U+200C) and NFKC keeps. In an excerpt or a
# quote they show as stray boxes, and they split words for search.
_ZERO_WIDTH = re.compile("[\u200b-\u200d\u2060\ufeff]")
# Greek and Cyrillic letters that OCR puts in Latin words for the Latin letter
# they look like ("reefknοt" with a Greek omicron). Only inside a Latin word:
# real Greek (a formula's α, a Greek name) is left alone.
_LOOKALIKES = dict(zip(
    "ΑΒΕΖΗΙΚΜΝΟΡΤΥΧαονικυχρАВЕКМНОРСТХаеорсухіјѕ",
    "ABEZHIKMNOPTYXaovikuxpABEKMHOPCTXaeopcyxijs",
    strict=True,
))
_LOOKALIKE = "".join(_LOOKALIKES)
_LOOKALIKE_IN_WORD = re.compile(rf"(?<=[A-Za-z])[{_LOOKALIKE}]|[{_LOOKALIKE}](?=[A-Za-z])")
_KANA = re.compile(r"[\u3040-\u30ff\uff66-\uff9f]")
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LATIN_WORD = re.compile(r"[A-Za-z]+")
# The commonest short words of each Latin-script language, chosen to overlap little.
COMMON_WORDS = {
    "en": {"the", "and", "of", "to", "is", "in", "for", "that", "with", "this", "are"},
    "fr": {"le", "les", "des", "et", "est", "une", "dans", "pour", "qui", "du", "pas", "sur", "au",
           "avec"},
    "de": {"der", "die", "das", "und", "ist", "nicht", "mit", "von", "den", "ein", "eine", "auf",
           "sich", "dem"},
    "es": {"el", "los", "las", "y", "por", "con", "una", "para", "del", "se", "al", "como"},
    "it": {"il", "di", "che", "per", "della", "non", "sono", "gli", "nel", "alla", "delle"},
    "pt": {"os", "do", "da", "em", "um", "uma", "dos", "das", "no", "na", "com", "ao"},
    "nl": {"het", "een", "van", "dat", "op", "te", "met", "voor", "niet", "zijn", "ook", "wordt"},
}
ENGLISH_WORDS = COMMON_WORDS["en"]


def language_of(text: str) -> str:
    """Return "ja" if text holds any Japanese (kana or kanji), else "en": the language a
    question is answered in and a guide written in."""
    return "ja" if _JAPANESE.search(text) else "en"


def is_kanji(char: str) -> bool:
    """Return True if char is one kanji."""
    return len(char) == 1 and bool(_HAN.match(char))


def is_japanese(text: str) -> bool:
    """Return True if text holds any Japanese (kana or kanji)."""
    return language_of(text) == "ja"


def for_search(text: str) -> str:
    """Return text normalised for matching: NFKC, lines joined the way they were printed.

    Japanese wraps lines inside words, so a line break between two CJK
    characters is dropped; an English word hyphenated at a line end is joined;
    a Greek or Cyrillic look-alike inside a Latin word becomes the Latin letter; zero-width
    characters are dropped. Sections' texts, and so their excerpts and quotes, are made by it.
    """
    text = _ZERO_WIDTH.sub("", unicodedata.normalize("NFKC", text))
    text = _LOOKALIKE_IN_WORD.sub(lambda match: _LOOKALIKES[match.group()], text)
    text = _CJK_BREAK.sub("", text)
    text = _HYPHEN_BREAK.sub("", text)
    return _SPACES.sub(" ", text).strip()


def query_terms(query: str, limit: int = 10) -> list[str]:
    """Return the distinct search terms of a query, normalised like the indexed text."""
    words = for_search(clean_text(query).replace('"', " ")).split(" ")
    terms = []
    for word in words:
        word = word[:100]
        if word and word.casefold() not in {term.casefold() for term in terms}:
            terms.append(word)
    return terms[:limit]


DASHES = re.compile(r"[-\u2010-\u2015\u2212\uff0d]+")
MIN_PART = 3  # parts shorter than a trigram would match almost anything


def term_variants(term: str) -> list[list[str]]:
    """Return the ways a page can hold term: [[term]], and [[term], parts] for a dashed word.

    OCR reads a hyphen as a dash, drops it at a line end or spaces it out, so
    "apt-mark" is also found as "apt" and "mark" anywhere on the page.
    """
    parts = [part for part in DASHES.split(term) if part]
    if len(parts) > 1 and all(len(part) >= MIN_PART for part in parts):
        return [[term], parts]
    return [[term]]


def excerpt(text: str, terms: list[str], width: int = 240,
            around: str | None = None) -> list[tuple[str, bool]]:
    """Return a window of text around the first matched term, as (segment, is_match) pairs.

    With around, the window opens at around's first occurrence where it has one.
    """
    text = _ZERO_WIDTH.sub("", text)  # texts stored before for_search dropped them
    if not terms:
        return [(text[:width], False)] if text else []
    pattern = re.compile("|".join(re.escape(term) for term in sorted(terms, key=len, reverse=True)),
                         re.IGNORECASE)
    first = (around and re.search(re.escape(around), text, re.IGNORECASE)) or pattern.search(text)
    centre = first.start() if first else 0
    start = max(0, centre - width // 3)
    end = min(len(text), start + width)
    window = text[start:end]
    segments: list[tuple[str, bool]] = [("…", False)] if start > 0 else []
    position = 0
    for match in pattern.finditer(window):
        if match.start() > position:
            segments.append((window[position:match.start()], False))
        segments.append((match.group(), True))
        position = match.end()
    if position < len(window):
        segments.append((window[position:], False))
    if end < len(text):
        segments.append(("…", False))
    return segments


def detect_languages(text: str) -> list[str]:
    """Return language codes whose script makes up a real share of the text, commonest first.

    Japanese is told apart from Chinese by its kana; Latin-script languages
    apart by their commonest words (none is named when none stands out: a
    librarian can say).
    """
    kana = len(_KANA.findall(text))
    han = len(_HAN.findall(text))
    words = _LATIN_WORD.findall(text)
    latin = sum(len(word) for word in words)
    total = kana + han + latin
    if not total:
        return []
    shares = Counter()
    if kana + han >= 0.1 * total:
        shares["ja" if kana >= 0.05 * (kana + han) else "zh"] = kana + han
    if latin >= 0.1 * total:
        code = latin_language(words)
        if code:
            shares[code] = latin
    return [code for code, _ in shares.most_common()]


def latin_language(words: list[str]) -> str:
    """Return the code of the language whose common words are most of words, or ""."""
    lowered = [word.lower() for word in words]
    counts = {code: sum(1 for word in lowered if word in common)
              for code, common in COMMON_WORDS.items()}
    code, count = max(counts.items(), key=lambda item: item[1])
    return code if count >= 0.03 * len(words) else ""


_local = threading.local()


def stem(word: str) -> str:
    """Return an English word's stem (Snowball), as the search and the highlights take it."""
    stemmer = getattr(_local, "stemmer", None)
    if stemmer is None:  # a PyStemmer object is not safe to share between threads
        stemmer = _local.stemmer = Stemmer.Stemmer("english")
    return stemmer.stemWord(word)
