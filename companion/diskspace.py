"""The journal's disk: a warning before it is full, and the way back when it was.

An input is acknowledged only once its journal line is on disk, so a full SD card must not end
the daemon (systemd would restart it into the same full disk, again and again): the table keeps
showing the game, refuses inputs with a message (an input whose line could not be written is
not played, not beeped, not published), and plays on by itself once space is freed. The daemon
asks :class:`DiskWatch` how things stand: every ``check_s`` seconds normally, every
``retry_s`` seconds after a write failed. "Space is back" means both that the file system
reports room and that a probe file can be written and synced in the journal folder.
"""

from __future__ import annotations

import errno
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from companion.i18n import N_, _

#: Warn on the OLED below this much free space (a game's journal is tens of kilobytes).
LOW_BYTES = 32 * 1024 * 1024
#: Call the disk usable again only with at least this much free.
RESUME_BYTES = 1024 * 1024
#: Short texts for the OLED's warning bar (about 20 characters).
FULL_TEXT = N_("DISK FULL: not saved")
FAILED_TEXT = N_("SAVE FAILED: not kept")
BACK_TEXT = N_("disk ok again: play")
#: The errors that mean "no room" (as opposed to a dying card: EIO, EROFS).
NO_SPACE = {errno.ENOSPC, errno.EDQUOT}


def failure_text(exc: OSError) -> str:
    return _(FULL_TEXT if exc.errno in NO_SPACE else FAILED_TEXT)


def low_text(free: int) -> str:
    return _("disk low: {mb} MB left").format(mb=free // (1024 * 1024))


@dataclass
class Usage:
    free: int
    total: int


def disk_usage(folder: Path) -> Usage:
    u = shutil.disk_usage(folder)
    return Usage(u.free, u.total)


def probe_write(folder: Path, size: int = 4096) -> bool:
    """Whether a small file can be written and synced in ``folder`` now (then removed)."""
    path = folder / ".companion-space-probe"
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    except OSError:
        return False
    try:
        os.write(fd, b"\0" * size)
        os.fsync(fd)
        return True
    except OSError:
        return False
    finally:
        os.close(fd)
        try:
            os.unlink(path)
        except OSError:
            pass


class DiskWatch:
    """How the journal folder's disk stands, checked now and then (all injectable)."""

    def __init__(
        self,
        folder: str | Path,
        *,
        low_bytes: int = LOW_BYTES,
        check_s: float = 30.0,
        retry_s: float = 5.0,
        usage: Callable[[Path], Usage] = disk_usage,
        probe: Callable[[Path], bool] = probe_write,
    ) -> None:
        self.folder = Path(folder)
        self.low_bytes = low_bytes
        self.check_s = check_s
        self.retry_s = retry_s
        self._usage = usage
        self._probe = probe
        #: The write error that stopped the table, until space is back.
        self.failed: OSError | None = None
        self.low = False
        self.next_check = 0.0

    def usage(self) -> Usage | None:
        try:
            return self._usage(self.folder)
        except OSError:
            return None

    def write_failed(self, exc: OSError, now: float) -> None:
        self.failed = exc
        self.next_check = now + self.retry_s

    def check(self, now: float) -> str | None:
        """What to tell the players now, if anything: low space, or space back after a
        failure. Call when ``now >= next_check``."""
        usage = self.usage()
        free = usage.free if usage is not None else None
        # A small file system (a test's tmpfs) has smaller thresholds.
        low = min(self.low_bytes, usage.total // 10) if usage is not None else self.low_bytes
        enough = min(RESUME_BYTES, usage.total // 4) if usage is not None else RESUME_BYTES
        if self.failed is not None:
            self.next_check = now + self.retry_s
            if free is not None and free >= enough and self._probe(self.folder):
                self.failed = None
                self.low = free < low
                return _(BACK_TEXT)
            return failure_text(self.failed)
        self.next_check = now + self.check_s
        self.low = free is not None and free < low
        if self.low and free is not None:  # repeated at each check while it lasts
            return low_text(free)
        return None


__all__ = ["DiskWatch", "Usage", "disk_usage", "low_text", "probe_write"]
