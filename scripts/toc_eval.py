"""Score TOC recovery (toc.recover) against bookbench ground truth, without a database.

A fast loop for working on toc: `manage.py bookbench` measures the
whole stored pipeline; this measures recover() alone on cached page lines.

Usage: .venv/bin/python scripts/toc_eval.py [--books id,…] [--lines-dir DIR]

Pages come from the born-digital PDFs (text layer) or, with --lines-dir, from
DIR/<id>.json (a list of page dicts, e.g. OCR output of the scans).

Matching: extracted entries are aligned to the ground-truth entries that are in
the printed TOC by an order-preserving alignment (dynamic programming, like a
diff) that maximises total title similarity; a pair may align only when the
similarity of their normalised titles (NFKC, case, look-alikes, letters and
digits only; with and without the numbering prefix) is at least 0.75.
"""

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.pages import born_pdf, load_pages  # noqa: E402
from bench.contents import align  # noqa: E402
from bench.real import load_truth, real_ids  # noqa: E402
from toc import recover  # noqa: E402

BOOKS = ["memman", "octave", "beamer", "faq", "devref-ja", "maint-ja", "jlshort"]
GT_DIR = Path(os.environ.get("BOOKBENCH_GT", "/work/shared/bookbench/gt"))
REAL_GT = Path(__file__).resolve().parent.parent / "bench" / "real" / "gt"


def load_outline(book: str) -> list:
    """Return the bookmarks of the born-digital PDF (a scan's lines come without any)."""
    import pymupdf

    from toc.outline import marks_of

    with pymupdf.open(born_pdf(book)) as document:
        return marks_of(document.get_toc(simple=True), document.page_count)


def evaluate(book: str, lines_dir: Path | None, verbose: bool, gt_dir: Path = GT_DIR,
             outline: bool = False) -> dict:
    gt = load_truth(gt_dir / f"{book}.gt.json")
    truth = [g for g in gt["outline"] if g["in_printed_toc"]]
    pages = load_pages(book, lines_dir)
    marks = load_outline(book) if outline and not lines_dir else []
    start = time.perf_counter()
    result = recover(pages, marks)
    seconds = time.perf_counter() - start
    pairs = align(result.entries, truth)
    matched = {j: result.entries[i] for i, j in pairs}
    exact = sum(1 for j, e in matched.items() if e.page == truth[j]["page"])
    near = sum(1 for j, e in matched.items() if e.page and abs(e.page - truth[j]["page"]) <= 1)
    wrong = [(e, truth[j]) for j, e in matched.items() if e.page and abs(e.page - truth[j]["page"]) > 1]
    labels = gt["page_labels"]
    row = {
        "book": book, "gt": len(truth), "found": len(result.entries), "matched": len(pairs),
        "recall": len(pairs) / max(len(truth), 1),
        "precision": len(pairs) / max(len(result.entries), 1),
        "level": sum(1 for j, e in matched.items() if e.level == truth[j]["level"]) / max(len(pairs), 1),
        "exact": exact / max(len(truth), 1), "pm1": near / max(len(truth), 1),
        "wrong": len(wrong), "unresolved": sum(1 for e in result.entries if e.page is None),
        "labels": sum(1 for i, lab in enumerate(labels)
                      if result.labels.get(i + 1, "") == (lab or "")) / len(labels),
        "toc_ok": result.toc_pages == gt["toc_pages"], "lot_ok": result.lot_pages == gt["lot_pages"],
        "seconds": seconds, "inferred": result.inferred,
        "outline_anomalies": sum(1 for a in result.anomalies if a.kind.startswith("outline")),
        # review items that are real headings: unplaced entries that the truth holds
        "review_real": sum(1 for j, e in matched.items() if e.page is None),
    }
    if verbose:
        _details(result, truth, pairs, matched, wrong, gt)
    return row


