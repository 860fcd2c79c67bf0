"""Kanji page numbers OCR misread on vertical contents pages, repaired by page order (pure).

A vertical contents page sets its page numbers down the column: the
recognizer reads such a column turned on its side, so 一 comes back as "|",
"l" or "1", 二 as "||" or "l|", 三 as "川" or "Ⅲ", 〇 as "O", and a leading 一
or 二 of a two-digit number is often lost altogether ("四" for 二四). Each
reading gives the values it could stand for; one is taken only when it alone
lies between the numbers read cleanly before and after it (printed pages never
decrease through a contents). A repaired number is a hint for grounding, never
enough to place a heading by itself.
"""

import re
from dataclasses import replace

from toc.numbers import KANJI_DIGITS, kanji_value
from toc.text import KANJI_FROM_LOOKALIKE, KANJI_ITEM

# What a turned or faint glyph may be: each piece stands for one digit.
PIECES = {
    "|": (1, 2), "l": (1, 2), "1": (1, 2), "ı": (1,), "I": (1,), "-": (1,), "ー": (1,),
    "—": (1,), "||": (2,), "l|": (2,), "|l": (2,), "ll": (2,), "11": (2,), "Il": (2,),
    "lI": (2,), "II": (2,), "ニ": (2,), "=": (2,), "川": (3,), "Ⅲ": (3,), "III": (3,),
    "lll": (3,), "|||": (3,), "111": (3,), "O": (0,), "o": (0,), "0": (0,), "○": (0,),
    "图": (4,), "ハ": (8,),
    **{char: (value,) for char, value in KANJI_DIGITS.items()},
}
LONGEST = max(len(piece) for piece in PIECES)
GARBLED = re.compile(
    r"^(.*?)[\s.．・·•…‥⋯_]+([" + re.escape("".join(set("".join(PIECES)))) + r"]{1,6})$"
)
MAX_DIGITS = 3


def garbled_page(text: str) -> tuple[str, str] | None:
    """Return (title, token) when a row ends, after leaders, in what may be a kanji number."""
    match = GARBLED.match(text)
    if not match or not match.group(1).strip():
        return None
    return match.group(1).strip(), match.group(2)


def readings(token: str) -> set[int]:
    """Return every value a misread kanji number may stand for (digits dropped included)."""
    values = set()
    for digits in _parses(token):
        if 1 <= len(digits) <= MAX_DIGITS and digits[0] != 0:
            values.add(int("".join(map(str, digits))))
    value = kanji_value(token)
    if value is not None:  # read cleanly: a leading digit may still be lost
        values.add(value)
    for value in list(values):
        if value < 100:
            values.update(10 * lead + value if value < 10 else 100 * lead + value
                          for lead in range(1, 10))
    return values


def _parses(token: str) -> list[list[int]]:
    """Return the digit sequences the token's pieces can be read as."""
    if not token:
        return [[]]
    found = []
    for size in range(1, min(LONGEST, len(token)) + 1):
        piece = token[:size]
        if piece in PIECES:
            for rest in _parses(token[size:]):
                found += [[digit] + rest for digit in PIECES[piece]]
    return found[:64]


def repair(tokens: list[str | None], clean: list[int | None]) -> dict[int, int]:
    """Return {index: value} for tokens that one value alone fits between their clean neighbours.

    clean holds the values read cleanly (None elsewhere); a clean value that
    breaks the order is itself a token to repair.
    """
    repaired = {}
    for index, token in enumerate(tokens):
        if token is None:
            continue
        before = next((v for v in reversed(clean[:index]) if v is not None), None)
        after = next((v for v in clean[index + 1:] if v is not None), None)
        if before is None or after is None or before > after:
            continue
        fitting = {v for v in readings(token) if before <= v <= after}
        if len(fitting) == 1:
            repaired[index] = fitting.pop()
    return repaired


def repair_entries(entries: list, is_clean) -> list:
    """Return the entries with misread kanji page numbers repaired where page order allows.

    is_clean(entry) says whether an entry's page number was read as a number
    that keeps the contents' order.
    """
    tokens, clean = [], []
    for entry in entries:
        value = entry.printed[1] if entry.printed and entry.printed[0] == "arabic" else None
        ok = value is not None and is_clean(entry)
        clean.append(value if ok else None)
        tokens.append(entry.token if entry.token and not ok and _kanjiish(entry.token) else None)
    fixed = repair(tokens, clean)
    return [replace(entry, token=str(fixed[i]), repaired=True) if i in fixed else entry
            for i, entry in enumerate(entries)]


def _kanjiish(token: str) -> bool:
    return bool(_parses(token)) or kanji_value(token) is not None


def kanji_items(entries: list) -> list:
    """Return the entries with Japanese item numerals (一, 二, 三 under a 節) read as numbers.

    "三サイトマップ" may be item 3 or a word (三角形), and OCR reads 一 as ー and
    二 as ニ: a leading numeral or look-alike counts only where it continues
    the items (一 after a 章 or 節, then 二, 三 …).
    """
    out, expected = [], None
    for entry in entries:
        if entry.kind in ("part", "chapter") or isinstance(entry.kind, int):
            out.append(entry)
            expected = 1
            continue
        found = KANJI_ITEM.match(entry.title) if entry.kind is None else None
        value = kanji_value(found[1].translate(KANJI_FROM_LOOKALIKE)) if found else None
        if value is not None and expected is not None and value in (expected, 1):
            rest = entry.title[found.end():].strip()
            title = f"{found[1].translate(KANJI_FROM_LOOKALIKE)} {rest}"
            out.append(replace(entry, title=title, number=str(value), kind="item"))
            expected = value + 1
        else:
            out.append(entry)
    return out
