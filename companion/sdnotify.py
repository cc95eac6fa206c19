"""systemd notifications (``Type=notify``): READY, STATUS, WATCHDOG, STOPPING, RELOADING.

The protocol is one datagram of ``KEY=value`` lines sent to the AF_UNIX socket named by
``$NOTIFY_SOCKET`` (a path, or an abstract-namespace name when it starts with ``@``). It is a
few lines, so it is ours: the ``sdnotify`` package is unmaintained and encodes as Latin-1,
which cannot carry a player called "Jiří". We send UTF-8, which systemd expects.

Outside systemd (``NOTIFY_SOCKET`` unset) every method is a no-op, so the daemon calls them
unconditionally. A notification that cannot be sent is logged once and otherwise ignored: the
game matters more than systemd's view of it. The socket is non-blocking, so a busy systemd can
never stall the daemon's loop (the datagram is dropped instead).

Example::

    notifier = Notifier()
    notifier.ready("Tamsk level 3: red to move")
    period = watchdog_interval()     # seconds between pings, or None
    ...
    notifier.watchdog()              # from the main loop, every `period` seconds
    notifier.stopping()
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Mapping

log = logging.getLogger(__name__)


def socket_address(name: str) -> bytes | None:
    """The ``sendto`` address for a ``NOTIFY_SOCKET`` value, or ``None`` if unsupported.

    ``/path`` is a filesystem socket and ``@name`` one in the abstract namespace (a leading NUL
    byte on the wire). Other forms (such as systemd's ``vsock:``) are not for a Pi.
    """
    if name.startswith("/"):
        return os.fsencode(name)
    if name.startswith("@") and len(name) > 1:
        return b"\0" + os.fsencode(name[1:])
    return None


def message(fields: Mapping[str, str]) -> bytes:
    """The datagram for ``fields``: ``KEY=value`` lines in UTF-8.

    A newline inside a value would start a forged line (``STATUS=x\\nREADY=1``), so newlines
    and NULs in values become spaces.
    """
    lines = []
    for key, value in fields.items():
        if not key or not key.replace("_", "").isalnum() or not key.isupper():
            raise ValueError(f"a notification key is upper-case letters, digits and _: {key!r}")
        clean = value.replace("\r\n", " ").replace("\n", " ").replace("\r", " ")
        lines.append(f"{key}={clean.replace(chr(0), ' ')}")
    return "\n".join(lines).encode("utf-8")


class Notifier:
    """Sends notifications to the service manager named by ``$NOTIFY_SOCKET``.

    :param address: the socket name, as ``NOTIFY_SOCKET`` would give it (default: from
        ``environ``).
    :param environ: where to read ``NOTIFY_SOCKET`` (default ``os.environ``).
    """

    def __init__(
        self, address: str | None = None, *, environ: Mapping[str, str] | None = None
    ) -> None:
        env = os.environ if environ is None else environ
        name = address if address is not None else env.get("NOTIFY_SOCKET")
        self.name = name or None
        self._address = socket_address(name) if name else None
        self._socket: socket.socket | None = None
        self._warned = False
        if name and self._address is None:
            self._warn(f"NOTIFY_SOCKET={name!r} is not a path or @name; not notifying systemd")

    @property
    def enabled(self) -> bool:
        """Whether there is a service manager to tell anything."""
        return self._address is not None

    def notify(self, **fields: str) -> bool:
        """Send ``KEY=value`` fields in one datagram; ``True`` if sent (``False``: no-op/failed)."""
        if self._address is None:
            return False
        data = message(fields)
        try:
            if self._socket is None:
                self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
                self._socket.setblocking(False)
            self._socket.sendto(data, self._address)
        except OSError as exc:
            self._warn(f"could not notify systemd at {self.name}: {exc}")
            return False
        return True

    def ready(self, status: str | None = None) -> bool:
        """Startup is finished (resumed game loaded, inputs live)."""
        if status is None:
            return self.notify(READY="1")
        return self.notify(READY="1", STATUS=status)

    def status(self, text: str) -> bool:
        """A one-line state shown by ``systemctl status`` (e.g. the game and whose turn)."""
        return self.notify(STATUS=text)

    def watchdog(self) -> bool:
        """The main loop is alive. Send it every :func:`watchdog_interval` seconds."""
        return self.notify(WATCHDOG="1")

    def stopping(self, status: str | None = None) -> bool:
        """Shutdown has begun (SIGTERM)."""
        if status is None:
            return self.notify(STOPPING="1")
        return self.notify(STOPPING="1", STATUS=status)

    def reloading(self, monotonic_usec: int) -> bool:
        """A reload has begun (``Type=notify-reload``); send :meth:`ready` when it is done.

        systemd wants the time of the reload on CLOCK_MONOTONIC in microseconds; the daemon
        passes its clock's reading (``time.monotonic()`` on Linux is that clock).
        """
        return self.notify(RELOADING="1", MONOTONIC_USEC=str(int(monotonic_usec)))

    def close(self) -> None:
        if self._socket is not None:
            self._socket.close()
            self._socket = None

    def _warn(self, text: str) -> None:
        # Once: a daemon that pings every few seconds must not fill the journal with this.
        if not self._warned:
            self._warned = True
            log.warning("%s (further failures are not logged)", text)


def watchdog_interval(
    environ: Mapping[str, str] | None = None, *, pid: int | None = None
) -> float | None:
    """Seconds between watchdog pings: half of ``WatchdogSec``, or ``None`` for no watchdog.

    systemd passes ``WatchdogSec`` as ``WATCHDOG_USEC`` (microseconds). ``WATCHDOG_PID``, when
    set, names the process meant; the watchdog is not ours if it names another (a child that
    inherited the environment must not ping).
    """
    env = os.environ if environ is None else environ
    raw = env.get("WATCHDOG_USEC")
    if not raw:
        return None
    try:
        usec = int(raw)
    except ValueError:
        log.warning("ignoring WATCHDOG_USEC=%r: not a whole number", raw)
        return None
    if usec <= 0:
        return None
    owner = env.get("WATCHDOG_PID")
    if owner:
        me = os.getpid() if pid is None else pid
        try:
            if int(owner) != me:
                return None
        except ValueError:
            log.warning("ignoring WATCHDOG_PID=%r: not a process id", owner)
            return None
    return usec / 2 / 1_000_000
