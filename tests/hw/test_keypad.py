"""The keypad: Linux key events and a GPIO matrix both become one key character per press."""

from __future__ import annotations

import re
import sys
import types
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from gpiozero import Button
from gpiozero.exc import GPIOPinInUse
from gpiozero.pins.mock import MockFactory, MockPin
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.hw import keypad as keypad_module
from companion.hw.keypad import (
    DEFAULT_KEYMAP,
    EV_KEY,
    KEY_CODES,
    KEYS,
    LAYOUT,
    EvdevKeypad,
    EvdevMissing,
    KeypadNotFound,
    KeypadPermissionError,
    MatrixKeypad,
    key_for_event,
    keymap_from_config,
    matrix_keymap,
    pick_keypad,
)

ROWS = (4, 18, 19, 20)  # the default pin map
COLS = (21, 14, 15, 7)
SCAN = 0.01


# -- Linux key events ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "key"),
    [
        *((f"KEY_KP{d}", d) for d in "0123456789"),
        ("KEY_KPENTER", "#"),
        ("KEY_ENTER", "#"),
        ("KEY_KPASTERISK", "*"),
        ("KEY_KPSLASH", "A"),
        ("KEY_KPMINUS", "B"),
        ("KEY_KPPLUS", "C"),
        ("KEY_KPDOT", "D"),
        ("KEY_BACKSPACE", "D"),
    ],
)
def test_a_usb_numeric_keypad_maps_as_documented(name: str, key: str) -> None:
    assert key_for_event(EV_KEY, KEY_CODES[name], 1) == key


def test_linux_key_codes_are_the_kernels() -> None:
    # A few values from linux/input-event-codes.h, so a typo in the table cannot hide.
    assert (KEY_CODES["KEY_KP0"], KEY_CODES["KEY_KPENTER"], KEY_CODES["KEY_KPASTERISK"]) == (
        82,
        96,
        55,
    )
    assert (KEY_CODES["KEY_1"], KEY_CODES["KEY_0"], KEY_CODES["KEY_NUMERIC_D"]) == (2, 11, 0x20F)


def test_only_a_key_going_down_is_a_press() -> None:
    code = KEY_CODES["KEY_KP5"]
    assert key_for_event(EV_KEY, code, 1) == "5"
    assert key_for_event(EV_KEY, code, 0) is None  # released
    assert key_for_event(EV_KEY, code, 2) is None  # autorepeat of a held key
    assert key_for_event(0x04, code, 1) is None  # EV_MSC scan code, not a key event


def test_keys_off_the_keypad_are_ignored() -> None:
    assert key_for_event(EV_KEY, 57, 1) is None  # KEY_SPACE
    assert key_for_event(EV_KEY, KEY_CODES["KEY_KP5"] + 1000, 1) is None


def test_a_keypad_with_numlock_off_still_types_its_digits() -> None:
    navigation = ("KEY_END", "KEY_UP", "KEY_INSERT", "KEY_DELETE")
    assert [key_for_event(EV_KEY, KEY_CODES[n], 1) for n in navigation] == ["1", "8", "0", "D"]


def test_the_overlay_keymap_gives_every_key_of_our_layout() -> None:
    for cell in matrix_keymap():
        row, col, code = cell >> 24, (cell >> 16) & 0xFF, cell & 0xFFFF
        assert key_for_event(EV_KEY, code, 1) == LAYOUT[row][col]
    assert len(matrix_keymap()) == 16


def test_the_keymap_printed_in_the_docs_is_the_one_we_compute() -> None:
    doc = keypad_module.__doc__ or ""
    block = doc.split("linux,keymap = <", 1)[1].split(">;", 1)[0]
    assert [int(h, 16) for h in re.findall(r"0x[0-9a-f]{8}", block)] == matrix_keymap()


def test_every_one_of_the_sixteen_keys_has_a_linux_code() -> None:
    assert set(DEFAULT_KEYMAP.values()) == set(KEYS)


def test_config_can_add_a_key_by_code() -> None:
    keymap = keymap_from_config({"117": "#"})  # KEY_KPEQUAL
    assert key_for_event(EV_KEY, 117, 1, keymap) == "#"
    assert key_for_event(EV_KEY, KEY_CODES["KEY_KP1"], 1, keymap) == "1"


