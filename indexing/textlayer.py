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


def page_lines(page: pymupdf.Page) -> list[dict]:
    """Return the page's text-layer lines in reading order."""
    return lines_from_dict(page.get_text("dict", flags=DICT_FLAGS, sort=True))


def lines_from_dict(textdict: dict) -> list[dict]:
    """Return lines {text, box, conf, dir, visible} from PyMuPDF's "dict" output."""
    lines = []
    for block in textdict.get("blocks", []):
        if block.get("type", 0) != 0:
            continue
        for line in block.get("lines", []):
            spans = line.get("spans", [])
            text = SPACES.sub(" ", "".join(span.get("text", "") for span in spans)).strip()
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
