"""Running the hub firmware on a PC: fresh module copies over fake hardware, and cables.

``SimHub`` loads firmware/*.py anew for every simulated hub, with the fake ``machine``,
``time`` and ``micropython`` modules of tests/hub/fakes standing in for the Pico's, so
the code under test is the very file that gets flashed. Inputs are moved by name
("tilt.r1", "ring.red", "7") through the fake wiring, so board.py's pin scanning runs too.

Ports for the hub's serial line:
- ``MemoryPort``: in-process, for the long fault-injection runs where a tty adds nothing.
- ``PtyCable``: a real pseudo-terminal pair behind a stable symlink, like /dev/ttyACM0;
  the hub holds the master, ``HubLink`` opens the link; ``pull()`` and ``plug()`` unplug
  and replug it.
"""

from __future__ import annotations

import importlib.util
import os
import random
import sys
import threading
import time
import tty
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

from companion.hub.protocol import INPUT_INDEX, KEYPAD_LAYOUT

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
FAKES = Path(__file__).resolve().parent / "fakes"

_counter = 0
_load_lock = threading.Lock()


def _load(path: Path, modules: dict[str, ModuleType]) -> ModuleType:
    """Execute ``path`` as a fresh module, with ``modules`` answering its imports."""
    global _counter
    _counter += 1
    name = f"_hubsim_{path.stem}_{_counter}"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    saved = {key: sys.modules.get(key) for key in modules}
    sys.modules.update(modules)
    try:
        spec.loader.exec_module(module)
    finally:
        for key, old in saved.items():
            if old is None:
                sys.modules.pop(key, None)
            else:
                sys.modules[key] = old
    return module


class Firmware:
    """One copy of the firmware modules and of the fake hardware beneath them."""

    def __init__(self, **config: Any) -> None:
        with _load_lock:
            self.time = _load(FAKES / "time.py", {})
            self.machine = _load(FAKES / "machine.py", {})
            self.micropython = _load(FAKES / "micropython.py", {})
            mods = {"time": self.time, "machine": self.machine, "micropython": self.micropython}
            self.codec = _load(FIRMWARE / "codec.py", mods)
            mods["codec"] = self.codec
            self.debounce = _load(FIRMWARE / "debounce.py", mods)
            mods["debounce"] = self.debounce
            self.config = _load(FIRMWARE / "config.py", mods)
            for key, value in config.items():
                if not hasattr(self.config, key):
                    raise AttributeError(f"firmware/config.py has no setting {key}")
                setattr(self.config, key, value)
            mods["config"] = self.config
            self.board = _load(FIRMWARE / "board.py", mods)
            mods["board"] = self.board
            self.hub = _load(FIRMWARE / "hub.py", mods)


class MemoryPort:
    """The hub's serial line as two byte queues: ``inbox`` (host to hub) and ``sent``."""

    def __init__(self) -> None:
        self.inbox = bytearray()
        self.sent: list[bytes] = []
        self.connected = True

    def read(self, limit: int = 64) -> bytes:
        data = bytes(self.inbox[:limit])
        del self.inbox[:limit]
        return data

    def write(self, data: bytes) -> None:
        if self.connected:
            self.sent.append(bytes(data))

    def take(self) -> list[bytes]:
        sent, self.sent = self.sent, []
        return sent


class SimHub:
    """A hub running the real firmware over fake hardware.

    :param port: the serial line (``MemoryPort``, ``PtyCable.hub_port()``...).
    :param virtual: tick on a virtual clock moved by ``advance`` (else on the PC's clock).
    :param period: the tick counter's modulus; shrink it to make wraparound frequent.
    """

    def __init__(
        self,
        port: Any,
        *,
        virtual: bool = True,
        start_us: int = 0,
        period: int = 1 << 30,
        drift_ppm: float = 0.0,
        offset_us: int = 0,
        seed: int = 0,
        **config: Any,
    ) -> None:
        self.fw = Firmware(**config)
        boot_ids = random.Random(seed)
        self.fw.time.set_period(period)
        if virtual:
            self.fw.time.use_virtual(start_us)
            self.real_base_us: int | None = None
        else:
            self.real_base_us = self.fw.time.use_real(drift_ppm, offset_us)
        self.drift_ppm = drift_ppm
        self.offset_us = offset_us
        self.wiring = self.fw.machine.WIRING
        self.board = self.fw.board.Board(self.fw.config, port=port)
        # Boot ids from a seeded generator, so that every run is the same run.
        self.board.boot_id = lambda: boot_ids.getrandbits(32)
        self.emitted: list[tuple[int, int, int, int]] = []
        self.hub = self.boot()

    def boot(self) -> Any:
        """Power up (again): a new Hub with a new boot id; what was buffered is gone."""
        hub = self.fw.hub.Hub(self.board, self.fw.config)
        emit = hub._emit
        emitted = self.emitted

        def recording_emit(index: int, value: int, first_tick: int) -> None:
            emitted.append((hub.next_seq, index, value, hub.hub_us(first_tick)))
            emit(index, value, first_tick)

        hub._emit = recording_emit
        self.hub = hub
        return hub

    # -- time --------------------------------------------------------------------------

    def now_us(self) -> int:
        """The hub's unwrapped microseconds (what its 64-bit timestamps count)."""
        return int(self.fw.time.now_us())

    def advance(self, us: int) -> None:
        self.fw.time.advance(us)

    def step(self) -> bool:
        return bool(self.hub.step())

    # -- inputs ------------------------------------------------------------------------

    def set_input(self, name: str, active: bool) -> None:
        """Close (active) or open the switch, button or key called ``name``."""
        index = INPUT_INDEX[name]
        config = self.fw.config
        if index < len(config.DIRECT_PINS):
            gpio = config.DIRECT_PINS[index]
            if active:
                self.wiring.close(gpio)
            else:
                self.wiring.open(gpio)
            return
        row, col = divmod(KEYPAD_LAYOUT.index(name), 4)
        pair = (config.KEYPAD_ROWS[row], config.KEYPAD_COLS[col])
        if active:
            self.wiring.press(*pair)
        else:
            self.wiring.release(*pair)


