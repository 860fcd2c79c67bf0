"""The pipeline, in order. Stages whose work is not built yet are absent, not faked."""

from indexing.stages.backindex import BackIndexStage
from indexing.stages.contents import ContentsStage
from indexing.stages.embed import EmbedStage
from indexing.stages.ingest import IngestStage
from indexing.stages.ocr import OcrStage
from indexing.stages.previews import PreviewsStage
from indexing.stages.verify import VerifyStage

STAGES = [PreviewsStage, OcrStage, IngestStage, ContentsStage, BackIndexStage, VerifyStage,
          EmbedStage]
"""The stage classes in order; the runner makes a stage of one for each run, as worker
threads share this list and a stage's setup keeps what it loaded on itself."""
