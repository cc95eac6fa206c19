"""The one clock interface. The daemon uses the monotonic clock; tests and the demo a fake one.

Game time is measured on the monotonic clock (it never jumps); the wall clock is only stored
beside it in the journal so that a restart can tell how long the power was off.
"""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Monotonic seconds."""
        ...

    def wall(self) -> float:
        """Seconds since the epoch (for the record only)."""
        ...


class MonotonicClock:
    """The real clocks of the machine."""

    def now(self) -> float:
        return time.monotonic()

    def wall(self) -> float:
        return time.time()


class FakeClock:
    """A clock that moves only when told to: tests and the demo compress time with it."""

    def __init__(self, start: float = 1000.0, wall_start: float = 1_790_000_000.0) -> None:
        self._t = start
        self._wall_offset = wall_start - start

    def now(self) -> float:
        return self._t

    def wall(self) -> float:
        return self._t + self._wall_offset

    def advance(self, seconds: float) -> float:
        if seconds < 0:
            raise ValueError("a clock does not go back")
        self._t += seconds
        return self._t

    def set(self, t: float) -> None:
        if t < self._t:
            raise ValueError(f"a clock does not go back (from {self._t} to {t})")
        self._t = t

    def jump_wall(self, seconds: float) -> None:
        """Set the wall clock forward (or back) by ``seconds``, as NTP or an admin does; the
        monotonic clock does not notice."""
        self._wall_offset += seconds

    def power_off(self, seconds: float) -> None:
        """Simulate a power cut: the wall clock runs on; a new monotonic epoch starts."""
        self._wall_offset += seconds + self._t
        self._t = 0.0
