"""``HubLink``: the sensor hub as an input backend, over pyserial and one reader thread.

Why a thread and not pyserial-asyncio: the timestamps that matter are taken on the hub,
so the host only needs a reader that is usually prompt, and a plain blocking read in a
thread is the simplest such reader that works the same for a real port, a pty and
pyserial's ``loop://``. The callbacks run in that thread; the daemon hands them to its
event loop with ``loop.call_soon_threadsafe``.

    link = HubLink("/dev/ttyACM0", on_event=print, on_link=print)
    link.start()
    ...
    link.close()
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Protocol, cast

import serial

from companion.hub import protocol
from companion.hub.session import HostSession, HubEvent, LinkStats


class SerialPort(Protocol):
    """What HubLink uses of a pyserial port (``Serial``, ``loop://``'s class, ...)."""

    port: str | None
    timeout: float | None

    @property
    def is_open(self) -> bool: ...

    @property
    def in_waiting(self) -> int: ...

    def open(self) -> None: ...

    def close(self) -> None: ...

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes, /) -> int | None: ...

    def cancel_read(self) -> None: ...


def _ignore_event(event: HubEvent) -> None:
    return None


def _ignore_link(status: str, detail: str) -> None:
    return None


class HubLink:
    """Reads the hub on ``port`` and reports what it says, reconnecting whenever needed.

    :param port: a pyserial URL or device path ("/dev/ttyACM0", "loop://", a pty path),
        or an already constructed pyserial object. A path is opened with an exclusive
        lock and re-opened by name after the device disappears (a replugged hub comes
        back under the same name). An object is closed and re-opened the same way, but
        ``close()`` leaves it closed only if this link opened it.
    :param now: the host clock, monotonic seconds. Every event time and every timeout
        comes from it; it is called only from the reader thread.
    :param on_event: called with each ``HubEvent``, exactly once, in the hub's order.
    :param on_link: called with ("up" | "down" | "warning", detail) on every change:
        "up" once the hub has answered, "down" when the port fails or no hub answers,
        "warning" for a silent hub (within ``silence_warning`` s), lost events, a
        restarted hub or a noisy line. A silent hub that speaks again brings "up".
    Both callbacks run in the reader thread.
    """

    def __init__(
        self,
        port: str | SerialPort,
        *,
        now: Callable[[], float] = time.monotonic,
        on_event: Callable[[HubEvent], None] = _ignore_event,
        on_link: Callable[[str, str], None] = _ignore_link,
        reconnect_interval: float = 0.5,
        silence_warning: float = 1.5,
        read_timeout: float = 0.05,
    ) -> None:
        if isinstance(port, str):
            self.name = port
            opened = serial.serial_for_url(
                port,
                baudrate=115200,
                timeout=read_timeout,
                write_timeout=0.2,
                exclusive=None if "://" in port else True,
                do_not_open=True,
            )
            self._serial = cast(SerialPort, opened)
            self._managed = True
        else:
            self.name = str(port.port or port)
            self._serial = port
            self._managed = False
            self._serial.timeout = read_timeout
        self._now = now
        self._on_link = on_link
        self._reconnect_interval = reconnect_interval
        self._write_lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._down_reported = False
        self.session = HostSession(
            self._write, on_event, self._link_changed, silence_warning=silence_warning
        )

    # -- public ----------------------------------------------------------------------

    @property
    def status(self) -> str:
        return self.session.status

    @property
    def stats(self) -> LinkStats:
        return self.session.stats

    def inputs(self) -> dict[str, int] | None:
        """The hub's input levels as of the last event delivered (None until known)."""
        return self.session.inputs()

    def start(self) -> None:
        if self._thread is not None:
            raise RuntimeError("HubLink already started")
        self._thread = threading.Thread(target=self._run, name=f"hub {self.name}", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop the reader thread; close the port unless it was handed in open."""
        self._stop.set()
        if self._serial.is_open:
            try:
                self._serial.cancel_read()
            except (AttributeError, NotImplementedError, OSError, serial.SerialException):
                pass
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        if self._managed:
            self._serial.close()

    def request_repl(self) -> None:
        """Ask the hub to leave its firmware for the MicroPython REPL (to reflash it)."""
        if self.session.boot is None:
            raise RuntimeError("the hub has not introduced itself yet")
        self._write(protocol.encode_repl(self.session.boot))

    def __enter__(self) -> HubLink:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the reader thread -------------------------------------------------------------

    def _run(self) -> None:
        port = self._serial
        while not self._stop.is_set():
            if not port.is_open:
                try:
                    port.open()
                except (serial.SerialException, OSError, ValueError) as exc:
                    self._report_down(f"cannot open {self.name}: {exc}")
                    self._stop.wait(self._reconnect_interval)
                    continue
                self._down_reported = False
            self.session.opened(self._now())
            try:
                while not self._stop.is_set():
                    data = port.read(port.in_waiting or 1)
                    t = self._now()
                    if data:
                        self.session.receive(data, t)
                    self.session.poll(t)
            except (serial.SerialException, OSError, TypeError) as exc:
                # TypeError: pyserial's posix read can trip over a descriptor closed
                # under it while the device vanishes.
                self.session.closed(self._now(), f"lost the hub on {self.name}: {exc}")
                self._down_reported = True
                try:
                    port.close()
                except (serial.SerialException, OSError):
                    pass
                self._stop.wait(self._reconnect_interval)

    def _write(self, data: bytes) -> None:
        with self._write_lock:
            try:
                self._serial.write(data)
            except serial.SerialTimeoutException:
                pass  # the hub is not reading; an ACK or HELLO will go again later
            except (serial.SerialException, OSError):
                pass  # the read side sees the same failure and reconnects

    def _report_down(self, detail: str) -> None:
        if not self._down_reported:
            self._down_reported = True
            self.session.closed(self._now(), detail)

    def _link_changed(self, status: str, detail: str) -> None:
        self._on_link(status, detail)
