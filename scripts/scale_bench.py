"""How answering scales with the shelf: grow a shelf of processed books to N and ask.

    .venv/bin/python scripts/scale_bench.py --source ~/.cache/librarian-bench/born \\
        --work ~/.cache/librarian-scale --sizes 8,64,256,1000

The source is a data directory whose books went through the pipeline (the
born-digital bookbench books: ``manage.py bookbench --set born``). The work
directory starts as a copy of it and grows, size by size, with copies of its
books: each copy is a book of its own (its own id, title, pages with their
text and printed labels, full-text rows with ``--fts``, its retrieval files,
its sections in the shelf's word index and its rows in the shelf's vector
indexes). A copy's files are hard links to the original's (the same bytes,
no disk); its pages keep their text but not their OCR lines (answering never
reads them). ``--small`` copies only the three smallest books, for a shelf of
10,000 that fits on the disk.

For each size a fresh process answers 13 English and Japanese questions from
the natural set twice and prints: the cold start (process start to the first
answer, models loaded), median and p90 of a whole answer, the first card's
p50, and the process's peak memory. One process per size, so the figures of a
size are comparable with each other; the sizes share the machine's file cache.
"""

import argparse
import hashlib
import json
import os
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
QUESTIONS = ROOT.parent / "shared" / "bookbench" / "questions" / "natural.jsonl"


def setup(data_dir: Path):
    sys.path.insert(0, str(ROOT))
    os.environ["DJANGO_SETTINGS_MODULE"] = "librarian.settings"
    os.environ["LIBRARIAN_DATA_DIR"] = str(data_dir)
    os.environ["LIBRARIAN_LLM_MODEL"] = "none"
    os.environ.setdefault("LIBRARIAN_INDEX_CACHE_BOOKS", "300")
    import django

    django.setup()


def start(source: Path, work: Path) -> None:
    """Make the work directory a copy of source: its database and hard links to its files."""
    if work.exists():
        shutil.rmtree(work)
    (work / "retrieval").mkdir(parents=True)
    with sqlite3.connect(source / "librarian.sqlite3") as old, \
            sqlite3.connect(work / "librarian.sqlite3") as new:
        old.backup(new)
    for name in ("secret_key",):
        if (source / name).exists():
            shutil.copy2(source / name, work / name)
    for folder in (source / "retrieval").iterdir():
        if folder.name.isdigit():
            _link_dir(folder, work / "retrieval" / folder.name)


def _link_dir(source: Path, target: Path) -> None:
    target.mkdir(parents=True, exist_ok=True)
    for path in source.iterdir():
        if path.is_file() and not path.name.endswith((".faiss", ".lock")) and "flat" not in path.name:
            os.link(path, target / path.name)


def grow(to: int, fts: bool, small: bool) -> int:
    """Add copies of the shelf's original books until it holds `to` books; return the count."""
    from django.db import connection, transaction

    from books.models import Book, Page
    from books.search import FTS_TABLE
    from retrieval.index import files

    originals = list(Book.objects.exclude(title__contains=" (copy ")
                     .order_by("page_count" if small else "pk"))
    if small:
        originals = originals[:3]
    count = Book.objects.count()
    columns = [f.column for f in Page._meta.concrete_fields if f.column not in ("id", "book_id")]
    added = []
    with transaction.atomic():
        while count < to:
            original = originals[count % len(originals)]
            copy = Book.objects.get(pk=original.pk)
            copy.pk = None
            copy.title = f"{original.title} (copy {count})"
            copy.sha256 = hashlib.sha256(f"{original.sha256}:{count}".encode()).hexdigest()
            copy.save()
            picked = ", ".join("'[]'" if c == "lines" else c for c in columns)
            with connection.cursor() as cursor:
                cursor.execute(f"INSERT INTO books_page (book_id, {', '.join(columns)}) "
                               f"SELECT %s, {picked} FROM books_page WHERE book_id = %s",
                               [copy.pk, original.pk])
                if fts:
                    cursor.execute(f"INSERT INTO {FTS_TABLE} (rowid, text) SELECT p.id, f.text "
                                   "FROM books_page p JOIN books_page o ON o.book_id = %s "
                                   f"AND o.number = p.number JOIN {FTS_TABLE} f ON f.rowid = o.id "
                                   "WHERE p.book_id = %s", [original.pk, copy.pk])
            _link_dir(files.book_dir(original.pk), files.book_dir(copy.pk))
            added.append((copy.pk, original.pk))
            count += 1
    _index(added)
    return count


