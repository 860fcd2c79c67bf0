"""Lists of figures and tables read into items: number, caption, page (pure functions).

"3.2 The page layout parameters . . . . 45" → figure 3.2, its caption, page 45.
A caption that wraps runs on until a row ends in a page number. The list's
heading (List of Figures, List of Tables, 図目次, 表目次, 図一覧) gives the kind;
a line that names its own ("Table 3", 表 2.1) overrides it.
"""

import re
import unicodedata

from indexing.backindex.layout import page_rows
from indexing.backindex.locators import LEADERS
from indexing.backindex.model import ListItem
from indexing.backindex.resolve import locate

TABLE_HEADING = re.compile(r"^(?:list\s+of\s+tables|tables|表\s*目\s*次|表\s*一\s*覧)$", re.I)
FIGURE_HEADING = re.compile(
    r"^(?:list\s+of\s+(?:figures|illustrations|plates)|figures|illustrations"
    r"|図\s*目\s*次|図\s*一\s*覧|図版目次|図表目次|図表一覧)$", re.I)
# The number may run into its caption on a scan ("3.8区切り記号", "1.1TEX の内堀") and OCR may
# read its dot as a colon ("3:15. AMS の矢印記号").
NUMBERED = re.compile(
    r"^(?:(?P<word>figure|fig\.|table|tab\.|plate|図|表|写真)\s*)?"
    r"(?P<number>\d{1,3}(?:[.:\-–‐]\d{1,3})*|[A-Z](?:[.\-]\d{1,3})+)"
    r"[.:：]?(?:\s+(?=\S)|(?=[^\W\d_]))", re.I)
HEAD_LINES = 4
# A leader dot OCR read beside the page number (". .51") is no part of it.
PAGE_END = re.compile(r"(?:^|\s)\.?(?P<page>\d{1,4}|[ivxlcdm]{1,7})\s*$")
RESIDUE = re.compile(r"(?:\s*[.·・…:])+$")


def read_lists(pages: list[dict], by_label: dict[str, list[int]]) -> list[ListItem]:
    """Return the items of the lists of figures and tables printed on pages, in order."""
    items = []
    kind = "figure"
    pending: list[str] = []
    for page in pages:
        # The heading may sit in the top margin, where running heads are set aside.
        top = sorted(page.get("lines") or [], key=lambda line: line["box"][1])[:HEAD_LINES]
        kind = next((_heading_kind(line["text"]) for line in top if _heading_kind(line["text"])),
                    kind)
        for row in page_rows(page):
            text = unicodedata.normalize("NFKC", row.text).strip()
            heading = _heading_kind(text)
            if heading:
                kind, pending = heading, []
                continue
            if pending and NUMBERED.match(text) and not NUMBERED.match(pending[0]):
                pending = []  # a numbered row starts an item: what came before was no caption
            pending.append(text)
            joined = LEADERS.sub(" ", " ".join(pending)).strip()
            end = PAGE_END.search(joined)
            if not end:
                if len(pending) > 3:  # not a caption that wraps: a stray line
                    pending = pending[1:]
                continue
            pending = []
            head = joined[:end.start()].strip()
            numbered = NUMBERED.match(head)
            if not numbered:
                continue
            word = (numbered["word"] or "").lower()
            item_kind = "table" if word.startswith(("tab", "表")) else (
                "figure" if word else kind)
            caption = RESIDUE.sub("", head[numbered.end():]).strip()
            number = numbered["number"].replace(":", ".")
            items.append(ListItem(item_kind, number, caption,
                                  locate(end["page"], by_label), page["number"]))
    return items


def _heading_kind(text: str) -> str | None:
    plain = re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text)).strip()
    if TABLE_HEADING.match(plain):
        return "table"
    if FIGURE_HEADING.match(plain):
        return "figure"
    return None
