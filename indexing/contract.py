"""The contract every pipeline stage follows.

A stage is idempotent and artifact-based: it reads what earlier stages stored
on the book, stores its own results, and can be run again from the start or
resumed after a crash without redoing work it has already recorded.

The runner calls ``setup`` once, then ``run``, then always ``cleanup``.
``run`` returns a short summary for people, as notes (``indexing.notes``: a list of
sentences, each a list of clauses, worded in the reader's language when shown), reports
progress through the callable it is given, and raises ``StageError`` for failures it
understands. Any other exception is a bug: the runner records it as an internal error.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, ClassVar

from indexing import notes
from indexing.ocr.engines import OcrConfig
from librarian.config import setting
from librarian.errors import LibrarianError
from llm.runtime import LlmConfig

if TYPE_CHECKING:
    from books.models import Book

Progress = Callable[..., None]
"""progress(done, total, checkpoint=False, note=None): report how far the stage has got.

Raises StageCancelled when the claim is lost. With checkpoint=True the claim is
always checked (never skipped as too soon), and called inside the transaction
that writes the stage's results it makes the write conditional on the claim:
a worker that lost it, and would redo another worker's work, writes nothing.
note: a line for people shown with the progress while the stage runs (what it
waits for; "" clears it).
"""


class StageError(LibrarianError):
    """A failure the stage understands, said by a note for people (``indexing.notes.note``;
    message is its English), detail for the log.

    retryable: the runner tries the stage again later (the failure may pass).
    """

    def __init__(self, said: dict | str, *, retryable: bool = False, detail: str = "",
                 code: str = "stage_failed"):
        self.notes = [[said]]
        super().__init__(code, notes.english(self.notes), detail=detail)
        self.retryable = retryable


class StageCancelled(Exception):
    """The work was taken away (claim lost, book deleted): stop without recording."""


@dataclass(frozen=True)
class StageContext:
    """What stages need from the configuration, built once from settings."""

    data_dir: Path
    render_dpi: int = 150
    max_render_pixels: int = 12_000_000
    max_image_pixels: int = 500_000_000
    ocr: OcrConfig = OcrConfig()
    llm: LlmConfig = LlmConfig()
    pdf_outline: bool = True  # read a born-digital PDF's own outline beside its contents

    @classmethod
    def from_settings(cls) -> StageContext:
        return cls(
            data_dir=Path(setting("DATA_DIR")),
            render_dpi=setting("RENDER_DPI"),
            max_render_pixels=setting("MAX_RENDER_PIXELS"),
            max_image_pixels=setting("MAX_IMAGE_PIXELS"),
            ocr=OcrConfig(
                engine=setting("OCR_ENGINE"),
                device=setting("OCR_DEVICE"),
                threads=setting("OCR_THREADS"),
                batch_pages=setting("OCR_BATCH_PAGES"),
                min_confidence=setting("OCR_MIN_CONFIDENCE"),
                det_max_side=setting("OCR_DET_MAX_SIDE"),
                precision=setting("OCR_PRECISION"),
                latin=setting("OCR_LATIN") == "on",
                model_dir=str(setting("OCR_MODEL_DIR")
                              or Path(setting("DATA_DIR")) / "models" / "ocr"),
                det_model_name=setting("PADDLE_DET_MODEL_NAME"),
                det_model_dir=setting("PADDLE_DET_MODEL_DIR"),
                rec_model_name=setting("PADDLE_REC_MODEL_NAME"),
                rec_model_dir=setting("PADDLE_REC_MODEL_DIR"),
                cache_dir=str(Path(setting("DATA_DIR")) / "cache"),
            ),
            llm=LlmConfig.from_settings(),
            pdf_outline=setting("PDF_OUTLINE") == "on",
        )


def wait_for_model(error, progress: Progress, done: int, total: int, until: float,
                   clock=time.monotonic, sleep=time.sleep) -> bool:
    """Wait while a model server rests after failing (error: its ``llm.Unavailable``), the
    progress saying so, and return True once it may be asked again; False, without
    waiting, where that would be after until (a clock() time): the stage goes on without it.
    """
    ready = clock() + max(error.retry_in, 1.0)
    if ready > until:
        return False
    at = time.strftime("%H:%M:%S", time.localtime(time.time() + ready - clock()))
    progress(done, total, note=[[notes.note("run.waiting_model", error=str(error), at=at)]])
    while (left := ready - clock()) > 0:
        sleep(min(left, 5.0))
        progress(done, total)  # raises StageCancelled where the claim was lost meanwhile
    progress(done, total, note=[])
    return True


class Stage(ABC):
    name: ClassVar[str]
    title: ClassVar[str]
    """What the stage does, as shown to people ("Reading pages")."""
    unit: ClassVar[str] = "pages"
    """What its progress counts ("pages", "headings", "passages")."""
    ahead: ClassVar[bool] = False
    """Claimed before other books' stages: quick, and what people see first (previews)."""

    def setup(self, ctx: StageContext) -> None:
        """Load what the stage needs (models, engines) before the book is touched."""

    @abstractmethod
    def run(self, ctx: StageContext, book: Book, progress: Progress) -> list[list[dict]]:
        """Do the stage's work on book and return its summary, as notes."""

    def cleanup(self) -> None:
        """Release what setup acquired. Called even when run failed."""
