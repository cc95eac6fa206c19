"""A table on gpiozero's mock pins, driven by a script on a fake clock (like the demo)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPWMPin
from PIL import Image

from companion.clock import FakeClock
from companion.config import defaults
from companion.daemon import Daemon, make_sounder
from companion.hw.display import Display, make_device
from companion.hw.inputs import GpioInputs
from companion.journal import read_path
from companion.tamsk.demo import ScriptedTime
from companion.tamsk.game import Rules
from companion.tamsk.table import RawInput, Table


@dataclass
class Rig:
    """Everything a test can look at: pins, journal, screen, buzzer."""

    clock: FakeClock
    table: Table
    daemon: Daemon
    inputs: GpioInputs
    display: Display
    buzzer_pin: Any
    time: ScriptedTime
    frames: list[tuple[float, Image.Image]] = field(default_factory=list)
    sounds: list[tuple[float, str]] = field(default_factory=list)
    samples: dict[str, Any] = field(default_factory=dict)
    level: dict[str, bool] = field(default_factory=dict)

    @property
    def t0(self) -> float:
        return self.table.mono0

    def records(self) -> list[dict[str, Any]]:
        assert self.table.journal_path is not None
        return [body for _, body in read_path(self.table.journal_path).events]

    def game_events(self) -> list[dict[str, Any]]:
        keep = ("t", "ev", "glass", "to", "player", "space")
        return [
            {k: v for k, v in r.items() if k in keep} for r in self.records() if r["ev"] != "note"
        ]

    # -- physical actions at game times ------------------------------------------------

    def flip(self, t: float, glass: str, chatter: list[float] | None = None) -> None:
        """Turn a glass over at game time t; ``chatter`` are bounce gaps in seconds."""
        pin = self.inputs.pin("tilt", glass)
        new = not self.level.get(glass, False)
        self.level[glass] = new
        to_new, to_old = (pin.drive_low, pin.drive_high) if new else (pin.drive_high, pin.drive_low)
        at = t
        self.time.at(at, to_new)
        for gap in chatter or []:
            at += gap
            self.time.at(at, to_old)
            at += gap
            self.time.at(at, to_new)

    def tilt(self, t: float, glass: str, level: bool) -> None:
        pin = self.inputs.pin("tilt", glass)
        self.time.at(t, pin.drive_low if level else pin.drive_high)

    def press(self, t: float, button: str, hold: float = 0.1, bounce: bool = True) -> None:
        pin = self.inputs.pin("button", button)
        self.time.at(t, pin.drive_low)
        if bounce:
            self.time.at(t + 0.003, pin.drive_high)
            self.time.at(t + 0.006, pin.drive_low)
        self.time.at(t + hold, pin.drive_high)

    def keys(self, t: float, text: str) -> None:
        for i, k in enumerate(text):
            self.time.at(
                t + 0.1 * i,
                lambda k=k: self.daemon.deliver(RawInput("key", k, True, self.clock.now())),
            )

    def sample(self, t: float, name: str) -> None:
        """Record what the buzzer pin and the screen show at game time t."""

        def take() -> None:
            view = self.table.view()
            self.display.last_check = -1e9  # draw now, whatever the frame rate
            self.display.refresh(view, self.clock.now())
            self.samples[name] = {
                "device": self.display.device.image.copy(),
                "frequency": self.buzzer_pin.frequency,
                "state": self.buzzer_pin.state,
                "image": self.display.image.copy() if self.display.image else None,
                "view": view,
            }

        self.time.at(t, take)

    def run(self, until: float) -> None:
        self.time.at(until, self.daemon.stop)
        asyncio.run(self._run())

    async def _run(self) -> None:
        self.daemon.loop = asyncio.get_running_loop()
        self.daemon.stop_event = asyncio.Event()
        await self.daemon.run()


def make_rig(
    tmp_path: Path, *, rules: Rules | None = None, config: dict[str, Any] | None = None
) -> Rig:
    cfg = config or defaults()
    clock = FakeClock()
    factory = MockFactory(pin_class=MockPWMPin)
    sounds: list[tuple[float, str]] = []
    frames: list[tuple[float, Image.Image]] = []
    sounder = make_sounder(cfg, factory)

    def sound(pattern: str) -> None:
        sounds.append((clock.now(), pattern))
        sounder.play(pattern, clock.now())

    table = Table(clock, tmp_path / "journals", config=cfg, sound=sound)
    display = Display(
        make_device(cfg, "mock"), max_fps=10, on_frame=lambda im, now: frames.append((now, im))
    )
    holder: dict[str, Daemon] = {}
    scripted = ScriptedTime(clock, clock.now(), 0, on_done=lambda: holder["d"].stop())
    daemon = Daemon(table, clock, display=display, sounder=sounder, waiter=scripted.wait)
    holder["d"] = daemon
    inputs = GpioInputs(cfg, clock, lambda raw: daemon.deliver(raw), pin_factory=factory)
    table.start_game(rules or Rules(level=3), names={"red": "Ada", "black": "Ben"})
    scripted.t0 = table.mono0
    buzzer_pin = factory.pin(cfg["pins"]["buzzer"])
    return Rig(clock, table, daemon, inputs, display, buzzer_pin, scripted, frames, sounds)
