"""Writing small files so that a power cut leaves the old version or the new one, never half.

Keys, the arbiter's keyring, configuration and pointer files are replaced whole: the new text
goes to a temporary file in the same folder (created with its final mode, so a secret is never
readable by others even for an instant), is fsynced, renamed over the old name with
:func:`os.replace` (atomic on POSIX), and the folder is fsynced so the rename itself survives.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

SECRET = 0o600
PUBLIC = 0o644


def fsync_dir(folder: str | Path) -> None:
    """Make a rename or a new name in ``folder`` durable (a no-op where folders can't be opened)."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def atomic_write(path: str | Path, data: bytes | str, *, mode: int = PUBLIC) -> Path:
    """Replace ``path`` with ``data`` atomically, the file having exactly ``mode``.

    Raises :class:`OSError` when the folder is not writable; ``path`` is then unchanged.
    """
    path = Path(path)
    if isinstance(data, str):
        data = data.encode("utf-8")
    path.parent.mkdir(parents=True, exist_ok=True)
    # mkstemp creates the file 0600; fchmod sets the final mode before any byte is written.
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, mode)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
        os.close(fd)
        fd = -1
        os.replace(tmp, path)
    except BaseException:
        if fd >= 0:
            os.close(fd)
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    fsync_dir(path.parent)
    return path
