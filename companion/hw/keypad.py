"""The keypad: key presses as single characters ``'0'``-``'9'``, ``'A'``-``'D'``, ``'*'``, ``'#'``.

Two ways in, one result:

:class:`EvdevKeypad` (preferred)
    reads a Linux input device with python-evdev: a USB numeric keypad, or a 4x4 matrix keypad
    on GPIOs that the kernel's ``gpio-matrix-keypad`` driver (enabled by a device-tree overlay)
    scans and debounces for us. A reader thread blocks on the device and hands every key-down
    to ``on_key``.
:class:`MatrixKeypad` (fallback)
    scans the same 4x4 matrix itself through gpiozero pins from :meth:`MatrixKeypad.poll`,
    on the daemon's clock, with its own debounce.

Key map of a USB numeric keypad (:data:`USB_KEYPAD_KEYMAP`; keep its NumLock on)::

    KEY_KP0..KEY_KP9        -> '0'..'9'
    KEY_KPENTER, KEY_ENTER  -> '#'
    KEY_KPASTERISK          -> '*'
    KEY_KPSLASH             -> 'A'
    KEY_KPMINUS             -> 'B'
    KEY_KPPLUS              -> 'C'
    KEY_KPDOT, KEY_BACKSPACE -> 'D'

Keypads with their own NumLock key send navigation keys while it is off; those are mapped to
the digits printed on the same keys (:data:`NUMLOCK_OFF_KEYMAP`: Insert 0, End 1, Down 2,
PageDown 3, Left 4, Right 6, Home 7, Up 8, PageUp 9, Delete ``D``). 5 sends nothing then.

The matrix keypad through the kernel: our overlay's ``linux,keymap`` gives each key the
matching ``KEY_NUMERIC_*`` code (made for phone keypads, which have exactly our 16 keys:
``KEY_NUMERIC_0``-``9``, ``_STAR``, ``_POUND``, ``_A``-``_D``; :data:`NUMERIC_KEYMAP`).
:func:`matrix_keymap` gives the cells for the layout ``1 2 3 A / 4 5 6 B / 7 8 9 C / * 0 # D``
(row 0 on top, column 0 on the left; a cell is ``row << 24 | column << 16 | code``, the kernel's
``MATRIX_KEY``)::

    linux,keymap = <0x00000201 0x00010202 0x00020203 0x0003020c    /* 1 2 3 A */
                    0x01000204 0x01010205 0x01020206 0x0103020d    /* 4 5 6 B */
                    0x02000207 0x02010208 0x02020209 0x0203020e    /* 7 8 9 C */
                    0x0300020a 0x03010200 0x0302020b 0x0303020f>;  /* * 0 # D */

The whole overlay for the default pins, with build and install steps, is
``hardware/keypad/companion-keypad.dts`` in the source tree (its tests check that its keymap is
:func:`matrix_keymap`).

Overlays that map the keys to ``KEY_KP*`` codes (a common recipe) work as well, as do the
top-row ``KEY_0``-``KEY_9`` and ``KEY_A``-``KEY_D``: :data:`DEFAULT_KEYMAP` holds them all.
"""

from __future__ import annotations

import logging
import math
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Protocol

log = logging.getLogger(__name__)

#: The sixteen keys, in the layout's reading order.
KEYS = "123A456B789C*0#D"

#: The 4x4 layout, top row first, as printed on the usual membrane keypad.
LAYOUT: tuple[str, ...] = ("123A", "456B", "789C", "*0#D")

EV_KEY = 0x01
KEY_DOWN_VALUE = 1  # evdev key values: 0 released, 1 pressed, 2 autorepeat

