"""The data directory is private: files 0600 and folders 0700, whoever made them.

The directory holds the database (password hashes, sessions), the stored
books and the generated secrets. ``make_private`` sets the process's umask
so that everything created from then on (the SQLite file and its journals,
blobs, caches, spooled uploads) is its owner's alone, and closes up what an
earlier version left readable: the directory itself and the database files.
"""

import os
import stat
from pathlib import Path

PRIVATE_UMASK = 0o077


def make_private(data_dir: Path) -> None:
    """Set the umask to 077 and make data_dir and its database files owner-only (if they exist)."""
    os.umask(PRIVATE_UMASK)
    if not data_dir.is_dir() or data_dir.stat().st_uid != os.geteuid():
        return
    data_dir.chmod(0o700)
    for path in [*data_dir.glob("*.sqlite3*"), data_dir / "secret_key"]:
        if path.is_file() and path.stat().st_mode & 0o077:
            path.chmod(stat.S_IMODE(path.stat().st_mode) & 0o700)
