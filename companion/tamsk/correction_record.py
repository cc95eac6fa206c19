"""An arbiter's correction as a record: its fields and how a journal line is read into one.

The rules that apply it are in :mod:`companion.tamsk.corrections` (which documents every
correction); this module only knows their shape, so :mod:`companion.tamsk.events` can read a
``correct`` line without depending on the rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from companion.scenario import MalformedInput
from companion.tamsk.board import is_space
from companion.tamsk.names import END, GLASSES, LIFT, PASS, PLAYERS, PUTBACK, RELEASE, RING, TIMER15

ARBITER = "arbiter"

SAND = "sand"
SPACE = "space"
ADD_RING = "add-ring"
REMOVE_RING = "remove-ring"
UNDO = "undo"
PENALTY = "penalty"
CANCEL_PENALTY = "cancel-penalty"
TURN = "turn"
RESULT = "result"
CONFIRM = "confirm"
NEXT_ROUND = "next-round"

WHATS = (
    SAND,
    SPACE,
    ADD_RING,
    REMOVE_RING,
    UNDO,
    PENALTY,
    CANCEL_PENALTY,
    TURN,
    RESULT,
    CONFIRM,
    NEXT_ROUND,
)

#: The inputs an ``undo`` may take back.
UNDOABLE = (LIFT, RELEASE, PUTBACK, RING, TIMER15, PASS, END)
PENALTY_KINDS = ("late", "forfeit", "pass")
WINNERS = ("red", "black", "tie")


@dataclass(frozen=True, slots=True)
class Correction:
    """One correction's fields (unused ones are ``None``), in the order a journal writes them."""

    what: str
    reason: str
    by: str
    glass: str | None = None
    space: str | None = None
    player: str | None = None
    sand: float | None = None
    running: bool | None = None
    kind: str | None = None
    index: int | None = None
    penalty_t: float | None = None
    target_t: float | None = None
    target_ev: str | None = None
    winner: str | None = None
    forfeit: bool | None = None
    round: int | None = None
    auth: str | None = None
    nonce: str | None = None
    #: ``space`` was given as null on purpose (a glass somewhere unknown, an unplaced ring).
    space_unknown: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The journal fields (without ``t`` and ``ev``)."""
        out: dict[str, Any] = {"what": self.what}
        for f in fields(self):
            name = f.name
            if name in ("what", "reason", "by", "space_unknown"):
                continue
            value = getattr(self, name)
            if value is not None:
                out[name] = value
            elif name == "space" and self.space_unknown:
                out[name] = None
        out["reason"] = self.reason
        out["by"] = self.by
        return out


def _bad(obj: Mapping[str, Any], message: str, line: int | None) -> MalformedInput:
    return MalformedInput(f"a {obj.get('what')!r} correction: {message}", line)


def _choice(
    obj: Mapping[str, Any], key: str, choices: tuple[str, ...], line: int | None
) -> str:
    value = obj.get(key)
    if value not in choices:
        if value is None:
            raise _bad(obj, f'needs "{key}" ({", ".join(choices)})', line)
        raise _bad(obj, f'"{key}" must be one of {", ".join(choices)}, got {value!r}', line)
    return str(value)


def _number(obj: Mapping[str, Any], key: str, line: int | None, *, required: bool) -> float | None:
    value = obj.get(key)
    if value is None:
        if required:
            raise _bad(obj, f'needs "{key}" (seconds)', line)
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        raise _bad(obj, f'"{key}" must be a number, got {value!r}', line)
    if value < 0 or value == float("inf"):
        raise _bad(obj, f'"{key}" must be a finite number >= 0, got {value!r}', line)
    return float(value)


def _integer(obj: Mapping[str, Any], key: str, line: int | None, low: int) -> int:
    value = obj.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad(obj, f'needs "{key}", a whole number, got {value!r}', line)
    if value < low:
        raise _bad(obj, f'"{key}" must be {low} or more, got {value}', line)
    return value


def _flag(obj: Mapping[str, Any], key: str, line: int | None) -> bool | None:
    value = obj.get(key)
    if value is None:
        return None
    if not isinstance(value, bool):
        raise _bad(obj, f'"{key}" must be true or false, got {value!r}', line)
    return value


def _space(obj: Mapping[str, Any], line: int | None, *, nullable: bool) -> tuple[str | None, bool]:
    if "space" not in obj:
        raise _bad(obj, 'needs "space" (a1..g4' + (", or null" if nullable else "") + ")", line)
    value = obj["space"]
    if value is None:
        if not nullable:
            raise _bad(obj, '"space" must be a space of the board (a1..g4)', line)
        return None, True
    if not is_space(value):
        raise _bad(obj, f'"space": {value!r} is not a space of the board (a1..g4)', line)
    return str(value), False


def _text(obj: Mapping[str, Any], key: str, line: int | None) -> str | None:
    value = obj.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise _bad(obj, f'"{key}" must be text, got {value!r}', line)
    return value


def parse_correction(obj: Mapping[str, Any], line: int | None = None) -> Correction:
    """The :class:`Correction` a ``correct`` record describes; a bad shape is MalformedInput.

    Whether it may be applied (who made it, whether the glass or ring is there) is the rules'
    business, decided in the fold; this only checks that the record says something definite.
    """
    what = obj.get("what")
    if what not in WHATS:
        if what is None:
            raise MalformedInput(f'a correction needs "what" ({", ".join(WHATS)})', line)
        raise MalformedInput(
            f"unknown correction {what!r} (expected one of {', '.join(WHATS)})", line
        )
    reason = obj.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        raise _bad(obj, 'needs a "reason": corrections are never made without one', line)
    by = obj.get("by")
    if not isinstance(by, str):
        raise _bad(obj, 'needs "by" (who made it: "arbiter")', line)
    extra: dict[str, Any] = {"auth": _text(obj, "auth", line), "nonce": _text(obj, "nonce", line)}
    if what == SAND:
        extra["glass"] = _choice(obj, "glass", GLASSES, line)
        extra["sand"] = _number(obj, "sand", line, required=True)
        extra["running"] = _flag(obj, "running", line)
    elif what == SPACE:
        extra["glass"] = _choice(obj, "glass", GLASSES, line)
        extra["space"], extra["space_unknown"] = _space(obj, line, nullable=True)
    elif what in (ADD_RING, REMOVE_RING):
        extra["player"] = _choice(obj, "player", PLAYERS, line)
        extra["space"], extra["space_unknown"] = _space(obj, line, nullable=what == REMOVE_RING)
    elif what == UNDO:
        extra["target_t"] = _number(obj, "target_t", line, required=False)
        if obj.get("target_ev") is not None:
            extra["target_ev"] = _choice(obj, "target_ev", UNDOABLE, line)
    elif what == PENALTY:
        extra["player"] = _choice(obj, "player", PLAYERS, line)
        extra["kind"] = _choice(obj, "kind", PENALTY_KINDS, line)
    elif what == CANCEL_PENALTY:
        extra["index"] = _integer(obj, "index", line, 0)
        extra["penalty_t"] = _number(obj, "penalty_t", line, required=False)
    elif what == TURN:
        extra["player"] = _choice(obj, "player", PLAYERS, line)
    elif what == RESULT:
        extra["winner"] = _choice(obj, "winner", WINNERS, line)
        extra["forfeit"] = _flag(obj, "forfeit", line)
    elif what == NEXT_ROUND:
        extra["round"] = _integer(obj, "round", line, 1)
    return Correction(str(what), reason.strip(), by, **extra)
