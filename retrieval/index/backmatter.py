"""What in a book is not its subject: its own lists, and what is about the book itself.

The book's own lists (index, contents, lists of figures, colophon) are never
sections to answer with; bibliographies, licences and change logs stay
searchable ("under which licence is it?") but rank below body text
(``is_back_matter``). Pure functions over titles and text.
"""

import re

from books.text import CJK

SKIP_TITLES = re.compile(
    r"(?i)^\s*(?:(?:appendix\s+)?(?:[0-9ivxlc]+|[a-z])\.?\s+)?(?:"
    r"(?:general\s+|subject\s+|concept\s+|function\s+|command\s+|variable\s+|name\s+)?index"
    r"(?:\s+of\s+\w+(?:\s+and\s+\w+)?)?|(?:table\s+of\s+)?contents|"
    r"list\s+of\s+(?:figures|tables|listings|examples|illustrations)|colophon|"
    r"(?:用語|事項|人名)?索\s*引|目\s*次|図目次|表目次|奥\s*付)\s*$"
)
"""The book's own lists, whole titles only: a chapter about them ("9 Contents lists", a
LaTeX guide's "2.8 目次") is body text, and so is a numbered section of a chapter."""
# Sections that are about the book rather than its subject: bibliographies, licences,
# change logs, "how to read this guide". They stay searchable ("under which licence is
# it?") but rank below body text.
_NUMBERED = r"(?i)^\s*(?:[0-9ivxlc.]+\s+|[a-z](?:\.[0-9]+)*\s+|第\s*[0-9一二三四五六七八九十]+\s*章\s*)?"
LISTS = re.compile(
    _NUMBERED + r"(?:"
    r"(?:bibliography|references|further reading|change\s*log|changes|"
    r"history of changes|revision history|release notes|news|what'?s new|new features|"
    r"(?:changes|features\s+(?:introduced|added|new))\s+(?:since|in|from)\s.*|"
    r"differences\s+between\s+(?:versions|releases)\s.*)\s*$"
    r"|(?:参考文献|文献|変更履歴|更新履歴|改版履歴|改訂履歴))"
)
"""Titles of the lists a book keeps of its sources and its changes. Inside a chapter the
same word may name the chapter's subject: a packaging guide's "4.3 changelog" is about
the file debian/changelog, a class manual's "17 Back matter > 17.1 Bibliography" about
typesetting one (``is_back_matter``)."""
RIGHTS = re.compile(_NUMBERED + r"(?:copyright(?:\s+notice)?|著作権(?:表示)?)\s*$")
"""The book's copyright notice, as a chapter of its own; inside a chapter the word names
its subject (a packaging guide's "4.2 copyright", the file debian/copyright)."""
BACK_MATTER = re.compile(
    _NUMBERED + r"(?:"
    r"(?:licen[cs]es?|copying|"
    r"(?:gnu\s+)?(?:free documentation|general public|lesser general public)\s+licen[cs]e|"
    r"(?:preface|introduction|foreword|notes?)\s+(?:to|for|on)\s+the\s+[\w-]+\s+edition|"
    r"new\s+in\s+(?:version|release)\s.*|"
    r"(?:how\s+to\s+(?:read|use)|about)\s+this\s+(?:[\w'’]+\s+)?(?:book|manual|guide|document|"
    r"documentation|faq|reference))\s*$"
    r"|(?:version|release)\s+v?[0-9][0-9.]*\s*$|v?[0-9]+\.[0-9]+(?:\.[0-9]+)+\s*$"
    r"|(?:ライセンス|使用許諾|"
    r"(?:この|本)(?:文書|本|書|マニュアル|ガイド)(?:が扱う範囲|の(?:使い方|読み方))?について|"
    r"本書の(?:使い方|読み方)))"
)
"""Titles of what is about the book, not its subject, wherever they stand."""
LISTED_PER_1000 = 4.0
"""A list of sources or changes names a year or a version every few lines: a section
titled like one, inside a chapter, is one when its text holds this many per 1,000 columns
(a Japanese character is two): memoir's bibliography holds 7.8, the sections about one in
the dev books 0–2.3 (a packaging guide's "changelog" shows an entry of one)."""
_LISTED = re.compile(r"\b(?:1[5-9]|20)[0-9]{2}\b|\b[0-9]+\.[0-9]+(?:\.[0-9]+)*\b")
_LISTED_FROM_COLUMNS = 300
_COLOPHON = re.compile(r"(?i)\bISBN\b|発行所|印刷所|発行者|all rights reserved|printed in")
_ENDS_IN_NUMBER = re.compile(r"[0-9ivxlc]+\s*$", re.IGNORECASE)
_CJK = re.compile(f"[{CJK}]")


def is_back_matter(breadcrumb: list[str], text: str) -> bool:
    """Return True if the section of this breadcrumb and own text is about the book rather
    than its subject (its parent sections are judged by their own texts as well)."""
    *above, title = breadcrumb or [""]
    top = above[0] if above else title  # the chapter (or part) it is in, or itself
    if any(BACK_MATTER.match(t) for t in breadcrumb) or RIGHTS.match(top):
        return True
    if LISTS.match(top):  # the book's own list, or a section of it
        return True
    if not LISTS.match(title):
        return False
    columns = len(text) + len(_CJK.findall(text))
    listed = len(_LISTED.findall(text)) * 1000 / max(columns, 1)
    return columns >= _LISTED_FROM_COLUMNS and listed >= LISTED_PER_1000


def skipped_pages(order, page_count) -> set[int]:
    """Return the pages of sections that are not body text (index, contents, colophon)."""
    skipped = set()
    for heading in order:
        if SKIP_TITLES.match(heading.title):
            end = heading.page_end or (page_count if heading is order[-1] else heading.page)
            skipped.update(range(heading.page, max(heading.page, end) + 1))
    return skipped


def looks_like_back_matter(lines: list[str]) -> bool:
    """Return True for a page that reads like an index, a contents list or a colophon."""
    text = "\n".join(lines)
    if len(text) < 800 and _COLOPHON.search(text):
        return True
    numbered = sum(1 for line in lines if _ENDS_IN_NUMBER.search(line))
    return len(lines) >= 8 and numbered >= 0.6 * len(lines)
