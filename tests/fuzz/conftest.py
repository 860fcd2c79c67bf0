"""What the fuzz tests share: a small shelf, the personas, and the count of requests made.

The counts are printed at the end of the run and written to
``artifacts/fuzz-counts.json`` so they can be quoted.
"""

import base64
import json
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from books.models import Heading, ReviewFlag
from chat.actions import do_ask

ROOT = Path(__file__).resolve().parents[2]
COUNTS: dict[str, Counter] = defaultdict(Counter)
PASSWORDS = {"librarian": ("alice", "alice-password"), "reader": ("bob", "bob-password")}
PERSONAS = ["anonymous", "reader", "librarian"]


def record(persona: str, kind: str, status: int) -> None:
    """Count one request a fuzz test made and the class of its answer."""
    COUNTS[persona]["requests"] += 1
    COUNTS[persona][f"{kind} requests"] += 1
    COUNTS[persona][f"{status // 100}xx"] += 1


def basic_auth(persona: str) -> dict[str, str]:
    if persona not in PASSWORDS:
        return {}
    token = base64.b64encode(":".join(PASSWORDS[persona]).encode()).decode()
    return {"Authorization": f"Basic {token}"}


@pytest.fixture
def shelf(shelve, english_pdf, japanese_pdf, alice, bob):
    """Return a dict of ids: two read books, a heading waiting for review, conversations."""
    boats = shelve(english_pdf)
    fune = shelve(japanese_pdf)
    Heading.objects.create(book=boats, position=1, level=1, title="1 Sails", page=2,
                           status=Heading.Status.EXACT, line=0)
    heading = Heading.objects.create(book=boats, position=2, level=1, title="2 Knots",
                                     printed_page="3", status=Heading.Status.UNRESOLVED)
    ReviewFlag.objects.create(heading=heading, reason="fuzzing", severity=2)
    answers = {user.username: do_ask(user, "Where is the bowline?", []) for user in (alice, bob)}
    return {"book": boats.pk, "other_book": fune.pk, "heading": heading.pk,
            "answers": {name: a.pk for name, a in answers.items()},
            "conversations": {name: a.conversation_id for name, a in answers.items()}}


def pytest_terminal_summary(terminalreporter):
    if not COUNTS:
        return
    total = Counter()
    for counts in COUNTS.values():
        total.update(counts)
    terminalreporter.section("fuzz requests")
    for persona, counts in sorted(COUNTS.items()):
        terminalreporter.write_line(f"{persona}: " + ", ".join(
            f"{key} {value}" for key, value in sorted(counts.items())))
    terminalreporter.write_line(f"all: {total['requests']} requests, {total['5xx']} answered 5xx")
    out = ROOT / "artifacts" / "fuzz-counts.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps({"personas": COUNTS, "total": total}, indent=2, sort_keys=True))
