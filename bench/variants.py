"""The bookbench variants: which scans each one measures, where its truth is, how it is made.

- ordinary: the dev scans (BOOKBENCH_DIR/scans/dev), truth in shared/bookbench/gt.
- parts: the dev books whose contents have parts above their chapters (found
  in the truth), and any parts books made beside the vertical ones.
- spreads, notoc: shared/bookbench/make_hard.py's variants of a dev scan, in
  BOOKBENCH_DIR/scans/hard with their truth beside them; made when missing.
- vertical: the vertical (縦書き) books scripts/make_vertical_book.py typesets
  (kanji folios and contents numbers, and upright arabic ones), in
  BOOKBENCH_DIR/scans/vertical; made when missing and TeX is there.
"""

import json
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

VERTICAL_BOOKS = {"vertical-kanji": "kanji", "vertical-tcy": "tcy"}
PART = re.compile(r"^(?:part\s+\S+|[IVX]{1,5}\s|第\s*\S{1,4}\s*[部編])", re.I)
NAMES = ("ordinary", "parts", "spreads", "notoc", "vertical")


class VariantMissing(Exception):
    """A variant's scan is missing and cannot be made here; the message says what to run."""


@dataclass(frozen=True)
class Case:
    """One book of one variant: its scan, its truth, its born-digital twin if there is one."""

    variant: str
    book_id: str  # as printed in the tables: faq-spreads, vertical-kanji
    scan: Path
    truth: Path
    born: Path | None

    def truth_data(self) -> dict:
        return json.loads(self.truth.read_text())


def cases(variant: str, ids: list[str], bench_dir: Path, truth_dir: Path) -> list[Case]:
    """Return the books a variant measures; ids are dev book ids (all of them when empty)."""
    known = sorted(p.name.split(".")[0] for p in (truth_dir / "gt").glob("*.gt.json"))
    dev = [i for i in ids if i in known] if ids else known  # vertical ids are not dev books
    if variant == "ordinary":
        return [_dev(variant, book_id, bench_dir, truth_dir) for book_id in dev]
    if variant == "parts":
        return [_dev(variant, book_id, bench_dir, truth_dir) for book_id in dev
                if has_parts(json.loads((truth_dir / "gt" / f"{book_id}.gt.json").read_text()))]
    if variant in ("spreads", "notoc"):
        return [_hard(variant, book_id, bench_dir, truth_dir) for book_id in dev]
    if variant == "vertical":
        wanted = [i for i in ids if i in VERTICAL_BOOKS] or list(VERTICAL_BOOKS)
        return [_vertical(book_id, bench_dir, truth_dir) for book_id in wanted]
    raise ValueError(f"no variant {variant!r}: one of {', '.join(NAMES)}")


def has_parts(gt: dict) -> bool:
    """Return True when the printed contents put parts above chapters at the top level."""
    tops = [e for e in gt["outline"] if e["in_printed_toc"] and e["level"] == 1]
    parts = [e for e in tops if PART.match(e.get("toc_text") or e["title"])]
    return len(parts) >= 2


def _dev(variant, book_id, bench_dir, truth_dir) -> Case:
    return Case(variant, book_id, bench_dir / "scans" / "dev" / f"{book_id}.pdf",
                truth_dir / "gt" / f"{book_id}.gt.json",
                bench_dir / "pdf" / "dev" / f"{book_id}.pdf")


def _hard(variant, book_id, bench_dir, truth_dir) -> Case:
    out = bench_dir / "scans" / "hard"
    case = Case(variant, f"{book_id}-{variant}", out / f"{book_id}-{variant}.pdf",
                out / f"{book_id}-{variant}.gt.json", None)
    if not case.scan.exists():
        source = bench_dir / "scans" / "dev" / f"{book_id}.pdf"
        if not source.exists():
            raise VariantMissing(f"{source} is missing: run sh shared/bookbench/make.sh first.")
        subprocess.run([sys.executable, str(truth_dir / "make_hard.py"), variant, str(source),
                        str(truth_dir / "gt" / f"{book_id}.gt.json"), str(out)], check=True)
    return case


def _vertical(book_id, bench_dir, truth_dir) -> Case:
    case = Case("vertical", book_id, bench_dir / "scans" / "vertical" / f"{book_id}.pdf",
                bench_dir / "scans" / "vertical" / f"{book_id}.gt.json",
                bench_dir / "pdf" / "vertical" / f"{book_id}.pdf")
    if not case.scan.exists():
        script = Path(__file__).resolve().parent.parent / "scripts" / "make_vertical_book.py"
        made = subprocess.run([sys.executable, str(script), "--numbers", VERTICAL_BOOKS[book_id],
                               "--bench-dir", str(bench_dir), "--bookbench", str(truth_dir)])
        if made.returncode:
            raise VariantMissing(f"{case.scan} could not be made: run {script} (it needs "
                                 "uplatex and dvipdfmx, Debian's texlive-lang-japanese).")
    return case
