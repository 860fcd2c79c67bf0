"""A book cut into chunks that a librarian would cite (pure functions over plain data).

Each placed heading owns the text from its line to the next heading's line
(its *span*); the chunk carries the heading's breadcrumb and the page range
of its whole section (a parent's range covers its children). Pages that are
not body text are never chunks: the TOC and lists of figures, sections
titled index/contents/colophon, and stray pages that look like an index or a
colophon. Pages no placed heading covers (a book without structure, front
matter) become windows of a few pages.
"""

import re
from dataclasses import asdict, dataclass, fields

from books.text import CJK, for_search
from toc.ends import opens_page, section_ends
from retrieval.index import backmatter

PAGE_WINDOW = 2
PASSAGE_CHARS = 320
EMBEDDED_CHARS = 2400
"""Text of a chunk embedded at most: its opening, where a section says what it is about.
(The whole text is still matched word by word; embedding costs CPU per token.)"""
UNPLACED = {"unresolved", "absent", "rejected"}
_NUMBER = re.compile(r"^\s*(?:第\s*[0-9〇一二三四五六七八九十百]+\s*[章部編節]|[0-9]+(?:\.[0-9]+)*\.?|[A-Z]\.[0-9.]*)\s*")
_SENTENCE_END = re.compile(r"(?<=[.!?。．！？])\s*")
_CJK = re.compile(f"[{CJK}]")


@dataclass
class Chunk:
    key: int
    title: str
    breadcrumb: tuple[str, ...]
    page_start: int
    page_end: int
    text: str
    heading_id: int | None = None
    parent_key: int | None = None
    level: int = 0
    children: tuple[int, ...] = ()
    span: tuple[int, ...] = ()
    """First and last page of the chunk's own text (a parent's stops at its first child)."""
    starts: tuple[tuple[int, int], ...] = ()
    """(page, offset): where each page's text begins in text (tuples: ``SEQUENCES``)."""
    back_matter: bool = False
    """A bibliography, licence or change log (or inside one): not the book's subject."""
    inferred: bool = False
    """The heading was inferred from the body: the book has no printed contents."""

    def __post_init__(self):
        self.breadcrumb, self.children = tuple(self.breadcrumb), tuple(self.children)
        self.span = tuple(self.span) or (self.page_start, self.page_end)
        self.starts = tuple(tuple(pair) for pair in self.starts) or ((self.page_start, 0),)

    def page_at(self, offset: int) -> int:
        """Return the physical page that holds the character at offset of text."""
        page = self.starts[0][0]
        for number, start in self.starts:
            if start > offset:
                break
            page = number
        return page

    def as_dict(self) -> dict:
        return asdict(self)

    def as_row(self) -> list:
        """Return the chunk without its text as a list of its fields (``ROW``), the form a
        book's skeleton stores (``retrieval.index.files``)."""
        return [getattr(self, name) for name in ROW]

    @classmethod
    def from_row(cls, row) -> "Chunk":
        """Return the chunk stored as row (``as_row``), its text empty. The row was made
        from a chunk and is taken as it is, not made anew: a question ranks the sections of
        up to 60 books, and making each chunk again took a quarter of loading a book."""
        chunk = cls.__new__(cls)
        chunk.__dict__.update(zip(ROW, row), text="")
        for name in SEQUENCES:
            setattr(chunk, name, tuple(getattr(chunk, name)))
        chunk.starts = tuple(map(tuple, chunk.starts))
        return chunk


ROW = tuple(f.name for f in fields(Chunk) if f.name != "text")
SEQUENCES = ("breadcrumb", "children", "span")
"""A chunk's fields that hold several values, kept as tuples (and starts as tuples of pairs):
a tuple of numbers or strings is one Python's collector stops following once it has seen
it, and with lists the 300 books a process keeps were a million objects it followed, its
collections a tenth of an answer's time on 1,000 books."""


