"""How far a book has got through the pipeline, and how long the rest may take (pure).

Two sources of time: the running stage's own pace on this book (its units done since the
attempt began, over the seconds it has run), and the pace earlier books recorded (seconds
per page of book, for each stage). The running stage is timed by its own pace once that
is measured, else by the recorded one; a stage not begun, by the recorded one. Where a
stage has neither, the time left is not known: people are told it is being estimated,
never given a guess.
"""

from dataclasses import dataclass

MEASURED_AFTER = 3.0  # seconds a stage runs before its own pace is trusted
HISTORY = 10  # finished runs of a stage that make its recorded pace


@dataclass(frozen=True)
class Step:
    """One stage of one book, as plain data (from ``indexing.models.StageRun``)."""

    stage: str
    status: str  # pending, running, done, failed
    done: int = 0
    total: int = 0
    resumed_from: int = 0  # done when the current attempt began
    elapsed: float | None = None  # seconds of the current attempt (running)

    @property
    def fraction(self) -> float:
        """Return how much of the stage is done, 0..1."""
        if self.status == "done":
            return 1.0
        return min(1.0, self.done / self.total) if self.total else 0.0


@dataclass(frozen=True)
class Estimate:
    """Seconds left: for the whole book and for its current stage (None: not known yet)."""

    left: float | None
    step_left: float | None
    fraction: float  # of the book's work done, 0..1


def paces(finished: list[tuple[str, float, int]]) -> dict[str, float]:
    """Return each stage's recorded pace, seconds per page of book, from finished runs
    (stage, seconds, book pages), newest first: the HISTORY newest of each stage."""
    seconds: dict[str, list[float]] = {}
    pages: dict[str, int] = {}
    for stage, took, page_count in finished:
        if page_count > 0 and took is not None and took >= 0 and \
                len(seconds.setdefault(stage, [])) < HISTORY:
            seconds[stage].append(took)
            pages[stage] = pages.get(stage, 0) + page_count
    return {stage: sum(took) / pages[stage] for stage, took in seconds.items() if pages[stage]}


def step_left(step: Step, pages: int, pace: dict[str, float]) -> float | None:
    """Return the seconds step has left (0 once done), or None where it is not known."""
    if step.status == "done":
        return 0.0
    if step.status == "failed":
        return None
    if step.status == "running":
        measured = _measured(step)
        if measured is not None:
            return measured
        recorded = pace.get(step.stage)
        if recorded is None:
            return None
        left = recorded * pages - (step.elapsed or 0.0)
        return left if left >= 0 else None  # slower than before: not known any more
    recorded = pace.get(step.stage)
    return recorded * pages if recorded is not None else None


def estimate(steps: list[Step], pages: int, pace: dict[str, float]) -> Estimate:
    """Return what is left of a book's steps (in pipeline order) and how much is done."""
    lefts = [step_left(step, pages, pace) for step in steps]
    current = next((i for i, step in enumerate(steps) if step.status != "done"), None)
    left = None if any(value is None for value in lefts) else sum(lefts)
    return Estimate(left, lefts[current] if current is not None else 0.0, _fraction(steps))


def _measured(step: Step) -> float | None:
    """Return the seconds left at the step's own pace on this book, once it is measured."""
    progressed = step.done - step.resumed_from
    if not step.total or progressed <= 0 or (step.elapsed or 0.0) < MEASURED_AFTER:
        return None
    return (step.total - step.done) * step.elapsed / progressed


def _fraction(steps: list[Step]) -> float:
    """Return the share of the book's stages done, each stage one step. (Weighed by recorded
    times, the bar went back when another book's finishing brought the first record of a
    stage: a bar that goes back is worse than one that moves unevenly.)"""
    return sum(step.fraction for step in steps) / len(steps) if steps else 0.0
