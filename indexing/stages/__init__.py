"""The pipeline, in order. Stages whose work is not built yet are absent, not faked."""

import logging
import warnings

from indexing.stages.backindex import BackIndexStage
from indexing.stages.contents import ContentsStage
from indexing.stages.embed import EmbedStage
from indexing.stages.ingest import IngestStage
from indexing.stages.ocr import OcrStage
from indexing.stages.previews import PreviewsStage
from indexing.stages.verify import VerifyStage

logger = logging.getLogger(__name__)

STAGES = [PreviewsStage, OcrStage, IngestStage, ContentsStage, BackIndexStage, VerifyStage,
          EmbedStage]
"""The stage classes in order; the runner makes a stage of one for each run, as worker
threads share this list and a stage's setup keeps what it loaded on itself."""

RENAMED = {"index": "contents"}
"""A stage's old name and the name it has now, for names written outside the code before the
rename (a deployment's ``runworker --stages index``, an old retry link); the stored rows were
renamed by migration (``indexing/migrations/0010_contents_stage.py``)."""


def current_name(name: str) -> str:
    """Return what the stage called name is called now: name, or for an old name its new one,
    warning what to write instead, in the log (which a deployment reads: Python hides a
    DeprecationWarning outside tests) and as a DeprecationWarning."""
    new = RENAMED.get(name)
    if new is None:
        return name
    said = (f'The stage "{name}" is now called "{new}"; "{name}" still works but is '
            f'deprecated and will be removed: write "{new}".')
    logger.warning(said)
    warnings.warn(said, DeprecationWarning, stacklevel=2)
    return new