#: Linux key codes we map (``linux/input-event-codes.h``; a stable kernel ABI), so the
#: translation needs no evdev import.
KEY_CODES: Mapping[str, int] = {
    **{f"KEY_{d}": 1 + (int(d) or 10) for d in "0123456789"},  # KEY_1 = 2 ... KEY_0 = 11
    "KEY_BACKSPACE": 14,
    "KEY_ENTER": 28,
    "KEY_A": 30,
    "KEY_D": 32,
    "KEY_C": 46,
    "KEY_B": 48,
    "KEY_KPASTERISK": 55,
    "KEY_KP7": 71,
    "KEY_KP8": 72,
    "KEY_KP9": 73,
    "KEY_KPMINUS": 74,
    "KEY_KP4": 75,
    "KEY_KP5": 76,
    "KEY_KP6": 77,
    "KEY_KPPLUS": 78,
    "KEY_KP1": 79,
    "KEY_KP2": 80,
    "KEY_KP3": 81,
    "KEY_KP0": 82,
    "KEY_KPDOT": 83,
    "KEY_KPENTER": 96,
    "KEY_KPSLASH": 98,
    "KEY_HOME": 102,
    "KEY_UP": 103,
    "KEY_PAGEUP": 104,
    "KEY_LEFT": 105,
    "KEY_RIGHT": 106,
    "KEY_END": 107,
    "KEY_DOWN": 108,
    "KEY_PAGEDOWN": 109,
    "KEY_INSERT": 110,
    "KEY_DELETE": 111,
    **{f"KEY_NUMERIC_{d}": 0x200 + int(d) for d in "0123456789"},
    "KEY_NUMERIC_STAR": 0x20A,
    "KEY_NUMERIC_POUND": 0x20B,
    "KEY_NUMERIC_A": 0x20C,
    "KEY_NUMERIC_B": 0x20D,
    "KEY_NUMERIC_C": 0x20E,
    "KEY_NUMERIC_D": 0x20F,
}


def _by_name(names: Mapping[str, str]) -> dict[int, str]:
    return {KEY_CODES[name]: key for name, key in names.items()}


USB_KEYPAD_KEYMAP: Mapping[int, str] = _by_name(
    {
        **{f"KEY_KP{d}": d for d in "0123456789"},
        "KEY_KPENTER": "#",
        "KEY_ENTER": "#",
        "KEY_KPASTERISK": "*",
        "KEY_KPSLASH": "A",
        "KEY_KPMINUS": "B",
        "KEY_KPPLUS": "C",
        "KEY_KPDOT": "D",
        "KEY_BACKSPACE": "D",
    }
)

NUMLOCK_OFF_KEYMAP: Mapping[int, str] = _by_name(
    {
        "KEY_INSERT": "0",
        "KEY_END": "1",
        "KEY_DOWN": "2",
        "KEY_PAGEDOWN": "3",
        "KEY_LEFT": "4",
        "KEY_RIGHT": "6",
        "KEY_HOME": "7",
        "KEY_UP": "8",
        "KEY_PAGEUP": "9",
        "KEY_DELETE": "D",
    }
)

NUMERIC_KEYMAP: Mapping[int, str] = _by_name(
    {
        **{f"KEY_NUMERIC_{d}": d for d in "0123456789"},
        "KEY_NUMERIC_STAR": "*",
        "KEY_NUMERIC_POUND": "#",
        **{f"KEY_NUMERIC_{c}": c for c in "ABCD"},
    }
)

TOP_ROW_KEYMAP: Mapping[int, str] = _by_name(
    {**{f"KEY_{d}": d for d in "0123456789"}, **{f"KEY_{c}": c for c in "ABCD"}}
)

#: Everything above: one map serves a USB keypad and a kernel-scanned matrix alike.
DEFAULT_KEYMAP: Mapping[int, str] = {
    **USB_KEYPAD_KEYMAP,
    **NUMLOCK_OFF_KEYMAP,
    **NUMERIC_KEYMAP,
    **TOP_ROW_KEYMAP,
}


def key_for_event(
    event_type: int, code: int, value: int, keymap: Mapping[int, str] = DEFAULT_KEYMAP
) -> str | None:
    """The key a Linux input event presses, or ``None``.

    Only a key going down counts (``value`` 1): releases (0) and autorepeat (2) are not
    presses, and a held key must not type itself again.
    """
    if event_type != EV_KEY or value != KEY_DOWN_VALUE:
        return None
    return keymap.get(code)


def matrix_keymap(layout: Sequence[str] = LAYOUT) -> list[int]:
    """The ``linux,keymap`` cells giving each key of ``layout`` its ``KEY_NUMERIC_*`` code."""
    codes = {key: code for code, key in NUMERIC_KEYMAP.items()}
    cells = []
    for row, keys in enumerate(layout):
        for col, key in enumerate(keys):
            if key not in codes:
                raise ValueError(f"{key!r} is not one of the keypad's keys {KEYS}")
            cells.append(row << 24 | col << 16 | codes[key])
    return cells


def keymap_from_config(
    names: Mapping[str, str], base: Mapping[int, str] = DEFAULT_KEYMAP
) -> dict[int, str]:
    """``base`` plus config entries like ``{"KEY_KPEQUAL": "#"}`` (names or numeric codes).

    Names we do not know are looked up in python-evdev when it is installed. A key other than
    the sixteen, or an unknown name, raises ``ValueError`` and changes nothing.
    """
    result = dict(base)
    for name, key in names.items():
        if not isinstance(key, str) or len(key) != 1 or key not in KEYS:
            raise ValueError(f"keypad.keymap.{name}: {key!r} is not one of the keys {KEYS}")
        result[_code_for(name)] = key
    return result