def _index(added) -> None:
    """Put the copies in the shelf's word and vector indexes and its names, in bulk."""
    from retrieval.index import embeddings, lexical, vectors
    from retrieval.question import names
    from retrieval.index import cut, files, reader

    fields, covers = {}, names.all_names()
    for original in {o for _, o in added}:
        fields[original] = [cut.word_fields(c) for c in reader.stored_chunks(original)]
    lexical.get().replace_many({copy: fields[original] for copy, original in added})
    for encoder in embeddings.encoders():
        rows = {copy: vectors.read_book(files.book_dir(original), encoder.role)[0]
                for copy, original in added}
        files.shelf_vectors(encoder.role).replace_many(rows)
    for copy, original in added:
        if covers.get(original):
            names.put(copy, covers[original])


def rebuild_shelf() -> None:
    """Make the shelf's indexes anew from the books' own files (after start)."""
    from books.models import Book
    from retrieval.index import embeddings, lexical, vectors
    from retrieval.index import cut, files, reader

    books = list(Book.objects.values_list("pk", flat=True))
    sections = {pk: [cut.word_fields(c) for c in reader.stored_chunks(pk)] for pk in books}
    lexical.get().replace_many(sections)
    for encoder in embeddings.encoders():
        files.shelf_vectors(encoder.role).replace_many(
            {pk: vectors.read_book(files.book_dir(pk), encoder.role)[0] for pk in books})


def questions() -> list[str]:
    rows = [json.loads(line) for line in QUESTIONS.read_text().splitlines() if line.strip()]
    english = [r["query"] for r in rows if r["lang"] == "en"][::5][:7]
    japanese = [r["query"] for r in rows if r["lang"] == "ja"][::5][:6]
    return english + japanese


def measure(started: float) -> dict:
    """Answer the questions twice in this fresh process; return the figures."""
    from books.models import Book
    from retrieval import iter_results
    from retrieval.index import embeddings
    from retrieval.results import Result

    embeddings.warm()
    models = time.perf_counter() - started
    asked = questions()
    whole, first, cold = [], [], None
    for round_ in range(2):
        for question in asked:
            t0 = time.perf_counter()
            seen = None
            for item in iter_results(question):
                if seen is None and isinstance(item, Result):
                    seen = time.perf_counter() - t0
            done = time.perf_counter() - t0
            if cold is None:
                cold = time.perf_counter() - started
                continue  # the first answer is the cold start, not a sample
            whole.append(done)
            first.append(seen if seen is not None else done)
    whole.sort()
    return {
        "books": Book.objects.count(), "questions": len(whole),
        "cold_start_s": round(cold, 2), "models_s": round(models, 2),
        "median_ms": round(1000 * statistics.median(whole)),
        "p90_ms": round(1000 * whole[int(0.9 * (len(whole) - 1))]),
        "first_p50_ms": round(1000 * statistics.median(first)),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, default=Path.home() / ".cache/librarian-bench/born")
    parser.add_argument("--work", type=Path, default=Path.home() / ".cache/librarian-scale")
    parser.add_argument("--sizes", default="8,64,256,1000")
    parser.add_argument("--fts", action="store_true", help="Copy the full-text rows too.")
    parser.add_argument("--small", action="store_true", help="Copy only the three smallest books.")
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        started = time.perf_counter()
        setup(args.work)
        print(json.dumps(measure(started)))
        return
    start(args.source.expanduser(), args.work.expanduser())
    setup(args.work.expanduser())
    rebuild_shelf()
    print(f"{'books':>6} {'grow s':>7} {'cold start s':>12} {'median ms':>10} {'p90 ms':>7} "
          f"{'first p50 ms':>12} {'peak MB':>8}")
    for size in [int(s) for s in args.sizes.split(",")]:
        t0 = time.perf_counter()
        count = grow(size, args.fts, args.small)
        grown = time.perf_counter() - t0
        out = subprocess.run([sys.executable, __file__, "--measure", "--work", str(args.work)],
                             capture_output=True, text=True, check=True).stdout
        f = json.loads(out.strip().splitlines()[-1])
        print(f"{count:>6} {grown:>7.0f} {f['cold_start_s']:>12} {f['median_ms']:>10} "
              f"{f['p90_ms']:>7} {f['first_p50_ms']:>12} {f['peak_rss_mb']:>8}", flush=True)


if __name__ == "__main__":
    main()