def section_chunks(headings, pages: dict[int, list[str]], excluded=(), page_count=None):
    """Return the chunks of a book.

    headings: objects with pk, parent_id, position, level, title, page,
    page_end, line and status, in TOC order; pages: physical number → the
    page's lines; excluded: pages that are never chunks (TOC, lists).
    """
    page_count = page_count or max(pages, default=0)
    placed = [h for h in headings if h.page is not None and h.status not in UNPLACED]
    lines = _start_lines(placed, pages)
    order = sorted(placed, key=lambda h: (h.page, lines[h.pk], h.position))
    by_position = sorted(placed, key=lambda h: h.position)
    ends = dict(zip((h.pk for h in by_position), section_ends(
        [(h.level, h.page, h.line) for h in by_position], page_count)))
    excluded = set(excluded) | backmatter.skipped_pages(order, page_count)
    crumbs = _breadcrumbs(headings)
    chunks, keys, covered = [], {}, set()
    for index, heading in enumerate(order):
        if backmatter.SKIP_TITLES.match(heading.title) or heading.page in excluded:
            continue
        following = order[index + 1] if index + 1 < len(order) else None
        span = _span(heading, following, page_count, lines)
        text, starts = _span_text(pages, span, excluded)
        covered.update(range(span[0][0], span[1][0] + 1))
        keys[heading.pk] = len(chunks)
        chunks.append(Chunk(
            key=len(chunks), title=heading.title, breadcrumb=crumbs[heading.pk],
            page_start=heading.page, page_end=ends[heading.pk],
            text=text, heading_id=heading.pk, level=heading.level, span=[span[0][0], span[1][0]],
            starts=starts, back_matter=backmatter.is_back_matter(crumbs[heading.pk], text),
            inferred=bool(getattr(heading, "inferred", False)),
        ))
    by_id, children = {h.pk: h for h in headings}, {}
    for heading_id, key in keys.items():
        parent = _placed_parent(by_id, heading_id, keys)
        if parent is not None:
            chunks[key].parent_key = parent
            children.setdefault(parent, []).append(key)
    for parent, under in children.items():
        chunks[parent].children = tuple(under)
    for chunk in chunks:  # a parent comes before its sections
        if chunk.parent_key is not None and chunks[chunk.parent_key].back_matter:
            chunk.back_matter = True
    uncovered = [n for n in sorted(pages) if n not in covered and n not in excluded]
    return chunks + page_windows(pages, uncovered, start_key=len(chunks))


def page_windows(pages: dict[int, list[str]], numbers, start_key=0, size=PAGE_WINDOW):
    """Return chunks of up to size consecutive pages among numbers, skipping non-body pages."""
    chunks, run = [], []
    for number in numbers:
        if not pages.get(number) or backmatter.looks_like_back_matter(pages[number]):
            continue
        if run and (number != run[-1] + 1 or len(run) >= size):
            chunks.append(_window(pages, run, start_key + len(chunks)))
            run = []
        run.append(number)
    if run:
        chunks.append(_window(pages, run, start_key + len(chunks)))
    return chunks


def shown_text(chunk: Chunk, furniture: dict[int, list[str]]) -> str:
    """Return chunk's text with its pages' furniture (page → running heads, feet and folios
    as they stand in the text, ``retrieval.index.cut.margins``) blanked: spaces, so that every
    offset into the text still holds. Furniture opens or closes a page's text: the same
    words or number elsewhere on the page are its own."""
    text = chunk.text
    if not furniture or not text:
        return text
    bounds = [*chunk.starts, [None, len(text)]]
    for n, ((page, begin), (_, end)) in enumerate(zip(bounds, bounds[1:])):
        left = list(furniture.get(page, ()))
        # A section's text opens with its heading ("1 Knots"), never with furniture.
        opens = n > 0 or chunk.heading_id is None
        while left:
            found = [(at, printed) for printed in left
                     if (at := _at_edge(text, begin, end, printed, opens)) >= 0]
            if not found:
                break
            at, printed = found[0]  # one at a time: the edges move
            text = text[:at] + " " * len(printed) + text[at + len(printed):]
            left.remove(printed)
    return text


def _at_edge(text: str, begin: int, end: int, printed: str, opens: bool = True) -> int:
    """Return where printed opens (where it may) or closes text[begin:end], blanks aside
    (-1: it does not)."""
    piece = text[begin:end]
    opening = begin + len(piece) - len(piece.lstrip())
    if opens and text.startswith(printed, opening):
        return opening
    closing = begin + len(piece.rstrip()) - len(printed)
    return closing if closing >= opening and text.startswith(printed, closing) else -1


def passages(chunk: Chunk, size: int = PASSAGE_CHARS, limit: int = EMBEDDED_CHARS) -> list[str]:
    """Return the texts to embed for chunk: its breadcrumb, then each of its pieces
    (``pieces``) with the section's title in front ("Trim marks: The class can print
    marks…")."""
    return [text for text, _ in embedded(chunk, size, limit)]


def embedded(chunk: Chunk, size: int = PASSAGE_CHARS,
             limit: int = EMBEDDED_CHARS) -> list[tuple[str, str | None]]:
    """Return (text embedded, the piece of chunk's text it stands for) for each passage;
    the breadcrumb, first, stands for no piece (None).

    A piece alone often does not say what it is about ("The marks are printed on every
    page"): its title does, and the encoders read them together. A title in another
    script than the piece (a Japanese heading over English text) is left out, so the
    piece is still read by the encoder for its language; so is a window's page label.
    """
    title = (_NUMBER.sub("", chunk.title).strip() or chunk.title) if chunk.breadcrumb else ""
    japanese_title = bool(_CJK.search(title))
    out = [(" > ".join(chunk.breadcrumb) or chunk.title, None)]
    for piece in pieces(chunk, size, limit):
        same_script = bool(_CJK.search(piece)) == japanese_title
        out.append((f"{title}: {piece}" if title and same_script else piece, piece))
    return out


