"""Run the pipeline on the bookbench books and print accuracy and throughput figures."""

import json
import os
import subprocess
import sys
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

import pymupdf
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from bench import served as bench_served
from bench import side_by_side
from bench import variants as bench_variants
from bench import vertical as bench_vertical
from bench.ocr import measure_ocr, ratio
from bench.contents import score_toc
from bench.verify import score_verify
from books.models import Book
from books import textlayer
from indexing.contract import StageContext
from indexing.ocr.engines import get_engine
from indexing.ocr.read import read_page
from indexing.stages.contents import load_pages

CHILD = "BOOKBENCH_CHILD"


class Command(BaseCommand):
    help = (
        "Run the pipeline on the bookbench books (built by shared/bookbench/make.sh) in a "
        "separate data directory and print accuracy and throughput per book and overall."
    )

    def add_arguments(self, parser):
        home = Path.home() / ".cache"
        parser.add_argument("--set", dest="which", choices=["scans", "born"], default="scans")
        parser.add_argument("--books", default="", help="Comma-separated book ids (default: all).")
        parser.add_argument("--variants", default="ordinary",
                            help="Comma-separated: " + ", ".join(bench_variants.NAMES) +
                                 " (spreads and notoc are made from the dev scans, vertical "
                                 "books typeset, when missing). A table is printed per variant.")
        parser.add_argument("--bench-dir", type=Path,
                            default=Path(os.environ.get("BOOKBENCH_DIR", home / "bookbench")))
        parser.add_argument("--truth-dir", type=Path,
                            default=settings.BASE_DIR.parent / "shared" / "bookbench")
        parser.add_argument("--data-dir", type=Path, default=home / "librarian-bench",
                            help="Where the benchmark's own database and files live.")
        parser.add_argument("--fresh", action="store_true", help="Process the books again.")
        parser.add_argument("--json", dest="json_path", type=Path,
                            help="Also write the figures to this file.")
        parser.add_argument("--dump-lines", type=Path,
                            help="Write each book's page lines to DIR/<id>.json "
                                 "(the input of scripts/toc_eval.py --lines-dir).")
        parser.add_argument("--questions", action="store_true",
                            help="Also ask the known-item questions (sections vs flat windows).")
        parser.add_argument("--questions-only", action="store_true",
                            help="Only ask the questions, of the books already in the data dir.")
        parser.add_argument("--natural", action="store_true",
                            help="Also ask the natural reader questions (questions/natural.jsonl).")
        parser.add_argument("--ocr-side-by-side", action="store_true",
                            help="Only read the same pages with our OCR engine and with "
                                 "tesseract, one thread each, and print CER and pages/s per set, "
                                 "language and engine: 40 dev scan pages (20 en, 20 ja) and 20 "
                                 "pages of the real set's dev books (scripts/make_real_set.py).")
        parser.add_argument("--ocr-sets", default="synthetic,real",
                            help="With --ocr-side-by-side: the sets to read (synthetic, real).")
        parser.add_argument("--natural-file", type=Path, default=None,
                            help="Ask these natural questions instead (same form; implies "
                                 "--natural), e.g. bench/questions/held_out.jsonl.")
        parser.add_argument("--scoped", action="store_true",
                            help="Also ask the scoped questions (questions/scoped.jsonl).")
        bench_served.add_arguments(parser)

    def handle(self, which, books, bench_dir, truth_dir, data_dir, fresh, json_path, dump_lines,
               questions=False, questions_only=False, natural=False, variants="ordinary",
               natural_file=None, ocr_side_by_side=False, scoped=False,
               ocr_sets="synthetic,real", **options):
        if natural_file is not None and not natural_file.is_file():
            raise CommandError(f"{natural_file}: no such question file")
        if os.environ.get(CHILD) != "1":
            served = bench_served.chosen(options)
            if not served:
                return self._in_own_data_dir(data_dir / which)
            if not questions_only:
                raise CommandError("Served models are measured on the questions: add "
                                   "--questions-only (and --questions, --natural, --scoped).")
            return self._beside_served(data_dir / which, served, json_path)
        natural = natural or natural_file is not None
        self.natural_file = natural_file
        chosen = [book.strip() for book in books.split(",") if book.strip()]
        ids = chosen or _all_ids(truth_dir)
        if ocr_side_by_side:
            sets = {name.strip() for name in ocr_sets.split(",") if name.strip()}
            return self._side_by_side(bench_dir, truth_dir, json_path, sets)
        call_command("migrate", verbosity=0)
        if questions_only:
            bench_served.reembed(self.stderr.write)  # where another encoder made the vectors
            figures = {}
            if questions or not (natural or scoped):
                figures["questions"] = self._questions(ids, which, bench_dir, truth_dir)
            if natural:
                figures["natural"] = self._natural(which, bench_dir, truth_dir)
            if scoped:
                self.natural_file = truth_dir / "questions" / "scoped.jsonl"
                figures["scoped"] = self._natural(which, bench_dir, truth_dir)
            if json_path:
                json_path.write_text(json.dumps(figures, indent=2))
            return
        if which == "scans":  # the int8 models are made once, outside the timed stage
            call_command("prepare_ocr", stdout=self.stderr)
        figures = {"books": [], "variants": {}}
        for variant in [v.strip() for v in variants.split(",") if v.strip()]:
            try:
                found = bench_variants.cases(variant, chosen, bench_dir, truth_dir)
            except (ValueError, bench_variants.VariantMissing) as error:
                raise CommandError(str(error)) from error
            rows = [self._bench(case, which, fresh) for case in found
                    if which == "scans" or case.born]
            if dump_lines:
                self._dump(rows, found, which, dump_lines)
            self.stdout.write(f"\n=== Variant: {variant} ===")
            self._print(rows, which)
            figures["variants"][variant] = rows
            figures["books"] += rows
        if which == "scans":
            figures["vertical"] = self._vertical()
        if questions:
            figures["questions"] = self._questions(ids, which, bench_dir, truth_dir)
        if natural:
            figures["natural"] = self._natural(which, bench_dir, truth_dir)
        if json_path:
            json_path.write_text(json.dumps(figures, indent=2, ensure_ascii=False))

    def _dump(self, rows, found, which, dump_lines):
        dump_lines.mkdir(parents=True, exist_ok=True)
        for case in found:
            path = case.scan if which == "scans" else case.born
            book = Book.objects.filter(sha256=_sha256(path)).first() if path.exists() else None
            if book:
                (dump_lines / f"{case.book_id}.json").write_text(json.dumps(load_pages(book)))

    def _questions(self, ids, which, bench_dir, truth_dir) -> dict:
        """Ask the known-item questions; books are found by content, else by file name."""
        from bench import known_items  # loads the question indexes: only when asked

        return known_items.bench(ids, truth_dir, _finder(bench_dir, which), self.stdout.write)

    def _natural(self, which, bench_dir, truth_dir) -> dict:
        """Ask the natural reader questions of every book in the data directory."""
        from bench import natural

        return natural.bench(truth_dir, _finder(bench_dir, which), self.stdout.write,
                             self.natural_file)

    def _vertical(self) -> dict:
        """Print and return what the OCR engine gives on typeset vertical pages."""
        measured = bench_vertical.measure(get_engine(StageContext.from_settings().ocr))
        self.stdout.write(
            "\nVertical test pages (typeset here, 150 dpi, no noise)\n"
            f"  lines read as vertical: {measured['vertical_lines']} of {measured['lines']}\n"
            f"  TOC titles CER: {ratio(measured['toc_title_errors'], measured['toc_title_chars'])}"
            f"; kanji page numbers read: {measured['kanji_numbers_read']} of "
            f"{measured['kanji_numbers']}\n"
            f"  prose CER: {ratio(measured['prose_errors'], measured['prose_chars'])}\n"
            f"  TOC as read: {measured['toc_text']}"
        )
        return measured

    def _side_by_side(self, bench_dir: Path, truth_dir: Path, json_path: Path | None,
                      sets: set[str]):
        """Print (and write) CER and pages/s of our OCR engine and tesseract on the same pages."""
        unknown = sets - {"synthetic", "real"}
        if unknown or not sets:
            raise CommandError(f"--ocr-sets takes synthetic and real, not {sorted(unknown)}")
        call_command("prepare_ocr", stdout=self.stderr)
        config = replace(StageContext.from_settings().ocr, threads=1, batch_pages=1)
        engine = get_engine(config)
        ctx = StageContext.from_settings()
        self.stderr.write("Rendering the chosen pages…")
        loaded = {}
        if "synthetic" in sets:
            languages = {book: json.loads((truth_dir / "gt" / f"{book}.gt.json").read_text())[
                "lang"] for book in _all_ids(truth_dir)}
            if not languages:
                raise CommandError(f"No ground truth in {truth_dir / 'gt'}: pass --truth-dir.")
            loaded |= side_by_side.load(bench_dir / "scans" / "dev", bench_dir / "pdf" / "dev",
                                        languages, ctx.render_dpi, ctx.max_render_pixels)
        if "real" in sets:
            loaded |= self._real_pages(bench_dir, ctx)
        results = side_by_side.compare(
            lambda image, scale: read_page(engine, image, scale)["lines"], loaded)
        self.stdout.write(side_by_side.table(results))
        if json_path:
            json_path.write_text(json.dumps(side_by_side.figures(results, loaded), indent=2))

    def _real_pages(self, bench_dir: Path, ctx) -> dict:
        """Return the real set's chosen pages, or none (said on stderr) where it is not built."""
        sources = settings.BASE_DIR / "bench" / "real" / "sources.json"
        folder = bench_dir / "scans" / "real"
        if not folder.is_dir():
            self.stderr.write(f"No real set in {folder} (scripts/make_real_set.py): left out.")
            return {}
        books = json.loads(sources.read_text())["books"]
        return side_by_side.load_real(folder, books, ctx.render_dpi, ctx.max_render_pixels)

    def _in_own_data_dir(self, data_dir: Path, settings=None, json_path=None):
        env = {**os.environ, CHILD: "1", "LIBRARIAN_DATA_DIR": str(data_dir),
               "LIBRARIAN_WORKER": "embedded", **(settings or {})}
        env.pop("LIBRARIAN_DATABASE_URL", None)
        more = ["--json", str(json_path)] if json_path else []
        code = subprocess.call([sys.executable, *sys.argv, *more], env=env)
        if code:
            raise CommandError("The benchmark failed.", returncode=code)

    def _beside_served(self, data_dir: Path, served: dict, json_path: Path | None):
        """Ask the questions with the CPU defaults, then with the served models (in a copy
        of the data directory), and print the figures side by side (``bench.served``)."""
        out = json_path or data_dir.with_name(data_dir.name + "-figures.json")
        cpu, theirs = out.with_suffix(".cpu.json"), out.with_suffix(".served.json")
        self.stdout.write("=== CPU defaults ===")
        self._in_own_data_dir(data_dir, json_path=cpu)
        self.stdout.write(f"=== Served models ({', '.join(served)}) ===")
        self._in_own_data_dir(bench_served.own_copy(data_dir), served, theirs)
        figures = {"cpu": bench_served.read(cpu), "served": bench_served.read(theirs),
                   "settings": served}
        self.stdout.write(bench_served.table(figures["cpu"], figures["served"], served))
        out.write_text(json.dumps(figures, indent=2, ensure_ascii=False))

    def _bench(self, case, which, fresh) -> dict:
        path = case.scan if which == "scans" else case.born
        if not path.exists():
            raise CommandError(f"{path} is missing: run sh shared/bookbench/make.sh first.")
        gt = case.truth_data()
        if fresh:
            Book.objects.filter(sha256=_sha256(path)).delete()
        self.stderr.write(f"{case.book_id}: processing {path.name} ({gt['pages']} pages)…")
        peak_mb = _process(path)
        book = Book.objects.get(sha256=_sha256(path))
        row = {"book": case.book_id, "variant": case.variant, "lang": gt["lang"],
               "pages": book.page_count, "peak_mb": peak_mb, "stages": {}}
        for run in book.stage_runs.order_by("position"):
            row["stages"][run.stage] = {"status": run.status, "seconds": run.seconds}
        if which == "scans" and case.born and case.born.exists():
            pages = dict(book.pages.values_list("number", "lines"))
            row["ocr"] = measure_ocr(pages, _born_lines(case.born), gt)
        headings = list(book.headings.order_by("position"))
        labels = dict(book.pages.exclude(label="").values_list("number", "label"))
        row["toc"] = score_toc(headings, labels, book.toc_pages, gt)
        row["verify"] = score_verify(headings, gt)
        return row

    def _print(self, rows, which):
        self.stdout.write(f"Pipeline ({which})")
        self._table(rows, PIPELINE_COLUMNS + (OCR_COLUMNS if which == "scans" else []), "")
        self.stdout.write("\nTable of contents")
        self._table(rows, TOC_COLUMNS, "toc")
        self.stdout.write("\nWho placed the headings (agent: the verify stage's model)")
        self._table(rows, VERIFY_COLUMNS, "verify")

    def _table(self, rows, columns, part):
        self.stdout.write("  ".join(f"{title:>{width}}" for title, width, _ in columns))
        groups = defaultdict(lambda: defaultdict(float))
        for row in rows:
            for name in (row["lang"], "all"):
                _add(groups[name], row)
            self.stdout.write(_cells(columns, row))
        for name, total in sorted(groups.items()):
            self.stdout.write(_cells(columns, {**total, "book": "overall", "lang": name}))


