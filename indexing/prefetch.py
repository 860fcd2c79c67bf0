"""Run an iterator in a background thread, a few items ahead of its consumer."""

import queue
import threading
from typing import Iterable, Iterator, TypeVar

T = TypeVar("T")
_DONE = object()


class _Failure:
    def __init__(self, error: BaseException):
        self.error = error


def prefetch(items: Iterable[T], ahead: int = 2) -> Iterator[T]:
    """Yield items from iterable, produced in a thread at most `ahead` items early.

    The producer stops when the consumer stops (closes or abandons the
    generator); an exception in the producer is raised in the consumer.
    """
    slots: queue.Queue = queue.Queue(maxsize=ahead)
    stop = threading.Event()

    def put(item) -> bool:
        while not stop.is_set():
            try:
                slots.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def produce():
        try:
            for item in items:
                if not put(item):
                    return
        except BaseException as error:  # handed to the consumer
            put(_Failure(error))
            return
        put(_DONE)

    thread = threading.Thread(target=produce, daemon=True, name="prefetch")
    thread.start()
    try:
        while True:
            item = slots.get()
            if item is _DONE:
                return
            if isinstance(item, _Failure):
                raise item.error
            yield item
    finally:
        stop.set()
        thread.join(timeout=5)
