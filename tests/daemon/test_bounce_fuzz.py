"""Contact bounce: 10,000 flips with 1-40 ms of chatter on every edge, through gpiozero's
mock pins and our debounce, give exactly one move per flip and no phantom move."""

from __future__ import annotations

import random

from gpiozero.pins.mock import MockFactory

from companion.clock import FakeClock
from companion.config import defaults
from companion.hw.debounce import TiltInterpreter
from companion.hw.inputs import GpioInputs
from companion.tamsk.table import RawInput

GLASSES = ("r1", "r2", "r3", "b1", "b2", "b3")


def test_ten_thousand_bouncing_flips_give_exactly_one_move_each() -> None:
    rng = random.Random(2024)
    clock = FakeClock(start=0.0)
    raws: list[RawInput] = []
    inputs = GpioInputs(defaults(), clock, raws.append, pin_factory=MockFactory())
    levels = inputs.tilt_levels()
    tilts = {g: TiltInterpreter(g, levels[g], settle=0.25, horizontal=1.5) for g in GLASSES}
    moves: list[tuple[str, str]] = []
    expected: list[tuple[str, str]] = []

    def settle_until(t: float) -> None:
        for tilt in tilts.values():
            for m in tilt.poll(t):
                moves.append((m.kind, m.glass))

    flips = aborts = 0
    while flips < 10_000:
        glass = rng.choice(GLASSES)
        pin = inputs.pin("tilt", glass)
        start_level = pin.state
        abort = rng.random() < 0.1
        # a burst of chatter, every edge followed by 1-40 ms before the next
        toggles = rng.randrange(1, 8) * 2 + (0 if abort else 1)
        for _ in range(toggles):
            (pin.drive_high if pin.state == 0 else pin.drive_low)()
            for raw in raws:
                tilts[raw.name].edge(raw.t, raw.value)
            raws.clear()
            clock.advance(rng.uniform(0.001, 0.040))
        assert (pin.state == start_level) == abort
        expected.append(("putback" if abort else "release", glass))
        aborts += abort
        flips += not abort
        clock.advance(rng.uniform(0.26, 1.2))  # the glass rests before the next move
        settle_until(clock.now())
    lifts = [m for m in moves if m[0] == "lift"]
    assert lifts == []  # lifts are returned by edge(), not poll(): none pollute the moves
    assert moves == expected
    assert sum(1 for k, _ in moves if k == "release") == 10_000
    assert aborts > 500


def test_a_lift_is_reported_once_however_much_the_switch_chatters() -> None:
    tilt = TiltInterpreter("r1", False, settle=0.25)
    lifts = [tilt.edge(0.001 * i, i % 2 == 0) for i in range(31)]
    assert [m.kind for m in lifts if m is not None] == ["lift"]
    assert [m.kind for m in tilt.poll(0.031 + 0.25)] == ["release"]
