"""Score back-of-book index reading (indexing.backindex.read) against bookbench ground truth,
without a database: the figures of docs/book-index.md.

Usage: .venv/bin/python scripts/bookindex_eval.py [--books id,…] [--lines-dir DIR] [-v]

Pages come from the born-digital PDFs' text layer (BOOKBENCH_DIR/pdf/dev/<id>.pdf)
or, with --lines-dir, from DIR/<id>.json (a list of page dicts, e.g. the OCR
lines of the scans). Printed page labels come from the folios, as the index
stage reads them (toc.folios.fit). Per book: entries recalled,
(entry, page) pairs exact, precision of the pairs given, locators left
unresolved and the seconds the reading took (labels aside).
"""

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.pages import load_pages  # noqa: E402
from bench.backindex import score  # noqa: E402
from indexing.backindex import read  # noqa: E402
from books.textlayer import page_text  # noqa: E402
from toc.folios import fit  # noqa: E402

BOOKS = ["memman", "octave", "beamer", "faq", "jlshort", "devref-ja", "maint-ja"]
GT_DIR = Path(os.environ.get("BOOKBENCH_GT_INDEX", "/work/shared/bookbench/gt_index"))


def evaluate(book: str, lines_dir: Path | None) -> dict:
    truth = json.loads((GT_DIR / f"{book}.json").read_text())
    pages = load_pages(book, lines_dir)
    labels = fit(pages).labels
    start = time.perf_counter()
    # Dumped lines are OCR's: the terms are mended against their text, as the stage does.
    ocr_text = {page["number"]: page_text(page["lines"]) for page in pages} if lines_dir else None
    result = read(pages, labels, ocr_text=ocr_text)
    seconds = time.perf_counter() - start
    found = [{"term": e.term, "parent": e.parent, "pages": [loc.page for loc in e.locators]}
             for e in result.entries]
    row = score(found, truth["entries"])
    row.update(book=book, seconds=seconds, index_pages=result.index_pages,
               gt_index_pages=truth["index_pages"])
    return row


def _pct(part: int, whole: int) -> str:
    return f"{part / whole:7.1%}" if whole else "      -"


def report(rows: list[dict], verbose: bool) -> None:
    print("book        gt found entries  pairs  exact  prec  unres  pages          sec")
    for r in rows:
        pages = f"{r['index_pages'][0]}–{r['index_pages'][-1]}" if r["index_pages"] else "none"
        print(f"{r['book']:<10}{r['gt_entries']:>5} {r['found_entries']:>5}"
              f" {_pct(r['entries_matched'], r['gt_entries'])} {r['gt_pairs']:>6}"
              f" {_pct(r['pairs_matched'], r['gt_pairs'])}"
              f" {_pct(r['pairs_matched'], r['found_pairs'])}"
              f" {r['unresolved']:>5}  {pages:<13} {r['seconds']:5.2f}")
        if verbose:
            for key in r["missed"][:400]:
                print(f"   MISSED {key}")
            for key in r["extra"][:400]:
                print(f"   EXTRA  {key}")
            for key, page in r["wrong_pairs"][:400]:
                print(f"   WRONG  {key} p{page}")
    total = {k: sum(r[k] for r in rows) for k in
             ("gt_entries", "found_entries", "entries_matched", "gt_pairs", "found_pairs",
              "pairs_matched", "unresolved")}
    print(f"{'overall':<10}{total['gt_entries']:>5} {total['found_entries']:>5}"
          f" {_pct(total['entries_matched'], total['gt_entries'])} {total['gt_pairs']:>6}"
          f" {_pct(total['pairs_matched'], total['gt_pairs'])}"
          f" {_pct(total['pairs_matched'], total['found_pairs'])} {total['unresolved']:>5}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--books", default=",".join(BOOKS))
    parser.add_argument("--lines-dir", type=Path)
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    report([evaluate(book, args.lines_dir) for book in args.books.split(",")], args.verbose)


if __name__ == "__main__":
    main()
