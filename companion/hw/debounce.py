"""Our own debouncing, on an injected clock.

gpiozero's mock pins do not bounce and the real backends debounce differently, so raw edges go
through these small state machines instead. Neither reads a clock: edges arrive with the time
they happened, and :meth:`poll` is called with the time now.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Motion:
    """What a tilt switch says about its hourglass."""

    kind: str  # "lift", "release", "putback" or "horizontal"
    glass: str
    t: float


class TiltInterpreter:
    """Turns the raw edges of one hourglass's tilt switch into lifts and releases.

    The first edge is the ``lift``. The switch staying ``settle`` seconds in the other
    orientation is the ``release`` (dated at the edge that settled it). Settling back in the old
    orientation is an aborted lift (``putback``: no move). Chatter for longer than
    ``horizontal`` seconds means the glass is being held horizontally, which the rules forbid:
    one ``horizontal`` warning per move.
    """

    def __init__(
        self, glass: str, level: bool, *, settle: float = 0.25, horizontal: float = 1.5
    ) -> None:
        self.glass = glass
        self.stable = level  # the orientation the glass rests in
        self.level = level  # what the switch reads now
        self.settle = settle
        self.horizontal = horizontal
        self.moving = False
        self.since = 0.0  # when this motion started (the lift)
        self.last_edge = 0.0
        self.warned = False

    def edge(self, t: float, level: bool) -> Motion | None:
        """A raw edge at ``t``. Returns the lift when this edge starts a motion."""
        if level == self.level:
            return None  # a repeated report of the same level is no edge
        self.level = level
        self.last_edge = t
        if not self.moving:
            self.moving = True
            self.since = t
            self.warned = False
            return Motion("lift", self.glass, t)
        return None

    def poll(self, now: float) -> list[Motion]:
        """What has become certain by ``now``."""
        out: list[Motion] = []
        if not self.moving:
            return out
        if now - self.last_edge >= self.settle:
            self.moving = False
            if self.level != self.stable:
                self.stable = self.level
                out.append(Motion("release", self.glass, self.last_edge))
            else:
                out.append(Motion("putback", self.glass, self.last_edge))
        elif not self.warned and now - self.since >= self.horizontal:
            self.warned = True
            out.append(Motion("horizontal", self.glass, self.since + self.horizontal))
        return out

    def next_wakeup(self) -> float | None:
        if not self.moving:
            return None
        settle_at = self.last_edge + self.settle
        if not self.warned:
            return min(settle_at, self.since + self.horizontal)
        return settle_at


class ButtonDebouncer:
    """Leading-edge debounce for a push button: the first edge is the press, at once.

    Edges within ``lockout`` seconds of the last accepted change are contact bounce. A press
    counts once; the button must be seen released (and stay so past the lockout) before it can
    count again. Holding it ``hold`` seconds reports a hold once.
    """

    def __init__(self, name: str, *, lockout: float = 0.03, hold: float | None = None) -> None:
        self.name = name
        self.lockout = lockout
        self.hold = hold
        self.pressed = False
        self.level = False
        self.changed_at = -1e9
        self.held = False

    def edge(self, t: float, pressed: bool) -> str | None:
        """Returns "press" when this edge is a new press."""
        self.level = pressed
        if t - self.changed_at < self.lockout:
            return None
        if pressed and not self.pressed:
            self.pressed = True
            self.changed_at = t
            self.held = False
            return "press"
        if not pressed and self.pressed:
            self.pressed = False
            self.changed_at = t
        return None

    def poll(self, now: float) -> str | None:
        """Settles a release hidden by the lockout, and reports a hold once."""
        if self.pressed and not self.level and now - self.changed_at >= self.lockout:
            self.pressed = False
            self.changed_at = now
        if (
            self.pressed
            and self.hold is not None
            and not self.held
            and now - self.changed_at >= self.hold
        ):
            self.held = True
            return "hold"
        return None

    def next_wakeup(self) -> float | None:
        if self.pressed and not self.level:
            return self.changed_at + self.lockout
        if self.pressed and self.hold is not None and not self.held:
            return self.changed_at + self.hold
        return None
