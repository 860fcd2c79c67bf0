"""What the repository itself holds: every clone carries it, so it holds no stray weight."""

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MAX_BYTES = 2 * 1024 * 1024
"""The largest file a clone may carry: the biggest today (a screenshot) is 0.1 MB. Models and
wheels come from the package index or a path in settings, never from the tree."""


def tracked_files() -> list[Path]:
    """Return the files git tracks in this checkout (staged ones included)."""
    if not shutil.which("git") or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True,
                            check=True).stdout.decode().split("\0")
    return [ROOT / name for name in listed if name]


def test_no_tracked_file_is_over_two_megabytes():
    heavy = [f"{path.relative_to(ROOT)} ({path.stat().st_size / 1e6:.1f} MB)"
             for path in tracked_files() if path.is_file() and path.stat().st_size > MAX_BYTES]
    assert heavy == []


def test_no_wheel_or_archive_is_tracked():
    packed = [str(path.relative_to(ROOT)) for path in tracked_files()
              if path.name.endswith((".whl", ".tar.gz", ".zip", ".gguf", ".onnx"))]
    assert packed == []
