"""`companion calibrate`: measure each hourglass's real run time.

Real Tamsk glasses differ from one another (a few seconds on three minutes is common), and the
time tie-break depends on them. The procedure, shown on the OLED: for each glass in turn, turn
it over (its tilt switch reports it) and press its player's ring button when its upper part is
empty; twice. The mean of the two passes becomes the glass's period in the config and in every
new game's journal header. A glass more than 5 % off 180 s is flagged.

:class:`Calibration` is a small state machine fed with the same raw inputs as the table (after
our debounce), so the daemon's input path, mock pins and the fake clock all work here too.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.clock import Clock
from companion.hw.debounce import ButtonDebouncer, TiltInterpreter
from companion.i18n import _, pgettext
from companion.inputs import RawInput
from companion.numbers import decimal
from companion.pages import Paging

GLASSES = ("r1", "r2", "r3", "b1", "b2", "b3")
NOMINAL = 180.0
TOLERANCE = 0.05
PASSES = 2


@dataclass
class Calibration:
    """Which glass is being measured, and what was measured so far."""

    passes: int = PASSES
    index: int = 0
    started: float | None = None  # when the glass being measured was turned
    measured: dict[str, list[float]] = field(default_factory=lambda: {g: [] for g in GLASSES})
    message: str = ""

    @property
    def glass(self) -> str | None:
        return GLASSES[self.index] if self.index < len(GLASSES) else None

    @property
    def done(self) -> bool:
        return self.glass is None

    @property
    def pass_number(self) -> int:
        glass = self.glass
        return 0 if glass is None else len(self.measured[glass]) + 1

    def turned(self, glass: str, t: float) -> None:
        """A glass was turned over (its tilt switch settled) at ``t``."""
        if glass != self.glass:
            self.message = _("turn {glass} over, not {other}").format(glass=self.glass, other=glass)
            return
        self.started = t
        self.message = _("{glass} running: press the ring button when it is empty").format(
            glass=glass)

    def empty(self, player: str, t: float) -> None:
        """The player pressed his ring button: the glass's upper part is empty."""
        glass = self.glass
        if glass is None:
            return
        owner = "red" if glass[0] == "r" else "black"
        if player != owner:
            self.message = _("{player}'s ring button for {glass}").format(
                player=pgettext("player", owner), glass=glass)
            return
        if self.started is None:
            self.message = _("turn {glass} over first").format(glass=glass)
            return
        seconds = t - self.started
        if seconds < 10:
            self.message = _("{seconds} s is too short for {glass}: turn it again").format(
                seconds=f"{seconds:.1f}", glass=glass)
            self.started = None
            return
        self.measured[glass].append(seconds)
        self.started = None
        if len(self.measured[glass]) >= self.passes:
            self.index += 1
        self.message = f"{glass}: {seconds:.1f} s"

    def warning(self) -> str | None:
        """What the screen's warning bar says now (None: every glass so far within 5 %)."""
        from companion.tamsk.calibration_screen import calibration_warning

        return calibration_warning({g: v for g, v in self.measured.items() if v}, self.glass)

    def periods(self) -> dict[str, float]:
        return {g: sum(v) / len(v) for g, v in self.measured.items() if v}

    def warnings(self) -> list[str]:
        out = []
        for glass, period in self.periods().items():
            off = (period - NOMINAL) / NOMINAL
            if abs(off) > TOLERANCE:
                out.append(f"{glass} runs {period:.1f} s, {off:+.1%} off {NOMINAL:.0f} s")
        return out


class CalibrationInputs:
    """Debounces raw inputs exactly like the table, then feeds a :class:`Calibration`."""

    def __init__(self, calibration: Calibration, config: Mapping[str, Any]) -> None:
        inp = config["input"]
        self.calibration = calibration
        self.tilts = {
            g: TiltInterpreter(g, False, settle=inp["settle_ms"] / 1000.0) for g in GLASSES
        }
        lockout = inp["button_lockout_ms"] / 1000.0
        self.buttons = {n: ButtonDebouncer(n, lockout=lockout) for n in ("ring.red", "ring.black")}

    def feed(self, raw: RawInput) -> None:
        if raw.kind == "tilt" and raw.name in self.tilts:
            self.tilts[raw.name].edge(raw.t, raw.value)
        elif raw.kind == "button" and raw.name in self.buttons:
            if self.buttons[raw.name].edge(raw.t, raw.value) == "press":
                self.calibration.empty(raw.name.split(".")[1], raw.t)

    def poll(self, now: float) -> None:
        for tilt in self.tilts.values():
            for motion in tilt.poll(now):
                if motion.kind == "release":
                    self.calibration.turned(motion.glass, motion.t)
        for b in self.buttons.values():
            b.poll(now)

    def next_wakeup(self) -> float | None:
        times = [w for t in self.tilts.values() if (w := t.next_wakeup()) is not None]
        times += [w for b in self.buttons.values() if (w := b.next_wakeup()) is not None]
        return min(times) if times else None


