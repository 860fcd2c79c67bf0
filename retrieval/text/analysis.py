"""The words of questions and sections as search sees them, in Japanese and English
(pure functions over text).

Text is cut into runs of one script. Japanese runs go through Sudachi
(sudachipy with sudachidict_core): only content words are kept (nouns, verbs,
adjectives, adjectival nouns; not particles, auxiliaries, symbols or the
light verbs する/なる/いる), each as its normalised dictionary form, so that
orthographic variants meet (コンピュータ and コンピューター, 行なう and 行う,
リファレンス and レファレンス, 手放し and 手放す). A compound also yields its
short units (開発者 → 開発, 者 is a suffix and dropped). A katakana word of four
or more characters loses a final long-vowel mark (メンテナー → メンテナ), as
Lucene's Japanese katakana stemmer does. English and other Latin-script runs
are case-folded words without the Snowball stop words, stemmed with the
Snowball English stemmer (PyStemmer); a compound written with inner
punctuation ("16:9", "utf-8", "tar.gz") is a term of its own as well, and so are
a TeX command ("\\include") and each of the characters technical books are asked
about (% $ # & ~ ^ \\ { } | @). A rare word written from two common ones (by
wordfreq's English frequencies: "linewidth", "logscale", "\\baselineskip") also
gives those two words, so that a reader's "line width" meets gnuplot's linewidth.

``tokens`` keeps each term's place in the text, for highlighting; ``terms``
is what the index stores; ``question_terms`` also drops the words that frame a
question ("how do I", "which book", 最初に読むべき本).
"""

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from sudachipy import SplitMode

from books import japanese
from books.text import CJK, KATAKANA, is_kanji, stem

# The Snowball project's English stop word list (snowballstem.org), as Lucene and
# Elasticsearch ship it for their English analyzers.
STOP_WORDS = frozenset("""
i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she
her hers herself it its itself they them their theirs themselves what which who whom this that
these those am is are was were be been being have has had having do does did doing would should
could ought i'm you're he's she's it's we're they're i've you've we've they've i'd you'd he'd
she'd we'd they'd i'll you'll he'll she'll we'll they'll isn't aren't wasn't weren't hasn't
haven't hadn't doesn't don't didn't won't wouldn't shan't shouldn't can't cannot couldn't
mustn't let's that's who's what's here's there's when's where's why's how's a an the and but if
or because as until while of at by for with about against between into through during before
after above below to from up down in out on off over under again further then once here there
when where why how all any both each few more most other some such no nor not only own same so
than too very
""".split())
# Words that frame a question rather than say what it is about. Only questions lose them:
# a section about "the first page" keeps its words.
QUESTION_WORDS = frozenset("""
can may might must shall will want wants wanted need needs like way ways thing things get got
also just please know tell show shows find learn explain explains explained describe describes
described discuss discusses discussed read first book books manual manuals guide guides chapter
chapters section sections part parts appendix clip give whole entire complete extract everything
something anything someone say says said doc docs documentation mention mentions
""".split())
JAPANESE_QUESTION_WORDS = frozenset(
    "本 章 節 部 編 項 冊 頁 最初 読む 説明 教える 知る 分かる 書く 載る 方法 どこ どう 何 全部 "
    "丸ごと 全体 切り抜く 切る 抜く 欲しい 思う 言う 扱う 紹介 下さる 良い 無い 事 物 所 為 時 場合 "
    "ところ 手順 仕方 やり方 それぞれ 其々 両方 ついて 関する 際 他 マニュアル ガイド".split()
)
# Light verbs and forms that carry no topic of their own.
_JAPANESE_STOP = frozenset("為る 居る 有る 成る 出来る 来る 行く 見る 置く 仕舞う 良い 無い 言う こと もの よう ため".split())
_CONTENT = frozenset(("名詞", "動詞", "形容詞", "形状詞"))
_JAPANESE = re.compile(f"[{CJK}々〆]+")
_KATAKANA = re.compile(f"[{KATAKANA}]{{4,}}")
_WORD = re.compile(r"[a-z0-9]+(?:['’][a-z]+)?")
_COMPOUND = re.compile(r"[a-z0-9]+(?:[-_.:/+][a-z0-9]+)+")
# The characters that technical books write about ("how do I print a % sign"): each one
# is a term of its own.
_SYMBOL = re.compile(r"[#$%&~^\\{}|@]")
# A TeX command ("\input", "\include", "\frametitle") is a term of its own as well as
# its word: asked for "\input", the word "input" is everywhere in a programming manual.
_COMMAND = re.compile(r"\\[a-z@]{2,}")
_LATIN_BEFORE = re.compile(r"([A-Za-z][A-Za-z0-9.+_-]*)[ \t]*$")
_SUDACHI_BYTES = 40000  # Sudachi refuses inputs over 49,149 bytes