def test_config_may_map_only_to_the_sixteen_keys() -> None:
    with pytest.raises(ValueError, match=r"keypad.keymap.KEY_KP1: 'E' is not one of the keys"):
        keymap_from_config({"KEY_KP1": "E"})


def test_config_naming_an_unknown_code_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "evdev", None)  # no evdev to ask either
    with pytest.raises(ValueError, match="unknown key code name 'KEY_FROBNICATE'"):
        keymap_from_config({"KEY_FROBNICATE": "1"})


@dataclass
class Event:
    type: int
    code: int
    value: int


def down(name: str) -> Event:
    return Event(EV_KEY, KEY_CODES[name], 1)


def up(name: str) -> Event:
    return Event(EV_KEY, KEY_CODES[name], 0)


class FakeDevice:
    """An input device whose event stream is a list (then, optionally, an error)."""

    def __init__(self, events: list[Event], error: OSError | None = None) -> None:
        self.events = events
        self.error = error

    def read_loop(self) -> Iterator[Event]:
        yield from self.events
        if self.error is not None:
            raise self.error


def read_all(keypad: EvdevKeypad) -> None:
    keypad.start()
    keypad.join(timeout=10)  # the fake stream is finite: this returns as soon as it is read
    assert not keypad._thread.is_alive()


def test_the_reader_delivers_each_press_once_in_order() -> None:
    typed: list[str] = []
    repeat = Event(EV_KEY, KEY_CODES["KEY_KP2"], 2)  # the kernel's autorepeat of a held key
    sync = Event(0, 0, 0)  # EV_SYN
    events = [
        down("KEY_KP1"), sync, up("KEY_KP1"), sync,
        down("KEY_KP2"), sync, repeat, repeat, up("KEY_KP2"), sync,
        down("KEY_KPENTER"), sync, up("KEY_KPENTER"), sync,
    ]  # fmt: skip
    keypad = EvdevKeypad(FakeDevice(events), on_key=typed.append)
    read_all(keypad)
    assert typed == ["1", "2", "#"]


def test_an_unplugged_keypad_reports_the_error_after_the_keys_it_sent() -> None:
    typed: list[str] = []
    errors: list[OSError] = []
    gone = OSError(19, "No such device")
    keypad = EvdevKeypad(
        FakeDevice([down("KEY_KP7")], error=gone), on_key=typed.append, on_error=errors.append
    )
    read_all(keypad)
    assert typed == ["7"]
    assert errors == [gone]


def test_a_closed_keypad_delivers_nothing_more() -> None:
    typed: list[str] = []
    keypad = EvdevKeypad(FakeDevice([down("KEY_KP3")]), on_key=typed.append)
    keypad.close()
    read_all(keypad)
    assert typed == []
    assert keypad.closed


def test_without_evdev_the_error_names_the_pi_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "evdev", None)
    with pytest.raises(EvdevMissing, match=r"python-evdev.*'pi' extra.*companion\[pi\]"):
        EvdevKeypad("/dev/input/event3", on_key=print)


class FakeInputDevice:
    """Stands in for evdev.InputDevice when a path is opened."""

    opened: list[FakeInputDevice] = []

    def __init__(self, path: str) -> None:
        if path == "/dev/input/missing":
            raise FileNotFoundError(2, "No such file or directory", path)
        if path == "/dev/input/forbidden":
            raise PermissionError(13, "Permission denied", path)
        self.path = path
        self.grabbed = False
        self.closed = False
        FakeInputDevice.opened.append(self)

    def grab(self) -> None:
        self.grabbed = True

    def close(self) -> None:
        self.closed = True

    def capabilities(self) -> dict[int, list[int]]:
        if self.path.endswith("mouse"):
            return {EV_KEY: [0x110, 0x111]}  # BTN_LEFT, BTN_RIGHT
        return {EV_KEY: [KEY_CODES[f"KEY_KP{d}"] for d in "0123456789"]}

    def read_loop(self) -> Iterator[Event]:
        return iter([down("KEY_KP9")])


@pytest.fixture
def fake_evdev(monkeypatch: pytest.MonkeyPatch) -> type[FakeInputDevice]:
    FakeInputDevice.opened = []
    module = types.SimpleNamespace(
        InputDevice=FakeInputDevice,
        list_devices=lambda: ["/dev/input/event0-mouse", "/dev/input/event1-keypad"],
    )
    monkeypatch.setitem(sys.modules, "evdev", module)
    return FakeInputDevice