def write_periods(path: Path, periods: Mapping[str, float], text: str | None = None) -> str:
    """The config file with ``[calibration]`` updated (other settings kept as they were;
    atomic, 0600; a file that does not parse is refused and left alone)."""
    from companion.config import update_file

    values = {g: round(float(p), 2) for g, p in periods.items()}
    if text is not None:  # the text to start from (tests): written first, then updated
        from companion.files import SECRET, atomic_write

        atomic_write(path, text, mode=SECRET)
    return update_file(path, "calibration", values)


async def run(
    calibration: Calibration,
    feeder: CalibrationInputs,
    clock: Clock,
    queue: asyncio.Queue[RawInput],
    show: Callable[[Calibration, float, int], None],
    wait: Callable[[asyncio.Queue[RawInput], float | None], Any],
) -> None:
    """Feed inputs until every glass is measured, redrawing the screen on each change and
    when the warning bar's page turns (``show`` is given the page, as the tables count it)."""
    last_shown = None
    pages, warned = Paging(), None
    while not calibration.done:
        now = clock.now()
        wake = feeder.next_wakeup()
        timeout = 0.5 if wake is None else max(0.0, min(0.5, wake - now))
        if warned is not None:
            timeout = min(timeout, max(0.0, pages.next_turn(now) - now))
        raw = await wait(queue, timeout)
        if raw is not None:
            feeder.feed(raw)
        feeder.poll(clock.now())
        state = (calibration.index, calibration.pass_number, calibration.message)
        now = clock.now()
        elapsed = 0.0 if calibration.started is None else now - calibration.started
        warning = calibration.warning()
        if warning != warned:  # a new warning starts from its first page
            pages.start(now)
            warned = warning
        turned = pages.turned(now) and warning is not None
        if state != last_shown or calibration.started is not None or turned:
            show(calibration, elapsed, pages.page(now))
            last_shown = state


def main(config: Mapping[str, Any], config_path: Path, backend: str) -> int:
    """Calibrate on the table's hardware (or the mock/desktop backends) and save the result."""
    from companion.clock import MonotonicClock
    from companion.daemon import wait_real
    from companion.hw.display import make_device
    from companion.hw.inputs import GpioInputs
    from companion.screens import frame_to_text
    from companion.tamsk.calibration_screen import calibration_screen

    clock = MonotonicClock()
    device = make_device(config, backend)
    calibration = Calibration()

    def show(cal: Calibration, elapsed: float, page: int) -> None:
        if cal.glass is None:
            return
        image = calibration_screen(
            cal.glass,
            cal.pass_number,
            elapsed,
            {g: v for g, v in cal.measured.items() if v},
            size=device.size,
            mode=device.mode,
            page=page,
        )
        device.display(image)
        if backend != "pi":
            sys.stdout.write("\x1b[H" + frame_to_text(image) + "\n" + cal.message + "\x1b[K\n")
            sys.stdout.flush()

    async def go() -> None:
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[RawInput] = asyncio.Queue()
        factory = None
        if backend == "mock":
            from gpiozero.pins.mock import MockFactory

            factory = MockFactory()
        def deliver(raw: RawInput) -> None:  # gpiozero's callback thread
            loop.call_soon_threadsafe(queue.put_nowait, raw)

        inputs = GpioInputs(config, clock, deliver, pin_factory=factory)
        try:
            await run(
                calibration, CalibrationInputs(calibration, config), clock, queue, show, wait_real
            )
        finally:
            inputs.close()

    try:
        asyncio.run(go())
    except KeyboardInterrupt:
        print("\n" + _("calibration stopped: nothing saved"), file=sys.stderr)
        return 1
    periods = calibration.periods()
    from companion.config import ConfigError

    try:
        write_periods(config_path, periods)
    except (ConfigError, OSError) as exc:
        print("companion calibrate: " + _("nothing saved: {problem}").format(problem=exc),
              file=sys.stderr)
        return 2
    for glass, period in periods.items():
        print(_("{glass}: {seconds} s").format(glass=glass, seconds=decimal(period, 2)))
    for warning in calibration.warnings():
        print(_("warning: {warning}").format(warning=warning))
    print(_("saved to {file}; new games use these periods").format(file=config_path))
    return 0
