"""Full-text search over page text, for Japanese and English alike.

On SQLite, an FTS5 table with the trigram tokenizer matches any substring of
three characters or more without a word segmenter; shorter terms fall back to
LIKE over the same normalised text. On PostgreSQL, a table of the same shape
carries a pg_trgm GIN index that serves ILIKE for every term. Other databases
use case-insensitive containment through the ORM.
"""

from dataclasses import dataclass

from django.db import connection
from django.db.models import Q

from books.models import Page
from books.text import excerpt, for_search, query_terms, term_variants

FTS_TABLE = "books_page_fts"
TRIGRAM = 3


@dataclass(frozen=True)
class Hit:
    page_id: int
    book_id: int
    page: int
    score: float
    excerpt: list
    label: str = ""  # the printed page number, where known (filled in by books.hits)


def uses_fts() -> bool:
    """Return True on SQLite, where FTS_TABLE is an FTS5 table (MATCH, bm25)."""
    return connection.vendor == "sqlite"


def _has_table() -> bool:
    """Return True if the database keeps normalised page text in FTS_TABLE (SQLite, PostgreSQL)."""
    return connection.vendor in ("sqlite", "postgresql")


def index_book(book, progress=None, batch_size=200) -> int:
    """Index (or re-index) every page of book; return how many pages hold text.

    Pages are read a batch at a time, each read finished before its batch is written: on
    SQLite, a write made while a read is still open on the same connection cannot wait
    for another worker's write to end, and fails at once ("database is locked")."""
    remove_book(book.pk)
    pages = Page.objects.filter(book=book).exclude(text="").order_by("number")
    total = book.page_count
    indexed, after = 0, 0
    while True:
        batch = list(pages.filter(number__gt=after)
                     .values_list("number", "id", "text")[:batch_size])
        if not batch:
            return indexed
        after = batch[-1][0]
        indexed += _insert([(page_id, for_search(text)) for _, page_id, text in batch])
        if progress:
            progress(min(indexed, total), total)


def _insert(rows) -> int:
    if rows and _has_table():
        with connection.cursor() as cursor:
            cursor.executemany(f"INSERT INTO {FTS_TABLE} (rowid, text) VALUES (%s, %s)", rows)
    return len(rows)


def remove_book(book_id: int) -> None:
    if _has_table():
        with connection.cursor() as cursor:
            cursor.execute(
                f"DELETE FROM {FTS_TABLE} WHERE rowid IN "
                "(SELECT id FROM books_page WHERE book_id = %s)",
                [book_id],
            )


def search(query: str, book_ids=None, limit: int = 50) -> list[Hit]:
    """Return the pages matching every term of query, best first."""
    terms = query_terms(query)
    if not terms:
        return []
    search_rows = {"sqlite": _search_fts, "postgresql": _search_pg}.get(connection.vendor, _search_orm)
    rows = search_rows(terms, book_ids, limit)
    hits = []
    for page_id, book_id, number, text, score in rows:
        shown = match_terms(terms, text)
        hits.append(Hit(page_id=page_id, book_id=book_id, page=number, score=score,
                        excerpt=excerpt(text, shown, around=max(shown, key=len))))
    return hits


def match_terms(terms: list[str], text: str | None = None) -> list[str]:
    """Return what to highlight for terms: each term, and the parts of a dashed one.

    Given the text, the parts only where the whole term is not in it: a page
    that says "apt-mark" should not light up every "apt" in "aptitude".
    """
    folded = text.casefold() if text is not None else None
    shown = list(terms)
    for term in terms:
        if folded is not None and term.casefold() in folded:
            continue
        for way in term_variants(term)[1:]:
            shown.extend(part for part in way if part not in shown)
    return shown