def test_a_keypad_opened_by_path_is_grabbed_and_closed_by_us(
    fake_evdev: type[FakeInputDevice],
) -> None:
    typed: list[str] = []
    keypad = EvdevKeypad("/dev/input/event5", on_key=typed.append)
    (device,) = fake_evdev.opened
    assert device.grabbed
    read_all(keypad)
    assert typed == ["9"]
    keypad.close()
    assert device.closed


def test_a_device_handed_in_is_neither_grabbed_nor_closed_by_us() -> None:
    device = FakeInputDevice("/dev/input/event5")
    keypad = EvdevKeypad(device, on_key=print)
    keypad.close()
    assert not device.grabbed and not device.closed


def test_without_a_path_the_first_keypad_found_is_used(fake_evdev: type[FakeInputDevice]) -> None:
    keypad = EvdevKeypad(on_key=print)
    assert keypad.device.path == "/dev/input/event1-keypad"
    mouse = next(d for d in fake_evdev.opened if d.path.endswith("mouse"))
    assert mouse.closed  # the devices that are not ours are let go


def test_a_missing_or_forbidden_device_says_so_plainly(fake_evdev: type[FakeInputDevice]) -> None:
    with pytest.raises(KeypadNotFound, match="no input device at /dev/input/missing"):
        EvdevKeypad("/dev/input/missing", on_key=print)
    with pytest.raises(KeypadPermissionError, match="'input' group"):
        EvdevKeypad("/dev/input/forbidden", on_key=print)


def test_picking_a_keypad_skips_devices_without_digit_keys() -> None:
    mouse = FakeInputDevice("/dev/input/event0-mouse")
    pad = FakeInputDevice("/dev/input/event1-keypad")
    assert pick_keypad([mouse, pad]) is pad
    assert pick_keypad([mouse]) is None


# -- the GPIO matrix -------------------------------------------------------------------------


class ColumnPin(MockPin):
    """A column line: tells the wiring whenever it starts or stops sinking current."""

    wiring: Wiring | None = None

    @property
    def sinking(self) -> bool:
        return self._function == "output" and not self._state

    def _set_function(self, value: str) -> None:
        super()._set_function(value)
        if self.wiring is not None:
            self.wiring.update()

    def _change_state(self, value: bool) -> bool:
        changed: bool = super()._change_state(value)
        if self.wiring is not None:
            self.wiring.update()
        return changed


class Wiring:
    """The switch matrix without diodes, as electricity sees it.

    A held key joins its row line to its column line. A row (pulled up) reads low while any
    line joined to it, through however many held keys, is a column driven low: which is also
    how a ghost key appears when three corners of a rectangle are held.
    """

    def __init__(self, factory: MockFactory, rows: tuple[int, ...], cols: tuple[int, ...]) -> None:
        self.held: set[str] = set()
        self.rows = [factory.pin(r) for r in rows]
        self.cols = [factory.pin(c, pin_class=ColumnPin) for c in cols]
        self.driven_high_against_low = False
        for col in self.cols:
            col.wiring = self

    def press(self, *keys: str) -> None:
        self.held.update(keys)
        self.update()

    def release(self, *keys: str) -> None:
        self.held.difference_update(keys)
        self.update()

    def update(self) -> None:
        if any(c._function == "output" and c._state for c in self.cols):
            self.driven_high_against_low = True  # a column driven high: a short waiting to happen
        joined = {("r", r): {("r", r)} for r in range(len(self.rows))}
        joined.update({("c", c): {("c", c)} for c in range(len(self.cols))})
        for r, keys in enumerate(LAYOUT):
            for c, key in enumerate(keys):
                if key in self.held:  # merge the two lines' groups
                    group = joined[("r", r)] | joined[("c", c)]
                    for line in group:
                        joined[line] = group
        for r, row in enumerate(self.rows):
            if row._function != "input":
                continue
            low = any(kind == "c" and self.cols[i].sinking for kind, i in joined[("r", r)])
            if low:
                row.drive_low()
            elif row._pull == "up":
                row.drive_high()


