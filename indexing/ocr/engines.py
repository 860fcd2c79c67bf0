"""OCR engines behind one protocol, chosen in settings and loaded once per process.

- ``rapidocr`` (embedded default): RapidOCR on onnxruntime with the PP-OCRv6
  small models its wheel ships, and PP-OCRv6 tiny for pages of Latin script
  (indexing.ocr.script); offline, CPU.
- ``paddleocr``: PaddleOCR 3.7 (the production engine, on GPU) with model
  names and directories from settings, so that it never reaches for the
  network.
- ``none``: no OCR; pages without a text layer are recorded as unread.
"""

from __future__ import annotations

import logging
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np

from indexing.ocr.layout import RawLine

logger = logging.getLogger(__name__)


class EngineUnavailable(Exception):
    """The configured engine cannot be loaded; message says what to install or set."""


@dataclass(frozen=True)
class OcrConfig:
    engine: str = "rapidocr"
    device: str = "cpu"
    threads: int = 0  # 0: the runtime's default
    batch_pages: int = 2
    min_confidence: float = 0.3
    det_max_side: int = 1600
    precision: str = "int8"  # rapidocr: "int8" (quantized here once) or "fp32" (as shipped)
    latin: bool = True  # rapidocr: Latin pages read by the Latin recogniser (indexing.ocr.latin)
    model_dir: str = ""  # where the int8 models are kept
    det_model_name: str = ""
    det_model_dir: str = ""
    rec_model_name: str = ""
    rec_model_dir: str = ""
    cache_dir: str = "/tmp"


class OcrEngine(Protocol):
    name: str
    side_by_side: bool  # True: read one page per call, batch_pages calls at once

    def read(self, images: list[np.ndarray]) -> list[list[RawLine]]:
        """Return the text lines of each image (H×W×3 uint8), in any order.

        An engine may also recognise(image, quads): the text of given lines of an image,
        read without looking for lines (``indexing.ocr.tiers``)."""


