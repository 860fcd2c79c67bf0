"""OCR slips in a scanned index's terms, mended against the book's own text and the
dictionary (pure functions).

An index term is a word the book uses. A term word that OCR misread ("béamer",
"fráme", "\\1og", "剩余関数") is nowhere in the body of the book, while the word it
should be is, many times: the word is mended to that one. A stray mark OCR read
between two words ("enumerate. subitem", "subsection.name") goes where the body
holds the two words side by side. Japanese sub-entries print the head word they
complete as a dash ("行頭の—" under ホワイトスペース); OCR drops that dash or reads
it as a long vowel mark, and it is put back where the words call for a head: a
sub-entry that starts with a particle or ends with an attributive form.

Some slips the body repeats, because OCR reads the same glyph the same way
everywhere: a katakana that looks like a kanji ("入カファイル" for 入力ファイル, ロ
for 口). These are put right by the dictionary (Sudachi): a look-alike is swapped
in only where the run then reads as words the dictionary knows, and did not before.

Only OCR'd pages are mended; nothing is mended on a guess: each change needs
the body's words or the dictionary's, and a word found in the body as it stands is
left alone.
"""

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, replace
from functools import lru_cache

from books.japanese import tokenizer
from books.text import CJK, HIRAGANA, KATAKANA, is_kanji

LATIN = "A-Za-z\u00c0-\u024f"
WORD = re.compile(rf"\\?[{LATIN}0-9]*[{LATIN}][{LATIN}0-9]*")
# A mark between two words of a term: "enumerate. subitem", "subsection.name", "items:parent".
STRAY = re.compile(rf"(?<=[{LATIN}])([.:·'’`]+)(\s*)(?=[{LATIN}])")
CJK_RUN = re.compile(f"[{CJK}々]{{2,}}")
IN_HIRAGANA = re.compile(f"[{HIRAGANA}]")
JAPANESE = f"[{CJK}]"
SPACED_GAP = re.compile(rf"(?<=[A-Za-z0-9]) (?={JAPANESE})|(?<={JAPANESE}) (?=[A-Za-z0-9])")
CLOSED_GAP = re.compile(rf"(?<=[A-Za-z0-9])(?={JAPANESE})|(?<={JAPANESE})(?=[A-Za-z0-9])")
GAP_SHARE = 0.25
DASH = "—"
DASHES = "ー一－-‐–―—~〜～"
MIN_EDITED = 5  # a shorter word has too many neighbours one letter away
MIN_COUNT = 2  # times the body must use the word a slip is mended to
MIN_EDITED_COUNT = 5  # … when it is a letter away: "letter" is not "letters"
SLIPS = 10  # times as often as the word as it stands, where the body has that too
MIN_RUN = 4  # kanji and kana: a shorter run has too many neighbours (指数, 指定)
LETTERS = "abcdefghijklmnopqrstuvwxyz"
# Katakana and kanji that OCR takes for one another: they are drawn the same.
LOOKALIKES = {}
for _pair in ("カ力", "ロ口", "エ工", "ニ二", "ハ八", "ト卜", "タ夕", "ヘへ", "ー一"):
    LOOKALIKES.setdefault(_pair[0], []).append(_pair[1])
    LOOKALIKES.setdefault(_pair[1], []).append(_pair[0])
NUMERALS = set("〇一二三四五六七八九十百千万億")
JAPANESE_RUN = re.compile(f"[{CJK}々ー]{{2,}}")
TEX_LETTERS = str.maketrans("10", "lo")


@dataclass(frozen=True)
class Vocabulary:
    """The words of a book's body: Latin words (folded) with their counts, word pairs set
    side by side, and the Japanese text, for the terms of its index to be checked against."""

    words: Counter
    pairs: Counter
    text: str

    @classmethod
    def of(cls, texts) -> "Vocabulary":
        words, pairs, japanese = Counter(), Counter(), []
        for text in texts:
            text = unicodedata.normalize("NFKC", text or "")
            previous = None
            for match in WORD.finditer(text):
                word = match.group().casefold()
                words[word] += 1
                if previous and not text[previous.end():match.start()].strip():
                    pairs[previous.group().casefold(), word] += 1
                previous = match
            japanese.append(re.sub(r"\s+", "", text))
        return cls(words, pairs, "\n".join(japanese))


def mend_term(term: str, vocabulary: Vocabulary, parents: tuple[str, ...] = ()) -> str:
    """Return term with its OCR slips mended; parents: the terms it is a sub-entry of."""
    term = _marks(term, vocabulary)
    term = WORD.sub(lambda match: _word(match.group(), vocabulary), term)
    if parents and CJK_RUN.search(term):
        term = _head_dash(term, parents[-1], vocabulary)
    term = CJK_RUN.sub(lambda match: _run(match.group(), vocabulary), term)
    return JAPANESE_RUN.sub(lambda match: _lookalike(match.group()), term)


