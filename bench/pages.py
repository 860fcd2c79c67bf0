"""The dev books' pages as the pipeline's pure cores read them, for the evaluation scripts."""

import json
import os
from pathlib import Path

import pymupdf

from books.textlayer import page_lines

BENCH = Path(os.environ.get("BOOKBENCH_DIR", Path.home() / ".cache" / "bookbench"))


def load_pages(book: str, lines_dir: Path | None = None) -> list[dict]:
    """Return the pages of bookbench book: its lines dumped in lines_dir/<book>.json
    (``bookbench --dump-lines``: a scan's OCR lines), else its born PDF's text layer."""
    if lines_dir:
        return json.loads((lines_dir / f"{book}.json").read_text())
    with pymupdf.open(BENCH / "pdf" / "dev" / f"{book}.pdf") as document:
        return [{"number": i + 1, "width": p.rect.width, "height": p.rect.height,
                 "lines": page_lines(p)} for i, p in enumerate(document)]
