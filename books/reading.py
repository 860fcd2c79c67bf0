"""The books still being read: not (fully) searchable yet, and how far along each is.

A question asked while books are read must not be told that nothing answers
it: the answer may be in a book the pipeline has not finished. Chat and the
API ask ``being_read`` and say which books, and where each one stands.
"""

from dataclasses import asdict, dataclass

from django.db.models import Exists, OuterRef

from books.models import Book

LIMIT = 20  # a reader takes in a short list; the count says how many more
PENDING, RUNNING, DONE, FAILED = "pending", "running", "done", "failed"  # StageRun.Status
STAGES: list[tuple[str, str, str]] = []
"""(name, title, unit) of each stage of the pipeline, in order: the pipeline (``indexing``)
names them as it starts (its AppConfig.ready); the shelf never imports the pipeline."""


def _runs():
    """Return the manager of the pipeline's stage runs (``indexing.models.StageRun``),
    reached from the book they belong to."""
    return Book._meta.get_field("stage_runs").related_model.objects


@dataclass(frozen=True)
class Reading:
    """A book the pipeline is still reading, at the stage it is in or waits for."""

    book_id: int
    title: str
    stage: str
    """The stage's name ("ocr", "embed")."""
    done: int
    total: int
    """The stage's progress (0 of 0: not started)."""
    stage_title: str = ""
    """What the stage does, as people read it ("Reading pages")."""
    unit: str = ""
    number: int = 1
    """Which stage of the pipeline it is, from 1."""
    stages: int = 1

    def as_dict(self) -> dict:
        """Return the fields the API gives: book_id, title, stage, done, total."""
        return {key: value for key, value in asdict(self).items()
                if key in ("book_id", "title", "stage", "done", "total")}


def being_read(book_ids=None, limit: int = LIMIT) -> list[Reading]:
    """Return the books (of book_ids, or all) whose pipeline still goes on, first added
    first: each at its first unfinished stage. A book whose pipeline stopped at a
    failure is not being read (it waits for a person), so it is left out."""
    titles = {name: (title, unit) for name, title, unit in STAGES}
    going = _runs().filter(book=OuterRef("pk"), status__in=[PENDING, RUNNING])
    books = Book.objects.filter(Exists(going))
    if book_ids is not None:
        books = books.filter(pk__in=list(book_ids))
    # Twice the limit: some of them may have stopped at a failure.
    chosen = list(books.order_by("added_at", "pk").values_list("pk", flat=True)[:limit * 2])
    runs = (_runs().filter(book__in=chosen).exclude(status=DONE)
            .select_related("book").only("book__title", "book__added_at", "stage", "position",
                                         "status", "done", "total")
            .order_by("book__added_at", "book_id", "position"))
    found, seen = [], set()
    for run in runs:
        if run.book_id in seen:
            continue
        seen.add(run.book_id)
        if run.status == FAILED:
            continue
        title, unit = titles.get(run.stage, (run.stage, ""))
        found.append(Reading(run.book_id, run.book.title, run.stage, run.done, run.total,
                             title, unit, run.position + 1, len(STAGES)))
    return found[:limit]


def progress_text(reading: Reading, language: str = "en") -> str:
    """Return where a book stands, as a reader reads it: "Reading pages, 120 of 311 pages
    (stage 1 of 6)", or "waiting (stage 4 of 6)"."""
    if language == "ja":
        where = f"{reading.done}/{reading.total}" if reading.total else "待機中"
        return f"{where}（全{reading.stages}段階の{reading.number}段階目）"
    if reading.total:
        where = f"{reading.stage_title}, {reading.done} of {reading.total} {reading.unit}"
    else:
        where = f"waiting: {reading.stage_title.lower()}" if reading.stage_title else "waiting"
    return f"{where.rstrip()} (stage {reading.number} of {reading.stages})"


def note(reading: list[Reading], language: str = "en") -> str:
    """Return one sentence saying that books are still being read ("" when none is)."""
    if not reading:
        return ""
    if language == "ja":
        return (f"{len(reading)}冊の本をまだ読んでいるため、その本は検索できない部分があります。"
                "読み終えてからもう一度お尋ねください。")
    if len(reading) == 1:
        return ("1 book is still being read and not fully searchable yet: the answer may be "
                "in it. Ask again once it is read.")
    return (f"{len(reading)} books are still being read and not fully searchable yet: the "
            "answer may be in them. Ask again once they are read.")
