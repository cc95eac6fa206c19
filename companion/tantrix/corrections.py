"""Arbiter corrections for Tantrix: journal events that put the record right, never edits.

A correction is one more line in the journal, with what it changes, why, and who made it::

    {"t": 412.0, "ev": "correct", "what": "move", "tile": 17, "q": 1, "r": -1, "rot": 2,
     "reason": "typed the wrong cell", "by": "arbiter", "auth": "pin"}

The fold applies it (``companion simulate``, ``verify``, results and standings all see it); the
line it corrects stays as it was written. As for Tamsk (:mod:`companion.tamsk.corrections`),
only the arbiter corrects: a record without ``"by": "arbiter"`` is refused by the rules (the
table adds that field only after the PIN check or a signed command), and a correction always
gives its ``reason``.

What a correction can do (``what``, then its fields):

``take-back`` (optional ``tile``)
    A mis-entered tile leaves the table: the last placement of ``tile`` (default: the last tile
    placed), wherever it is in the game. The game is replayed without it; refused if a later
    placement would then break the rules (it touched only that tile, say).
``move`` (``tile``, ``q``, ``r``, ``rot``, optional ``new_tile``)
    The tile was really laid elsewhere (or turned otherwise, or was another tile,
    ``new_tile``): its placement is replaced where it stands in the game, and the game replayed;
    refused if the corrected game breaks the rules.
``turn`` (``player``)
    It is now this colour's turn (the turn passes on seat by seat until it is his).
``result`` (``winner``: a colour or ``tie``; optional ``forfeit``)
    The arbiter decides the result: the game is over (``reason`` "arbiter", or "forfeit"),
    whatever the tiles say; later game inputs are not played.

A refused correction is reported in ``violations`` (kind ``correction``, or ``not-arbiter``)
and changes nothing. Pure: standard library only, no clock, no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.scenario import MalformedInput, correction_head
from companion.tantrix.game import Game, IllegalPlacement, Placement
from companion.tantrix.tiles import COLOURS

ARBITER = "arbiter"
TAKE_BACK = "take-back"
MOVE = "move"
TURN = "turn"
RESULT = "result"
WHATS = (TAKE_BACK, MOVE, TURN, RESULT)
CORRECTION = "correction"
NOT_ARBITER = "not-arbiter"

#: One accepted game input, as the fold replays it: ("place", placement), ("done", None) or
#: ("turn", colour).
Step = tuple[str, Placement | str | None]


def _int(obj: Mapping[str, Any], key: str, lo: int, hi: int, line: int | None) -> int:
    value = obj.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise MalformedInput(f'a {obj.get("what")!r} correction: "{key}" must be a whole '
                             f"number {lo} to {hi}, got {value!r}", line)
    return value


def parse_correction(obj: Mapping[str, Any], line: int | None = None) -> dict[str, Any]:
    """The correction's fields checked for shape (MalformedInput when it says nothing
    definite); whether it may be applied is decided in the fold."""
    out = correction_head(obj, game="Tantrix", whats=WHATS, line=line)
    what = out["what"]
    if what == TAKE_BACK and obj.get("tile") is not None:
        out["tile"] = _int(obj, "tile", 1, 56, line)
    elif what == MOVE:
        try:
            out["placement"] = Placement(_int(obj, "new_tile" if "new_tile" in obj else "tile",
                                              1, 56, line),
                                         _int(obj, "q", -99, 99, line),
                                         _int(obj, "r", -99, 99, line),
                                         _int(obj, "rot", 0, 5, line))
        except ValueError as exc:
            raise MalformedInput(f"a 'move' correction: {exc}", line) from None
        out["tile"] = _int(obj, "tile", 1, 56, line)
    elif what == TURN:
        player = obj.get("player")
        if player not in COLOURS:
            raise MalformedInput(f'a \'turn\' correction needs "player", a colour '
                                 f"({', '.join(COLOURS)})", line)
        out["player"] = player
    elif what == RESULT:
        winner = obj.get("winner")
        if winner not in (*COLOURS, "tie"):
            raise MalformedInput('a \'result\' correction needs "winner": a colour or tie', line)
        forfeit = obj.get("forfeit", False)
        if not isinstance(forfeit, bool):
            raise MalformedInput('a \'result\' correction: "forfeit" is true or false', line)
        out.update(winner=winner, forfeit=forfeit)
    return out


def _rebuild(players: Sequence[str], steps: Sequence[Step]) -> Game:
    game = Game(players)
    for kind, value in steps:
        if kind == "place":
            assert isinstance(value, Placement)
            game.play(value)
        elif kind == "done":
            game.end_turn()
        else:
            while game.turn != value:
                game.end_turn()
    return game


@dataclass
class Ledger:
    """The accepted inputs of one game, so a correction can replay it changed, and what the
    arbiter decided."""

    players: tuple[str, ...]
    steps: list[Step] = field(default_factory=list)
    result: dict[str, Any] | None = None
    log: list[dict[str, Any]] = field(default_factory=list)

    def accepted(self, kind: str, placement: Placement | None = None) -> None:
        """Keep one input the game accepted (``place``, ``done`` or ``undo``)."""
        if kind == "place":
            self.steps.append(("place", placement))
        elif kind == "done":
            self.steps.append(("done", None))
        elif kind == "undo":  # back to just before the last placement, turn included
            while self.steps and self.steps[-1][0] != "place":
                self.steps.pop()
            if self.steps:
                self.steps.pop()

    def correct(self, game: Game, c: Mapping[str, Any], t: float) -> Game:
        """Apply one parsed correction; the game to go on with (``game`` itself or a replayed
        one). Raises :class:`IllegalPlacement` (kind ``correction`` or ``not-arbiter``) when it
        is refused; nothing has changed then."""
        if c["by"] != ARBITER:
            raise IllegalPlacement(NOT_ARBITER, "corrections are made by the arbiter only, "
                                                f"not by {c['by']!r}")
        what = c["what"]
        if what == RESULT:
            if c["winner"] != "tie" and c["winner"] not in self.players:
                raise IllegalPlacement(CORRECTION, f"{c['winner']} is not playing")
            self.result = {"winner": c["winner"], "forfeit": c["forfeit"], "t": t}
            self._log(c, t)
            return game
        steps = list(self.steps)
        if what == TURN:
            if c["player"] not in self.players:
                raise IllegalPlacement(CORRECTION, f"{c['player']} is not playing")
            if game.turn == c["player"]:
                raise IllegalPlacement(CORRECTION, f"it is already {c['player']}'s turn")
            steps.append(("turn", c["player"]))
        else:
            placed = [i for i, (k, v) in enumerate(steps)
                      if k == "place" and isinstance(v, Placement)
                      and (c.get("tile") is None or v.tile == c["tile"])]
            if not placed:
                which = f"tile {c['tile']}" if c.get("tile") is not None else "any tile"
                raise IllegalPlacement(CORRECTION, f"{what}: {which} is not on the table")
            i = placed[-1]
            if what == TAKE_BACK:
                del steps[i]
            else:
                steps[i] = ("place", c["placement"])
        try:
            rebuilt = _rebuild(self.players, steps)
        except IllegalPlacement as exc:
            raise IllegalPlacement(CORRECTION, f"{what}: the corrected game breaks the rules "
                                               f"({exc})") from None
        self.steps = steps
        self._log(c, t)
        return rebuilt

    def _log(self, c: Mapping[str, Any], t: float) -> None:
        entry = {"t": t, **{k: v for k, v in c.items() if k != "placement"}}
        if isinstance(c.get("placement"), Placement):
            entry["placement"] = c["placement"].as_event()
        self.log.append(entry)

    def finish(self, state: dict[str, Any]) -> dict[str, Any]:
        """The fold's output with the corrections: their log, and the arbiter's result."""
        if self.log:  # a game without corrections reads exactly as before they existed
            state["corrections"] = list(self.log)
        if self.result is not None:
            state.update(over=True, winner=self.result["winner"],
                         reason="forfeit" if self.result["forfeit"] else "arbiter",
                         forfeit=self.result["forfeit"])
        return state