def mend(entries: list, vocabulary: Vocabulary) -> list:
    """Return the index entries (IndexEntry) with their terms and parents' terms mended."""
    mended: dict[tuple[str, tuple[str, ...]], str] = {}

    def one(term: str, parents: tuple[str, ...]) -> str:
        key = (term, parents)
        if key not in mended:
            mended[key] = mend_term(term, vocabulary, parents)
        return mended[key]

    result = []
    for entry in entries:
        parents = tuple(one(term, entry.parents[:depth])
                        for depth, term in enumerate(entry.parents))
        result.append(replace(entry, term=one(entry.term, entry.parents), parents=parents))
    return _script_gaps(result)


def _script_gaps(entries: list) -> list:
    """Return the entries with a space wherever a Latin word meets Japanese, when OCR read
    that space in a good share of the index's terms ("B5 用紙"): Japanese type sets a gap
    there, which OCR reads as a space only some of the time ("A4用紙")."""
    terms = {term for entry in entries for term in (entry.term, *entry.parents)}
    spaced = sum(len(SPACED_GAP.findall(term)) for term in terms)
    closed = sum(len(CLOSED_GAP.findall(term)) for term in terms)
    if not closed or spaced < GAP_SHARE * (spaced + closed):
        return entries

    def opened(term: str) -> str:
        return CLOSED_GAP.sub(" ", term)

    return [replace(entry, term=opened(entry.term), parents=tuple(map(opened, entry.parents)))
            for entry in entries]


def _marks(term: str, vocabulary: Vocabulary) -> str:
    """Return term without the marks OCR read between two words the body sets side by side."""
    def mended(match: re.Match) -> str:
        before = WORD.findall(term[:match.start()])
        after = WORD.match(term, match.end())
        if not before or not after:
            return match.group()
        left, right = before[-1].casefold(), after.group().casefold()
        joined = f"{left}{match.group(1)}{right}" if not match.group(2) else ""
        if joined and vocabulary.words[joined]:
            return match.group()  # "tar.gz" is a word of the book
        return " " if vocabulary.pairs[left, right] else match.group()

    return STRAY.sub(mended, term)


def _word(word: str, vocabulary: Vocabulary) -> str:
    """Return the body's word that OCR misread as word, or word itself."""
    folded = word.casefold()
    if re.fullmatch(r"\\[a-z]*[01][a-z01]*", folded) and re.search("[a-z]", folded):
        # A TeX control word is letters only: "\\1og" is \\log, "\\1n" \\ln.
        return word.translate(TEX_LETTERS)
    if len(folded.lstrip("\\")) < 3:
        return word
    # The body has OCR's slips too: an accent or a digit in a word is kept only where the
    # body uses it as it stands at least a tenth as often as the word without.
    odd = not folded.isascii() or bool(re.search(r"\d", folded))
    if vocabulary.words[folded] and not odd:
        return word
    best, second, edited = _candidates(folded, vocabulary)
    least = MIN_EDITED_COUNT if edited else MIN_COUNT
    least = max(least, SLIPS * vocabulary.words[folded])
    if not best or vocabulary.words[best] < least or best == second:
        return word
    return best.upper() if word.isupper() else best.capitalize() if word[:1].isupper() else best


def _candidates(folded: str, vocabulary: Vocabulary) -> tuple[str | None, str | None, bool]:
    """Return the two most used words of the body that folded may be a slip of (the second
    only when the two are used as often), and whether they are a letter away."""
    prefix = "\\" if folded.startswith("\\") else ""
    body = folded[len(prefix):]
    plain = "".join(c for c in unicodedata.normalize("NFKD", body)
                    if not unicodedata.combining(c))
    shapes = {plain, re.sub(r"(?<=[a-z])1|1(?=[a-z])", "l", plain),
              re.sub(r"(?<=[a-z])0|0(?=[a-z])", "o", plain)}
    found = {shape for shape in shapes if vocabulary.words[prefix + shape]}
    edited = not found
    if edited and len(plain) >= MIN_EDITED and plain.isascii():
        found = {edit for shape in shapes for edit in _edits(shape)
                 if vocabulary.words[prefix + edit] and edit.rstrip("s") != shape.rstrip("s")}
    ranked = sorted(found, key=lambda w: -vocabulary.words[prefix + w])
    counts = [vocabulary.words[prefix + w] for w in ranked]
    if not ranked:
        return None, None, edited
    best = prefix + ranked[0]
    tied = len(ranked) > 1 and counts[1] == counts[0]
    return best, best if tied else None, edited


