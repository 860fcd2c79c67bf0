"""Vertical (縦書き) test pages for the benchmark: a TOC with kanji page numbers, and prose.

No bookbench book is set vertically, so these pages are typeset here, one
upright character at a time in columns from right to left, rendered to a
grayscale image as a scanner would, and read by the configured OCR engine.
"""

import re

import pymupdf

from bench.ocr import char_errors
from indexing.ocr import layout
from indexing.ocr.render import render
from toc.numbers import kanji_value

TOC = [
    ("第一章　総則", "一"), ("第一節　目的", "三"), ("第二節　定義", "十二"),
    ("第二章　権利の取得", "二十五"), ("第一節　申請", "二十八"), ("第三章　雑則", "百三"),
    ("附則", "百十"),
]
PROSE = (
    "この本は、縦書きの文章を読む試験のために作られた。文字は上から下へ、行は右から左へ"
    "進む。日本の法律書や古い専門書の多くはこの組み方で印刷されており、目次の頁番号も漢数字"
    "で書かれることが多い。機械で読むときには、列の順序と漢数字の読み違いに気をつけなければ"
    "ならない。"
)
FONT_SIZE = 13
LEADER = "・"
TRAILING_KANJI = re.compile(r"[〇一二三四五六七八九十百千]+$")


def typeset(columns: list[str], fontsize: float = FONT_SIZE) -> pymupdf.Document:
    """Return a one-page PDF of the columns set vertically, right to left, characters upright."""
    document = pymupdf.open()
    page = document.new_page(width=420, height=595)
    x = 385
    for column in columns:
        y = 50
        for char in column:
            if not char.isspace():
                page.insert_text((x, y), char, fontsize=fontsize, fontname="japan")
            y += fontsize * 1.15
        x -= fontsize * 2.1
    return document


def toc_columns() -> list[str]:
    columns = ["目次"]
    for title, number in TOC:
        leaders = LEADER * (34 - len(title) - len(number))
        columns.append(f"{title}{leaders}{number}")
    return columns


def prose_columns(height: int = 34) -> list[str]:
    return [PROSE[i:i + height] for i in range(0, len(PROSE), height)]


def read(engine, columns: list[str]) -> list[dict]:
    with typeset(columns) as document:
        image, scale = render(document[0], 150, 12_000_000)
    return layout.page_lines(engine.read([image])[0], scale)


def measure(engine) -> dict:
    """Return what the engine gives on the two vertical pages."""
    toc_lines = read(engine, toc_columns())
    prose_lines = read(engine, prose_columns())
    text = "".join(line["text"] for line in toc_lines)
    found = [kanji_value(match.group()) for line in toc_lines
             if (match := TRAILING_KANJI.search(line["text"]))]
    numbers_read = sum(1 for _, number in TOC if kanji_value(number) in found)
    prose_errors, prose_chars = char_errors(PROSE, "".join(line["text"] for line in prose_lines))
    title_errors = sum(char_errors(title, _best(title, toc_lines))[0] for title, _ in TOC)
    return {
        "vertical_lines": sum(1 for line in toc_lines + prose_lines if line["dir"] == "v"),
        "lines": len(toc_lines + prose_lines),
        "toc_title_errors": title_errors,
        "toc_title_chars": sum(len(title.replace("　", "")) for title, _ in TOC),
        "kanji_numbers_read": numbers_read,
        "kanji_numbers": len(TOC),
        "prose_errors": prose_errors,
        "prose_chars": prose_chars,
        "toc_text": text,
    }


def _best(title: str, lines) -> str:
    key = title.replace("　", "")
    return min((line["text"] for line in lines),
               key=lambda text: char_errors(key, text[: len(key)])[0], default="")
