import json
import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from books.models import Book
from books.registration import RegistrationError, read_chunks, register
from indexing import runner
from indexing.models import StageRun, pipeline_active


class Command(BaseCommand):
    help = "Register PDF files as books; with --wait, run the pipeline on them here."

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+", type=Path)
        parser.add_argument("--title", default="", help="Title of the book (one path only).")
        parser.add_argument("--wait", action="store_true",
                            help="Run the stages to completion in this process.")
        parser.add_argument("--json", action="store_true",
                            help="Print one JSON object per book, one per line.")

    def handle(self, paths, title, wait, json, **options):
        if title and len(paths) > 1:
            raise CommandError("--title names one book: give one path with it.")
        failed = False
        for path in paths:
            book = self._register(path, title, json)
            if book is None:
                failed = True
                continue
            if wait:
                self._wait(book)
            failed |= book.stage_runs.filter(status=StageRun.Status.FAILED).exists()
            self._report(book, json)
        if failed:
            raise CommandError("Some books could not be registered or processed.", returncode=1)

    def _register(self, path: Path, title: str, as_json: bool) -> Book | None:
        try:
            with open(path, "rb") as handle:
                result = register(read_chunks(handle), path.name, title=title)
        except OSError as error:
            message = f"cannot read the file: {error.strerror}"
        except RegistrationError as error:
            message = error.message
        else:
            if not as_json:
                state = "registered" if result.created else "already on the shelf"
                self.stdout.write(f"{path}: {state} as book {result.book.pk} “{result.book}”")
            return result.book
        if as_json:
            self.stdout.write(json.dumps({"path": str(path), "error": message}, ensure_ascii=False))
        else:
            self.stderr.write(f"{path}: {message}")
        return None

    def _wait(self, book: Book) -> None:
        worker = runner.worker_name()
        while True:
            runner.release_orphans()
            runner.run_pending(worker, book_id=book.pk)
            if not pipeline_active(book.stage_runs.all()):
                return
            time.sleep(0.5)  # another worker holds a stage of this book, or a retry waits

    def _report(self, book: Book, as_json: bool) -> None:
        runs = list(book.stage_runs.order_by("position"))
        if as_json:
            stages = {
                run.stage: {"status": run.status, "seconds": run.seconds,
                            "error": run.message if run.status != "done" else None}
                for run in runs
            }
            payload = {"id": book.pk, "title": book.title, "pages": book.page_count,
                       "stages": stages}
            self.stdout.write(json.dumps(payload, ensure_ascii=False))
            return
        for run in runs:
            line = f"  {run.stage}: {run.get_status_display()}"
            if run.seconds is not None:
                line += f" in {run.seconds:.1f} s"
            detail = run.message or run.summary
            self.stdout.write(line + (f" — {detail}" if detail else ""))
