"""The Latin recogniser: PP-OCRv6 tiny, as the faster-paddle wheel ships it, kept beside the
int8 models.

On pages of Latin script the small recogniser's 18,710 classes (Chinese,
Japanese, Latin and more) cost most of the time: PP-OCRv6 tiny (6,904
characters: Latin, Greek, Cyrillic, Chinese, no kana) reads real English print
with fewer errors than tesseract, though more than the small one, in about a
quarter of its time (docs/how-it-works.md, "OCR
speed on the CPU"). PaddleOCR publishes it under Apache-2.0; the one package on
the registry that ships it and installs on this Python is faster-paddle (MIT),
which bundles the model and its dictionary inside its native module. They are
copied out of it once, at the offsets and with the hashes of the pinned version
(requirements.txt): where the module is missing or differs, the Latin model is
not used, the log says why, and every page is read by the small recogniser
(slower, never wrong).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
from dataclasses import dataclass
from importlib import metadata, util
from pathlib import Path

logger = logging.getLogger(__name__)

PACKAGE, VERSION = "faster-paddle", "1.0.4"


@dataclass(frozen=True)
class Blob:
    """A file kept inside the package's native module: where it is, and its hash."""

    offset: int
    length: int
    sha256: str


MODEL = Blob(35_491_360, 4_462_498,
             "63e9e23c26f77daf61ade813ad3b3b25283a4ddd229adfe227ff9ad48b68da75")
DICTIONARY = Blob(39_953_858, 47_870,  # a JSON list of the characters, in class order
                  "b9bf03b8b02c9c22f6af847769269d5c1f877cfc8914bbaecac6a44d7a6061de")


class LatinUnavailable(Exception):
    """The Latin model cannot be had here; the message says why."""


def ensure(models_dir: Path) -> tuple[Path, Path]:
    """Return (model, dictionary) paths of the Latin recogniser, copying them out of the
    package the first time. Raises LatinUnavailable."""
    target = Path(models_dir) / f"pp-ocrv6-tiny-rec-{MODEL.sha256[:16]}"
    model, dictionary = target / "rec.onnx", target / "dict.txt"
    if model.is_file() and dictionary.is_file():
        return model, dictionary
    data = _module_bytes()
    target.mkdir(parents=True, exist_ok=True)
    characters = json.loads(_cut(data, DICTIONARY))
    _write(dictionary, "".join(f"{character}\n" for character in characters).encode())
    _write(model, _cut(data, MODEL))
    return model, dictionary


def _module_bytes() -> bytes:
    try:
        version = metadata.version(PACKAGE)
    except metadata.PackageNotFoundError:
        raise LatinUnavailable(f"{PACKAGE} is not installed (pip install "
                               f"{PACKAGE}=={VERSION})") from None
    if version != VERSION:
        raise LatinUnavailable(f"{PACKAGE} {version} is installed; its models are known in "
                               f"{VERSION} only")
    spec = util.find_spec("faster_paddle.faster_paddle")  # found, not imported
    if spec is None or not spec.origin:
        raise LatinUnavailable(f"{PACKAGE}'s native module is missing")
    return Path(spec.origin).read_bytes()


def _cut(data: bytes, blob: Blob) -> bytes:
    part = data[blob.offset:blob.offset + blob.length]
    if hashlib.sha256(part).hexdigest() != blob.sha256:
        raise LatinUnavailable(f"{PACKAGE}'s native module does not hold the expected model "
                               f"at {blob.offset}")
    return part


def _write(path: Path, content: bytes) -> None:
    """Write content to path through a temporary file, so that no reader sees half of it."""
    with tempfile.NamedTemporaryFile(dir=path.parent, delete=False) as handle:
        handle.write(content)
    os.replace(handle.name, path)
