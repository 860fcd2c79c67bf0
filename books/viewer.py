"""What the page viewer shows: the page's lines with the words and the quote marked, its section."""

from books import glyphs, highlight
from books.search import match_terms
from books.text import for_search, query_terms
from books.tree import SECTION_FIELDS, section_at
from librarian.config import setting


def page_view(book, stored, query: str, quote: str) -> dict:
    """Return the viewer's context for a page: rows of text, boxes to draw, breadcrumb, label."""
    lines = [line for line in (stored.lines if stored else []) if line.get("text")]
    terms = match_terms(query_terms(query), for_search(stored.text if stored else ""))
    marks = highlight.word_marks(lines, terms) + highlight.quote_marks(lines, quote)
    size = (stored.width, stored.height) if stored else (0, 0)
    printed = None
    if marks and stored.source == stored.Source.TEXT_LAYER:  # the PDF says where each letter is
        printed = glyphs.text_layer_boxes(book.path, stored.number, lines)
    elif marks and stored.source == stored.Source.OCR:  # the scan's ink says where the words are
        printed = glyphs.scan_boxes(book.path, stored.number, lines,
                                    {mark.line for mark in marks if mark.kind == "word"},
                                    setting("MAX_IMAGE_PIXELS"))
    first = min((mark.line for mark in marks), default=None)
    headings = list(book.headings.only(*SECTION_FIELDS).order_by("position"))
    return {
        "rows": highlight.rows(lines, marks),
        "boxes": highlight.boxes(lines, marks, size, printed),
        "found_words": sum(1 for mark in marks if mark.kind == "word"),
        "found_quote": any(mark.kind == "quote" for mark in marks),
        "section": section_at(headings, stored.number if stored else 0, first),
        "terms": terms,
    }