def _code_for(name: str) -> int:
    if name.isdigit():
        return int(name)
    if name in KEY_CODES:
        return KEY_CODES[name]
    try:
        evdev = _import_evdev()
    except EvdevMissing:
        evdev = None
    code = getattr(getattr(evdev, "ecodes", None), name, None)
    if not isinstance(code, int):
        raise ValueError(f"keypad.keymap: unknown key code name {name!r}")
    return code


# -- evdev -----------------------------------------------------------------------------------


class EvdevMissing(ImportError):
    """python-evdev is not installed (it comes with the ``pi`` extra)."""


class KeypadNotFound(FileNotFoundError):
    """No keypad input device (or not the path given)."""


class KeypadPermissionError(PermissionError):
    """The input device exists but this user may not read it."""


class InputEvent(Protocol):
    type: int
    code: int
    value: int


class InputDeviceLike(Protocol):
    """What the reader needs of an evdev ``InputDevice``: a blocking stream of events."""

    def read_loop(self) -> Iterator[InputEvent]: ...


def _import_evdev() -> Any:
    try:
        import evdev  # type: ignore[import-not-found]
    except ImportError as exc:
        raise EvdevMissing(
            "the keypad needs python-evdev, which is not installed; install companion with the "
            "'pi' extra (pip install 'companion[pi]') or use the GPIO matrix scanner instead"
        ) from exc
    return evdev


def open_input_device(path: str) -> Any:
    """Open ``/dev/input/eventN`` with python-evdev, with plain-word errors."""
    evdev = _import_evdev()
    try:
        return evdev.InputDevice(path)
    except FileNotFoundError as exc:
        raise KeypadNotFound(f"no input device at {path}") from exc
    except PermissionError as exc:
        raise KeypadPermissionError(
            f"may not read {path}: add this user to the 'input' group"
        ) from exc


def pick_keypad(devices: Iterable[Any], keymap: Mapping[int, str] = DEFAULT_KEYMAP) -> Any | None:
    """The first device whose keys include the digits 0-9 of ``keymap``, or ``None``.

    ``devices`` are evdev ``InputDevice`` objects (or anything with ``capabilities()``
    returning ``{EV_KEY: [codes]}``). A full keyboard qualifies too, so the daemon's config
    should name the keypad's ``/dev/input/by-id/...`` path when both are plugged in.
    """
    digits = {key: [c for c, k in keymap.items() if k == key] for key in "0123456789"}
    for device in devices:
        codes = set(device.capabilities().get(EV_KEY, ()))
        if all(codes.intersection(options) for options in digits.values()):
            return device
    return None


def find_keypad(keymap: Mapping[int, str] = DEFAULT_KEYMAP) -> Any:
    """Open the first input device that looks like a keypad (see :func:`pick_keypad`)."""
    evdev = _import_evdev()
    devices = []
    for path in evdev.list_devices():
        try:
            devices.append(evdev.InputDevice(path))
        except OSError:
            continue  # one we may not read is not ours
    found = pick_keypad(devices, keymap)
    for device in devices:
        if device is not found:
            device.close()
    if found is None:
        raise KeypadNotFound(
            "no keypad among the input devices (is it plugged in, and may this user read "
            "/dev/input? add it to the 'input' group)"
        )
    return found


