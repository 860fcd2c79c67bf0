"""Measure the verify agent on held-out headings: placed ones, unplaced for the question.

The real pipeline sends the agent only what code could not place, which on the
bookbench dev scans is a handful of headings; this asks it about a sample of
headings code did place (their placement hidden), exactly as the verify stage
would, and scores the checked answers against the ground truth. Nothing is
written to the database.

Usage (in a bookbench data directory that has run the pipeline):
  LIBRARIAN_DATA_DIR=~/.cache/librarian-bench/scans \\
  .venv/bin/python scripts/agent_eval.py --books faq,jlshort --per-book 5
"""

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "librarian.settings")

import django  # noqa: E402

django.setup()

import llm  # noqa: E402
from books.models import Book  # noqa: E402
from indexing.bench_toc import align  # noqa: E402
from indexing.contract import StageContext  # noqa: E402
from indexing.stages.verify import HEADING_FIELDS, _Agent  # noqa: E402

TRUTH = Path(__file__).resolve().parent.parent.parent / "shared" / "bookbench" / "gt"


class _Row:
    def __init__(self, heading):
        self.title, self.page = heading["title"], heading["page"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--books", required=True)
    parser.add_argument("--per-book", type=int, default=5)
    args = parser.parse_args()
    ctx = StageContext.from_settings()
    model = llm.load(ctx.llm)
    if model is None:
        sys.exit("No language model: see the log line above.")
    totals = {"asked": 0, "placed": 0, "right": 0, "wrong": 0, "seconds": 0.0}
    for book_id in args.books.split(","):
        book = Book.objects.get(original_filename=f"{book_id}.pdf")
        gt = json.loads((TRUTH / f"{book_id}.gt.json").read_text())
        headings = list(book.headings.order_by("position").values(*HEADING_FIELDS))
        truth = [item for item in gt["outline"] if item["in_printed_toc"]]
        pages = {i: truth[j]["page"] for i, j in align([_Row(h) for h in headings], truth)}
        exact = [i for i, h in enumerate(headings) if h["status"] == "exact" and i in pages]
        for index in random.Random(book_id).sample(exact, min(args.per_book, len(exact))):
            hidden = [dict(h) for h in headings]
            hidden[index].update(page=None, status="unresolved")
            agent = _Agent(ctx.llm, model, book, hidden)
            started = time.monotonic()
            verdict = agent.ask(index)
            seconds = time.monotonic() - started
            right = verdict.placed and verdict.page == pages[index]
            totals["asked"] += 1
            totals["placed"] += verdict.placed
            totals["right"] += bool(right)
            totals["wrong"] += verdict.placed and not right
            totals["seconds"] += seconds
            print(f"{book_id} {headings[index]['title'][:40]!r} truth p{pages[index]} "
                  f"-> {verdict.page} ({seconds:.0f} s): {verdict.reason[:90]}", flush=True)
    print(json.dumps(totals))


if __name__ == "__main__":
    main()
