#!/usr/bin/env python
"""Benchmark: pages per second of the embed stage's sentence encoders on a real book.

Cuts the sections of pages FIRST..FIRST+PAGES-1 of a born-digital PDF the way
the embed stage does (the PDF's own outline as headings, ``retrieval.index.chunks``
passages: each section's title and breadcrumb, its first 2,400 characters in
pieces of about 320), embeds them with each configured encoder, and prints the
passages, wall and CPU seconds and pages per second of each, and of both.

    python scripts/bench_embeddings.py ~/.cache/bookbench/pdf/dev/octave.pdf

``--english package.module:factory`` measures another English encoder (say, the
numpy BERT of an earlier version, saved as old_minilm.py on PYTHONPATH:
``--english old_minilm:MiniLM``); ``--reference`` names one whose vectors the
English encoder's are compared with (lowest and mean cosine).
"""

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def setup(data_dir: str, english: str | None, threads: int) -> None:
    sys.path.insert(0, str(ROOT))
    for name in [k for k in os.environ if k.startswith("LIBRARIAN_")]:
        del os.environ[name]
    os.environ.update(LIBRARIAN_DATA_DIR=data_dir, LIBRARIAN_EMBEDDING_THREADS=str(threads))
    if english:
        os.environ["LIBRARIAN_ENGLISH_EMBEDDINGS"] = english
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "librarian.settings")
    import django

    django.setup()


def book_passages(path: Path, first: int, count: int) -> list[str]:
    """Return the passages the embed stage would embed for those pages (0-based first)."""
    import pymupdf

    from retrieval.index.chunks import Chunk, passages

    document = pymupdf.open(path)
    last = min(first + count, document.page_count) - 1
    texts = {n: document[n].get_text() for n in range(first, last + 1)}
    outline = [(level, title, page - 1) for level, title, page in document.get_toc()]
    starts = [entry for entry in outline if first <= entry[2] <= last]
    if not starts or starts[0][2] > first:  # the pages before the first heading: its parent's
        before = [entry for entry in outline if entry[2] < first] or [(1, path.stem, first)]
        starts.insert(0, (before[-1][0], before[-1][1], first))
    out, path_titles = [], {}
    for i, (level, title, page) in enumerate(starts):
        end = starts[i + 1][2] if i + 1 < len(starts) else last
        path_titles[level] = title
        breadcrumb = [path_titles[k] for k in sorted(path_titles) if k <= level]
        text = "\n".join(texts[n] for n in range(page, max(page, end) + 1))
        out += passages(Chunk(key=i, title=title, breadcrumb=breadcrumb, page_start=page,
                              page_end=end, text=text))
    return out


def timed(encoder, texts):
    encoder.encode(texts[:2])  # loading the model (and making it, the first time) is not timed
    wall, cpu = time.perf_counter(), time.process_time()
    vectors = encoder.encode(texts)
    return vectors, time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pdf", type=Path)
    parser.add_argument("--first", type=int, default=40, help="first page, from 0 (default 40)")
    parser.add_argument("--pages", type=int, default=64)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--english", help="LIBRARIAN_ENGLISH_EMBEDDINGS for this run")
    parser.add_argument("--reference", help="a package.module:factory to compare vectors with")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data_dir:
        setup(data_dir, args.english, args.threads)
        from retrieval.index import embeddings

        texts = book_passages(args.pdf, args.first, args.pages)
        print(f"{args.pdf.name}: pages {args.first + 1}-{args.first + args.pages}, "
              f"{len(texts)} passages, {args.threads} thread(s)")
        total_wall = total_cpu = 0.0
        for encoder in embeddings.encoders():
            chosen = [text for text in texts if encoder.applies(text)]
            vectors, wall, cpu = timed(encoder, chosen)
            total_wall, total_cpu = total_wall + wall, total_cpu + cpu
            print(f"  {encoder.role:12} {encoder.name:22} {len(chosen):5} passages "
                  f"{wall:7.2f} s wall {cpu:7.2f} s CPU  {args.pages / wall:6.2f} pages/s "
                  f"({args.pages / cpu:.2f} per CPU s)")
            if args.reference and encoder.role == embeddings.ENGLISH:
                reference = embeddings.Encoder(encoder.role, args.reference).encode(chosen)
                cosines = (vectors * reference).sum(1)
                print(f"  cosine to {args.reference}: lowest {cosines.min():.4f}, "
                      f"mean {cosines.mean():.4f}")
        print(f"  {'both':35} {total_wall:7.2f} s wall {total_cpu:7.2f} s CPU  "
              f"{args.pages / total_wall:6.2f} pages/s ({args.pages / total_cpu:.2f} per CPU s)")


if __name__ == "__main__":
    main()
