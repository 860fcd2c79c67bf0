"""Lines of text, with boxes, from a PDF page's own text layer (pure functions)."""

import re
import unicodedata

import pymupdf

# Text only: image blocks would carry every picture's bytes through memory. Ligatures are
# written out ("ﬁ" as "fi"): a heading, a quote or a copied line shows "Notifications", not
# "Notiﬁcations" (search folds them either way).
DICT_FLAGS = (
    pymupdf.TEXTFLAGS_DICT & ~pymupdf.TEXT_PRESERVE_IMAGES & ~pymupdf.TEXT_PRESERVE_LIGATURES
) | pymupdf.TEXT_MEDIABOX_CLIP
SPACES = re.compile(r"\s+")
MIN_GOOD_SHARE = 0.75  # share of letters, digits and punctuation in real text
# The TeX and LaTeX logos are capitals moved off the baseline: T, E lowered, X; L, a small A
# raised. The text layer reads them "TEX" and "LATEX" (a title shown as "TEX Live ガイド"),
# so a letter shifted by more than this share of the type size is read as the logo's.
LOGO_SHIFT = 0.1
LOGO_SMALLER = 0.9  # the raised A of LaTeX is set at most this share of the L's size


def page_lines(page: pymupdf.Page) -> list[dict]:
    """Return the page's text-layer lines in reading order."""
    # "rawdict": each character's baseline, which tells the TeX logo's lowered E apart.
    return lines_from_dict(page.get_text("rawdict", flags=DICT_FLAGS, sort=True))


def _glyphs(spans: list[dict]) -> list[tuple[str, float, float]]:
    """Return (char, baseline y, size) for each character of a line's spans ("rawdict" spans
    carry their characters; "dict" spans only their text, on the span's baseline)."""
    out = []
    for span in spans:
        size = float(span.get("size") or 0.0)
        chars = span.get("chars")
        if chars is None:
            y = float(span.get("origin", (0.0, 0.0))[1])
            out.extend((char, y, size) for char in span.get("text", ""))
        else:
            out.extend((c["c"], float(c["origin"][1]), size) for c in chars)
    return out


def line_text(spans: list[dict]) -> str:
    """Return a line's text from its spans, the TeX and LaTeX logos spelt as they are read."""
    glyphs = _glyphs(spans)
    chars = [char for char, _, _ in glyphs]
    for i in range(1, len(glyphs) - 1):
        (before, y0, size0), (char, y, size), (after, y1, _) = glyphs[i - 1:i + 2]
        shift = LOGO_SHIFT * size0
        if char == "E" and before == "T" and after == "X" and y - y0 > shift and y - y1 > shift:
            chars[i] = "e"
        elif (char == "A" and before == "L" and after == "T" and y0 - y > shift
              and size < LOGO_SMALLER * size0):
            chars[i] = "a"
    return "".join(chars)


def lines_from_dict(textdict: dict) -> list[dict]:
    """Return lines {text, box, conf, dir, visible} from PyMuPDF's "dict" or "rawdict" output."""
    lines = []
    for block in textdict.get("blocks", []):
        if block.get("type", 0) != 0:
            continue
        for line in block.get("lines", []):
            spans = line.get("spans", [])
            text = SPACES.sub(" ", line_text(spans)).strip()
            if not text:
                continue
            dx, dy = line.get("dir", (1.0, 0.0))
            vertical = line.get("wmode", 0) == 1 or abs(dy) > abs(dx)
            lines.append(
                {
                    "text": text,
                    "box": [round(value, 1) for value in line["bbox"]],
                    "conf": 1.0,
                    "dir": "v" if vertical else "h",
                    "visible": any(span.get("alpha", 255) > 0 for span in spans),
                }
            )
    return lines


def good_share(text: str) -> float:
    """Return the share of non-space characters that are letters, digits or punctuation."""
    chars = [char for char in text if not char.isspace()]
    if not chars:
        return 0.0
    good = sum(1 for char in chars if unicodedata.category(char)[0] in "LNP")
    return good / len(chars)


def is_usable(lines: list[dict]) -> bool:
    """Return True if the lines look like real text rather than an empty or junk layer.

    Junk layers (broken font encodings, OCR layers of noise) are mostly
    replacement characters, private-use code points and symbols.
    """
    text = "".join(line["text"] for line in lines)
    return bool(text.strip()) and good_share(text) >= MIN_GOOD_SHARE


def page_text(lines: list[dict]) -> str:
    return "\n".join(line["text"] for line in lines)
