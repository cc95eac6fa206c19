"""Players at a keypad table: keys typed on a fake clock, and what the table did with them.

:class:`Seat` wraps a Tantrix or Tokami table controller the way the daemon does (raw key inputs
stamped with the clock's time), and remembers every sound and journal record in the order they
happened, so a test can check that a record was written before its acknowledgement.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from companion.clock import FakeClock
from companion.config import defaults
from companion.simulate import load, simulator_for
from companion.tamsk.table import RawInput
from companion.tantrix.game import Placement
from companion.tantrix.table import TantrixTable
from companion.tokami.table import TokamiTable

#: Seconds between two key presses: a quick but human typist.
KEY_GAP = 0.4


class Seat:
    """A table and its clock, with the trail of what it journaled and sounded."""

    def __init__(self, table: Any, clock: FakeClock) -> None:
        self.table = table
        self.clock = clock
        #: ("record", body) and ("sound", pattern), in the order they happened.
        self.trail: list[tuple[str, Any]] = []

    @property
    def sounds(self) -> list[str]:
        return [what for kind, what in self.trail if kind == "sound"]

    @property
    def records(self) -> list[dict[str, Any]]:
        return [what for kind, what in self.trail if kind == "record"]

    def press(self, keys: Iterable[str]) -> None:
        """Type ``keys`` one by one, a little time apart (``"12#"`` is three keys)."""
        for key in keys:
            self.clock.advance(KEY_GAP)
            self.table.feed(RawInput("key", key, True, self.clock.now()))

    @property
    def view(self) -> dict[str, Any]:
        view: dict[str, Any] = self.table.view()
        return view

    @property
    def journal(self) -> Path:
        path = self.table.journal_path
        assert path is not None
        return Path(path)

    def journal_lines(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.journal.read_text().splitlines()]

    def replayed(self) -> dict[str, Any]:
        """What ``companion simulate`` makes of the journal as it stands on disk."""
        return replay(self.journal)


def replay(path: Path) -> dict[str, Any]:
    loaded = load(path)
    result: dict[str, Any] = simulator_for(loaded.scenario.game).simulate(
        loaded.scenario.header, loaded.scenario.events
    )
    return result


def seat(kind: str, journal_dir: Path, clock: FakeClock | None = None) -> Seat:
    """A table of ``kind`` ("tantrix" or "tokami") waiting for a game, on a fresh fake clock."""
    clock = clock or FakeClock()
    cls = {"tantrix": TantrixTable, "tokami": TokamiTable}[kind]
    trail: list[tuple[str, Any]] = []
    table = cls(
        clock,
        journal_dir,
        config=defaults(),
        sound=lambda pattern: trail.append(("sound", pattern)),
        on_record=lambda record: trail.append(("record", record)),
    )
    s = Seat(table, clock)
    s.trail = trail
    return s


# -- Tantrix ---------------------------------------------------------------------------------------


def lay(s: Seat, placement: Placement) -> None:
    """Lay a tile the way a player does: its number and ``#``, ``A`` until the map shows the
    spot, ``C`` until the tile is turned right, then ``#``."""
    s.press(f"{placement.tile}#")
    entry = s.view["entry"]
    assert entry["mode"] == "place", f"tile {placement.tile} was not offered: {s.table.error}"
    for _ in range(entry["spot_count"]):
        if tuple(s.view["entry"]["spot"]) == placement.cell:
            break
        s.press("A")
    assert tuple(s.view["entry"]["spot"]) == placement.cell, f"{placement} is not offered"
    for _ in range(6):
        if s.view["entry"]["rotation"] == placement.rot:
            break
        s.press("C")
    s.press("#")


def end_turn(s: Seat) -> None:
    """D opens the menu, 1 ends the turn."""
    s.press("D1")


def play_events(s: Seat, events: Iterable[Mapping[str, Any]]) -> None:
    """Type a game given as scenario events (``place`` and ``done``)."""
    for event in events:
        if event["ev"] == "done":
            end_turn(s)
        else:
            lay(s, Placement(event["tile"], event["q"], event["r"], event["rot"]))


def tantrix_state(s: Seat) -> dict[str, Any]:
    """The table's game in the terms of ``companion simulate``'s output."""
    from companion.tantrix.simulate import state

    game = s.table.game
    assert game is not None
    return state(game)


def without_run_fields(result: Mapping[str, Any]) -> dict[str, Any]:
    """A simulate result without what only a replay reports (refusals, times, corrections)."""
    drop = {"violations", "ended", "t", "history", "corrections"}
    return {k: v for k, v in result.items() if k not in drop}
