"""Text helpers: leader dots, numbering prefixes and matching keys (pure functions)."""

import re
import unicodedata

from toc.numbers import kanji_value, old_style_digits

LEADER_CHARS = r".．・·•…‥⋯_﹒·∙⋅"
LEADER_RUN = re.compile(rf"(?:\s*[{LEADER_CHARS}]){{4,}}\s*|\s*[…‥⋯]+\s*")
TRAILING_LEADER = re.compile(rf"(?:\s*[{LEADER_CHARS}])+\s*$")
SPACES = re.compile(r"\s+")
MIXED_LEADERS = re.compile(rf"(?:\s*[{LEADER_CHARS}●。oO0○:;,']){{5,}}\s*")
LEADER_HINT = re.compile(rf"[{LEADER_CHARS}]")
NOT_WORD = re.compile(r"[\W_]+")
# (pattern, kind); kind "part" < "chapter" < dotted depth; checked in this order.
NUMBERING = [
    # Parts are often numbered in roman (第I部, 第Ⅱ部 after NFKC; OCR reads I as l or |).
    (re.compile(r"^第\s*([0-9０-９〇一二三四五六七八九十百]+|[IVXl|]{1,5})\s*([編部])\s*"), "part"),
    (re.compile(r"^第\s*([0-9０-９〇一二三四五六七八九十百]+)\s*章\s*"), "chapter"),
    (re.compile(r"^第\s*([0-9０-９〇一二三四五六七八九十百]+)\s*節\s*"), 2),
    (re.compile(r"^第\s*([0-9０-９〇一二三四五六七八九十百]+)\s*款\s*"), 3),
    (re.compile(r"^第\s*([0-9０-９〇一二三四五六七八九十百]+)\s*項\s*"), 4),
    (re.compile(r"^(?:part|teil|livre|book)\s+([0-9]+|[ivxlc]+|[a-z])\b[.:]?\s*", re.I), "part"),
    # Old books' units are letters, lectures, sermons … ("LETTER IV.", a label over its title).
    (re.compile(r"^(?:chapter|kapitel|chapitre|letter|lecture|sermon|essay|discourse)\s+"
                r"([0-9]+|[ivxlc]+)\b[.:]?\s*", re.I), "chapter"),
    (re.compile(r"^(?:appendix|anhang|annexe)\s+([A-Z0-9]+)\b[.:]?\s*", re.I), "chapter"),
    (re.compile(r"^([A-Z](?:\s?[.．]\s?\d{1,3})+)[.．]?(?:\s+|(?=[^\d\s.]))"), "dotted"),
    (re.compile(r"^(\d{1,3}(?:\s?[.．]\s?\d{1,3})+)[.．]?(?:\s+|(?=[^\d\s.．]))"), "dotted"),
    (re.compile(r"^(\d{1,3})[.．]?(?:\s+|(?=[\u3040-\u30ff\u4e00-\u9fff]))"), "chapter"),
    # OCR often loses the space after a chapter number: "14Animations, Sounds".
    (re.compile(r"^(\d{1,3})(?=[A-Z][a-z])"), "chapter"),
    (re.compile(r"^([IVX]{1,5})[.．]?\s+(?=\S)"), "roman"),
    (re.compile(r"^([A-Z])[.．]?\s+(?=\S)"), "letter"),
]
LOOKALIKES = str.maketrans({
    "l": "1", "i": "1", "|": "1", "!": "1", "o": "0",
    "ー": "-", "一": "-", "－": "-", "—": "-", "–": "-", "‐": "-", "―": "-", "−": "-",
    "口": "ロ", "力": "カ", "へ": "ヘ", "べ": "ベ", "ぺ": "ペ", "工": "エ", "夕": "タ",
    "卜": "ト", "二": "ニ", "八": "ハ",
    # Small kana: OCR confuses them with full-size ones (ューザー for ユーザー).
    **{small: full for small, full in zip("ァィゥェォッャュョヮぁぃぅぇぉっゃゅょゎ",
                                          "アイウエオツヤユヨワあいうえおつやゆよわ")},
})


# OCR reads dots and specks between a number and its title as bullets ("2.1・.さあ"), or
# as a comma or a long-vowel mark ("2、はじめの一歩", "2.5ーポピュラーな…"; not "2、3の例").
JUNK_AFTER_NUMBER = re.compile(
    r"^((?:\d{1,3}(?:[.．]\d{1,3})*|第\S{1,6}?[章節編部款項]))"
    r"\s*(?:[・·•…]+[.．・·]*\s*(?=\S)|[、，ー]\s*(?=[^\s\d０-９]))"
)
# OCR drops the space between a number and its title: "7.1怪しげな変更", "2.3Where/how…",
# "5Software available", "1まずは正攻法で". A number glued to a counter ("3つの方法", "1章")
# or to a lower-case letter ("2nd", "64bit") is the title's own word and stays.
COUNTERS = "つ日月年回人個本番度点種分秒時行枚冊部歳倍章節編巻号次期代位割台件階"
_AFTER_NUMBER = "\\s\\d０-９.．、，ー%％)）"
GLUED_NUMBER = re.compile(  # 1.2.3 is a section's number; 1.5 may be a quantity ("1.5倍")
    r"^((?:\d{1,3}|[A-Z])(?:[.．]\d{1,3}){2,})(?=[^" + _AFTER_NUMBER + "])"
    r"|^((?:\d{1,3}|[A-Z])[.．]\d{1,3})(?=[^" + _AFTER_NUMBER + COUNTERS + "])"
    r"|^(\d{1,3})(?=[A-Z][a-z]|[\u3041-\u3096\u30a1-\u30fa\u4e00-\u9fff](?<![" + COUNTERS + r"]))"
)