def pieces(chunk: Chunk, size: int = PASSAGE_CHARS, limit: int = EMBEDDED_CHARS) -> list[str]:
    """Return the first limit characters of chunk's text in pieces of about size
    characters, cut at sentence ends (the text of passages, as it stands in the chunk)."""
    out, piece = [], ""
    for sentence in _SENTENCE_END.split(chunk.text[:limit]):
        if piece and len(piece) + len(sentence) > size:
            out.append(piece)
            piece = ""
        piece = f"{piece} {sentence}".strip() if piece and sentence[:1].isascii() else piece + sentence
        while len(piece) > 2 * size:
            out.append(piece[:size])
            piece = piece[size:]
    if piece:
        out.append(piece)
    return out


def _window(pages, run, key) -> Chunk:
    label = f"pp. {run[0]}–{run[-1]}" if len(run) > 1 else f"p. {run[0]}"
    text, starts = _joined((n, for_search("\n".join(pages[n]))) for n in run)
    return Chunk(key=key, title=label, breadcrumb=[], page_start=run[0], page_end=run[-1],
                 text=text, starts=starts)


def _start_lines(placed, pages) -> dict:
    """Return heading id → the line its text starts at.

    A heading placed on a page without a line is looked for on that page
    below the heading before it (its number or its words opening a line);
    not found, it starts just after that heading when both share the page
    (so "2.4" then "2.4.1" keep their order), else at the top of its page.
    """
    lines, previous = {}, None
    for heading in sorted(placed, key=lambda h: h.position):
        if heading.line is not None:
            lines[heading.pk] = heading.line
        else:
            after = lines[previous.pk] + 1 if previous and previous.page == heading.page else 0
            found = _locate(heading.title, pages.get(heading.page, []), after)
            lines[heading.pk] = after if found is None else found
        previous = heading
    return lines


def _locate(title: str, lines: list[str], start: int) -> int | None:
    """Return the index of the first line from start that opens with title's number or words."""
    title = for_search(title)
    number = _NUMBER.match(title)
    words = re.sub(r"\W+", "", _NUMBER.sub("", title)).casefold()[:12]
    for index in range(start, len(lines)):
        line = for_search(lines[index])
        squeezed = re.sub(r"\W+", "", _NUMBER.sub("", line)).casefold()
        opening = _NUMBER.match(line)
        if number and opening and opening[0].strip().rstrip(".") == number[0].strip().rstrip("."):
            return index
        if len(words) >= 3 and squeezed.startswith(words):
            return index
    return None


def _span(heading, following, page_count, lines):
    """Return ((page, line), (page, line)): where heading's own text starts and stops (exclusive)."""
    start = (heading.page, lines[heading.pk])
    if following is None:
        return start, (max(heading.page, heading.page_end or page_count), None)
    if lines[following.pk] and (following.page == heading.page
                                or not opens_page(lines[following.pk])):
        return start, (following.page, lines[following.pk])
    if following.page > heading.page:
        return start, (following.page - 1, None)
    return start, (heading.page, None)


def _span_text(pages, span, excluded) -> tuple[str, list[list[int]]]:
    """Return the text of span and where each of its pages begins in it."""
    (first, line), (last, stop) = span
    parts = []
    for number in range(first, last + 1):
        if number in excluded or number not in pages:
            continue
        lines = pages[number]
        lo = line if number == first else 0
        hi = stop if number == last and stop is not None else len(lines)
        parts.append((number, for_search("\n".join(lines[lo:hi]))))
    return _joined(parts)


def _joined(parts) -> tuple[str, list[tuple[int, int]]]:
    text, starts = "", []
    for number, part in parts:
        if not part:
            continue
        text += " " if text else ""
        starts.append((number, len(text)))
        text += part
    return text, starts


def _breadcrumbs(headings) -> dict[int, list[str]]:
    by_id = {h.pk: h for h in headings}
    out = {}
    for heading in headings:
        path, node = [], heading
        while node is not None and len(path) < 20:
            path.append(node.title)
            node = by_id.get(node.parent_id)
        out[heading.pk] = path[::-1]
    return out


def _placed_parent(by_id, heading_id, keys):
    """Return the key of the nearest ancestor of heading_id that is a chunk, if any."""
    parent_id = by_id[heading_id].parent_id
    while parent_id is not None:
        if parent_id in keys:
            return keys[parent_id]
        parent_id = by_id[parent_id].parent_id if parent_id in by_id else None
    return None
