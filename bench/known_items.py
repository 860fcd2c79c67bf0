"""Known-item questions against the shelf: does the answer name the right section?

Each question is a sentence from the middle of a leaf section of a bookbench
book; the expected answer is that section (breadcrumb, physical pages). The
questions are asked of every loaded book at once, as a reader would.
Figures: section hit@1 and hit@5 (title and first page agree), whether the
first / any of the first five results' page range holds the sentence's
page, the mean pages a first result asks the reader to look through, and
the time to the first result.
"""

import difflib
import json
import os
import re
import statistics
import time
import unicodedata
from pathlib import Path

from retrieval import iter_results
from retrieval.index import files, writer
from retrieval.results import Answer, Result

_NUMBERING = re.compile(
    r"^\s*(?:(?:chapter|part|section|appendix)\s+)?(?:[0-9]+(?:[.．][0-9]+)*[.．]?|[ivxlc]+\.|[a-z]\.)\s*"
    r"|^\s*第\s*[0-9〇一二三四五六七八九十百]+\s*[章部編節款項]\s*",
    re.IGNORECASE,
)


def load_questions(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def title_key(title: str) -> str:
    """Return title without numbering, case, spaces or punctuation."""
    title = _NUMBERING.sub("", unicodedata.normalize("NFKC", title).casefold())
    return "".join(char for char in title if char.isalnum())


def same_section(result: Result, expected: dict, book_id: int) -> bool:
    """Return True if result names the expected section (title alike, first page within one)."""
    if result.book_id != book_id or not result.heading_id:
        return False
    found, wanted = title_key(result.breadcrumb[-1]), title_key(expected["title"])
    alike = bool(found and wanted) and (
        found in wanted or wanted in found
        or difflib.SequenceMatcher(None, found, wanted).ratio() >= 0.6
    )
    return alike and abs(result.page_start - expected["page_start"]) <= 1


def holds(result, expected: dict, book_id: int) -> bool:
    return result.book_id == book_id and result.page_start <= expected["sentence_page"] <= result.page_end


def ask_sections(question: str) -> tuple[list, float, bool]:
    """Return the first five section results, the seconds until the first one, and whether
    the librarian asked which place is meant (``retrieval.answer.interview``)."""
    started, cpu = time.perf_counter(), time.process_time()
    first, results, asked = None, [], False
    for item in iter_results(question, limit=5):
        if isinstance(item, Result):
            first = first or (time.perf_counter() - started, time.process_time() - cpu)
            results.append(item)
        elif isinstance(item, Answer):
            asked = item.clarify is not None
    return results, first or (time.perf_counter() - started, time.process_time() - cpu), asked


def run(questions: list[tuple[int, dict]]) -> dict:
    """Return the figures for (book id, question) pairs."""
    iter_results("warm up", limit=1).__next__()  # loads every index and the encoder
    rows = []
    for book_id, question in questions:
        expected = question["answer"]
        results, (seconds, cpu), asked = ask_sections(question["query"])
        rows.append({
            "qid": question["qid"], "seconds": seconds, "cpu": cpu, "asked": asked,
            "hit1": bool(results) and same_section(results[0], expected, book_id),
            "hit5": any(same_section(r, expected, book_id) for r in results),
            "page1": bool(results) and holds(results[0], expected, book_id),
            "page5": any(holds(r, expected, book_id) for r in results),
            "pages1": results[0].page_end - results[0].page_start + 1 if results else 0,
        })
    return summarise(rows)


def summarise(rows: list[dict]) -> dict:
    count = len(rows) or 1
    seconds = sorted(row["seconds"] for row in rows) or [0.0]
    share = {name: sum(row[name] for row in rows) / count
             for name in ("hit1", "hit5", "page1", "page5", "asked")}
    return {
        "questions": len(rows), **share,
        "pages1": statistics.fmean(row["pages1"] for row in rows) if rows else 0,
        "p50_ms": 1000 * seconds[len(seconds) // 2],
        "cpu_p50_ms": 1000 * statistics.median(row["cpu"] for row in rows) if rows else 0,
        "p95_ms": 1000 * seconds[min(len(seconds) - 1, int(0.95 * len(seconds)))],
        "misses": [row["qid"] for row in rows if not row["hit1"]],
    }


def bench(ids, truth_dir: Path, find_book, write) -> dict:
    """Ask the known-item questions of the books ids (find_book(id) → Book or None), write
    a table with write, and return the figures. Missing indexes are built first (timed)."""
    pairs, books, built = [], [], {}
    for book_id in ids:
        path = truth_dir / "questions" / f"{book_id}.questions.jsonl"
        book = find_book(book_id)
        if book is None or not path.exists():
            write(f"{book_id}: no {'book' if book is None else 'questions'}; skipped")
            continue
        books.append(book)
        if not (files.book_dir(book.pk) / "sections.json").exists():
            started = time.perf_counter()
            writer.build(book)
            built[book_id] = round(time.perf_counter() - started, 1)
        pairs.extend((book.pk, question) for question in load_questions(path))
    figures = {**run(pairs), "books": len(books), "index_seconds": built}
    write(report(figures))
    return figures


def report(f: dict) -> str:
    def pct(value):
        return f"{100 * value:.0f}%"

    return (
        f"\nKnown-item questions ({f['questions']} on {f.get('books', '')} books, each asked of "
        "every book in the data directory)\n"
        f"  {'section hit@1':24}{pct(f['hit1']):>10}\n"
        f"  {'section hit@5':24}{pct(f['hit5']):>10}\n"
        f"  {'pages hold it @1':24}{pct(f['page1']):>10}\n"
        f"  {'pages hold it @5':24}{pct(f['page5']):>10}\n"
        f"  {'pages to read @1':24}{f['pages1']:>10.1f}\n"
        f"  {'asked which place':24}{pct(f['asked']):>10}\n"
        f"  first result p50 {f['p50_ms']:.0f} ms, p95 {f['p95_ms']:.0f} ms "
        f"(CPU time p50 {f['cpu_p50_ms']:.0f} ms; load average {os.getloadavg()[0]:.1f})\n"
        f"  missed at 1: {', '.join(f['misses']) or 'none'}"
    )