class RapidOcrEngine:
    name = "rapidocr"
    side_by_side = True  # calls from several threads run at once, a page each

    def __init__(self, config: OcrConfig):
        try:
            from indexing.ocr.scaled import ScaledOCR
        except ImportError as error:
            raise EngineUnavailable("rapidocr is not installed (pip install rapidocr).") from error
        params = {
            # The orientation classifier flipped upright lines in our trials, and
            # the default box threshold lost lone page numbers such as "1".
            "Global.use_cls": False,
            # Lines are recognised two at a time at their own width: rapidocr's
            # default pads every line to at least 320 pixels, in batches of six
            # sorted by width, and a page's short lines (folios, leaders' page
            # numbers, single words) then cost as much as long ones.
            "Rec.rec_batch_num": 2,
            "Rec.rec_img_shape": [3, 48, 48],
            "EngineConfig.onnxruntime.enable_cpu_mem_arena": True,
            "Det.box_thresh": 0.3,
            "Global.text_score": config.min_confidence,
            "Global.log_level": "error",
            # Detection on the whole 150-dpi page (1754 pixels high) costs more than
            # reading the lines. At 1280 pixels it lost lone page numbers set in grey
            # beside an index's leaders ("構造 ..... 7"): at 1600 jlshort's scanned index
            # has 4.8 points more of its entries, for about 7% more CPU; the text read
            # is as good (CER en 1.74 / 1.75 %, ja 1.63 / 1.59 %). A column of page
            # numbers it then takes for one line is read again (indexing.ocr.stacked).
            "Det.limit_side_len": config.det_max_side,
            "Det.limit_type": "max",
        }
        # The ocr stage reads batch_pages pages side by side, so the cores are
        # shared out among them: a page's many small recognition calls keep one
        # core busy better than they split over two.
        threads = config.threads or max(1, len(os.sched_getaffinity(0)) // config.batch_pages)
        params["EngineConfig.onnxruntime.intra_op_num_threads"] = threads
        params["EngineConfig.onnxruntime.inter_op_num_threads"] = 1
        self._float_params = dict(params)
        self._float: object | None = None
        self._lock = threading.Lock()
        int8 = int8_models(config) if config.precision == "int8" else {}
        params.update(int8)
        latin = latin_model(config) if config.latin else {}
        if latin:
            from indexing.ocr.scripted import ScriptedOCR

            self._ocr = ScriptedOCR(params, {**params, **latin})
        else:
            self._ocr = ScaledOCR(params=params)
        if not int8:  # the float detector already: vertical pages need no second look
            self._float = self._ocr

    def read(self, images):
        return [self._read_one(image) for image in images]

    def _read_one(self, image):
        result = self._ocr(image)
        if self._ocr is not self._float and _mostly_vertical(result):
            # The int8 detector split vertical columns at word gaps and read leader
            # dots as marks in our tests: vertical pages are detected again in float.
            result = self._float_ocr()(image)
        if result.boxes is None:
            return []
        return [
            RawLine(quad=tuple(map(tuple, quad)), text=text, conf=float(score))
            for quad, text, score in zip(result.boxes.tolist(), result.txts, result.scores)
        ]

    def recognise(self, image, quads) -> list[tuple[str, float]]:
        """Return (text, confidence) of each quadrilateral of the page image (pixels) read as
        one line, cut and turned as rapidocr cuts the lines it finds, no line looked for."""
        if not quads:
            return []
        page = self._ocr.load_img(image)
        crops = self._ocr.crop_text_regions(page, np.asarray(quads, dtype=np.float32))
        found = self._ocr.recognize_txt(crops)
        return [(text, float(score)) for text, score in zip(found.txts, found.scores)]

    def _float_ocr(self):
        with self._lock:
            if self._float is None:
                from indexing.ocr.scaled import ScaledOCR

                self._float = ScaledOCR(params=self._float_params)
            return self._float


def _mostly_vertical(result) -> bool:
    """Return True when most of the text found lies in boxes taller than they are wide."""
    if result.boxes is None:
        return False
    vertical = total = 0
    for quad, text in zip(result.boxes.tolist(), result.txts, strict=True):
        xs, ys = [point[0] for point in quad], [point[1] for point in quad]
        total += len(text)
        if len(text) > 1 and max(ys) - min(ys) > 1.5 * (max(xs) - min(xs)):
            vertical += len(text)
    return vertical * 2 > total


def int8_models(config: OcrConfig) -> dict:
    """Return rapidocr's settings for the int8 models, making them the first time.

    Where they cannot be made (onnx missing), the shipped float models are used
    and the log says why: slower, never wrong.
    """
    from indexing.ocr import quantize

    try:
        paths = quantize.ensure(Path(config.model_dir or Path(config.cache_dir, "models")))
    except quantize.QuantizeUnavailable as error:
        logger.warning("Using the float OCR models: the int8 ones cannot be made (%s)", error)
        return {}
    return {f"{kind.capitalize()}.model_path": str(path) for kind, path in paths.items()}


def latin_model(config: OcrConfig) -> dict:
    """Return rapidocr's settings for the Latin recogniser, copying it out the first time.

    Where it cannot be had (faster-paddle missing or another version), every
    page is read by the small recogniser and the log says why: slower, never wrong.
    """
    from indexing.ocr import latin

    try:
        model, dictionary = latin.ensure(Path(config.model_dir or Path(config.cache_dir, "models")))
    except latin.LatinUnavailable as error:
        logger.warning("Reading Latin pages with the small OCR model: %s", error)
        return {}
    # One line at a time: its lines are short work, and pairs padded to the wider cost more
    # (0.39 against 0.43 CPU s for a real page's 27 lines).
    return {"Rec.model_path": str(model), "Rec.rec_keys_path": str(dictionary),
            "Rec.rec_batch_num": 1}


class PaddleOcrEngine:
    """PaddleOCR 3.7 over model directories named in settings, never the network.

    Directories holding ``inference.onnx`` run on onnxruntime (no paddlepaddle
    needed); official Paddle-format directories run on paddlepaddle, on the
    configured device (``gpu:0`` in production).
    """

    name = "paddleocr"
    side_by_side = False  # a call takes batch_pages pages, recognised together on the GPU

    def __init__(self, config: OcrConfig):
        if not (config.det_model_dir and config.rec_model_dir):
            raise EngineUnavailable(
                "PaddleOCR needs LIBRARIAN_PADDLE_DET_MODEL_DIR and LIBRARIAN_PADDLE_REC_MODEL_DIR."
            )
        for directory in (config.det_model_dir, config.rec_model_dir):
            if not Path(directory, "inference.yml").exists():
                raise EngineUnavailable(f"{directory} holds no PaddleOCR model (inference.yml).")
        # Read when paddlex is imported: no model-host checks, caches under our control.
        os.environ.setdefault("PADDLE_PDX_DISABLE_MODEL_SOURCE_CHECK", "True")
        os.environ.setdefault("PADDLE_PDX_CACHE_HOME", str(Path(config.cache_dir, "paddlex")))
        try:
            from paddleocr import PaddleOCR
        except ImportError as error:
            raise EngineUnavailable("paddleocr is not installed (pip install paddleocr).") from error
        logging.getLogger("paddlex").setLevel(logging.WARNING)
        onnx = Path(config.det_model_dir, "inference.onnx").exists()
        options = {"engine": "onnxruntime"} if onnx else {}
        if onnx and config.threads:
            options["engine_config"] = {"intra_op_num_threads": config.threads,
                                        "inter_op_num_threads": 1}
        self._ocr = PaddleOCR(
            text_detection_model_name=config.det_model_name,
            text_detection_model_dir=config.det_model_dir,
            text_recognition_model_name=config.rec_model_name,
            text_recognition_model_dir=config.rec_model_dir,
            use_doc_orientation_classify=False,
            use_doc_unwarping=False,
            use_textline_orientation=False,
            text_det_box_thresh=0.3,
            text_det_limit_side_len=config.det_max_side,
            text_det_limit_type="max",
            text_rec_score_thresh=config.min_confidence,
            device=config.device,
            **options,
        )

    def read(self, images):
        # One call for the whole batch: on a GPU the pages are recognised together.
        return [
            [RawLine(quad=tuple(map(tuple, np.asarray(poly).tolist())), text=text, conf=float(score))
             for text, score, poly in zip(res["rec_texts"], res["rec_scores"], res["rec_polys"])]
            for res in self._ocr.predict(list(images))
        ]


ENGINES = {"rapidocr": RapidOcrEngine, "paddleocr": PaddleOcrEngine}
_loaded: dict[OcrConfig, OcrEngine] = {}
_lock = threading.Lock()


def get_engine(config: OcrConfig) -> OcrEngine | None:
    """Return the engine for config, loading it on first use in this process; None for "none"."""
    if config.engine == "none":
        return None
    with _lock:
        if config not in _loaded:
            logger.info("Loading OCR engine %s (%s)", config.engine, config.device)
            _loaded[config] = ENGINES[config.engine](config)
        return _loaded[config]
