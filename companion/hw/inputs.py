"""gpiozero inputs: six tilt switches and the push buttons, as timestamped raw edges.

Every switch and button is a gpiozero ``DigitalInputDevice`` with the internal pull-up and no
gpiozero bounce time (we debounce ourselves, in :mod:`companion.hw.debounce`, because mock pins
do not bounce and the real backends debounce differently). gpiozero calls our callbacks on its
own thread; each one only stamps the edge with the injected clock and hands it to ``deliver``,
which the daemon wraps with ``loop.call_soon_threadsafe``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from gpiozero import DigitalInputDevice

from companion.clock import Clock
from companion.inputs import RawInput


class GpioInputs:
    """The table's switches and buttons on a gpiozero pin factory (real or ``MockFactory``)."""

    def __init__(
        self,
        config: Mapping[str, Any],
        clock: Clock,
        deliver: Callable[[RawInput], None],
        *,
        pin_factory: Any = None,
    ) -> None:
        self.clock = clock
        self.deliver = deliver
        pins = config["pins"]
        self.devices: dict[tuple[str, str], DigitalInputDevice] = {}
        for glass, pin in pins["tilt"].items():
            self._add("tilt", glass, pin, pin_factory)
        for player, pin in pins["ring"].items():
            self._add("button", f"ring.{player}", pin, pin_factory)
        if config["input"]["timer15_shared"]:
            self._add("button", "timer15.shared", pins["timer15"]["shared"], pin_factory)
        else:
            for player in ("red", "black"):
                self._add("button", f"timer15.{player}", pins["timer15"][player], pin_factory)
        self._add("button", "menu", pins["menu"], pin_factory)

    def _add(self, kind: str, name: str, pin: int, factory: Any) -> None:
        device = DigitalInputDevice(pin, pull_up=True, bounce_time=None, pin_factory=factory)
        device.when_activated = lambda: self._edge(kind, name, True)
        device.when_deactivated = lambda: self._edge(kind, name, False)
        self.devices[(kind, name)] = device

    def _edge(self, kind: str, name: str, value: bool) -> None:
        # Runs on gpiozero's thread: stamp it now and hand it over, nothing else.
        self.deliver(RawInput(kind, name, value, self.clock.now()))

    def tilt_levels(self) -> dict[str, bool]:
        """Each tilt switch's level now: the orientation its glass rests in at start."""
        return {n: bool(d.is_active) for (k, n), d in self.devices.items() if k == "tilt"}

    def pin(self, kind: str, name: str) -> Any:
        """The gpiozero pin behind an input (tests drive mock pins through it)."""
        return self.devices[(kind, name)].pin

    def close(self) -> None:
        for device in self.devices.values():
            device.close()
