#!/usr/bin/env python
"""Benchmark: how long a clipped PDF ("download these pages") takes from a long book.

Registers the PDF in a throw-away data directory, gives it the structure a
finished pipeline would (the PDF's own outline as headings, its page labels as
printed numbers: the clip's cost does not depend on how they were found), then
times ``books.clip.clip_pdf`` for a one-page clip from the middle of the book and
a clip of the most pages allowed, a few times each, and prints the figures.

    python scripts/bench_clip.py ~/.cache/bookbench/pdf/dev/octave.pdf
"""

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def setup(data_dir: str) -> None:
    sys.path.insert(0, str(ROOT))
    os.environ["LIBRARIAN_DATA_DIR"] = data_dir
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "librarian.settings")
    for name in [k for k in os.environ if k.startswith("LIBRARIAN_") and k != "LIBRARIAN_DATA_DIR"]:
        del os.environ[name]
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


def shelve(path: Path):
    """Return the book registered from path, with headings and page labels of its own."""
    import pymupdf

    from books.models import Heading, Page
    from books.registration import read_chunks, register

    with open(path, "rb") as handle:
        book = register(read_chunks(handle), path.name).book
    with pymupdf.open(path) as document:
        Page.objects.bulk_create(
            Page(book=book, number=n + 1, width=p.rect.width, height=p.rect.height,
                 source=Page.Source.TEXT_LAYER, label=(p.get_label() or "")[:32])
            for n, p in enumerate(document))
        parents: dict[int, Heading] = {}
        for position, (level, title, page) in enumerate(document.get_toc(simple=True), 1):
            heading = Heading.objects.create(
                book=book, parent=parents.get(level - 1), position=position, level=level,
                title=title[:1000], page=page if page > 0 else None,
                status=Heading.Status.EXACT if page > 0 else Heading.Status.UNRESOLVED)
            parents[level] = heading
    return book


def timed(book, start: int, end: int, repeat: int) -> tuple[list[float], int]:
    from books.clip import clip_pdf

    seconds, size = [], 0
    for _ in range(repeat):
        began = time.perf_counter()
        size = len(clip_pdf(book, start, end))
        seconds.append(time.perf_counter() - began)
    return seconds, size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pdf", type=Path)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-clip-") as data_dir:
        setup(data_dir)
        from books.clip import max_clip_pages

        book = shelve(args.pdf.expanduser())
        middle = book.page_count // 2
        longest = min(max_clip_pages(), book.page_count)
        first = max(1, middle - longest // 2)
        print(f"{book.title}: {book.page_count} pages, {book.size_bytes / 2**20:.1f} MB, "
              f"{book.headings.count()} headings")
        for start, end in ((middle, middle), (first, first + longest - 1)):
            seconds, size = timed(book, start, end, args.repeat)
            print(f"clip of {end - start + 1:>3} page(s) ({start}-{end}): "
                  f"median {statistics.median(seconds):.3f} s, best {min(seconds):.3f} s, "
                  f"first {seconds[0]:.3f} s, {size / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
