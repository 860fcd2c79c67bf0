"""Workers: loops that run the pipeline, woken by nudges and by a timer.

A nudge is only a hint that work may be waiting; the loop also looks at the
database every LIBRARIAN_POLL_SECONDS, so a lost nudge delays work but never
loses it. Embedded mode runs worker threads inside the server process and
nudges them with an event; scaled mode runs ``manage.py runworker`` processes
nudged over the channel layer (Redis).
"""

import asyncio
import logging
import threading
import uuid

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import close_old_connections, transaction

from indexing import runner
from librarian.config import setting

logger = logging.getLogger(__name__)

GROUP = "librarian-indexing"
RETRY_SECONDS = 1.0
"""How soon a worker whose last round failed looks again (it may have missed a nudge)."""
_wake = threading.Event()


def nudge() -> None:
    """Tell the workers that work may be waiting. Best effort: the database is the record.

    Every worker gets the nudge (a group message): only the ones whose stages
    have work find any, and the conditional claim lets one of them take it.
    """
    if setting("WORKER") == "embedded":
        _wake.set()
        return
    try:
        async_to_sync(get_channel_layer().group_send)(GROUP, {"type": "work.available"})
    except Exception:  # a worker's poll picks the work up anyway
        logger.warning("Could not nudge the workers over the channel layer", exc_info=True)


def nudge_on_commit() -> None:
    transaction.on_commit(nudge)


class Worker:
    def __init__(self, stages=None, name=None, poll_seconds=None):
        self.stages = stages or None
        self.name = name or runner.worker_name()
        self.poll_seconds = poll_seconds or setting("POLL_SECONDS")
        self.embedded = setting("WORKER") == "embedded"
        # A plain channel name of its own: receiving on it needs no process-local state.
        self.channel = f"{GROUP}.{uuid.uuid4().hex}"
        self.failed = False

    def run_once(self) -> int:
        """Requeue stale claims, then run whatever is runnable; return how many ran."""
        self.failed = False
        try:
            runner.release_orphans()
            runner.sweep()
            # A finished stage unblocks the next one, perhaps another worker's.
            return runner.run_pending(self.name, self.stages, on_done=nudge)
        except Exception:
            logger.exception("Worker %s hit an error; it will try again", self.name)
            self.failed = True
            return 0
        finally:
            close_old_connections()

    def loop(self, stop: threading.Event) -> None:
        logger.info("Worker %s started (stages: %s)", self.name, self.stages or "all")
        try:
            if added := runner.add_missing_runs():
                logger.info("Queued new stages for %d book(s) registered before them", added)
            if rebuilt := runner.requeue_outdated():
                logger.info("Queued %d book(s) whose sections are cut by newer rules or embedded "
                            "by another encoder", rebuilt)
        except Exception:
            logger.exception("Could not queue new stages for older books")
        while not stop.is_set():
            if not self.run_once():
                # After an error (a locked database, say) the nudge it swallowed is lost:
                # look again soon rather than at the next poll.
                self.wait(RETRY_SECONDS if self.failed else None)
        logger.info("Worker %s stopped", self.name)

    def wait(self, seconds: float | None = None) -> None:
        """Return when nudged, or after seconds (the poll interval unless said)."""
        seconds = self.poll_seconds if seconds is None else seconds
        if self.embedded:
            _wake.wait(seconds)
            _wake.clear()
        else:
            async_to_sync(self._receive)(seconds)

    async def _receive(self, seconds: float) -> None:
        layer = get_channel_layer()
        try:
            await layer.group_add(GROUP, self.channel)  # again each time: membership expires
            await asyncio.wait_for(layer.receive(self.channel), seconds)
        except asyncio.TimeoutError:
            pass
        except Exception:
            logger.warning("Channel layer unavailable; polling the database", exc_info=True)
            await asyncio.sleep(seconds)


def start_embedded(count: int) -> threading.Event:
    """Start count worker threads in this process; return the event that stops them."""
    stop = threading.Event()
    for index in range(count):
        worker = Worker(name=f"{runner.worker_name()}-{index}")
        thread = threading.Thread(target=worker.loop, args=(stop,), daemon=True,
                                  name=f"librarian-worker-{index}")
        thread.start()
    return stop
