"""Read the real set's hand-transcribed pages with the ocr stage's engine and tesseract, one
thread each, and say how well and how fast each read them; and where the gutter is found on
its spreads.

    LIBRARIAN_DATA_DIR=… nice -n 10 .venv/bin/python scripts/real_pages.py \
        [--books kokumin2,ndl-lite,ndl-layout] [--folder ~/.cache/bookbench/scans/real] \
        [--engines librarian,tesseract] [--json OUT.json]

The pages are those of ``scripts/make_real_set.py``'s books that carry blocks
(the Japanese hand transcriptions), rendered as the ocr stage renders them and
measured with ``bench.real.page_errors`` (block by block) and, beside it, with
``bench.real.reading_errors`` (the reading alone, order and segmentation
forgiven). Each engine's time is its CPU time
(the process's for ours, the child's for tesseract), so that other work on a
shared machine weighs on it less than on the wall clock. Tesseract reads a
page with ``jpn``, or ``jpn_vert`` where the page's text runs vertically
(``vertical`` in sources.json: it is told, ours is not), page segmentation 3.
Until ``bookbench --ocr-side-by-side`` reads these pages, this is how they are
measured.
"""

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "librarian.settings")

import django  # noqa: E402

django.setup()

import pymupdf  # noqa: E402

from bench.real import page_errors, reading_errors  # noqa: E402
from bench.side_by_side import tesseract_lines  # noqa: E402
from bench.pages import REAL_SCANS  # noqa: E402
from indexing.contract import StageContext  # noqa: E402
from indexing.ocr.engines import get_engine  # noqa: E402
from indexing.ocr.layout import page_lines  # noqa: E402
from indexing.ocr.read import read_page  # noqa: E402
from indexing.ocr.render import render  # noqa: E402
from indexing.ocr.spreads import find_gutter  # noqa: E402



def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--books", default="kokumin2,ndl-lite,ndl-layout")
    parser.add_argument("--folder", type=Path, default=REAL_SCANS)
    parser.add_argument("--engines", default="librarian,tesseract")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    ctx = StageContext.from_settings()
    pages = list(_pages(args.folder, args.books.split(","), ctx))
    found = {"spreads": [_gutter(page) for page in pages if "gutter" in page["truth"]]}
    for row in found["spreads"]:
        print(f"{row['book']} p{row['page']}: gutter expected {row['expected']}, "
              f"found {row['found']} ({'right' if row['right'] else 'WRONG'})")
    measured = [page for page in pages if page["truth"].get("blocks")]
    engines = [name for name in args.engines.split(",") if name]
    if "librarian" in engines:
        engine = get_engine(replace(ctx.ocr, threads=1))
        found["librarian"] = [_ours(engine, page) for page in measured]
    if "tesseract" in engines:
        found["tesseract"] = [_tesseract(page) for page in measured]
    for name in engines:
        _report(name, measured, found[name])
    if args.json:
        args.json.write_text(json.dumps(found, ensure_ascii=False, indent=1))


def _pages(folder: Path, books: list[str], ctx):
    """Yield each page of the books, rendered as the ocr stage renders it, with its truth."""
    for book in books:
        truths = json.loads((folder / f"{book}.pages.json").read_text())
        with pymupdf.open(folder / f"{book}.pdf") as document:
            for truth in truths:
                yield _rendered(document, book, truth, ctx)


def _rendered(document, book: str, truth: dict, ctx) -> dict:
    page = document[truth["number"] - 1]
    image, scale = render(page, ctx.render_dpi, ctx.max_render_pixels)
    return {"book": book, "page": truth["number"], "truth": truth, "image": image,
            "scale": scale, "size": (page.rect.width, page.rect.height)}


def _gutter(page: dict) -> dict:
    """Return where the gutter finder cuts the page against where a cut is right."""
    gutter = find_gutter(page["image"][:, :, 0])
    width = page["image"].shape[1]
    share = round(gutter.x / width, 4) if gutter and gutter.shadow else None
    expected = page["truth"]["gutter"]
    right = share is None if expected is None else \
        share is not None and expected[0] <= share <= expected[1]
    return {"book": page["book"], "page": page["page"], "expected": expected, "found": share,
            "right": right}


def _ours(engine, page: dict) -> dict:
    start, cpu = time.perf_counter(), time.process_time()
    lines = read_page(engine, page["image"], page["scale"])["lines"]
    cpu, wall = time.process_time() - cpu, time.perf_counter() - start
    return _measured(page, lines, cpu, wall)


def _tesseract(page: dict) -> dict:
    vertical = page["truth"].get("vertical", False)
    import cv2

    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder, "page.png"))
        cv2.imwrite(path, page["image"][:, :, 0])
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(["tesseract", path, "-", "-l", "jpn_vert" if vertical else "jpn",
                               "--psm", "3", "tsv"], capture_output=True, text=True, check=True,
                              env={**os.environ, "OMP_THREAD_LIMIT": "1"})
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    lines = page_lines(tesseract_lines(done.stdout).get(1, []), page["scale"])
    return _measured(page, lines, cpu, wall)


def _measured(page: dict, lines: list[dict], cpu: float, wall: float) -> dict:
    errors, chars = page_errors(page["truth"], lines, *page["size"])
    misread, _ = reading_errors(page["truth"]["text"], [line["text"] for line in lines])
    return {"book": page["book"], "page": page["page"], "errors": errors, "chars": chars,
            "misread": misread, "cpu": round(cpu, 2), "wall": round(wall, 2),
            "text": "\n".join(line["text"] for line in lines)}


def _report(name: str, pages: list[dict], found: list[dict]) -> None:
    print(f"\n{name}")
    for row in found:
        print(f"  {row['book']} p{row['page']}: CER {100 * row['errors'] / row['chars']:.1f}% "
              f"({row['errors']}/{row['chars']}), reading alone "
              f"{100 * row['misread'] / row['chars']:.1f}%, {row['cpu']} CPU s, {row['wall']} s")
    errors, chars = sum(row["errors"] for row in found), sum(row["chars"] for row in found)
    misread = sum(row["misread"] for row in found)
    cpu, wall = sum(row["cpu"] for row in found), sum(row["wall"] for row in found)
    print(f"  all {len(found)} pages: CER {100 * errors / chars:.2f}%, reading alone "
          f"{100 * misread / chars:.2f}%, {len(found) / cpu:.3f} pages per CPU second, "
          f"{len(found) / wall:.3f} pages/s (wall)")


if __name__ == "__main__":
    main()