# "第 1 章": OCR puts spaces inside a Japanese chapter label that print has none of
SPACED_LABEL = re.compile(
    r"^第\s*([0-9０-９一二三四五六七八九十百〇零]{1,6}|[IVXⅠ-Ⅻ]{1,5})\s*([章節編部款項])")


# Kanji numerals OCR reads as kana or dashes: ー/-/— for 一, ニ for 二.
KANJI_FROM_LOOKALIKE = str.maketrans({"ー": "一", "-": "一", "—": "一", "－": "一", "ニ": "二"})
LOOKALIKE_LABEL = re.compile(r"^第\s*([一二三四五六七八九十ーニ\-—－]{1,4})\s*([章節編部款項])")
LEADING_SPECKS = re.compile(r"^(?:[·•・,'`]\s*)+(?=\S)")  # dust OCR reads before a title
# A look-alike (ー, ニ, a dash) only in a Japanese row: a Latin row opening with a dash
# ("—a term employed …") carries on an argument broken before its dash.
KANJI_ITEM = re.compile(r"^(?=[一二三四五六七八九十]|..*?[\u3040-\u30ff\u3400-\u9fff])"
                        r"([一二三四五六七八九十ーニ\-—－])[\s　、．.]*(?=\S)")


def tidy_title(text: str) -> str:
    """Return the title without bullet-like specks between its number and its words, and
    with a space between them where OCR dropped it.

    A Japanese label spaced out by OCR ("第1 章") is closed up ("第1章"), and one
    whose numeral OCR read as a look-alike ("第ー節", "第ニ章") is read as printed; a
    year in old-style figures read with letters ("I710") is read in figures.
    """
    text = LEADING_SPECKS.sub("", text)
    text = LOOKALIKE_LABEL.sub(lambda m: "第" + m[1].translate(KANJI_FROM_LOOKALIKE) + m[2], text)
    text = JUNK_AFTER_NUMBER.sub(r"\1 ", SPACED_LABEL.sub(r"第\1\2", text))
    text = OLD_STYLE_NUMBER.sub(_old_style_number, text)
    return GLUED_NUMBER.sub(lambda m: next(group for group in m.groups() if group) + " ", text)


# A number of three or four figures in a title, old-style ones among them that OCR read as
# letters: "I710-1722", "1737-175I" (a one set as a small capital I, a nought as an O).
OLD_STYLE_NUMBER = re.compile(r"(?<!\w)[0-9IilOo|]{3,4}(?!\w)")


def _old_style_number(match) -> str:
    """Return the number in figures (``toc.numbers.old_style_digits``) where at least two of
    its characters are figures already ("175I" is 1751); "IIO" or "OIL" stay as they are."""
    token = match[0]
    if sum(char.isdigit() for char in token) < 2:
        return token
    return old_style_digits(token) or token


def clean(text: str) -> str:
    """Return the text with leader runs removed and spaces collapsed.

    OCR reads some leader dots of a scan as o, 0 or ●: a long run of dot-like
    marks counts as leaders when most of it is dots.
    """
    if LEADER_HINT.search(text):
        text = LEADER_RUN.sub(" ", text)
        text = MIXED_LEADERS.sub(_leaders_only, text)
    return SPACES.sub(" ", text).strip()


def _leaders_only(match) -> str:
    run = match.group(0)
    dots = sum(1 for char in run if char in LEADER_CHARS or char in "●。")
    return " " if dots * 2 >= len(run.replace(" ", "")) else run


def strip_trailing_leaders(text: str) -> str:
    """Return the text without leader dots or separators at its end."""
    return TRAILING_LEADER.sub("", text).strip()


def numbering(text: str) -> tuple[str, object, str]:
    """Return (number, kind, rest): the numbering prefix of a title, its kind and the rest.

    kind is "part", "chapter", "roman", "letter", a dotted depth (2, 3, …) or None;
    number is normalised ("1.2", "3", "A.1") or "" when there is none.
    """
    folded = unicodedata.normalize("NFKC", text)
    for pattern, kind in NUMBERING:
        match = pattern.match(folded)
        if not match:
            continue
        rest = folded[match.end():].strip()
        if not rest and kind in ("roman", "letter"):
            continue
        number = re.sub(r"\s", "", match.group(1)).replace("．", ".")
        if kind == "part" and set(number) <= set("IVXl|"):
            number = number.replace("l", "I").replace("|", "I")
        value = kanji_value(number)
        number = str(value) if value is not None else number
        if kind == "dotted":
            kind = number.count(".") + 1
        return number, kind, rest
    return "", None, folded.strip()


def key(text: str) -> str:
    """Return the matching key: NFKC, lowercase, OCR look-alikes folded, only letters/digits."""
    folded = unicodedata.normalize("NFKC", text).lower().translate(LOOKALIKES)
    return NOT_WORD.sub("", folded)


def bigrams(text: str) -> set[str]:
    """Return the set of character bigrams of a key (the key itself when shorter)."""
    if len(text) < 2:
        return {text}
    return {text[index:index + 2] for index in range(len(text) - 1)}