def _edits(word: str) -> set[str]:
    """Return the words one letter away from word (dropped, swapped, changed or added)."""
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    return ({a + b[1:] for a, b in splits if b}
            | {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
            | {a + c + b[1:] for a, b in splits if b for c in LETTERS}
            | {a + c + b for a, b in splits for c in LETTERS})


def _run(run: str, vocabulary: Vocabulary) -> str:
    """Return the run of Japanese with one misread kanji or katakana put right, where the
    body holds the run so changed and not as it stands ("剩余関数" → "剰余関数")."""
    if len(run) < MIN_RUN or run in vocabulary.text:
        return run
    found = Counter()
    for position, char in enumerate(run):
        if not _spellable(char):
            continue
        pattern = re.escape(run[:position]) + "(.)" + re.escape(run[position + 1:])
        for match in re.finditer(pattern, vocabulary.text):
            if _spellable(match.group(1)):
                found[run[:position] + match.group(1) + run[position + 1:]] += 1
    ranked = found.most_common(2)
    if not ranked or ranked[0][1] < MIN_COUNT or len(ranked) > 1 and ranked[1][1] == ranked[0][1]:
        return run
    return ranked[0][0]


def _lookalike(run: str) -> str:
    """Return the run with one katakana or kanji swapped for its look-alike (``_lookalikes``)
    where the swapped character then joins a word the dictionary knows, having stood alone
    or in an unknown word before ("入カファイル" → "入力ファイル", "ロ頭" → "口頭"), and no
    word becomes unknown; else the run as it stands."""
    others = [_lookalikes(char) for char in run]
    if not any(others):
        return run
    words = _words(run)
    for position, char in enumerate(run):
        if not others[position]:
            continue
        surface, unknown = _word_at(words, position)
        if len(surface) > 1 and not unknown:
            continue  # part of a word already
        for other in others[position]:
            swapped = run[:position] + other + run[position + 1:]
            fresh = _words(swapped)
            surface, unknown = _word_at(fresh, position)
            if len(surface) > 1 and not unknown and _unknown(fresh) <= _unknown(words):
                return swapped
    return run


def _lookalikes(char: str) -> list[str]:
    """Return the characters OCR may have read char for: its look-alikes, and the Japanese
    form of a kanji read in its Chinese form (剩 for 剰: the recogniser learnt both scripts)."""
    found = list(LOOKALIKES.get(char, ()))
    if is_kanji(char):
        japanese = _to_japanese().convert(char)
        if japanese != char and len(japanese) == 1:
            found.append(japanese)
    return found


@lru_cache(maxsize=1)
def _to_japanese():
    import opencc

    return opencc.OpenCC("t2jp")


def _words(text: str) -> list[tuple[str, bool]]:
    """Return the words of text as the dictionary reads them, with whether each is unknown.
    The dictionary leaves numerals unknown (二 in 二重): they are words."""
    return [(word.surface(), word.is_oov() and not NUMERALS.issuperset(word.surface()))
            for word in tokenizer().tokenize(text)]


def _word_at(words: list[tuple[str, bool]], position: int) -> tuple[str, bool]:
    end = 0
    for surface, unknown in words:
        end += len(surface)
        if position < end:
            return surface, unknown
    return "", True


def _unknown(words: list[tuple[str, bool]]) -> int:
    return sum(unknown for _, unknown in words)


def _spellable(char: str) -> bool:
    """Return True for a kanji OCR may have misread as another. OCR's slips in kana repeat
    through the body (ブ read as プ every time), and 一 is a dash misread as often as a kanji:
    only another kanji is put for a kanji."""
    return is_kanji(char) and char != "一"


def _lone_one(text: str) -> bool:
    """Return True when a final 一 is no part of a word: the dictionary reads it alone, after
    a noun that no prefix opens (not 第一, not 統一)."""
    words = list(tokenizer().tokenize(text))
    return (len(words) >= 2 and words[-1].surface() == "一"
            and words[-2].part_of_speech()[0] == "名詞"
            and all(word.part_of_speech()[0] != "接頭辞" for word in words[:-1]))


def _head_dash(term: str, parent: str, vocabulary: Vocabulary) -> str:
    """Return a Japanese sub-entry with the dash that stands for its parent where OCR lost it:
    before a leading particle ("のスペース"), after a closing の or attributive form
    ("行頭の", "数式モードにおける"); a long vowel mark or 一 read for the dash is the dash."""
    if DASH in term or "～" in term or "〜" in term:
        return term
    text = term.strip()
    if text[:1] == "ー":  # no Japanese word starts with a long vowel mark
        text = DASH + text[1:]
    elif text[-1:] == "ー" and not re.match(f"[{KATAKANA}]", text[-2:-1]):
        text = text[:-1] + DASH
    elif text[-1:] == "一" and (text[:-1] + parent in vocabulary.text or _lone_one(text)):
        text = text[:-1] + DASH  # "基本一" under 文字サイズ: the body says 基本文字サイズ
    if DASH in text:
        return text
    words = list(tokenizer().tokenize(text))
    if not words:
        return term
    first, last = words[0].part_of_speech(), words[-1].part_of_speech()
    if first[0] in ("助詞", "助動詞") and IN_HIRAGANA.match(words[0].surface()):
        return DASH + text
    if last[0] == "助詞" and words[-1].surface() == "の" or last[5].startswith("連体形"):
        return text + DASH
    return term
