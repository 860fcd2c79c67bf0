"""The dev books' pages as the pipeline's pure cores read them, for the evaluation scripts."""

import json
import os
from pathlib import Path

import pymupdf

from books.textlayer import page_lines

BENCH = Path(os.environ.get("BOOKBENCH_DIR", Path.home() / ".cache" / "bookbench"))
REAL_SCANS = BENCH / "scans" / "real"
"""The real set's scans and their proofread text (``scripts/make_real_set.py``)."""


def load_pages(book: str, lines_dir: Path | None = None) -> list[dict]:
    """Return the pages of bookbench book: its lines dumped in lines_dir/<book>.json
    (``bookbench --dump-lines``: a scan's OCR lines), else its born PDF's text layer."""
    if lines_dir:
        return json.loads((lines_dir / f"{book}.json").read_text())
    with pymupdf.open(born_pdf(book)) as document:
        return [{"number": i + 1, "width": p.rect.width, "height": p.rect.height,
                 "lines": page_lines(p)} for i, p in enumerate(document)]


def born_pdf(book: str) -> Path:
    """Return the born-digital PDF of a bookbench book: a dev book's, or one this project
    typesets (scripts/make_parts_book.py, make_vertical_book.py) in a folder of its own."""
    found = [BENCH / "pdf" / folder / f"{book}.pdf" for folder in ("dev", "parts", "vertical")]
    return next((path for path in found if path.exists()), found[0])