class EvdevKeypad:
    """Key presses from a Linux input device, read in a thread of its own.

    :param device: a path like ``/dev/input/by-id/...-event-kbd``, an open device (anything
        with ``read_loop()``; tests pass a fake) or ``None`` to take the first keypad found.
    :param on_key: called with each key, **on the reader thread**: pass something thread-safe,
        e.g. ``lambda key: loop.call_soon_threadsafe(handle_key, key)``.
    :param on_error: called (on the reader thread too) with the ``OSError`` that ended reading,
        e.g. when the keypad is unplugged; it is logged either way.
    :param grab: take the device for ourselves (evdev ``grab()``) so its keys do not also type
        into the console. Only done to a device this object opened.

    Construction opens the device (needing python-evdev unless a device object is given);
    :meth:`start` starts the reader. :meth:`close` stops delivering at once; the thread, a
    daemon thread blocked in the kernel, ends at the next event or with the process.
    """

    def __init__(
        self,
        device: str | InputDeviceLike | None = None,
        *,
        on_key: Callable[[str], None],
        on_error: Callable[[OSError], None] | None = None,
        keymap: Mapping[int, str] = DEFAULT_KEYMAP,
        grab: bool = True,
    ) -> None:
        self.on_key = on_key
        self.on_error = on_error
        self.keymap = dict(keymap)
        self._owned = not hasattr(device, "read_loop")
        if device is None:
            self.device: Any = find_keypad(self.keymap)
        elif isinstance(device, str):
            self.device = open_input_device(device)
        else:
            self.device = device
        if self._owned and grab:
            try:
                self.device.grab()
            except OSError as exc:
                log.warning(
                    "could not grab the keypad %s (%s); its keys may reach the console",
                    getattr(self.device, "path", self.device),
                    exc,
                )
        self._closed = threading.Event()
        self._thread = threading.Thread(target=self._read, name="keypad-evdev", daemon=True)

    def start(self) -> None:
        """Start reading in the background."""
        self._thread.start()

    def join(self, timeout: float | None = None) -> None:
        """Wait for the reader to end (it does when the device's event stream ends)."""
        self._thread.join(timeout)

    def close(self) -> None:
        """Stop delivering keys; close the device if this object opened it."""
        self._closed.set()
        if self._owned:
            try:
                self.device.close()
            except OSError:
                pass

    @property
    def closed(self) -> bool:
        return self._closed.is_set()

    def _read(self) -> None:
        try:
            for event in self.device.read_loop():
                if self._closed.is_set():
                    return
                key = key_for_event(event.type, event.code, event.value, self.keymap)
                if key is not None:
                    self.on_key(key)
        except OSError as exc:
            if self._closed.is_set():
                return  # closing the device ends the stream this way
            log.error("keypad stopped: %s", exc)
            if self.on_error is not None:
                self.on_error(exc)


# -- GPIO matrix scanner ---------------------------------------------------------------------


def _has_rectangle(cells: Iterable[tuple[int, int]]) -> bool:
    """Whether two rows share two columns: then a fourth key may be a ghost."""
    cols_by_row: dict[int, set[int]] = {}
    for row, col in cells:
        cols_by_row.setdefault(row, set()).add(col)
    rows = [cols for cols in cols_by_row.values() if len(cols) > 1]
    return any(len(a & b) > 1 for i, a in enumerate(rows) for b in rows[i + 1 :])


