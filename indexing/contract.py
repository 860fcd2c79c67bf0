"""The contract every pipeline stage follows.

A stage is idempotent and artifact-based: it reads what earlier stages stored
on the book, stores its own results, and can be run again from the start or
resumed after a crash without redoing work it has already recorded.

The runner calls ``setup`` once, then ``run``, then always ``cleanup``.
``run`` returns a one-line summary for people, reports progress through the
callable it is given, and raises ``StageError`` for failures it understands.
Any other exception is a bug: the runner records it as an internal error.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, ClassVar

from indexing.ocr.engines import OcrConfig
from librarian.errors import LibrarianError
from llm.runtime import LlmConfig

if TYPE_CHECKING:
    from books.models import Book

Progress = Callable[..., None]
"""progress(done, total, checkpoint=False): report how far the stage has got.

Raises StageCancelled when the claim is lost. With checkpoint=True the claim is
always checked (never skipped as too soon), and called inside the transaction
that writes the stage's results it makes the write conditional on the claim:
a worker that lost it, and would redo another worker's work, writes nothing.
"""


class StageError(LibrarianError):
    """A failure the stage understands: message is for people, detail for the log.

    retryable: the runner tries the stage again later (the failure may pass).
    """

    def __init__(self, message: str, *, retryable: bool = False, detail: str = "",
                 code: str = "stage_failed"):
        super().__init__(code, message, detail=detail)
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
        from django.conf import settings

        return cls(
            data_dir=Path(settings.LIBRARIAN_DATA_DIR),
            render_dpi=settings.LIBRARIAN_RENDER_DPI,
            max_render_pixels=settings.LIBRARIAN_MAX_RENDER_PIXELS,
            max_image_pixels=settings.LIBRARIAN_MAX_IMAGE_PIXELS,
            ocr=OcrConfig(
                engine=settings.LIBRARIAN_OCR_ENGINE,
                device=settings.LIBRARIAN_OCR_DEVICE,
                threads=settings.LIBRARIAN_OCR_THREADS,
                batch_pages=settings.LIBRARIAN_OCR_BATCH_PAGES,
                min_confidence=settings.LIBRARIAN_OCR_MIN_CONFIDENCE,
                det_max_side=settings.LIBRARIAN_OCR_DET_MAX_SIDE,
                precision=settings.LIBRARIAN_OCR_PRECISION,
                model_dir=str(settings.LIBRARIAN_OCR_MODEL_DIR
                              or Path(settings.LIBRARIAN_DATA_DIR) / "models" / "ocr"),
                det_model_name=settings.LIBRARIAN_PADDLE_DET_MODEL_NAME,
                det_model_dir=settings.LIBRARIAN_PADDLE_DET_MODEL_DIR,
                rec_model_name=settings.LIBRARIAN_PADDLE_REC_MODEL_NAME,
                rec_model_dir=settings.LIBRARIAN_PADDLE_REC_MODEL_DIR,
                cache_dir=str(Path(settings.LIBRARIAN_DATA_DIR) / "cache"),
            ),
            llm=LlmConfig.from_settings(),
            pdf_outline=settings.LIBRARIAN_PDF_OUTLINE == "on",
        )


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
    def run(self, ctx: StageContext, book: Book, progress: Progress) -> str:
        """Do the stage's work on book and return a one-line summary."""

    def cleanup(self) -> None:
        """Release what setup acquired. Called even when run failed."""
