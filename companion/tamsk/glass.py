"""The sand model of one hourglass.

The upper part holds ``sand`` seconds at time ``ref`` and, while the glass runs, loses one
second per second. Turning the glass over at ``t`` leaves ``period - sand(t)`` above. A running
glass whose upper part empties is lost (dead) at that instant and never moves again. Every glass
starts with its upper part empty and not running; its first turn gives it the full period.
"""

from __future__ import annotations


class Glass:
    """One of the six 3-minute hourglasses, with its calibrated period."""

    __slots__ = ("name", "period", "space", "placed", "sand", "ref", "running", "dead", "died_at")

    def __init__(self, name: str, period: float, space: str | None, *, placed: bool = True) -> None:
        if not period > 0:
            raise ValueError(f"{name}: a glass's period must be positive, not {period!r}")
        self.name = name
        self.period = float(period)
        self.space = space
        self.placed = placed
        self.sand = 0.0
        self.ref = 0.0
        self.running = False
        self.dead = False
        self.died_at: float | None = None

    def sand_at(self, t: float) -> float:
        """Seconds of sand in the upper part at ``t`` (never below 0 or above the period)."""
        if self.running:
            left = self.sand - (t - self.ref)
            return left if left > 0.0 else 0.0
        return self.sand

    def turn_over(self, t: float) -> None:
        """Turn the glass over at ``t``: what had run down is now above."""
        above = self.period - self.sand_at(t)
        self.sand = above if above > 0.0 else 0.0
        self.ref = t
        self.running = True

    def runs_out_at(self) -> float:
        """When a running glass empties, if nobody turns it."""
        return self.ref + self.sand

    def die(self, at: float) -> None:
        self.dead = True
        self.died_at = at
        self.running = False
        self.sand = 0.0
        self.ref = at

    def final_time(self) -> float:
        """When the glass ran out or will run out if left alone (for the time tie-break)."""
        if self.dead and self.died_at is not None:
            return self.died_at
        if self.running:
            return self.runs_out_at()
        return 0.0

    def __repr__(self) -> str:
        state = "dead" if self.dead else ("running" if self.running else "still")
        return f"<Glass {self.name} on {self.space} {state} sand={self.sand:.2f}@{self.ref:.2f}>"
