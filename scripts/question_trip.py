"""How far one question travels through retrieval/: the files it visits and how often it comes back.

    .venv/bin/python scripts/question_trip.py ["How do I reduce the area of the mainsail?"]

Issue 53 measured the layering of retrieval/ by the question's trip: a question asked through
``retrieval.pipeline.iter_results`` enters one file after another, and every time it goes back
into a file it had already left, a reader following it must go back too. The script builds the
small sailing book the retrieval tests use (in a throwaway data directory and database, with
no language model), asks it one question under ``sys.setprofile``, and counts

- files: the distinct files under retrieval/ whose functions run;
- comebacks: the distinct (caller file, called file) pairs in which the call goes back into a
  file first entered earlier in the trip than the caller (each such way back counted once,
  however often it is taken);
- calls back: every call into a file from another one after it had been left, repeats and all;
- upward: the distinct (caller file, called file) pairs in which a folder of retrieval/ calls a
  folder above it in LAYERS (what the layering test forbids among imports).

``--list`` prints the files in the order first entered and each way back.
"""

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RETRIEVAL = str(ROOT / "retrieval") + os.sep
LAYERS = ("text", "index", "question", "ranking", "answer")
"""retrieval's folders, lowest first (tests/test_imports.py holds the same order)."""
QUESTION = "How do I reduce the area of the mainsail in strong wind?"


def setup() -> None:
    """Point Django at a fresh data directory and database, migrated, with no language model."""
    os.environ["LIBRARIAN_DATA_DIR"] = tempfile.mkdtemp(prefix="question-trip-")
    os.environ["LIBRARIAN_LLM_MODEL"] = "none"
    os.environ.pop("LIBRARIAN_DATABASE_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "librarian.settings")
    sys.path.insert(0, str(ROOT))
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


def build_book() -> None:
    """Make the retrieval tests' sailing book, its search and question indexes built."""
    from tests.test_retrieval import SAILING, SAILING_HEADINGS, make_book

    make_book("Sailing Handbook", SAILING, SAILING_HEADINGS, labels={2: "1", 3: "2"})


def trip(question: str) -> list[tuple[str, str]]:
    """Return (caller file, called file) for each call into retrieval/ while question is asked."""
    from retrieval import pipeline

    calls = []

    def watch(frame, event, arg):
        if event != "call" or not frame.f_code.co_filename.startswith(RETRIEVAL):
            return
        caller = frame.f_back
        while caller and not caller.f_code.co_filename.startswith(RETRIEVAL):
            caller = caller.f_back
        calls.append((caller.f_code.co_filename if caller else "", frame.f_code.co_filename))

    sys.setprofile(watch)
    try:
        list(pipeline.iter_results(question))
    finally:
        sys.setprofile(None)
    return [(short(a), short(b)) for a, b in calls]


def short(path: str) -> str:
    return str(Path(path).relative_to(ROOT)) if path else ""


def measure(calls: list[tuple[str, str]]) -> tuple[list[str], list[tuple[str, str]], int]:
    """Return the files in the order first entered, the distinct ways back, and the calls back."""
    order, ways_back, calls_back = {}, {}, 0
    for caller, called in calls:
        if called == caller:
            continue
        if called in order and caller:
            calls_back += 1
            if order[called] < order.get(caller, len(order)):
                ways_back.setdefault((caller, called), None)
        order.setdefault(called, len(order))
    return list(order), list(ways_back), calls_back


def upward(calls: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Return the distinct (caller, called) pairs in which a lower folder calls a higher one."""

    def layer(path: str) -> int:
        parts = Path(path).parts
        return LAYERS.index(parts[1]) if len(parts) > 2 and parts[1] in LAYERS else -1

    return list(dict.fromkeys((a, b) for a, b in calls if -1 < layer(a) < layer(b)))


def main() -> None:
    args = [arg for arg in sys.argv[1:] if arg != "--list"]
    setup()
    build_book()
    calls = trip(args[0] if args else QUESTION)
    files, ways_back, calls_back = measure(calls)
    up = upward(calls)
    print(f"files {len(files)}  comebacks {len(ways_back)}  calls back {calls_back}"
          f"  upward {len(up)}")
    if "--list" in sys.argv:
        print("\n".join(f"  {n:2d} {name}" for n, name in enumerate(files, 1)))
        print("\n".join(f"  back: {a} -> {b}" for a, b in ways_back))
        print("\n".join(f"  up: {a} -> {b}" for a, b in up))


if __name__ == "__main__":
    main()
