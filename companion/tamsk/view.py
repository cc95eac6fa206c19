"""Reading the Tamsk state the screens draw: the ``simulate`` output object plus display extras.

The table screen takes the very object ``companion simulate --json`` prints (see the scenario
contract), so whatever the engine reports is what the players see. A few keys only the daemon
knows are added beside it: ``level``, ``periods``, ``names``, ``warning``,
``show_sand_seconds``, ``bonus_ring`` and ``in_hand``. This module checks that object once and
turns it into typed records, so a malformed view fails with one clear message instead of a
half-drawn frame.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

PLAYERS = ("red", "black")
GLASSES = ("r1", "r2", "r3", "b1", "b2", "b3")
#: Run time of an uncalibrated hourglass, in seconds.
NOMINAL_PERIOD = 180.0
#: Below this many seconds of sand a glass is drawn in the warning colour.
LOW_SAND = 10.0


def glass_owner(glass: str) -> str:
    return "red" if glass.startswith("r") else "black"


@dataclass(frozen=True)
class Glass:
    name: str
    space: str | None
    sand: float
    running: bool
    dead: bool
    died_at: float | None

    @property
    def owner(self) -> str:
        return glass_owner(self.name)


@dataclass(frozen=True)
class Penalty:
    t: float
    player: str
    kind: str


@dataclass(frozen=True)
class TableView:
    """Everything the table screen shows, checked and typed."""

    t: float
    over: bool
    winner: str | None
    reason: str | None
    rings_left: dict[str, int]
    glasses: dict[str, Glass]
    turn: str
    timer_running: bool
    timer_remaining: float
    penalties: tuple[Penalty, ...]
    level: int
    periods: dict[str, float]
    names: dict[str, str]
    warning: str | None
    show_sand_seconds: bool
    bonus_ring: str | None
    in_hand: str | None
    #: Which line of a warning too long for the bar shows now (the table counts it up).
    warning_page: int = 0

    def name(self, player: str) -> str:
        """The player's name as given, else his colour in capitals (in the players' language)."""
        from companion.tamsk.words import player_word

        return self.names.get(player) or player_word(player)

    def period(self, glass: str) -> float:
        return self.periods.get(glass, NOMINAL_PERIOD)


def _fail(what: str, got: object) -> ValueError:
    return ValueError(f"table view: {what}, got {got!r}")


def _number(value: object, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise _fail(f"{what} must be a finite number", value)
    return float(value)


def _mapping(value: object, what: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise _fail(f"{what} must be an object", value)
    return value


def _player(value: object, what: str, *, optional: bool = False) -> str | None:
    if value is None and optional:
        return None
    if value not in PLAYERS:
        raise _fail(f"{what} must be 'red' or 'black'" + (" or null" if optional else ""), value)
    return str(value)


def _optional_text(value: object, what: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise _fail(f"{what} must be text or null", value)
    return value or None


def _require(view: Mapping[str, Any], key: str) -> Any:
    if key not in view:
        raise ValueError(f"table view: the key {key!r} is missing")
    return view[key]


def _glass(name: str, raw: object) -> Glass:
    info = _mapping(raw, f"glasses.{name}")
    space = info.get("space")
    if space is not None and not isinstance(space, str):
        raise _fail(f"glasses.{name}.space must be a space name or null", space)
    died_at = info.get("died_at")
    return Glass(
        name=name,
        space=space,
        sand=max(0.0, _number(info.get("sand", 0.0), f"glasses.{name}.sand")),
        running=bool(info.get("running", False)),
        dead=bool(info.get("dead", False)),
        died_at=None if died_at is None else _number(died_at, f"glasses.{name}.died_at"),
    )


def read_table_view(view: Mapping[str, Any]) -> TableView:
    """Check a table view and type it; raise :class:`ValueError` naming the first bad field."""
    view = _mapping(view, "the view")
    rings_raw = _mapping(_require(view, "rings_left"), "rings_left")
    rings = {p: int(_number(rings_raw.get(p), f"rings_left.{p}")) for p in PLAYERS}
    glasses_raw = _mapping(_require(view, "glasses"), "glasses")
    glasses = {g: _glass(g, glasses_raw.get(g)) for g in GLASSES}
    timer = _mapping(view.get("timer15") or {"running": False, "remaining": 0.0}, "timer15")
    penalties = []
    for i, raw in enumerate(view.get("penalties") or ()):
        entry = _mapping(raw, f"penalties.{i}")
        penalties.append(
            Penalty(
                t=_number(entry.get("t"), f"penalties.{i}.t"),
                player=str(_player(entry.get("player"), f"penalties.{i}.player")),
                kind=str(entry.get("kind", "")),
            )
        )
    level = view.get("level", 3)
    if level not in (1, 2, 3) or isinstance(level, bool):
        raise _fail("level must be 1, 2 or 3", level)
    periods_raw = _mapping(view.get("periods") or {}, "periods")
    periods = {}
    for glass, value in periods_raw.items():
        period = _number(value, f"periods.{glass}")
        if period <= 0:
            raise _fail(f"periods.{glass} must be positive", value)
        periods[str(glass)] = period
    names_raw = _mapping(view.get("names") or {}, "names")
    names = {p: str(names_raw[p]) for p in PLAYERS if names_raw.get(p)}
    in_hand = view.get("in_hand")
    if in_hand is not None and in_hand not in GLASSES:
        raise _fail(f"in_hand must be one of {', '.join(GLASSES)} or null", in_hand)
    winner = view.get("winner")
    if winner not in (None, "red", "black", "tie"):
        raise _fail("winner must be 'red', 'black', 'tie' or null", winner)
    return TableView(
        t=_number(view.get("t", 0.0), "t"),
        over=bool(view.get("over", False)),
        winner=winner,
        reason=_optional_text(view.get("reason"), "reason"),
        rings_left=rings,
        glasses=glasses,
        turn=str(_player(_require(view, "turn"), "turn")),
        timer_running=bool(timer.get("running", False)),
        timer_remaining=max(0.0, _number(timer.get("remaining", 0.0), "timer15.remaining")),
        penalties=tuple(penalties),
        level=int(level),
        periods=periods,
        names=names,
        warning=_optional_text(view.get("warning"), "warning"),
        show_sand_seconds=bool(view.get("show_sand_seconds", True)),
        bonus_ring=_player(view.get("bonus_ring"), "bonus_ring", optional=True),
        in_hand=in_hand,
        warning_page=int(_number(view.get("warning_page") or 0, "warning_page")),
    )


def seconds_text(sand: float) -> str:
    """Sand left as at most three characters: ``180``, ``63``, ``9.4``, ``0``.

    Rounded up, like a countdown: a glass shows ``0`` only once it is really empty, and the
    tenths appear below ten seconds, where they matter.
    """
    tenths = math.ceil(round(sand * 10, 6))
    if tenths <= 0:
        return "0"
    if tenths < 100:
        return f"{tenths // 10}.{tenths % 10}"
    return str(min(999, math.ceil(tenths / 10)))


def clock_text(t: float) -> str:
    """Game time as ``m:ss`` (``h:mm:ss`` past an hour), rounded down like a wall clock."""
    whole = max(0, int(t))
    hours, rest = divmod(whole, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{seconds:02d}"
    return f"{minutes}:{seconds:02d}"


def countdown_number(remaining: float) -> int:
    """The whole seconds a countdown shows: 15 when turned, 1 in its last second, then 0."""
    return max(0, math.ceil(round(remaining, 6)))