def _add(total, row):
    """Add row's counts into total (a group's sums)."""
    total["pages"] += row["pages"]
    for name, stage in row["stages"].items():
        total[f"seconds_{name}"] += stage["seconds"] or 0
    for part in ("ocr", "toc", "verify"):
        for name, value in row.get(part, {}).items():
            total[f"{part}_{name}"] += value


def _flat(row) -> dict:
    if "stages" not in row:
        return row
    flat = {"book": row["book"], "lang": row["lang"], "pages": row["pages"],
            "peak_mb": row["peak_mb"]}
    for name, stage in row["stages"].items():
        flat[f"seconds_{name}"] = stage["seconds"] or 0
    for part in ("ocr", "toc", "verify"):
        flat.update({f"{part}_{name}": value for name, value in row.get(part, {}).items()})
    return flat


def _cells(columns, row) -> str:
    row = _flat(row)
    return "  ".join(f"{cell(row):>{width}}" for _, width, cell in columns)


def _seconds(row):
    return " ".join(f"{key[8:]} {value:.1f}" for key, value in row.items()
                    if key.startswith("seconds_"))


def _per_second(row):
    seconds = row.get("seconds_ocr", 0)
    return f"{row['pages'] / seconds:.2f}" if seconds else "—"


PIPELINE_COLUMNS = [
    ("book", 16, lambda r: r["book"]),
    ("lang", 4, lambda r: r["lang"]),
    ("pages", 5, lambda r: f"{r['pages']:.0f}"),
    ("seconds per stage", 34, _seconds),
    ("ocr pages/s", 11, _per_second),
    ("peak MB", 7, lambda r: f"{r['peak_mb']:.0f}" if r.get("peak_mb") else ""),
]
def _ocr(part, whole):
    """Return a cell of an OCR ratio; "—" where the book has no born-digital twin to compare."""
    return lambda r: ratio(r.get(f"ocr_{part}", 0), r.get(f"ocr_{whole}", 0))


