"""The titles printed on the books' title pages, kept for the whole shelf in one small file.

A reader names a book the way its cover does (『LaTeX 2ε への道』) even when the
shelf lists it under its file name; the embed stage reads the cover's title
(``books.metadata.title_from_pages``) and keeps it in
``<data dir>/retrieval/shelf/names.json`` (book id → title), so the books a
question names are found without opening every book's index.
"""

import fcntl
import json
import os
import threading
from pathlib import Path

from books.storage import data_dir

_cache: dict[str, tuple] = {}
_lock = threading.Lock()


def _path() -> Path:
    return data_dir() / "retrieval" / "shelf" / "names.json"


def all_names() -> dict[int, str]:
    """Return book id → the title on its title page, for the books that have one."""
    path = _path()
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        return {}
    with _lock:
        cached = _cache.get(str(path))
        if cached and cached[0] == stamp:
            return cached[1]
    try:
        found = {int(key): value for key, value in json.loads(path.read_text()).items()}
    except (OSError, ValueError):
        return {}
    with _lock:
        _cache[str(path)] = (stamp, found)
    return found


def put(book_id: int, title: str | None) -> None:
    """Keep (or, with None or "", forget) the cover title of a book."""
    put_many({book_id: title})


def put_many(titles: dict[int, str | None]) -> None:
    """Keep (or, with None or "", forget) the cover titles of books, book id → title, in one
    write (a shelf filled in bulk writes the file once, not once a book)."""
    path = _path()
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name("names.lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            found = {str(k): v for k, v in all_names().items()}
            for book_id, title in titles.items():
                if title:
                    found[str(book_id)] = title
                else:
                    found.pop(str(book_id), None)
            temporary = path.with_name("names.json.tmp")
            temporary.write_text(json.dumps(found, ensure_ascii=False))
            os.replace(temporary, path)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