@dataclass(frozen=True)
class Token:
    term: str
    start: int
    end: int
    """Where the word stands in the text given (characters, end exclusive)."""


def fold(text: str) -> str:
    """Return text as analysis reads it: NFKC, case-folded (the same length is not kept)."""
    return unicodedata.normalize("NFKC", text).casefold()


def tokens(text: str) -> list[Token]:
    """Return the terms of text with their places, in reading order.

    text should already be NFKC-normalised (``books.text.for_search`` makes it so)
    for the places to point at the right characters.
    """
    out = []
    position = 0
    for match in _JAPANESE.finditer(text):
        out.extend(_latin(text, position, match.start()))
        out.extend(_japanese(text, match))
        position = match.end()
    out.extend(_latin(text, position, len(text)))
    return out


def terms(text: str) -> list[str]:
    """Return the index terms of text (with repeats: their counts matter)."""
    return [token.term for token in tokens(text)]


def question_terms(question: str) -> list[str]:
    """Return the distinct terms of a question that say what it is about, in order."""
    found = []
    every = tokens(unicodedata.normalize("NFKC", question))
    # A TeX command asks for itself: its word ("input" of "\\input") would find every
    # section about input.
    commands = [(t.start, t.end) for t in every if t.term.startswith("\\") and len(t.term) > 1]
    for token in every:
        if token.term in _QUESTION_STEMS or token.term in JAPANESE_QUESTION_WORDS:
            continue
        if any(a <= token.start and token.end <= b and (token.start, token.end) != (a, b)
               for a, b in commands):
            continue
        found.append(token.term)
    return list(dict.fromkeys(found))


def particle_offsets(text: str, particle: str) -> list[int]:
    """Return where particle stands in text as a particle (助詞), not inside a word:
    the と of 「XとY」, not the と of とき."""
    out = []
    for match in _JAPANESE.finditer(text):
        for start, piece in _pieces(match.group()):
            for morpheme in japanese.tokenizer().tokenize(piece, SplitMode.C):
                if morpheme.surface() == particle and morpheme.part_of_speech()[0] == "助詞":
                    out.append(match.start() + start + morpheme.begin())
    return out


def _latin(text: str, start: int, end: int) -> list[Token]:
    if start >= end:
        return []
    piece = text[start:end].casefold()
    out = []
    for match in _WORD.finditer(piece):
        word = match.group().replace("’", "'")
        if word in STOP_WORDS or len(word) < 2:
            continue
        out.append(Token(stem(word.split("'")[0]), start + match.start(), start + match.end()))
        begin = start + match.start()
        for part in _joined(word):  # each where it stands in the word: "Row|wise"
            out.append(Token(stem(part), begin, begin + len(part)))
            begin += len(part)
    for match in _COMPOUND.finditer(piece):
        out.append(Token(match.group(), start + match.start(), start + match.end()))
    for pattern in (_SYMBOL, _COMMAND):
        for match in pattern.finditer(piece):
            out.append(Token(match.group(), start + match.start(), start + match.end()))
    out.sort(key=lambda token: (token.start, -token.end))
    return out


RARE, COMMON = 2.0, 3.5
"""Zipf frequencies (wordfreq): a word rarer than RARE made of two words as common as
COMMON is two words written together ("linewidth" 1.8 = line 5.5 + width 4.0; "together"
5.5 and "lintian" are words of their own; "varargin" has no such halves)."""


@lru_cache(maxsize=200_000)
def _joined(word: str) -> tuple[str, ...]:
    """Return the two words a rare word is written from ("linewidth" → line, width;
    "logscale" → log, scale), or () for a word of its own."""
    if len(word) < 6 or not word.isalpha() or not word.isascii():
        return ()
    known, common = _frequencies()
    if word in known:
        return ()
    parts, best = (), 0.0
    for cut in range(3, len(word) - 2):
        left, right = word[:cut], word[cut:]
        score = min(common.get(left, 0.0), common.get(right, 0.0))
        if score > best:
            best, parts = score, (left, right)
    return parts


def common_word(word: str, zipf: float = COMMON) -> bool:
    """Return True for an English word as common as zipf, COMMON by default ("the", "figure",
    "width")."""
    return _frequencies()[1].get(word.lower(), 0.0) >= 10 ** (zipf - 9)


@lru_cache(maxsize=1)
def _frequencies() -> tuple[frozenset, dict[str, float]]:
    """Return the English words as common as RARE, and those as common as COMMON with
    their frequencies (wordfreq's list, Zipf = log10(frequency) + 9): 96,000 and 15,000
    of its 321,000 words, kept in a tenth of the memory the whole list takes."""
    from wordfreq import get_frequency_dict

    every = get_frequency_dict("en")
    known = frozenset(w for w, f in every.items() if f >= 10 ** (RARE - 9))
    return known, {w: f for w, f in every.items() if f >= 10 ** (COMMON - 9)}


