"""Read a PDF's pages with the ocr stage's engine and write them as page dicts, without a database.

The output is what `scripts/toc_eval.py --lines-dir` and `manage.py bookbench
--dump-lines` use: a JSON list of {number, width, height, lines}. OCR on a
shared CPU is slow, so a book is read once and its lines are iterated on.

Usage: LIBRARIAN_DATA_DIR=… nice -n 15 .venv/bin/python scripts/ocr_lines.py BOOK.pdf OUT.json
"""

import argparse
import json
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "librarian.settings")

import django  # noqa: E402

django.setup()

import pymupdf  # noqa: E402

from books import textlayer  # noqa: E402
from indexing.contract import StageContext  # noqa: E402
from indexing.ocr.engines import get_engine  # noqa: E402
from indexing.ocr.read import read_page  # noqa: E402
from indexing.ocr.render import render  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pdf", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--pages", default="", help="first-last, 1-based (default: all)")
    args = parser.parse_args()
    ctx = StageContext.from_settings()
    engine = get_engine(ctx.ocr)
    start = time.monotonic()
    with pymupdf.open(args.pdf) as document:
        first, last = 1, document.page_count
        if args.pages:
            first, last = (int(part) for part in args.pages.split("-"))
        prepared = (_prepare(document[number - 1], number, ctx)
                    for number in range(first, last + 1))
        with ThreadPoolExecutor(ctx.ocr.batch_pages) as pool:
            pages = []
            for page in pool.map(lambda item: _read(engine, *item), prepared):
                pages.append(page)
                if page["number"] % 20 == 0:
                    print(f"{args.pdf.name}: {page['number']}/{last} pages, "
                          f"{time.monotonic() - start:.0f} s", file=sys.stderr, flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(pages, ensure_ascii=False))


def _prepare(page, number, ctx):
    """Return (page dict, image, scale): the image is None when the text layer is usable."""
    found = {"number": number, "width": round(page.rect.width, 2),
             "height": round(page.rect.height, 2), "lines": textlayer.page_lines(page)}
    if textlayer.is_usable(found["lines"]):
        return found, None, 1.0
    image, scale = render(page, ctx.render_dpi, ctx.max_render_pixels)
    return found, image, scale


def _read(engine, page, image, scale):
    if image is not None:
        page.update(read_page(engine, image, scale))
    return page


if __name__ == "__main__":
    main()
