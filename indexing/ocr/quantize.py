"""An int8 copy of the PP-OCRv6 small text detector that rapidocr ships, made once per machine.

On a 2-core CPU the float detector took about a third of a dense page's OCR
time. Static int8 quantization (onnxruntime, QOperator, weights per channel)
runs it on the CPU's integer dot-product instructions in about 40% of that,
and the pages read the same (bookbench CER, folios and TOC figures unchanged
on the dev scans). The recogniser stays float: in int8 it was only about 20%
faster and lost Japanese accuracy (jlshort CER 4.4% → 4.7%).
Pages it finds mostly vertical (縦書き) are detected again by the float
model (see engines.RapidOcrEngine): in int8 it split vertical columns at word
gaps or read leader dots as marks, whatever the calibration.

Calibration needs pages that look like scanned book pages, and nothing may be
downloaded: pages are typeset here with PyMuPDF from the English and Japanese
message catalogues that Django ships (headings, paragraphs, contents lines
with page numbers, folios), rendered at 150 dpi in grey with scanner-like
blur and grain. Everything is seeded, so the same versions make the same model.

The model is keyed by the source model's hash, the runtime versions and
RECIPE, written to a temporary file and renamed, under a lock so that
concurrent workers make it once.
"""

from __future__ import annotations

import fcntl
import gettext
import hashlib
import logging
import os
import random
import tempfile
from importlib import metadata, resources
from pathlib import Path

import numpy as np

logger = logging.getLogger(__name__)

RECIPE = 4  # change when the calibration or the quantization options change
MODELS = {"det": "PP-OCRv6_det_small.onnx"}
CALIBRATION_PAGES = 10  # English and Japanese, contents and text; the last two vertical
DET_MAX_SIDE = 1280
SEED = 20261130


class QuantizeUnavailable(Exception):
    """The int8 models cannot be made here; the message says why."""


def source_models() -> dict[str, Path]:
    """Return the float models that the installed rapidocr wheel ships."""
    try:
        root = Path(str(resources.files("rapidocr").joinpath("models")))
    except ModuleNotFoundError:
        raise QuantizeUnavailable("rapidocr is not installed") from None
    paths = {kind: root / name for kind, name in MODELS.items()}
    missing = [str(path) for path in paths.values() if not path.is_file()]
    if missing:
        raise QuantizeUnavailable(f"rapidocr's models are missing: {', '.join(missing)}")
    return paths


def model_key(sources: dict[str, Path]) -> str:
    """Return a short key for the models this machine would make from sources."""
    digest = hashlib.sha256(f"recipe {RECIPE}".encode())
    for package in ("onnxruntime", "onnx"):
        digest.update(f"{package} {_version(package)}".encode())
    for kind in sorted(sources):
        digest.update(kind.encode())
        digest.update(hashlib.sha256(sources[kind].read_bytes()).digest())
    return digest.hexdigest()[:16]


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "-"


def ensure(models_dir: Path) -> dict[str, Path]:
    """Return the int8 models' paths ({"det", "rec"}), making them the first time.

    Raises QuantizeUnavailable when they cannot be made (no onnx, no rapidocr).
    """
    sources = source_models()
    target = Path(models_dir) / f"pp-ocrv6-small-int8-{model_key(sources)}"
    paths = {kind: target / f"{kind}.onnx" for kind in MODELS}
    if all(path.is_file() for path in paths.values()):
        return paths
    target.mkdir(parents=True, exist_ok=True)
    with open(target / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another worker may be making them right now
        if not all(path.is_file() for path in paths.values()):
            logger.info("Making int8 OCR models in %s (once, about a minute)", target)
            build(sources, paths)
    return paths


def build(sources: dict[str, Path], targets: dict[str, Path]) -> None:
    """Quantize each source model into its target, calibrated on typeset pages."""
    try:
        from onnxruntime.quantization import (
            CalibrationDataReader,
            QuantFormat,
            QuantType,
            quantize_static,
        )
        from onnxruntime.quantization.shape_inference import quant_pre_process
    except ImportError as error:
        raise QuantizeUnavailable(f"onnxruntime's quantization tools need onnx ({error})") from None

    class Reader(CalibrationDataReader):
        def __init__(self, arrays):
            self.arrays = iter(arrays)

        def get_next(self):
            array = next(self.arrays, None)
            return None if array is None else {"x": array}

    inputs = {"det": [det_input(image) for image in calibration_pages()]}  # per model in MODELS
    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.ERROR)  # the tools warn on the root logger about every tensor they skip
    try:
        for kind, source in sources.items():
            with tempfile.TemporaryDirectory(dir=targets[kind].parent) as work:
                prepared, made = Path(work, "prepared.onnx"), Path(work, "int8.onnx")
                quant_pre_process(str(source), str(prepared), skip_symbolic_shape=True)
                quantize_static(
                    str(prepared), str(made), Reader(inputs[kind]),
                    quant_format=QuantFormat.QOperator, per_channel=True,
                    activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                )
                os.replace(made, targets[kind])
    finally:
        root.setLevel(level)