OCR_COLUMNS = [
    ("CER", 6, _ocr("char_errors", "chars")),
    ("folios", 7, _ocr("folios_read", "folios")),
    ("TOC nos", 7, _ocr("toc_numbers_read", "toc_numbers")),
    ("TOC digits", 10, _ocr("toc_digits_read", "toc_digits")),
]
TOC_COLUMNS = [
    ("book", 16, lambda r: r["book"]),
    ("lang", 4, lambda r: r["lang"]),
    ("entries", 7, lambda r: f"{r['toc_truth']:.0f}"),
    ("found", 6, lambda r: f"{r['toc_found']:.0f}"),
    ("recall", 7, lambda r: ratio(r["toc_matched"], r["toc_truth"])),
    ("prec.", 7, lambda r: ratio(r["toc_matched"], r["toc_found"])),
    ("level", 7, lambda r: ratio(r["toc_level_right"], r["toc_matched"])),
    ("exact pg", 8, lambda r: ratio(r["toc_exact"], r["toc_truth"])),
    ("±1 pg", 7, lambda r: ratio(r["toc_near"], r["toc_truth"])),
    ("wrong", 6, lambda r: ratio(r["toc_wrong"], r["toc_truth"])),
    ("unplaced", 8, lambda r: f"{r['toc_unresolved']:.0f}"),
    ("labels", 7, lambda r: ratio(r["toc_labels_right"], r["toc_labels"])),
    ("TOC pgs", 7, lambda r: f"{r['toc_toc_pages_right']:.0f}/1" if r["book"] != "overall"
     else f"{r['toc_toc_pages_right']:.0f}"),
]