class Loop:
    """The daemon's loop on a fake clock: sleeps until the keypad's next_wakeup, polls it."""

    def __init__(self, keypad: MatrixKeypad) -> None:
        self.keypad = keypad
        self.now = 0.0
        self.typed: list[str] = []

    def run_for(self, seconds: float) -> list[str]:
        end = self.now + seconds
        typed: list[str] = []
        while (wake := self.keypad.next_wakeup()) is not None and wake <= end:
            self.now = max(self.now, wake)
            typed += self.keypad.poll(self.now)
            later = self.keypad.next_wakeup()
            assert later is None or later > self.now, "poll() must move past its own wakeup"
        self.now = end
        self.typed += typed
        return typed

    def scans(self, n: int) -> list[str]:
        """Run for ``n`` scan periods."""
        return self.run_for(n * SCAN - SCAN / 2) + self.run_for(SCAN / 2)


@pytest.fixture
def matrix() -> Iterator[tuple[Wiring, MatrixKeypad, Loop]]:
    factory = MockFactory()
    wiring = Wiring(factory, ROWS, COLS)
    typed: list[str] = []
    keypad = MatrixKeypad(ROWS, COLS, on_key=typed.append, scan_interval=SCAN, pin_factory=factory)
    loop = Loop(keypad)
    yield wiring, keypad, loop
    assert typed == loop.typed  # on_key heard exactly what poll returned
    keypad.close()


def test_a_press_is_reported_once_however_long_it_is_held(matrix: Any) -> None:
    wiring, keypad, loop = matrix
    wiring.press("5")
    assert loop.run_for(2.0) == ["5"]
    assert keypad.pressed == {"5"}
    wiring.release("5")
    assert loop.run_for(0.5) == []
    assert keypad.pressed == frozenset()


def test_every_key_reads_as_printed_on_it(matrix: Any) -> None:
    wiring, _, loop = matrix
    for key in KEYS:
        wiring.press(key)
        loop.run_for(0.1)
        wiring.release(key)
        loop.run_for(0.1)
    assert "".join(loop.typed) == KEYS


def test_the_same_key_twice_is_two_presses(matrix: Any) -> None:
    wiring, _, loop = matrix
    for _ in range(2):
        wiring.press("0")
        loop.run_for(0.1)
        wiring.release("0")
        loop.run_for(0.1)
    assert loop.typed == ["0", "0"]


def test_a_press_counts_after_three_scans_in_a_row_see_it(matrix: Any) -> None:
    wiring, _, loop = matrix
    loop.run_for(0.05)
    wiring.press("8")
    assert loop.scans(2) == []
    assert loop.scans(1) == ["8"]


def test_a_touch_shorter_than_the_debounce_is_no_press(matrix: Any) -> None:
    wiring, _, loop = matrix
    wiring.press("8")
    loop.scans(2)
    wiring.release("8")
    assert loop.run_for(0.5) == []


def test_a_bouncing_press_and_release_yield_exactly_one_key(matrix: Any) -> None:
    wiring, _, loop = matrix
    for closed in [1, 0, 1, 1, 0, 1, 0, 1, 1, 1, 1, 1, 1, 0, 1, 1, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0]:
        if closed:
            wiring.press("#")
        else:
            wiring.release("#")
        loop.scans(1)
    assert loop.typed == ["#"]


short = st.integers(min_value=1, max_value=2)  # scans: less than the three a press needs


@settings(max_examples=80, deadline=None)
@given(
    bounce_in=st.lists(st.tuples(short, short), max_size=6),
    held=st.integers(min_value=3, max_value=30),
    bounce_out=st.lists(st.tuples(short, short), max_size=6),
)
def test_any_bounce_shorter_than_the_debounce_yields_one_key(
    bounce_in: list[tuple[int, int]], held: int, bounce_out: list[tuple[int, int]]
) -> None:
    """Contacts chatter (closed, open, ... each burst shorter than three scans), stay closed,
    chatter again (open, closed, ...) and open for good."""
    factory = MockFactory()
    wiring = Wiring(factory, ROWS, COLS)
    keypad = MatrixKeypad(ROWS, COLS, scan_interval=SCAN, pin_factory=factory)
    loop = Loop(keypad)
    loop.run_for(0.05)
    bursts: list[tuple[bool, int]] = []
    for closed, opened in bounce_in:
        bursts += [(True, closed), (False, opened)]
    bursts.append((True, held))
    for opened, closed in bounce_out:
        bursts += [(False, opened), (True, closed)]
    for is_closed, scans in bursts:
        (wiring.press if is_closed else wiring.release)("C")
        loop.scans(scans)
    wiring.release("C")
    loop.run_for(0.5)
    assert loop.typed == ["C"]
    keypad.close()


