"""One index entry's text split into term, page locators and cross-references (pure functions).

"abstract (environment), xxiii, 71–74, 344" → term "abstract (environment)",
locators xxiii / 71–74 / 344; "sectional, see also subhead, 79" → term
"sectional", see "subhead", locator 79; "amsmath . . . . 41–43, 45" (leaders)
→ term "amsmath". Japanese cross-references: "→ X", "X を見よ", "X も見よ".
"""

import re
import unicodedata
from functools import lru_cache

from toc.numbers import roman_value

DASHES = "–—‐-−－~〜～"
_NUMBER = r"(?:\d{1,4}|[ivxlcdm]{1,7})"
LOCATOR = re.compile(
    rf"^(?P<first>{_NUMBER})(?:\s*[{re.escape(DASHES)}]\s*(?P<last>{_NUMBER}))?"
    r"(?P<suffix>\s*ff?\.?|n\d*|\*)?$"
)
# Leaders: spaced dots ". . . ." (TeX, Texinfo), runs of four dots or more, ellipses, 中黒.
LEADERS = re.compile(r"\s*(?:\.\s+){2,}\.?\s*|\s*\.{4,}\s*|\s*[…‥⋯]{2,}\s*|\s*[・·]{3,}\s*")
SEE = re.compile(r"(?:^|[,.;(（]\s*|\s+)\(?(?P<how>see(?:\s+also)?|cf\.)\s+(?P<rest>.+)$", re.I)
ARROW = re.compile(r"\s*(?:→|⇒|->)\s*(?P<rest>[^→⇒]+?)\s*(?:を見よ|も見よ|参照)?\s*$")
SEE_JA = re.compile(r"[\s(（,，、]*(?P<rest>[^\s(（,，、]+?)\s*(?:を見よ|も見よ|を参照|も参照)[)）]?\s*$")
# OCR reads a few leader dots of a scan, or none: "amsbsy .. .48", "amsfonts . .. 38,55".
JUNK_BEFORE_NUMBER = re.compile(r"(?<=\s)[.,:;·・…‥]+(?=\d)")
STRAY_DOTS = re.compile(r"(?<=\s)[.·・]{1,2}(?![.·・])(?=\s*(?:[.·・]|\d|$))")


def split_entry(text: str) -> tuple[str, list[str], list[str]]:
    """Return (term, locator labels as printed, see targets) of one entry's text."""
    term, labels, see = _split_entry(text.strip())
    return term, list(labels), list(see)


@lru_cache(maxsize=1 << 16)  # a row is split to judge the page, its level and its entry
def _split_entry(text: str) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    term, tail = _split_leaders(text)
    see: list[str] = []
    if tail is None:
        term, see, tail = _split_see(term)
        if tail is None:
            term, labels = _split_locators(term)
        else:
            labels = _locators(tail) or []
    else:
        tail, see, rest = _split_see(tail)
        labels = _locators(tail) or []
        labels += _locators(rest or "") or []
    # It ends at its comma ("!h float specifier ...,"), unless the comma follows a dot OCR
    # read apart from the leaders ("\\sum... .,").
    printed = (term.rstrip()[-1:] in ",，、;；"
               and not re.search(r"[.:·・]\s+[.:·・]+\s*[,，、;；]$", term.rstrip()))
    if not see:
        term, see = _see_in_term(_tidy_term(term))
    if see and not term.strip():  # a sub-entry named "see also …" is a term, not a reference
        term, labels = _split_locators(text)
        see = []
    term = _tidy_term(term)
    return term if printed else _without_residue(term), tuple(labels), tuple(see)


def _split_leaders(text: str) -> tuple[str, str | None]:
    """Return (term, text after the leaders) or (text, None) when it has no leaders."""
    found = list(LEADERS.finditer(text))
    if not found:
        return text, None
    last = found[-1]
    term = text[:found[0].start()]
    if not term.strip() and found[0].start() == 0:
        term = "."  # the entry is a dot itself (an operator index): its dots read as leaders
    return term, text[last.end():]


def _split_see(text: str) -> tuple[str, list[str], str | None]:
    """Return (text before a "see" reference, its targets, locators after it or None)."""
    match = SEE.search(text)
    if not match or match.start() == 0 and not text.lower().startswith(("see", "(see")):
        return text, [], None
    rest = match["rest"].strip().rstrip(")）").strip()
    targets, after = rest, None
    # "sectional, see also subhead, 79": locators may follow the reference.
    parts = re.split(r"\s*,\s*", rest)
    for cut in range(1, len(parts)):
        tail = ", ".join(parts[cut:])
        if _locators(tail):
            targets, after = ", ".join(parts[:cut]), tail
            break
    names = [name.strip(" .,;") for name in re.split(r"\s*;\s*", targets)]
    return text[:match.start()], [name for name in names if name], after


