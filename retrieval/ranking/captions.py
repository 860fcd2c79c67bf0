"""A figure or table asked for: the page its caption is on, from the book's own lists.

"Is there a table of the class options?", "Where is the figure of the page layout
parameters?", 「クラスオプションの表はどこ？」: the reader wants a figure or table the
book lists (List of Figures, 表目次, ``books.bookindex.list_items``), and its page is
the answer: the first card shows that page under the section it falls in, labelled
with the caption as printed. A question that names a table or figure only as what it
wants to make ("how do I make a table?") holds none of a caption's other words and is
answered as before.
"""

import re

from books import bookindex
from books.models import IndexEntry
from retrieval.text import analysis

ASKED = {IndexEntry.Kind.TABLE: {"tabl", "表", "一覧表"},
         IndexEntry.Kind.FIGURE: {"figur", "diagram", "illustr", "chart", "図"}}
"""The question's terms that ask for a table or a figure."""
NOT_ASKED = re.compile(r"(?i)\btables?\s+of\s+contents\b|目次")
COVERS = 0.6
"""A caption is the one asked for where it holds this share of the question's other terms,
and the question this share of the caption's."""
LABEL = {"en": {IndexEntry.Kind.TABLE: "Table", IndexEntry.Kind.FIGURE: "Figure"},
         "ja": {IndexEntry.Kind.TABLE: "表", IndexEntry.Kind.FIGURE: "図"}}


def asked_for(question) -> list[str]:
    """Return the kinds of item (table, figure) question asks for, else []."""
    if NOT_ASKED.search(question.text):
        return []
    terms = set(question.terms)
    return [kind for kind, words in ASKED.items() if terms & words]


def caption(question, book_ids) -> IndexEntry | None:
    """Return the listed figure or table of the books whose caption the question names (the
    one sharing most of its words), or None."""
    kinds = asked_for(question)
    if not kinds:
        return None
    wanted = set(question.terms) - set().union(*ASKED.values())
    if not wanted:
        return None
    best, best_share = None, 0.0
    for item in bookindex.listed(book_ids, kinds):
        words = set(analysis.terms(analysis.fold(item.term))) - set().union(*ASKED.values())
        if not words:
            continue
        shared = len(words & wanted)
        share = min(shared / len(wanted), shared / len(words))
        if share >= COVERS and share > best_share:
            best, best_share = item, share
    return best


def label(item: IndexEntry, language: str) -> str:
    """Return how the card names the item: "Table 1.2 Class options", 「表 1.2 クラスオプション」."""
    kind = LABEL["ja" if language == "ja" else "en"][item.kind]
    return " ".join(part for part in (kind, item.number, item.term) if part)
