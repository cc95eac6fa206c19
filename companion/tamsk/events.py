"""Tamsk input events: what a player does at the table, with the time it happened.

An event is a plain record; the rules live in :mod:`companion.tamsk.game`. Events are parsed
from the scenario/journal objects of the contract (``{"t": 3.0, "ev": "release", "glass": "r1",
"to": "a2"}``); a line that is not a valid event at all raises
:class:`~companion.scenario.MalformedInput` (a legal-looking event the rules refuse is not
malformed: it becomes a violation).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.scenario import MalformedInput
from companion.tamsk.board import is_space
from companion.tamsk.correction_record import Correction, parse_correction
from companion.tamsk.names import (
    CORRECT,
    END,
    GLASSES,
    KINDS,
    LIFT,
    NOTE,
    PASS,
    PLAYERS,
    PUTBACK,
    RELEASE,
    RESIGN,
    RING,
    TIMER15,
    opponent,
    owner,
)

__all__ = [
    "CORRECT", "END", "GLASSES", "KINDS", "LIFT", "NOTE", "PASS", "PLAYERS", "PUTBACK",
    "RELEASE", "RESIGN", "RING", "TIMER15", "Correction", "Event", "opponent", "owner",
    "parse_event",
]  # fmt: skip


class Event:
    """One input. Unused fields are ``None``.

    ``putback`` says a lifted glass was set down again, not turned, on its own space (an aborted
    lift seen by a tilt switch): it ends the lift without a move. ``note`` events carry text
    only (warnings, comments written by the daemon or an arbiter);
    the rules ignore them, but they stay in the record. ``correct`` events carry an arbiter's
    :class:`~companion.tamsk.corrections.Correction` (see that module).
    """

    __slots__ = ("kind", "t", "glass", "to", "player", "space", "text", "correction")

    def __init__(
        self,
        kind: str,
        t: float,
        *,
        glass: str | None = None,
        to: str | None = None,
        player: str | None = None,
        space: str | None = None,
        text: str | None = None,
        correction: Correction | None = None,
    ) -> None:
        self.kind = kind
        self.t = t
        self.glass = glass
        self.to = to
        self.player = player
        self.space = space
        self.text = text
        self.correction = correction

    @property
    def actor(self) -> str | None:
        """Who did it: the player named, or the owner of the glass moved."""
        if self.player is not None:
            return self.player
        if self.glass is not None:
            return owner(self.glass)
        return None

    def to_dict(self) -> dict[str, Any]:
        """The contract's object for this event (what a journal line holds)."""
        out: dict[str, Any] = {"t": self.t, "ev": self.kind}
        for key in ("glass", "to", "player", "space", "text"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        if self.correction is not None:
            out.update(self.correction.to_dict())
        return out

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Event) and self.to_dict() == other.to_dict()

    def __hash__(self) -> int:
        return hash(
            (self.kind, self.t, self.glass, self.to, self.player, self.space, self.correction)
        )

    def __repr__(self) -> str:
        return f"Event({self.to_dict()!r})"


def lift(t: float, glass: str) -> Event:
    return Event(LIFT, t, glass=glass)


def release(t: float, glass: str, to: str | None = None) -> Event:
    return Event(RELEASE, t, glass=glass, to=to)


def ring(t: float, player: str, space: str | None = None) -> Event:
    return Event(RING, t, player=player, space=space)


def timer15(t: float, player: str) -> Event:
    return Event(TIMER15, t, player=player)


def putback(t: float, glass: str) -> Event:
    """A lifted glass set down again on its space without being turned: no move was made."""
    return Event(PUTBACK, t, glass=glass)


def pass_turn(t: float, player: str) -> Event:
    return Event(PASS, t, player=player)


def end(t: float) -> Event:
    return Event(END, t)


def note(t: float, text: str) -> Event:
    return Event(NOTE, t, text=text)


def _field(obj: Mapping[str, Any], key: str, line: int | None, *, choices: tuple[str, ...]) -> str:
    value = obj.get(key)
    if value not in choices:
        kind = obj.get("ev")
        if value is None:
            raise MalformedInput(f'a {kind!r} event needs "{key}"', line)
        raise MalformedInput(f'"{key}" must be one of {", ".join(choices)}, got {value!r}', line)
    return str(value)


def _space(obj: Mapping[str, Any], key: str, line: int | None) -> str | None:
    value = obj.get(key)
    if value is None:
        return None
    if not is_space(value):
        raise MalformedInput(f'"{key}": {value!r} is not a space of the board (a1..g4)', line)
    return str(value)


def parse_event(obj: Mapping[str, Any], t: float, line: int | None = None) -> Event:
    """Turn one contract object into an :class:`Event` (its time already checked)."""
    kind = obj.get("ev")
    if kind == LIFT:
        return Event(LIFT, t, glass=_field(obj, "glass", line, choices=GLASSES))
    if kind == RELEASE:
        return Event(
            RELEASE,
            t,
            glass=_field(obj, "glass", line, choices=GLASSES),
            to=_space(obj, "to", line),
        )
    if kind == PUTBACK:
        return Event(PUTBACK, t, glass=_field(obj, "glass", line, choices=GLASSES))
    if kind == RING:
        return Event(
            RING,
            t,
            player=_field(obj, "player", line, choices=PLAYERS),
            space=_space(obj, "space", line),
        )
    if kind == TIMER15:
        return Event(TIMER15, t, player=_field(obj, "player", line, choices=PLAYERS))
    if kind == PASS:
        return Event(PASS, t, player=_field(obj, "player", line, choices=PLAYERS))
    if kind == END:
        return Event(END, t)
    if kind == RESIGN:
        return Event(RESIGN, t, player=_field(obj, "player", line, choices=PLAYERS))
    if kind == NOTE:
        text = obj.get("text", "")
        return Event(NOTE, t, text=str(text))
    if kind == CORRECT:
        return Event(CORRECT, t, correction=parse_correction(obj, line))
    if kind is None:
        raise MalformedInput('an event needs "ev" (lift, release, ring, timer15, pass, end)', line)
    raise MalformedInput(f"unknown event {kind!r} (expected one of {', '.join(KINDS)})", line)
