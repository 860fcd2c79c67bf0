"""Terms of queries and sections, for Japanese and English alike (pure functions).

Two kinds: ``match_terms`` are what full-text matching looks for (English
words, and character trigrams of Japanese runs, which survive OCR slips and
need no word segmenter); ``graph_terms`` are the nodes of the term graph
(English words, katakana words and kanji compounds).
"""

import re
from collections import Counter

from books.text import CJK, for_search

_WORD = re.compile(r"[a-z][a-z0-9+#]*(?:['’][a-z]+)?")
_CJK_RUN = re.compile(rf"[{CJK}ー]+")
_KATAKANA = re.compile(r"[\u30a0-\u30ffー]{2,}")
_KANJI = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff々]{2,}")
STOPWORDS = frozenset(
    "a about above after again all also am an and any are as at be because been before being "
    "below between both but by can could did do does doing done down during each either few for "
    "from further get gets got had has have having he her here hers him his how i if in into is "
    "it its itself just may me might more most much must my no nor not now of off on once one "
    "only or other our out over own same shall she should so some such than that the their them "
    "then there these they this those through to too under until up upon us very was we were "
    "what when where which while who whom why will with within without would you your yours "
    "book books chapter section page pages part read cover covers covered discuss discusses "
    "explain explains explained tell find where's what's which's".split()
)


def normalise(text: str) -> str:
    """Return text as matching sees it: for_search's form, case-folded."""
    return for_search(text).casefold()


def words(text: str) -> list[str]:
    """Return the English words of normalised text that carry meaning, in order."""
    return [word for word in _WORD.findall(text) if len(word) >= 3 and word not in STOPWORDS]


def trigrams(run: str) -> list[str]:
    return [run[i:i + 3] for i in range(len(run) - 2)] if len(run) >= 3 else [run]


def match_terms(query: str, limit: int = 40) -> list[str]:
    """Return the distinct terms of query to look for in section text, spread over the query."""
    text = normalise(query)
    terms = list(dict.fromkeys(words(text)))
    for run in _CJK_RUN.findall(text):
        terms.extend(gram for gram in trigrams(run) if len(gram) >= 2)
    terms = list(dict.fromkeys(terms))
    if len(terms) <= limit:
        return terms
    step = len(terms) / limit
    return [terms[int(i * step)] for i in range(limit)]


def graph_terms(text: str) -> Counter:
    """Return the counts of the term-graph terms of text (already normalised or not)."""
    text = normalise(text)
    counts = Counter(_stem(word) for word in words(text))
    counts.update(_KATAKANA.findall(text))
    for run in _KANJI.findall(text):
        counts[run] += 1
        if len(run) > 3:
            counts.update(run[i:i + 2] for i in range(len(run) - 1))
    return counts


def _stem(word: str) -> str:
    """Return word without an English plural ending (a light touch, no dictionary)."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def coverage(terms: list[str], text: str) -> tuple[float, list[str]]:
    """Return the share of terms (by length) found in normalised text, and those found."""
    if not terms:
        return 0.0, []
    found = [term for term in terms if term in text]
    return sum(map(len, found)) / sum(map(len, terms)), found


def proximity(terms: list[str], text: str, width: int) -> float:
    """Return the largest share of terms (by length) found together within width characters:
    near 1 where the question's words stand side by side, as in the sentence it quotes."""
    total = sum(map(len, terms)) or 1
    hits = sorted(
        (position, index) for index, term in enumerate(terms)
        for position in _positions(term, text)
    )
    best, counts, weight, left = 0, {}, 0, 0
    for position, index in hits:
        counts[index] = counts.get(index, 0) + 1
        weight += len(terms[index]) if counts[index] == 1 else 0
        while hits[left][0] < position - width:
            gone = hits[left][1]
            counts[gone] -= 1
            weight -= len(terms[gone]) if counts[gone] == 0 else 0
            left += 1
        best = max(best, weight)
    return best / total


def _positions(term: str, text: str, most: int = 40):
    start = text.find(term)
    while start >= 0 and most:
        yield start
        start = text.find(term, start + 1)
        most -= 1


def highlights(query: str, text: str, found: list[str]) -> list[str]:
    """Return the words to highlight in text: matched English words and the longest
    stretches of the query's Japanese that occur in text."""
    marks = [term for term in found if not _CJK_RUN.fullmatch(term)]
    for run in _CJK_RUN.findall(normalise(query)):
        start = 0
        while start < len(run) - 1:
            end = start + 2
            while end <= len(run) and run[start:end] in text:
                end += 1
            if end - 1 - start >= 2 and run[start:end - 1] in text:
                marks.append(run[start:end - 1])
                start = end - 1
            else:
                start += 1
    return list(dict.fromkeys(marks))


def best_window(text: str, marks: list[str], width: int = 280) -> str:
    """Return the stretch of text of about width characters holding the most marks."""
    if len(text) <= width:
        return text
    positions = sorted(
        match.start() for mark in marks
        for match in re.finditer(re.escape(mark), text, re.IGNORECASE)
    )
    if not positions:
        return text[:width].rstrip() + "…"
    best, best_count, right = positions[0], 0, 0
    for left, position in enumerate(positions):
        while right < len(positions) and positions[right] < position + width * 0.8:
            right += 1
        if right - left > best_count:
            best, best_count = position, right - left
    start = max(0, best - width // 6)
    end = min(len(text), start + width)
    return ("…" if start else "") + text[start:end].strip() + ("…" if end < len(text) else "")