def japanese_runs(text: str) -> list[list[tuple[str, str, str | None]]]:
    """Return each Japanese run of text as its morphemes (Sudachi's longest units), each as
    (surface, dictionary form, index term or None for a word that is not a content word)."""
    return [[(m.surface(), m.dictionary_form(), _japanese_term(m))
             for m, _ in _morphemes(text, match)]
            for match in _JAPANESE.finditer(text)]


def _japanese(text: str, match) -> list[Token]:
    out = []
    for morpheme, base in _morphemes(text, match):
        begin, end = base + morpheme.begin(), base + morpheme.end()
        term = _japanese_term(morpheme)
        if term:
            out.append(Token(term, begin, end))
        parts = morpheme.split(SplitMode.A)
        if len(parts) > 1:
            for part in parts:
                short = _japanese_term(part)
                if short and short != term:
                    out.append(Token(short, base + part.begin(), base + part.end()))
    return out


def _morphemes(text: str, match):
    """Yield (morpheme, where its piece starts in text) for the Japanese run match of text.

    A run that follows a word in Latin script may open with a suffix of that word, which
    Sudachi tells only by what stands before it: 「Debian 向けの修正」 read from 向け on
    took 向け for a noun (a rare word, so a strong term that found nothing), where
    「パッケージ向け」 reads it as the suffix it is. So the run's first morpheme is read
    after the word too, and left out where it is a suffix there (向け, 用, 化); the rest of
    the run is read as it stands (read after "3.2.2", 公開鍵 came apart)."""
    run, offset = match.group(), match.start()
    before = _LATIN_BEFORE.search(text, max(0, offset - 40), offset)
    for start, piece in _pieces(run):
        morphemes = list(japanese.tokenizer().tokenize(piece, SplitMode.C))
        if start == 0 and before and morphemes and _suffix_after(before.group(1)[-20:],
                                                                 piece, morphemes[0]):
            morphemes = morphemes[1:]
        previous = None
        for morpheme in morphemes:
            if not _in_particle(previous, morpheme):
                yield morpheme, offset + start
            previous = morpheme


PARTICLE_VERBS = {"つく": ("つい", "つき"), "関する": (), "対する": (), "よる": (), "おく": ("おい",),
                  "於く": ()}
"""Verbs that stand in a compound particle after に (in these forms, where only some are
one): 「について」「につき」「に関して」「に対する」「によって」「において」. Sudachi reads について
as に, つい (つく, to stick) and て, and the dictionary then gave a question 「インストール
について」 "take", "assume" and "sit" to search and to mark; 「壁につく」 keeps its verb."""


def _in_particle(previous, morpheme) -> bool:
    """Return True if morpheme is the verb of a compound particle (PARTICLE_VERBS) after
    previous (the morpheme before it, None at a run's start)."""
    if previous is None or previous.surface() != "に" or previous.part_of_speech()[0] != "助詞":
        return False
    forms = PARTICLE_VERBS.get(morpheme.dictionary_form())
    return (forms is not None and morpheme.part_of_speech()[0] == "動詞"
            and (not forms or morpheme.surface() in forms))


def _suffix_after(word: str, piece: str, first) -> bool:
    """Return True if first, the first morpheme of piece, is a suffix of word before it."""
    for morpheme in japanese.tokenizer().tokenize(word + piece[:16], SplitMode.C):  # its start will do
        if morpheme.begin() == len(word):
            return (morpheme.end() - len(word) == first.end()
                    and morpheme.part_of_speech()[0] == "接尾辞")
        if morpheme.begin() > len(word):
            return False
    return False


def _japanese_term(morpheme) -> str | None:
    pos = morpheme.part_of_speech()
    if pos[0] not in _CONTENT or pos[1] == "非自立可能":
        return None
    term = _katakana_stem(morpheme.normalized_form().casefold())
    if term in _JAPANESE_STOP or (len(term) == 1 and not is_kanji(term)):
        return None
    return term


def _katakana_stem(term: str) -> str:
    return term[:-1] if term.endswith("ー") and _KATAKANA.fullmatch(term) else term


def _pieces(run: str):
    """Yield (offset, piece) of run in pieces Sudachi accepts, cut after sentence ends."""
    if len(run.encode()) <= _SUDACHI_BYTES:
        yield 0, run
        return
    start = 0
    while start < len(run):
        end = min(len(run), start + _SUDACHI_BYTES // 3)
        cut = max(run.rfind("。", start, end), run.rfind("、", start, end))
        end = cut + 1 if end < len(run) and cut > start else end
        yield start, run[start:end]
        start = end




_QUESTION_STEMS = frozenset(stem(word) for word in QUESTION_WORDS)