VERIFY_COLUMNS = [
    ("book", 16, lambda r: r["book"]),
    ("lang", 4, lambda r: r["lang"]),
    ("headings", 8, lambda r: f"{r['verify_headings']:.0f}"),
    ("by code", 8, lambda r: ratio(r["verify_code"], r["verify_headings"])),
    ("by agent", 8, lambda r: ratio(r["verify_agent"], r["verify_headings"])),
    ("review", 7, lambda r: ratio(r["verify_review"], r["verify_headings"])),
    ("agent right pg", 14, lambda r: f"{r['verify_agent_right']:.0f} of {r['verify_agent']:.0f}"),
    ("agent s", 7, lambda r: f"{r.get('seconds_verify', 0):.1f}"),
]


def _finder(bench_dir: Path, which: str):
    """Return a function from a bookbench id to its Book (by content, else by file name)."""
    def find(book_id):
        path = _source(bench_dir, which, book_id)
        if path.exists():
            return Book.objects.filter(sha256=_sha256(path)).first()
        return Book.objects.filter(original_filename=f"{book_id}.pdf").first()

    return find


def _source(bench_dir: Path, which: str, book_id: str) -> Path:
    return bench_dir / ("scans/dev" if which == "scans" else "pdf/dev") / f"{book_id}.pdf"


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


def _born_lines(path: Path) -> dict[int, list[dict]]:
    with pymupdf.open(path) as document:
        return {page.number + 1: textlayer.page_lines(page) for page in document}
