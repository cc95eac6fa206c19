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
    """Type a game given as scenario events (``place`` and ``done``; with hands also
    ``starter``, each seat's tile in seat order, and ``draw``, the tile number)."""
    for event in events:
        if event["ev"] == "starter":
            draws = event["draws"]
            tiles = list(draws.values()) if isinstance(draws, dict) else list(draws)
            for tile in tiles:
                s.press(f"{tile}#")
        elif event["ev"] == "draw":
            s.press(f"{event['tile']}#")
        elif event["ev"] == "done":
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


def hands_up_to_a_fill(s: Seat, *, step3: bool) -> None:
    """Start a game with hands and type a random obeying game up to the first moment the
    player on turn can fill a forced space: at the start of his turn (step 1) or just after
    his free move (step 3)."""
    import random

    from companion.tantrix.autoplay import random_hands_game
    from companion.tantrix.hands import HandsGame
    from companion.tantrix.simulate import apply_event

    for seed in range(300):
        rg = random_hands_game(random.Random(seed), ("red", "yellow"))
        g = HandsGame(["red", "yellow"])
        for i, e in enumerate(rg.events):
            if (
                g.must_fill()
                and not g.needs_draw(g.seat)
                and g.free_move_used == step3
                and (step3 or rg.events[i - 1].get("ev") == "done")
            ):
                s.table.start_game(["red", "yellow"], hands=True, names={"red": "Ada"})
                play_events(s, rg.events[:i])
                return
            apply_event(g, e)
    raise AssertionError("no such state in 300 random games")


def lay_solo(s: Seat, placement: Placement, *, type_number: bool = True) -> None:
    """Lay a tile in a solo mode: (its number and ``#`` unless already offered), ``A`` to the
    spot, ``C`` to the turn, ``#``."""
    if type_number:
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
    assert s.view["entry"]["rotation"] == placement.rot
    s.press("#")


def play_solo_events(s: Seat, events: Iterable[Mapping[str, Any]]) -> None:
    """Type a solo game given as scenario events: a draw is the tile's number and ``#`` (the
    spots are then offered; Gobble's opening asks for the second tile after the first, then
    offers the first), a placement picks the spot of the tile offered, or types its number
    first (Rainbow, or the other of Gobble's two opening tiles); Gobble's discard is menu 1,
    return menu 2, the top discard played after a gobble menu 3."""
    for event in events:
        ev = event["ev"]
        if ev == "draw":
            s.press(f"{event['tile']}#")
        elif ev == "place":
            p = Placement(event["tile"], event["q"], event["r"], event["rot"])
            entry = s.view["entry"]
            if entry["mode"] == "place" and entry["tile"] == p.tile:
                lay_solo(s, p, type_number=False)
            elif s.view.get("reward") and s.view.get("discard", [])[-1:] == [p.tile]:
                s.press("D3")
                lay_solo(s, p, type_number=False)
            else:
                if entry["mode"] == "place":
                    s.press("*")
                lay_solo(s, p)
        elif ev == "discard":
            s.press("*D1" if s.view["entry"]["mode"] == "place" else "D1")
        elif ev == "return":
            s.press("D2")
        elif ev == "lift":
            s.press(f"D1{event['tile']}#")
