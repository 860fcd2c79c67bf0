#!/usr/bin/env python
"""Benchmark: from registering three born-digital PDFs to all three answerable, as served.

Registers the books in a throw-away data directory as an upload does, then runs
the embedded worker threads the server would start (``LIBRARIAN_WORKER_THREADS``,
default one a core) until every stage of every book is done, and prints when
each book became answerable (its last stage, embed, done), the total, and each
stage's seconds and pages per second.

    python scripts/bench_three_books.py                      # beamer, memman and octave
    python scripts/bench_three_books.py --pages 300 a.pdf b.pdf c.pdf

``--pages N`` keeps the first N pages of each PDF (a book of its own), so that
three books of about the same length can be cut from longer ones. As before
this branch: ``--threads 1 --english old_minilm:MiniLM`` (one book at a time, the
numpy encoder saved from git as old_minilm.py on PYTHONPATH).
"""

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEV = Path.home() / ".cache" / "bookbench" / "pdf" / "dev"
DEFAULT = [DEV / "beamer.pdf", DEV / "memman.pdf", DEV / "octave.pdf"]
OCR_MODELS = Path.home() / ".cache" / "librarian" / "ocr-models"  # shared with the tests


def setup(data_dir: Path, threads: int | None, english: str | None) -> None:
    sys.path.insert(0, str(ROOT))
    for name in [k for k in os.environ if k.startswith("LIBRARIAN_")]:
        del os.environ[name]
    os.environ.update(LIBRARIAN_DATA_DIR=str(data_dir), LIBRARIAN_LLM_MODEL="none",
                      LIBRARIAN_OCR_MODEL_DIR=str(OCR_MODELS),
                      DJANGO_SETTINGS_MODULE="librarian.settings")
    if threads is not None:
        os.environ["LIBRARIAN_WORKER_THREADS"] = str(threads)
    if english:
        os.environ["LIBRARIAN_ENGLISH_EMBEDDINGS"] = english
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    import logging

    logging.disable(logging.INFO)  # the workers' log lines would cut through the report


def cut(path: Path, pages: int | None, folder: Path) -> Path:
    """Return path, or a copy of its first pages in folder."""
    if not pages:
        return path
    import pymupdf

    document = pymupdf.open(path)
    document.select(range(min(pages, document.page_count)))
    target = folder / f"{path.stem}-{pages}.pdf"
    document.save(target)
    return target


def register(paths: list[Path]) -> list:
    from books.registration import read_chunks, register as register_one

    books = []
    for path in paths:
        with open(path, "rb") as handle:
            books.append(register_one(read_chunks(handle), path.name).book)
    return books


def wait(books, started: float) -> dict[int, float]:
    """Return book id → seconds from registration to its last stage done."""
    from indexing.models import StageRun, pipeline_active

    answerable: dict[int, float] = {}
    while len(answerable) < len(books):
        time.sleep(1)
        for book in books:
            runs = list(StageRun.objects.filter(book=book))
            if book.pk in answerable:
                continue
            if all(run.status == StageRun.Status.DONE for run in runs):
                answerable[book.pk] = time.monotonic() - started
            elif not pipeline_active(runs):
                failed = [f"{run.stage}: {run.message}" for run in runs if run.status == "failed"]
                raise SystemExit(f"{book.title}: the pipeline stopped ({'; '.join(failed)})")
    return answerable


def report(books, answerable: dict, total: float, threads: int, cpu: float) -> None:
    from django.conf import settings

    from indexing.models import StageRun

    print(f"{len(books)} books, {sum(b.page_count for b in books)} pages, {threads} worker "
          f"thread(s), English encoder {settings.LIBRARIAN_ENGLISH_EMBEDDINGS}")
    for book in books:
        runs = StageRun.objects.filter(book=book).order_by("position")
        stages = ", ".join(f"{run.stage} {run.seconds or 0:.1f} s "
                           f"({book.page_count / max(run.seconds or 0, 1e-3):.1f} p/s)"
                           for run in runs)
        print(f"  {book.title[:40]:40} {book.page_count:5} pages: answerable after "
              f"{answerable[book.pk]:7.1f} s — {stages}")
    print(f"  all {len(books)} answerable after {total:.1f} s, {cpu:.1f} s of CPU (on a busy "
          "machine the steadier figure)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pdfs", nargs="*", type=Path, default=DEFAULT)
    parser.add_argument("--pages", type=int, default=300, help="first N pages of each (0: all)")
    parser.add_argument("--threads", type=int, help="LIBRARIAN_WORKER_THREADS for this run")
    parser.add_argument("--english", help="LIBRARIAN_ENGLISH_EMBEDDINGS for this run")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        setup(Path(work) / "data", args.threads, args.english)
        from django.conf import settings

        from indexing import worker
        from retrieval.index import embeddings

        embeddings.warm()  # the server loads the encoders as it starts, not per book
        paths = [cut(path, args.pages, Path(work)) for path in args.pdfs]
        started, cpu = time.monotonic(), time.process_time()
        books = register(paths)
        stop = worker.start_embedded(settings.LIBRARIAN_WORKER_THREADS)
        try:
            answerable = wait(books, started)
        finally:
            stop.set()
            worker.nudge()
        report(books, answerable, max(answerable.values()), settings.LIBRARIAN_WORKER_THREADS,
               time.process_time() - cpu)


if __name__ == "__main__":
    main()
