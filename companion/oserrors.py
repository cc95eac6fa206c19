"""What went wrong with a file, a folder or the network, in the reader's language.

Python words an :class:`OSError` in the C library's English (``[Errno 111] Connection
refused``, ``No such file or directory``): a Czech arbiter would read a Czech sentence around an
English reason. The reasons a club evening meets (a file not there, a folder not writable, a
full card, the broker not running) are said from our catalogs by their ``errno``; any other
keeps the system's own words.
"""

from __future__ import annotations

import errno

from companion.i18n import N_, _

#: The reasons said in the reader's language, by errno.
_REASONS: dict[int, str] = {
    errno.ENOENT: N_("no such file"),
    errno.EACCES: N_("permission denied"),
    errno.EPERM: N_("operation not permitted"),
    errno.EISDIR: N_("a folder, not a file"),
    errno.ENOTDIR: N_("no such folder"),
    errno.EEXIST: N_("already exists"),
    errno.ENOSPC: N_("no space left on the device"),
    errno.EROFS: N_("read-only file system"),
    errno.EIO: N_("input/output error (a failing card or disk)"),
    errno.ECONNREFUSED: N_("connection refused (is the broker running?)"),
    errno.ETIMEDOUT: N_("timed out"),
    errno.EHOSTUNREACH: N_("host unreachable"),
    errno.ENETUNREACH: N_("network unreachable"),
    errno.EADDRINUSE: N_("address already in use"),
}


def problem(exc: BaseException) -> str:
    """Why ``exc`` happened, in one short phrase in the reader's language (without the file's
    name: the caller names what it was doing)."""
    if isinstance(exc, OSError):
        reason = _REASONS.get(exc.errno or -1)
        if reason is not None:
            return _(reason)
        if exc.strerror:
            return str(exc.strerror)
    cause = exc.__cause__ or exc.__context__
    if isinstance(cause, OSError) and cause is not exc:
        return problem(cause)
    return str(exc) or type(exc).__name__
