"""Numerals: arabic, roman, full-width digits and kanji (pure functions).

The one place numbers are read, for page tokens of the contents and for the
chapter numbers of questions (``retrieval.question.query``) alike.
"""

import re
import unicodedata

ARABIC = re.compile(r"^\d{1,4}$")
ROMAN = re.compile(r"^(?=[mdclxvi])m{0,3}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$")
KANJI_DIGITS = {
    "〇": 0, "零": 0, "一": 1, "二": 2, "三": 3, "四": 4,
    "五": 5, "六": 6, "七": 7, "八": 8, "九": 9,
}
KANJI_UNITS = {"十": 10, "百": 100, "千": 1000}
KANJI = re.compile(r"^[〇零一二三四五六七八九十百千]{1,8}$")
ROMAN_VALUES = [
    (1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"),
    (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i"),
]
MAX_ROMAN = 3999


def roman_value(token: str) -> int | None:
    """Return the value of a roman numeral (either case), or None."""
    low = token.lower()
    if not low or not ROMAN.match(low) or not (token.islower() or token.isupper()):
        return None
    value, rest = 0, low
    for number, letters in ROMAN_VALUES:
        while rest.startswith(letters):
            value, rest = value + number, rest[len(letters):]
    return value


def to_roman(value: int) -> str:
    """Return the lowercase roman numeral of 1 <= value <= 3999."""
    letters = []
    for number, symbol in ROMAN_VALUES:
        count, value = divmod(value, number)
        letters.append(symbol * count)
    return "".join(letters)


def kanji_value(token: str) -> int | None:
    """Return the value of a kanji numeral (百二十三 or positional 一二三, 二〇), or None."""
    if not KANJI.match(token):
        return None
    if not any(char in KANJI_UNITS for char in token):
        return int("".join(str(KANJI_DIGITS[char]) for char in token))
    total, digit = 0, None
    for char in token:
        if char in KANJI_UNITS:
            total += (1 if digit is None else digit) * KANJI_UNITS[char]
            digit = None
        elif digit is not None:
            return None  # two digits in a row within a unit numeral: not a number
        else:
            digit = KANJI_DIGITS[char]
    return total + (digit or 0)


def numeral_value(text: str) -> int | None:
    """Return the value of a number in digits or kanji (12, １２, 十二, 百五, 二〇), or None."""
    text = unicodedata.normalize("NFKC", text).strip()
    if text.isascii() and text.isdigit():
        return int(text)
    return kanji_value(text)


def parse_page(token: str, roman_upper: bool = True) -> tuple[str, int] | None:
    """Return (kind, value) for a page token, kind "arabic" or "roman", else None.

    Full-width digits are folded by NFKC; kanji numerals count as arabic values.
    """
    text = unicodedata.normalize("NFKC", token).strip()
    if ARABIC.match(text):
        value = int(text)
        return ("arabic", value) if value > 0 or text == "0" else None
    value = kanji_value(text)
    if value is not None:
        return "arabic", value
    if text.isupper() and not roman_upper:
        return None
    if not text.isupper():
        text = text.lower()  # "xxV": a lower-case numeral with a letter read as capital
    value = roman_value(text)
    if value is not None and value <= MAX_ROMAN:
        return "roman", value
    return None


OLD_STYLE = re.compile(r"(?=.*[0-9Oo])[0-9IilOo|]{2,4}")
_DIGIT_LOOKALIKES = str.maketrans({"I": "1", "i": "1", "l": "1", "|": "1", "O": "0", "o": "0"})


def old_style_digits(token: str) -> str | None:
    """Return a number OCR read in letters as its digits ("IOO" → "100", "6o" → "60",
    "I8" → "18"), or None.

    Old-style figures set a one as a small capital I and a nought as an o ("2i2" for 212).
    Only a token of two to four such characters with a digit or an O among them is read
    so: "II", "Il" and "xii" stay letters (a part's numeral, a word, a roman page)."""
    if not OLD_STYLE.fullmatch(token) or token.isdigit():
        return None
    return token.translate(_DIGIT_LOOKALIKES)


def label(kind: str, value: int) -> str:
    """Return the normalised printed label: "110" or "xii"."""
    return to_roman(value) if kind == "roman" else str(value)


def parse_label(text: str) -> tuple[str, int] | None:
    """Return (kind, value) of a normalised label such as "110" or "xii"."""
    return parse_page(text)
