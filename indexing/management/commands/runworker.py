import signal
import threading

from django.core.management.base import BaseCommand, CommandError

from indexing import runner
from indexing.runner import worker_name
from indexing.stages import STAGES, current_name
from indexing.worker import Worker


class Command(BaseCommand):
    help = (
        "Run pipeline workers in this process. They claim stage runs from the database, "
        "woken by nudges over the channel layer and by polling."
    )

    def add_arguments(self, parser):
        parser.add_argument("--stages", default="",
                            help="Comma-separated stages this worker takes (default: all).")
        parser.add_argument("--threads", type=int, default=1, help="Worker threads (default 1).")
        parser.add_argument("--once", action="store_true",
                            help="Run whatever is runnable, then exit.")

    def handle(self, stages, threads, once, **options):
        # An old name (--stages index, now contents) still works, with a warning.
        names = [current_name(name.strip()) for name in stages.split(",") if name.strip()]
        unknown = set(names) - {stage.name for stage in STAGES}
        if unknown:
            raise CommandError(f"Unknown stages: {', '.join(sorted(unknown))}.")
        if once:
            # Like a looping worker, queue the stages added since older books came in.
            added = runner.add_missing_runs()
            if added:
                self.stdout.write(f"Queued new stages for {added} book(s) registered before them.")
            if rebuilt := runner.requeue_outdated():
                self.stdout.write(
                    f"Queued {rebuilt} book(s) whose sections are cut by newer rules or "
                    "embedded by another encoder.")
            ran = Worker(stages=names).run_once()
            self.stdout.write(f"Ran {ran} stage runs.")
            return
        stop = threading.Event()
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, lambda *_: stop.set())
        workers = [Worker(stages=names, name=f"{worker_name()}-{i}") for i in range(max(1, threads))]
        pool = [threading.Thread(target=w.loop, args=(stop,), daemon=True) for w in workers]
        for thread in pool:
            thread.start()
        while any(thread.is_alive() for thread in pool):
            for thread in pool:
                thread.join(timeout=1)
