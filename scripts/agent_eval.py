"""Measure the verify agent on held-out headings: placed ones, unplaced for the question.

The real pipeline sends the agent only what code could not place, which on the
bookbench dev scans is a handful of headings; this asks it about a sample of
headings code did place (their placement hidden), exactly as the verify stage
would (a few per call, only lines that could pass the check shown), and scores
the checked answers against the ground truth: how many it placed, how many
right, and what a placed heading cost in calls, tokens and seconds. Nothing is
written to the books.

Usage (in a data directory whose books ran the pipeline, e.g. bookbench's):
  LIBRARIAN_DATA_DIR=~/.cache/librarian-bench/scans \\
  .venv/bin/python scripts/agent_eval.py --books faq,jlshort --per-book 8
BOOKBENCH_TRUTH names shared/bookbench where it is not beside the checkout.
With --lines-dir, books missing from the data directory are made there from OCR
lines already read (scripts/ocr_lines.py or bookbench --dump-lines): the scan is
registered, its pages stored from DIR/<id>.json, and ingest and index run.
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
from books.models import Book, Page  # noqa: E402
from bench.contents import align  # noqa: E402
from indexing.contract import StageContext  # noqa: E402
from indexing.stages.verify import BATCH, HEADING_FIELDS, _Agent, batches  # noqa: E402

SHARED = Path(os.environ.get(
    "BOOKBENCH_TRUTH", Path(__file__).resolve().parent.parent.parent / "shared" / "bookbench"))
BENCH = Path(os.environ.get("BOOKBENCH_DIR", Path.home() / ".cache" / "bookbench"))


class _Row:
    def __init__(self, heading):
        self.title, self.page = heading["title"], heading["page"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--books", required=True)
    parser.add_argument("--per-book", type=int, default=8)
    parser.add_argument("--batch", type=int, default=BATCH, help="headings per call")
    parser.add_argument("--lines-dir", type=Path)
    args = parser.parse_args()
    if args.lines_dir:
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
    ctx = StageContext.from_settings()
    model = llm.load(ctx.llm)
    if model is None:
        sys.exit("No language model: see the log line above.")
    totals = {"asked": 0, "not_worth_a_call": 0, "calls": 0, "placed": 0, "right": 0,
              "wrong": 0, "tokens": 0, "seconds": 0.0}
    for book_id in args.books.split(","):
        book = find_book(book_id, args.lines_dir)
        evaluate(book, book_id, ctx, model, args, totals)
    placed = max(totals["placed"], 1)
    totals.update(precision=round(totals["right"] / placed, 3),
                  seconds_per_call=round(totals["seconds"] / max(totals["calls"], 1), 1),
                  seconds_per_placed=round(totals["seconds"] / placed, 1),
                  tokens_per_placed=round(totals["tokens"] / placed))
    print(json.dumps(totals))


def evaluate(book, book_id, ctx, model, args, totals) -> None:
    gt = json.loads(truth_path(book_id).read_text())
    headings = list(book.headings.order_by("position").values(*HEADING_FIELDS))
    truth = [item for item in gt["outline"] if item["in_printed_toc"]]
    pages = {i: truth[j]["page"] for i, j in align([_Row(h) for h in headings], truth)}
    exact = [i for i, h in enumerate(headings) if h["status"] == "exact" and i in pages]
    sample = sorted(random.Random(book_id).sample(exact, min(args.per_book, len(exact))))
    hidden = [dict(h) for h in headings]
    for index in sample:
        hidden[index].update(page=None, status="unresolved")
    agent = _Agent(ctx.llm, model, book, hidden)
    for batch in batches(sample, args.batch):
        started = time.monotonic()
        verdicts = agent.ask(batch)
        seconds = time.monotonic() - started
        totals["seconds"] += seconds
        for index, verdict in verdicts.items():
            right = verdict.placed and verdict.page == pages[index]
            totals["asked"] += 1
            totals["placed"] += verdict.placed
            totals["right"] += bool(right)
            totals["wrong"] += verdict.placed and not right
            print(f"{book_id} {headings[index]['title'][:40]!r} truth p{pages[index]} "
                  f"-> {verdict.page}: {verdict.reason[:80]}", flush=True)
        print(f"  batch of {len(batch)}: {seconds:.0f} s", flush=True)
    totals["calls"] += agent.calls
    totals["not_worth_a_call"] += agent.unasked
    totals["tokens"] += agent.budget.tokens


def truth_path(book_id: str) -> Path:
    for path in (SHARED / "gt" / f"{book_id}.gt.json",
                 *(BENCH / "scans" / where / f"{book_id}.gt.json"
                   for where in ("hard", "vertical"))):
        if path.exists():
            return path
    sys.exit(f"No ground truth for {book_id}.")


def find_book(book_id: str, lines_dir: Path | None):
    book = Book.objects.filter(original_filename=f"{book_id}.pdf").first()
    if book or not lines_dir:
        return book or sys.exit(f"{book_id} is not in this data directory (give --lines-dir).")
    return seed(book_id, next(BENCH.glob(f"scans/*/{book_id}.pdf")), lines_dir / f"{book_id}.json")


def seed(book_id: str, pdf: Path, lines: Path):
    """Register the scan and store its pages from already read lines; run ingest and index."""
    from books.registration import read_chunks, register
    from books import textlayer
    from indexing.runner import run_pending

    with open(pdf, "rb") as handle:
        book = register(read_chunks(handle), pdf.name).book
    Page.objects.bulk_create(Page(
        book=book, number=page["number"], width=page["width"], height=page["height"],
        source=Page.Source.OCR, lines=page["lines"], gutter=page.get("gutter"),
        text=textlayer.page_text(page["lines"])) for page in json.loads(lines.read_text()))
    run_pending("agent-eval", stages=["ocr", "ingest", "contents"], book_id=book.pk)
    print(f"{book_id}: made from {lines}", flush=True)
    return book


if __name__ == "__main__":
    main()