class CablePort:
    """The hub's end of a ``PtyCable``: the pty master, or nothing while unplugged."""

    def __init__(self) -> None:
        self.fd: int | None = None

    def read(self, limit: int = 64) -> bytes:
        fd = self.fd
        if fd is None:
            return b""
        try:
            return os.read(fd, limit)
        except OSError:  # nothing to read, or no host has the other end open
            return b""

    def write(self, data: bytes) -> None:
        fd = self.fd
        if fd is None:
            return
        try:
            os.write(fd, data)
        except OSError:  # host not reading (buffer full) or gone: like USB CDC, drop it
            pass


class PtyCable:
    """A USB cable made of pseudo-terminal pairs behind a stable name.

    ``path`` is a symlink to the current slave, as udev's /dev/serial/by-id links are;
    ``pull()`` closes the pair and removes the link (the device node vanishes), ``plug()``
    makes a fresh pair and points the link at it.
    """

    def __init__(self, directory: Path) -> None:
        self.path = directory / "ttyHUB"
        self.port = CablePort()
        self._slave: int | None = None
        self.plug()

    def plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        tmp = self.path.with_suffix(".new")
        if tmp.exists() or tmp.is_symlink():
            tmp.unlink()
        os.symlink(os.ttyname(slave), tmp)
        os.replace(tmp, self.path)
        self._slave = slave
        self.port.fd = master

    def pull(self) -> None:
        master, self.port.fd = self.port.fd, None
        if self.path.is_symlink():
            self.path.unlink()
        if master is not None:
            os.close(master)
        if self._slave is not None:
            os.close(self._slave)
            self._slave = None

    def close(self) -> None:
        self.pull()


class HubThread:
    """Runs a ``SimHub`` on the PC's clock in a background thread, as the Pico would run.

    Inputs are changed with ``do(fn)``, which runs ``fn`` between two passes of the loop.
    """

    def __init__(self, sim: SimHub, pause: float = 0.0002) -> None:
        self.sim = sim
        self._pause = pause
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self.frozen = threading.Event()
        self._thread = threading.Thread(target=self._run, name="sim hub", daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            if not self.frozen.is_set():
                with self._lock:
                    self.sim.step()
            time.sleep(self._pause)

    def do(self, fn: Callable[[], Any]) -> Any:
        with self._lock:
            return fn()

    def set_input(self, name: str, active: bool) -> int:
        """Move an input; returns the hub's microseconds at that moment."""

        def move() -> int:
            self.sim.set_input(name, active)
            return self.sim.now_us()

        return int(self.do(move))

    def start(self) -> HubThread:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()


@contextmanager
def running(sim: SimHub) -> Iterator[HubThread]:
    thread = HubThread(sim).start()
    try:
        yield thread
    finally:
        thread.stop()


def wait_for(predicate: Callable[[], bool], timeout: float = 10.0) -> bool:
    """Poll ``predicate`` until true; the tests assert on the outcome, not on the time."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.005)
    return predicate()


class VirtualLink:
    """A ``SimHub`` wired to a ``HostSession`` in-process, both on the virtual clock.

    Host time is the hub's time plus ``origin`` and a fixed transfer ``delay``; ``run``
    moves the clock in ``step_us`` steps and carries every byte both ways at once.
    """

    def __init__(
        self, *, origin: float = 500.0, delay: float = 0.0003, step_us: int = 250, **sim: Any
    ) -> None:
        from companion.hub.session import HostSession, HubEvent

        self.port = MemoryPort()
        self.sim = SimHub(self.port, **sim)
        self.origin = origin
        self.delay = delay
        self.step_us = step_us
        self.events: list[HubEvent] = []
        self.links: list[tuple[str, str]] = []
        self.connected = True
        self.session = HostSession(
            self.port.inbox.extend, self.events.append, lambda s, d: self.links.append((s, d))
        )
        self.session.opened(self.host_now())

    def host_now(self) -> float:
        return self.origin + self.sim.now_us() / 1e6 + self.delay

    def run(self, ms: float) -> None:
        for _ in range(int(ms * 1000 / self.step_us)):
            self.sim.advance(self.step_us)
            self.sim.step()
            frames = self.port.take()
            if self.connected:
                for frame in frames:
                    self.session.receive(frame, self.host_now())
            else:
                self.port.inbox.clear()
            self.session.poll(self.host_now())

    def press(self, name: str, ms: float = 50) -> None:
        """Move ``name`` to active, hold it ``ms``, release it, and wait ``ms`` again."""
        self.sim.set_input(name, True)
        self.run(ms)
        self.sim.set_input(name, False)
        self.run(ms)