# Calibration pages ---------------------------------------------------------------

def catalogue_texts() -> tuple[list[str], list[str]]:
    """Return (English, Japanese) messages from the catalogues Django ships."""
    import django

    root = Path(django.__file__).parent
    english, japanese = [], []
    for path in sorted(root.glob("**/locale/ja/LC_MESSAGES/django.mo")):
        with open(path, "rb") as handle:
            catalogue = gettext.GNUTranslations(handle)._catalog  # noqa: SLF001 (stdlib, stable)
        for source, translated in catalogue.items():
            if isinstance(source, str) and source and isinstance(translated, str):
                english.append(" ".join(source.split()))
                japanese.append(" ".join(translated.split()))
    def usable(text: str) -> bool:  # placeholders ("%(name)s", "{obj}") are not prose
        return len(text) > 1 and not any(mark in text for mark in ("%(", "{", "<"))

    return [t for t in english if usable(t)], [t for t in japanese if usable(t)]


def calibration_pages(count: int = CALIBRATION_PAGES) -> list[np.ndarray]:
    """Return typeset pages as grey H×W×3 images, half of them Japanese."""
    import pymupdf

    english, japanese = catalogue_texts()
    rng = random.Random(SEED)
    noise = np.random.default_rng(SEED)
    pages = []
    for number in range(count):
        texts, font = (japanese, "japan") if number % 2 else (english, "helv")
        document = pymupdf.open()
        page = document.new_page(width=420, height=595)  # A5
        if number >= count - 2:
            _typeset_vertical(page, japanese, rng, number)
        else:
            _typeset(page, texts, font, rng, number)
        scale = 150 / 72
        pixmap = page.get_pixmap(matrix=pymupdf.Matrix(scale, scale), colorspace=pymupdf.csGRAY)
        grey = np.frombuffer(pixmap.samples, dtype=np.uint8).reshape(pixmap.height, pixmap.width)
        grey = _scanned(grey, noise)
        pages.append(np.repeat(grey[:, :, None], 3, axis=2))
        document.close()
    return pages


def _typeset(page, texts: list[str], font: str, rng: random.Random, number: int) -> None:
    import pymupdf

    left, right, y = 48, 372, 60

    def fitted(text: str, size: float, width: float) -> str:
        while text and pymupdf.get_text_length(text, fontname=font, fontsize=size) > width:
            text = text[:-1]
        return text

    page.insert_text((left, 40), fitted(rng.choice(texts), 8, 200), fontname=font, fontsize=8)
    if number % 4 < 2:  # a contents page: titles at three levels, page numbers at the right
        for _ in range(22):
            indent = 12 * rng.randint(0, 2)
            title = fitted(rng.choice(texts), 10, right - left - indent - 40)
            page.insert_text((left + indent, y), title, fontname=font, fontsize=10)
            printed = str(rng.randint(1, 400))
            page.insert_text((right - 18, y), printed, fontname="helv", fontsize=10)
            y += 20
    else:  # a body page: a heading, then full lines of running text
        page.insert_text((left, y + 10), fitted(rng.choice(texts), 15, 300), fontname=font,
                         fontsize=15)
        y += 44
        running = " ".join(rng.choice(texts) for _ in range(200))
        while y < 530 and running:
            line = fitted(running[:120], 10, right - left)
            page.insert_text((left, y), line, fontname=font, fontsize=10)
            running = running[len(line):].lstrip()
            y += 14
    page.insert_text((200, 570), str(number + 1), fontname="helv", fontsize=9)


def _typeset_vertical(page, texts: list[str], rng: random.Random, number: int) -> None:
    """Set columns of Japanese top to bottom, right to left (縦書き), with gaps between words."""
    size = 11 if number % 2 else 10
    x = 372
    while x > 48:
        y, column = 60, ""
        while len(column) < 38:
            column += rng.choice(texts).replace(" ", "") + ("　" if rng.random() < 0.5 else "")
        for char in column[: int(470 / size)]:
            if char.strip():
                page.insert_text((x, y), char, fontname="japan", fontsize=size)
            y += size
        x -= 1.8 * size


def _scanned(grey: np.ndarray, noise) -> np.ndarray:
    """Return the page with a scanner's blur and grain."""
    import cv2

    blurred = cv2.GaussianBlur(grey, (3, 3), 0.6).astype(np.float32)
    grain = noise.normal(0, 9, size=grey.shape).astype(np.float32)
    return np.clip(blurred + grain, 0, 255).astype(np.uint8)


def _normalised(image: np.ndarray) -> np.ndarray:
    return ((image.astype(np.float32) / 255 - 0.5) / 0.5).transpose(2, 0, 1)[None]


def det_input(image: np.ndarray, max_side: int = DET_MAX_SIDE) -> np.ndarray:
    """Return the detector's input for a page, sized as rapidocr sizes it."""
    import cv2

    height, width = image.shape[:2]
    ratio = min(1.0, max_side / max(height, width))
    size = [max(32, int(round(side * ratio / 32)) * 32) for side in (width, height)]
    return _normalised(cv2.resize(image, tuple(size)))
