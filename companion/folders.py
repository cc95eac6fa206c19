"""Folders a command will write to, checked before it starts its work.

A command that runs for minutes (the demo, the arbiter's page) should refuse a folder it cannot
write to at once, in one line, rather than fail with a traceback at the first file it saves.
"""

from __future__ import annotations

import os
from pathlib import Path

from companion import oserrors
from companion.i18n import _


def cannot_write(folder: Path) -> str | None:
    """Why files cannot be written into ``folder`` (created if missing), or None if they can."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        return _("not a folder")
    except OSError as exc:
        return oserrors.problem(exc)
    if not folder.is_dir():
        return _("not a folder")
    return None if os.access(folder, os.W_OK | os.X_OK) else _("not writable")
