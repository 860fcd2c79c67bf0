"""Run the pipeline on the bookbench books and print accuracy and throughput figures."""

import json
import os
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pymupdf
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from books.models import Book
from indexing import textlayer
from indexing.benchmark import measure_ocr, ratio

CHILD = "LIBRARIAN_BENCH_CHILD"


class Command(BaseCommand):
    help = (
        "Run the pipeline on the bookbench books (built by shared/bookbench/make.sh) in a "
        "separate data directory and print accuracy and throughput per book and overall."
    )

    def add_arguments(self, parser):
        home = Path.home() / ".cache"
        parser.add_argument("--set", dest="which", choices=["scans", "born"], default="scans")
        parser.add_argument("--books", default="", help="Comma-separated book ids (default: all).")
        parser.add_argument("--bench-dir", type=Path,
                            default=Path(os.environ.get("BOOKBENCH_DIR", home / "bookbench")))
        parser.add_argument("--truth-dir", type=Path,
                            default=settings.BASE_DIR.parent / "shared" / "bookbench")
        parser.add_argument("--data-dir", type=Path, default=home / "librarian-bench",
                            help="Where the benchmark's own database and files live.")
        parser.add_argument("--fresh", action="store_true", help="Process the books again.")
        parser.add_argument("--json", dest="json_path", type=Path,
                            help="Also write the figures to this file.")

    def handle(self, which, books, bench_dir, truth_dir, data_dir, fresh, json_path, **options):
        if os.environ.get(CHILD) != "1":
            return self._in_own_data_dir(data_dir / which)
        ids = [book.strip() for book in books.split(",") if book.strip()] or _all_ids(truth_dir)
        call_command("migrate", verbosity=0)
        rows = [self._bench(book_id, which, bench_dir, truth_dir, fresh) for book_id in ids]
        self._print(rows, which)
        if json_path:
            json_path.write_text(json.dumps(rows, indent=2))

    def _in_own_data_dir(self, data_dir: Path):
        env = {**os.environ, CHILD: "1", "LIBRARIAN_DATA_DIR": str(data_dir),
               "LIBRARIAN_WORKER": "embedded"}
        env.pop("LIBRARIAN_DATABASE_URL", None)
        code = subprocess.call([sys.executable, *sys.argv], env=env)
        if code:
            raise CommandError("The benchmark failed.", returncode=code)

    def _bench(self, book_id, which, bench_dir, truth_dir, fresh) -> dict:
        folder = "scans/dev" if which == "scans" else "pdf/dev"
        path = bench_dir / folder / f"{book_id}.pdf"
        if not path.exists():
            raise CommandError(f"{path} is missing: run sh shared/bookbench/make.sh first.")
        gt = json.loads((truth_dir / "gt" / f"{book_id}.gt.json").read_text())
        if fresh:
            Book.objects.filter(sha256=_sha256(path)).delete()
        self.stderr.write(f"{book_id}: processing {path.name} ({gt['pages']} pages)…")
        peak_mb = _process(path)
        book = Book.objects.get(sha256=_sha256(path))
        row = {"book": book_id, "lang": gt["lang"], "pages": book.page_count,
               "peak_mb": peak_mb, "stages": {}}
        for run in book.stage_runs.order_by("position"):
            row["stages"][run.stage] = {"status": run.status, "seconds": run.seconds}
        if which == "scans":
            pages = dict(book.pages.values_list("number", "lines"))
            row["ocr"] = measure_ocr(pages, _born_lines(bench_dir, book_id), gt)
        return row

    def _print(self, rows, which):
        out = self.stdout.write
        header = f"{'book':<10} {'lang':<4} {'pages':>5}  {'stage seconds':<28} {'pages/s':>7} {'peak MB':>7}"
        if which == "scans":
            header += f"  {'CER':>6} {'folios':>7} {'TOC nos':>7}"
        out(header)
        totals = defaultdict(lambda: defaultdict(float))
        for row in rows:
            seconds = {name: stage["seconds"] or 0 for name, stage in row["stages"].items()}
            ocr_seconds = seconds.get("ocr", 0)
            line = (f"{row['book']:<10} {row['lang']:<4} {row['pages']:>5}  "
                    f"{' '.join(f'{n} {s:.1f}' for n, s in seconds.items()):<28} "
                    f"{row['pages'] / ocr_seconds if ocr_seconds else 0:>7.2f} "
                    f"{row['peak_mb'] or 0:>7.0f}")
            for key in (row["lang"], "all"):
                totals[key]["pages"] += row["pages"]
                totals[key]["ocr_seconds"] += ocr_seconds
                for name, value in row.get("ocr", {}).items():
                    totals[key][name] += value
            if "ocr" in row:
                line += _ocr_columns(row["ocr"])
            out(line)
        for key, total in totals.items():
            line = (f"{'overall':<10} {key:<4} {total['pages']:>5.0f}  {'':<28} "
                    f"{total['pages'] / total['ocr_seconds'] if total['ocr_seconds'] else 0:>7.2f} "
                    f"{'':>7}")
            if which == "scans":
                line += _ocr_columns(total)
            out(line)


def _ocr_columns(ocr) -> str:
    return (f"  {ratio(ocr['char_errors'], ocr['chars']):>6} "
            f"{ratio(ocr['folios_read'], ocr['folios']):>7} "
            f"{ratio(ocr['toc_numbers_read'], ocr['toc_numbers']):>7}")


def _all_ids(truth_dir: Path) -> list[str]:
    return sorted(path.name.split(".")[0] for path in (truth_dir / "gt").glob("*.gt.json"))


def _sha256(path: Path) -> str:
    import hashlib

    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def _process(path: Path) -> float | None:
    """Run addbook --wait in a child process; return its peak memory in MB."""
    process = subprocess.Popen([sys.executable, "manage.py", "addbook", str(path), "--wait"],
                               cwd=settings.BASE_DIR, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_maxrss / 1024


def _born_lines(bench_dir: Path, book_id: str) -> dict[int, list[dict]]:
    with pymupdf.open(bench_dir / "pdf" / "dev" / f"{book_id}.pdf") as document:
        return {page.number + 1: textlayer.page_lines(page) for page in document}
