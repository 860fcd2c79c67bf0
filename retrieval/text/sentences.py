"""A text's sentences as a reader reads them (pure functions over text).

A quote is one sentence, and a book's boilerplate is a sentence it repeats: both the
answer (``retrieval.answer.quotes``) and the index (``retrieval.index.shown``) cut text
into sentences the same way, so the cutting lives below both.
"""

import re

from books.text import CJK

# A sentence ends at a full stop followed by a space and a capital (or an opening quote,
# bracket, digit), or at a Japanese full stop: not at the dots of "www.debian.org" or "e.g.".
_SENTENCE_END = re.compile(rf"(?<=[.!?])\s+(?=[A-Z\"“‘'(\[0-9{CJK}])|(?<=[。！？])")
_ABBREVIATED = re.compile(
    r"(?i)(?:^|[\s(\[（])(?:p|pp|e\.g|i\.e|cf|vs|viz|fig|figs|sec|secs|eq|eqs|no|vol|ch|ca|approx)\.$")
"""A full stop that ends an abbreviation, not a sentence: "(see the variables (p. 55))" was
quoted as "see the variables (p." and shown with its page, "(p. p. 55"."""
OPEN_REACH = 40
"""A bracket opened this near a full stop and not closed holds it: "(p. 55)", "(cf. 3.2)"."""
_CJK = re.compile(f"[{CJK}]")
_WORD = re.compile(r"[^\W\d_]{2,}")


def split(text: str, start: int = 0) -> list[tuple[int, str]]:
    """Return (offset, sentence) for the sentences of text from start: whole sentences, not
    cut after an abbreviation or inside brackets (``runs_on``)."""
    out, begin = [], start
    for match in [*_SENTENCE_END.finditer(text, start), None]:
        end = match.start() if match else len(text)
        if match is not None and runs_on(text[begin:end]):
            continue
        piece = text[begin:end]
        if piece.strip():
            out.append((begin + len(piece) - len(piece.lstrip()), piece.strip()))
        begin = match.end() if match else end
    return out


def runs_on(piece: str) -> bool:
    """Return True if the sentence does not end where piece does: piece ends with an
    abbreviation (``_ABBREVIATED``), or a bracket opened near its end is still open."""
    if _ABBREVIATED.search(piece.rstrip()):
        return True
    tail = piece[-OPEN_REACH:]
    return any(tail.count(opening) > tail.count(closing)
               for opening, closing in ("()", "[]", "（）"))


def slight(sentence: str) -> bool:
    """Return True for a piece too slight to quote: a few characters, or in Latin script
    fewer than three words ("33 Chapter 8", a running head left in the text)."""
    if len(sentence) < 12:
        return True
    return not _CJK.search(sentence) and len(_WORD.findall(sentence)) < 3


def sentence_key(sentence: str) -> str:
    """Return a sentence's letters and digits, folded: the same sentence wrapped or hyphenated
    at other places on another page has the same key."""
    return "".join(char for char in sentence.casefold() if char.isalnum())
