"""Content-addressed storage of registered files under the data directory."""

import os
import re
import shutil
from pathlib import Path

from librarian.config import setting

SHA256 = re.compile(r"[0-9a-f]{64}")


def data_dir() -> Path:
    return Path(setting("DATA_DIR"))


def blob_path(sha256: str) -> Path:
    """Return the path of the file whose content hashes to sha256."""
    if not SHA256.fullmatch(sha256):
        raise ValueError("not a sha256 hex digest")
    return data_dir() / "blobs" / sha256[:2] / f"{sha256}.pdf"


def cache_dir(*parts: str) -> Path:
    path = data_dir().joinpath("cache", *parts)
    path.mkdir(parents=True, exist_ok=True)
    return path


def spool_dir() -> Path:
    path = data_dir() / "tmp"
    path.mkdir(parents=True, exist_ok=True)
    return path


def store_blob(source: Path, sha256: str) -> bool:
    """Move source into the blob store; return True if the blob is new.

    The stored file is read-only: registered files are never modified.
    """
    target = blob_path(sha256)
    if target.exists():
        source.unlink(missing_ok=True)
        return False
    target.parent.mkdir(parents=True, exist_ok=True)
    os.chmod(source, 0o400)
    # os.replace is atomic within one filesystem; the spool lives beside the blobs.
    try:
        os.replace(source, target)
    except OSError:
        shutil.move(source, target)
    return True


def remove_blob(sha256: str) -> None:
    blob_path(sha256).unlink(missing_ok=True)