def test_rolling_from_one_key_to_the_next_types_both(matrix: Any) -> None:
    wiring, _, loop = matrix
    wiring.press("1")
    loop.run_for(0.1)
    wiring.press("5")  # pressed before 1 is let go
    loop.run_for(0.1)
    wiring.release("1")
    loop.run_for(0.1)
    wiring.release("5")
    loop.run_for(0.1)
    assert loop.typed == ["1", "5"]


def test_three_corners_of_a_rectangle_report_nothing_ambiguous(matrix: Any) -> None:
    wiring, keypad, loop = matrix
    wiring.press("1", "2", "4")  # the fourth corner, 5, reads as held too: a ghost
    assert loop.run_for(0.5) == []
    assert keypad.pressed == frozenset()


def test_a_ghost_appearing_while_a_key_is_held_adds_nothing(matrix: Any) -> None:
    wiring, keypad, loop = matrix
    wiring.press("1")
    assert loop.run_for(0.1) == ["1"]
    wiring.press("2", "4")
    assert loop.run_for(0.5) == []
    assert keypad.pressed == {"1"}


def test_columns_are_only_ever_driven_low(matrix: Any) -> None:
    wiring, _, loop = matrix
    wiring.press("1", "2")  # one row, two columns: a high column would fight the low one
    loop.run_for(0.2)
    wiring.release("1", "2")
    loop.run_for(0.1)
    assert loop.typed == ["1", "2"]
    assert not wiring.driven_high_against_low


def test_while_no_key_is_held_the_columns_stay_still(matrix: Any) -> None:
    wiring, _, loop = matrix
    loop.run_for(0.05)
    history = [len(col.states) for col in wiring.cols]
    loop.run_for(1.0)  # a hundred scans, each one read of the rows
    assert [len(col.states) for col in wiring.cols] == history
    assert all(col.sinking for col in wiring.cols)


def test_polling_the_same_instant_again_is_not_another_scan(matrix: Any) -> None:
    wiring, keypad, _ = matrix
    wiring.press("6")
    assert [keypad.poll(1.0) for _ in range(10)] == [[]] * 10
    assert keypad.next_wakeup() == pytest.approx(1.0 + SCAN)


def test_with_a_wake_callback_an_idle_keypad_needs_no_polling() -> None:
    factory = MockFactory()
    wiring = Wiring(factory, ROWS, COLS)
    wakes: list[int] = []
    keypad = MatrixKeypad(
        ROWS, COLS, scan_interval=SCAN, wake=lambda: wakes.append(1), pin_factory=factory
    )
    loop = Loop(keypad)
    assert keypad.next_wakeup() is None
    wiring.press("B")  # the row falls: gpiozero's thread would call wake()
    assert wakes
    assert loop.run_for(0.1) == ["B"]
    wiring.release("B")
    loop.run_for(0.1)
    assert keypad.next_wakeup() is None  # idle again once all keys are up
    wiring.press("D")
    assert loop.run_for(0.1) == ["D"]
    keypad.close()


def test_the_keypad_reserves_its_pins_until_closed() -> None:
    factory = MockFactory()
    keypad = MatrixKeypad(ROWS, COLS, pin_factory=factory)
    with pytest.raises(GPIOPinInUse):
        Button(ROWS[0], pin_factory=factory)
    keypad.close()
    assert keypad.poll(5.0) == [] and keypad.next_wakeup() is None
    Button(ROWS[0], pin_factory=factory).close()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"layout": ("123", "456", "789", "*0#")}, "does not fit 4 rows x 4 columns"),
        ({"layout": ("1231", "456B", "789C", "*0#D")}, "has a key twice"),
        ({"cols": (21, 14, 15, 4)}, "must be distinct pins"),
        ({"scan_interval": 0}, "scan_interval must be a positive"),
        ({"debounce_scans": 0}, "debounce_scans must be at least 1"),
    ],
)
def test_a_keypad_that_cannot_be_wired_so_is_refused(kwargs: Any, message: str) -> None:
    factory = MockFactory()
    args: dict[str, Any] = {"rows": ROWS, "cols": COLS, "pin_factory": factory, **kwargs}
    with pytest.raises(ValueError, match=message):
        MatrixKeypad(**args)
    Button(ROWS[0], pin_factory=factory).close()  # and no pin was left reserved