def _details(result, truth, pairs, matched, wrong, gt) -> None:
    used = {i for i, _ in pairs}
    for j, g in enumerate(truth):
        if j not in matched:
            print(f"   MISSED  L{g['level']} p{g['page']} {g['toc_text'] or g['title']}")
    for i, e in enumerate(result.entries):
        if i not in used:
            print(f"   EXTRA   L{e.level} p{e.page} {e.title[:70]}")
    for j, e in matched.items():
        g = truth[j]
        if e.level != g["level"]:
            print(f"   LEVEL   {e.level} vs {g['level']} {e.title[:70]}")
    for e, g in wrong:
        print(f"   WRONG   p{e.page} vs {g['page']} {e.status} {e.title[:70]}")
    for e in result.entries:
        if e.page is None:
            print(f"   UNRES   printed {e.printed_page} {e.title[:70]}")
    print(f"   toc {result.toc_pages} vs {gt['toc_pages']}; lot {result.lot_pages} vs {gt['lot_pages']}")
    for anomaly in result.anomalies[:10]:
        print(f"   ANOMALY {anomaly.kind} {anomaly.pages[:6]} {anomaly.detail[:80]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--books", default="")
    parser.add_argument("--set", dest="which", choices=("dev", "real", "real-held-out"),
                        default="dev", help="real: bookbench's real scans (bench/real; their "
                        "truth there, their OCR'd lines in --lines-dir, default ~/.cache/real-lines)")
    parser.add_argument("--lines-dir", type=Path)
    parser.add_argument("--gt-dir", type=Path, default=GT_DIR,
                        help="where <id>.gt.json lies (a variant's, e.g. BOOKBENCH_DIR/scans/hard)")
    parser.add_argument("--outline", choices=("on", "off"), default="off",
                        help="check against the born PDF's own outline (as LIBRARIAN_PDF_OUTLINE)")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    books = args.books or ",".join(BOOKS)
    if args.which != "dev":
        books = args.books or ",".join(real_ids("held_out" if args.which == "real-held-out"
                                                else "dev"))
        args.gt_dir = REAL_GT if args.gt_dir == GT_DIR else args.gt_dir
        args.lines_dir = args.lines_dir or Path.home() / ".cache" / "real-lines"
    rows = [evaluate(book, args.lines_dir, args.verbose, args.gt_dir, args.outline == "on")
            for book in books.split(",")]
    header = ("book        gt  found recall  prec  level  exact  ±1   wrong unres review labels "
              "toc lot  sec")
    print(header)
    for r in rows:
        print(f"{r['book']:<10}{r['gt']:>4} {r['found']:>6} {r['recall']:6.1%} {r['precision']:6.1%}"
              f" {r['level']:6.1%} {r['exact']:6.1%} {r['pm1']:6.1%} {r['wrong']:4} {r['unresolved']:5}"
              f" {r['review_real']:6} {r['labels']:6.1%} {'ok' if r['toc_ok'] else '--':>3} {'ok' if r['lot_ok'] else '--':>3}"
              f" {r['seconds']:5.2f}{' inferred' if r['inferred'] else ''}")
    total = {k: sum(r[k] for r in rows)
             for k in ("gt", "found", "matched", "wrong", "unresolved", "review_real")}
    exact = sum(r["exact"] * r["gt"] for r in rows) / max(total["gt"], 1)
    near = sum(r["pm1"] * r["gt"] for r in rows) / max(total["gt"], 1)
    level = sum(r["level"] * r["matched"] for r in rows) / max(total["matched"], 1)
    print(f"{'overall':<10}{total['gt']:>4} {total['found']:>6} {total['matched'] / max(total['gt'], 1):6.1%}"
          f" {total['matched'] / max(total['found'], 1):6.1%} {level:6.1%} {exact:6.1%} {near:6.1%}"
          f" {total['wrong']:4} {total['unresolved']:5} {total['review_real']:6}"
          f" {sum(r['labels'] for r in rows) / len(rows):6.1%}"
          f"  wrong placements {total['wrong'] / max(total['gt'], 1):.2%}")


if __name__ == "__main__":
    main()