def _see_in_term(term: str) -> tuple[str, list[str]]:
    for pattern in (ARROW, SEE_JA):
        match = pattern.search(term)
        if match and match.start() > 0:
            return term[:match.start()], [match["rest"].strip(" ,，、")]
    return term, []


def _split_locators(text: str) -> tuple[str, list[str]]:
    """Return (term, labels) cutting the longest run of locators off the end of text."""
    text = STRAY_DOTS.sub(" ", JUNK_BEFORE_NUMBER.sub("", text))
    tokens = list(re.finditer(r"[^\s,，、;；]+(?:\s*[–—‐\-−－~〜～]\s*[^\s,，、;；]+)?", text))
    labels: list[str] = []
    cut = len(text)
    for token in reversed(tokens):
        if not _is_locator(token.group()) or token.start() == 0:
            break
        between = text[token.end():cut]
        if labels and not re.fullmatch(r"\s*[,，、;；]?\s*", between):
            break
        labels.insert(0, _clean_label(token.group()))
        cut = token.start()
    if not labels:
        return text, []
    head = text[:cut]
    # A term that ends in a number ("Version 2 3") keeps it unless a separator precedes.
    if not re.search(r"([,，、;；]|\s{1,})\s*$", head):
        return text, []
    return head, labels


def _locators(text: str) -> list[str] | None:
    """Return the labels of a text that holds only locators, else None."""
    text = STRAY_DOTS.sub(" ", JUNK_BEFORE_NUMBER.sub("", " " + text))
    text = text.strip().strip(",，、;；").strip()
    if not text:
        return []
    labels = [part for part in re.split(r"\s*[,，、;；]\s*", text) if part]
    if all(_is_locator(label) for label in labels):
        return [_clean_label(label) for label in labels]
    return None


def _clean_label(token: str) -> str:
    """Return the label without a speck OCR read after it ("57." for 57; "12f." stays)."""
    stripped = token.rstrip(".")
    return token if stripped.endswith("f") or not stripped else stripped


def _is_locator(token: str) -> bool:
    folded = unicodedata.normalize("NFKC", _clean_label(token)).strip()
    match = LOCATOR.match(folded)
    if not match:
        return False
    if (match["suffix"] or "").startswith("n") and not match["first"].isdigit():
        return False  # "in": a word, not a page "i" with a note "n"
    for number in (match["first"], match["last"]):
        if number and not number.isdigit():
            value = roman_value(number)
            # Front matter runs to a few dozen pages: a longer "numeral" is a word ("mix").
            if value is None or value > 80:
                return False
    return True


# What OCR leaves of leaders at a term's end: "\\sum...", "\\cos :", "\\textsc." and of a
# mark before it: "·quotation". A single stop after an initial stays ("Knuth, Donald E."), and
# so does a colon: terms may be messages ("not defined:").
RESIDUE = re.compile(r"(?:\s*[.:;·・…‥]{2,}|\s+[.:;·・…‥]+|(?<=[^\W\d_]{2})\.)$|^[·・]+(?=\S)")


def _tidy_term(term: str) -> str:
    term = re.sub(r"\s+", " ", term).strip()
    return term.rstrip(",，、;；").rstrip() or term


def _without_residue(term: str) -> str:
    tidied = RESIDUE.sub("", term)
    while tidied != term and tidied.strip():
        term, tidied = tidied, _tidy_term(RESIDUE.sub("", tidied))
    return term


def is_locator_line(text: str) -> bool:
    """Return True when a line holds only page locators (a wrapped list of pages)."""
    labels = _locators(LEADERS.sub(" ", text))
    return bool(labels)


def span(label: str) -> tuple[str, str | None, int]:
    """Return (first, last or None, extra pages of "f."/"ff.") of a locator label.

    An abbreviated range ("112–18") keeps only its last digits: the last page is
    completed from the first ("118").
    """
    folded = unicodedata.normalize("NFKC", label).strip()
    match = LOCATOR.match(folded)
    if not match:
        return folded, None, 0
    first, last, suffix = match["first"], match["last"], (match["suffix"] or "").strip()
    if last and first.isdigit() and last.isdigit() and len(last) < len(first):
        last = first[: len(first) - len(last)] + last
    extra = 2 if suffix.startswith("ff") else 1 if suffix.startswith("f") else 0
    return first, last, extra