def _like(term: str) -> str:
    escaped = term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def _quoted(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


def _fts_term(term: str) -> str:
    """Return the MATCH expression for one term: itself, or its parts where a dash joins them."""
    ways = term_variants(term)
    if len(ways) == 1:
        return _quoted(term)
    return "(" + " OR ".join("(" + " AND ".join(map(_quoted, way)) + ")" for way in ways) + ")"


def _search_fts(terms, book_ids, limit):
    long_terms = [term for term in terms if len(term) >= TRIGRAM]
    where, params = [], []
    if long_terms:
        where.append(f"{FTS_TABLE} MATCH %s")
        params.append(" AND ".join(_fts_term(term) for term in long_terms))
    for term in terms:
        if len(term) < TRIGRAM:
            where.append(f"{FTS_TABLE}.text LIKE %s ESCAPE '\\'")
            params.append(_like(term))
    if book_ids is not None:
        book_ids = list(book_ids) or [0]
        where.append(f"p.book_id IN ({', '.join(['%s'] * len(book_ids))})")
        params.extend(book_ids)
    # bm25 is lower for better matches; short terms alone are ranked by how often they recur.
    rank, rank_params = (f"-bm25({FTS_TABLE})", []) if long_terms else _count_rank(terms, "length")
    sql = (
        f"SELECT p.id, p.book_id, p.number, {FTS_TABLE}.text, {rank} AS score "
        f"FROM {FTS_TABLE} JOIN books_page p ON p.id = {FTS_TABLE}.rowid "
        f"WHERE {' AND '.join(where)} ORDER BY score DESC, p.book_id, p.number LIMIT %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*rank_params, *params, limit])
        return [(pid, bid, num, text, float(score)) for pid, bid, num, text, score in cursor]


def _pg_rank(long_terms) -> tuple[str, list]:
    return _count_rank(long_terms, "char_length")


def _count_rank(terms, char_length: str) -> tuple[str, list]:
    """Return a score expression over FTS_TABLE.text and its parameters.

    A BM25-like saturation of each term's count on the page, so a page where
    the terms recur ranks first. char_length names the SQL function.
    """
    text = f"{FTS_TABLE}.text"
    length = f"(0.25 + 0.75 * {char_length}({text}) / 2000.0)"
    parts, params = [], []
    for term in terms:
        count = (f"(({char_length}({text}) - {char_length}(replace(lower({text}), %s, '')))"
                 f" / {len(term)}.0)")
        parts.append(f"{count} / ({count} + 1.2 * {length})")
        params += [term.lower()] * 2
    return " + ".join(parts) or "0", params


def _ilike_term(term: str) -> tuple[str, list]:
    """Return the condition for one term (its parts where a dash joins them) and its parameters."""
    ways = term_variants(term)
    sql = " OR ".join("(" + " AND ".join([f"{FTS_TABLE}.text ILIKE %s"] * len(way)) + ")"
                      for way in ways)
    return f"({sql})", [_like(part) for way in ways for part in way]


def _search_pg(terms, book_ids, limit):
    # Every term is an ILIKE the trigram index serves; short terms only filter,
    # as on SQLite.
    where, params = [], []
    for term in terms:
        condition, condition_params = _ilike_term(term)
        where.append(condition)
        params.extend(condition_params)
    if book_ids is not None:
        where.append("p.book_id = ANY(%s)")
        params.append(list(book_ids))
    long_terms = [term for term in terms if len(term) >= TRIGRAM]
    rank, rank_params = _pg_rank(long_terms or terms)
    sql = (
        f"SELECT p.id, p.book_id, p.number, {FTS_TABLE}.text, {rank} AS score "
        f"FROM {FTS_TABLE} JOIN books_page p ON p.id = {FTS_TABLE}.rowid "
        f"WHERE {' AND '.join(where)} ORDER BY score DESC, p.book_id, p.number LIMIT %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*rank_params, *params, limit])
        return [(pid, bid, num, text, float(score)) for pid, bid, num, text, score in cursor]


def _search_orm(terms, book_ids, limit):
    pages = Page.objects.exclude(text="")
    for term in terms:
        either = Q()
        for way in term_variants(term):
            either |= Q(*(Q(text__icontains=part) for part in way))
        pages = pages.filter(either)
    if book_ids is not None:
        pages = pages.filter(book_id__in=book_ids)
    rows = pages.order_by("book_id", "number").values_list("id", "book_id", "number", "text")
    return [(pid, bid, num, for_search(text), 0.0) for pid, bid, num, text in rows[:limit]]