class MatrixKeypad:
    """A 4x4 matrix keypad scanned on gpiozero pins, on the daemon's clock.

    Wiring: each row line to a GPIO read with the internal pull-up; each column line to a GPIO
    that is driven low while its column is scanned and left floating (input) otherwise, so two
    keys held in one row never short a high output against a low one. Between scans all columns
    are held low, so one read of the rows tells whether any key is down at all and a full scan
    only runs while one is.

    Debounce is ours: a key counts as pressed after ``debounce_scans`` scans in a row see it
    down, and as released after as many see it up. Each press is reported once, to ``on_key``
    (called from :meth:`poll`, on the daemon's thread) and in :meth:`poll`'s result. Without
    diodes, three keys held at three corners of a rectangle make the fourth corner read as held
    too ("ghosting"), so a scan that sees any such rectangle is ambiguous and is ignored
    altogether: nothing is reported from it.

    :param rows: the row pins, top first; :param cols: the column pins, left first.
    :param layout: the characters on the keys, one string per row.
    :param scan_interval: seconds between scans (default 10 ms).
    :param wake: if given, the keypad does not scan while idle (:meth:`next_wakeup` is
        ``None``); instead a falling edge on a row calls ``wake()`` **from gpiozero's thread**
        (pass something thread-safe such as ``lambda: loop.call_soon_threadsafe(poll_soon)``),
        and the daemon then polls, which resumes scanning until all keys are up again.
    :param pin_factory: a gpiozero pin factory (default: gpiozero's own).
    """

    def __init__(
        self,
        rows: Sequence[int | str],
        cols: Sequence[int | str],
        *,
        on_key: Callable[[str], None] | None = None,
        layout: Sequence[str] = LAYOUT,
        scan_interval: float = 0.01,
        debounce_scans: int = 3,
        wake: Callable[[], None] | None = None,
        pin_factory: Any = None,
    ) -> None:
        if len(layout) != len(rows) or any(len(keys) != len(cols) for keys in layout):
            raise ValueError(
                f"the layout {list(layout)} does not fit {len(rows)} rows x {len(cols)} columns"
            )
        flat = "".join(layout)
        if len(set(flat)) != len(flat):
            raise ValueError(f"the layout {list(layout)} has a key twice")
        names = [*rows, *cols]
        if len(set(names)) != len(names):
            raise ValueError(f"rows {list(rows)} and columns {list(cols)} must be distinct pins")
        if not (math.isfinite(scan_interval) and scan_interval > 0):
            raise ValueError("scan_interval must be a positive number of seconds")
        if debounce_scans < 1:
            raise ValueError("debounce_scans must be at least 1")
        if pin_factory is None:
            from gpiozero import Device

            Device.ensure_pin_factory()
            pin_factory = Device.pin_factory
        self.pin_factory = pin_factory
        self.layout = tuple(layout)
        self.on_key = on_key
        self.scan_interval = scan_interval
        self.debounce_scans = debounce_scans
        self.wake = wake
        self._names = names
        pin_factory.reserve_pins(self, *names)
        self._rows: list[Any] = []
        self._cols: list[Any] = []
        try:
            for name in rows:
                pin = pin_factory.pin(name)
                pin.function = "input"
                pin.pull = "up"
                self._rows.append(pin)
            for name in cols:
                pin = pin_factory.pin(name)
                pin.function = "input"
                pin.pull = "floating"
                self._cols.append(pin)
            self._hold_all_columns()
            if wake is not None:
                for pin in self._rows:
                    pin.edges = "falling"
                    pin.when_changed = self._row_edge
        except BaseException:
            self.close()
            raise
        self._down = {key: False for key in flat}
        self._count = {key: 0 for key in flat}
        self._next_scan = -math.inf
        self._idle = wake is not None
        self._woken = False
        self._closed = False

    # gpiozero's Factory.reserve_pins asks this of whoever reserves a pin.
    def _conflicts_with(self, other: object) -> bool:
        return True

    @property
    def pressed(self) -> frozenset[str]:
        """The keys held down now (debounced)."""
        return frozenset(key for key, down in self._down.items() if down)

    def next_wakeup(self) -> float | None:
        """When :meth:`poll` next has a scan to do (``-inf``: at once; ``None``: idle)."""
        if self._closed or (self._idle and not self._woken):
            return None
        return self._next_scan

    def poll(self, now: float) -> list[str]:
        """Scan if a scan is due at ``now``; returns (and reports) the keys newly pressed."""
        if self._closed:
            return []
        if self._idle:
            if not self._woken:
                return []
            self._idle = False
            self._next_scan = min(self._next_scan, now)
        if now < self._next_scan:
            return []
        later = self._next_scan + self.scan_interval
        self._next_scan = later if later > now else now + self.scan_interval
        # An edge from here on (after the rows are read) must wake us again, so forget the
        # older ones now: they are in this scan.
        self._woken = False
        seen = self._scan()
        if seen is None:
            return []  # ambiguous: believe nothing this scan says
        pressed = []
        for key, down in self._down.items():
            if (key in seen) == down:
                self._count[key] = 0
                continue
            self._count[key] += 1
            if self._count[key] >= self.debounce_scans:
                self._count[key] = 0
                self._down[key] = not down
                if not down:
                    pressed.append(key)
        if self.wake is not None and not seen and not any(self._down.values()):
            if not any(self._count.values()):
                self._idle = True
        for key in pressed:
            if self.on_key is not None:
                self.on_key(key)
        return pressed

    def close(self) -> None:
        """Let go of the pins: every line back to a plain input, reservations released."""
        self._closed = True
        for pin in [*self._rows, *self._cols]:
            try:
                pin.close()
            except Exception as exc:  # a half-built or already closed pin must not stop us
                log.debug("closing keypad pin %r: %s", pin, exc)
        self._rows = []
        self._cols = []
        self.pin_factory.release_pins(self, *self._names)

    # -- inside ------------------------------------------------------------------------------

    def _row_edge(self, ticks: object, state: object) -> None:
        # gpiozero's thread: note it and hand over; the scan itself runs in poll().
        self._woken = True
        if self.wake is not None:
            self.wake()

    def _hold_all_columns(self) -> None:
        for pin in self._cols:
            pin.function = "output"
            pin.state = False

    def _scan(self) -> frozenset[str] | None:
        """The keys that read as held, or ``None`` when ghosting makes the reading ambiguous."""
        if all(pin.state for pin in self._rows):
            return frozenset()  # no row pulled low with every column low: nothing is held
        for pin in self._cols:
            pin.function = "input"
        cells: list[tuple[int, int]] = []
        for c, col in enumerate(self._cols):
            col.function = "output"
            col.state = False
            cells.extend((r, c) for r, row in enumerate(self._rows) if not row.state)
            col.function = "input"
        self._hold_all_columns()
        if _has_rectangle(cells):
            return None
        return frozenset(self.layout[r][c] for r, c in cells)
