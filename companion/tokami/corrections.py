"""Arbiter corrections for Tokami: journal events that put the record right, never edits.

A correction is one more journal line, with what it changes, why and who made it::

    {"t": 300.0, "ev": "correct", "what": "turn", "index": 4,
     "turn": {"ev": "bonus", "block": "blue", "bonus": "green"},
     "reason": "typed yellow for green", "by": "arbiter", "auth": "pin"}

As for Tamsk (:mod:`companion.tamsk.corrections`), only the arbiter corrects: a record without
``"by": "arbiter"`` is refused by the rules (the table adds that field only after the PIN check
or a signed command), and every correction gives its ``reason``.

What a correction can do (``what``, then its fields):

``turn`` (``index``, ``turn``)
    Turn number ``index`` (from 1, counting the turns that stand, as ``history`` lists them) was
    mis-typed: ``turn`` is what really happened (a turn event without ``t``). The game is
    replayed with it; refused if that turn, or one after it, then breaks the rules.
``note`` (``text``)
    The arbiter's note on the game's record (a ruling, a remark); changes no score.
``score`` (``player``, ``points``)
    The player's total is adjusted by ``points`` (a whole number, not 0; negative to take
    points away), with the reason on the record: a penalty, or a block counted wrongly.

A refused correction is listed in ``violations`` (kind ``correction`` or ``not-arbiter``) and
changes nothing. Pure: standard library only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.scenario import MalformedInput, correction_head
from companion.tokami.game import Game, IllegalTurn
from companion.tokami.turns import Turn

ARBITER = "arbiter"
TURN = "turn"
NOTE = "note"
SCORE = "score"
WHATS = (TURN, NOTE, SCORE)
CORRECTION = "correction"
NOT_ARBITER = "not-arbiter"
MAX_POINTS = 100
MAX_NOTE = 500


def parse_correction(obj: Mapping[str, Any], line: int | None = None) -> dict[str, Any]:
    """The correction's fields checked for shape (MalformedInput when it says nothing
    definite); whether it may be applied is decided in the fold."""
    out = correction_head(obj, game="Tokami", whats=WHATS, line=line)
    what = out["what"]
    if what == TURN:
        index = obj.get("index")
        if isinstance(index, bool) or not isinstance(index, int) or index < 1:
            raise MalformedInput('a \'turn\' correction needs "index", the turn\'s number '
                                 "from 1", line)
        turn = obj.get("turn")
        if not isinstance(turn, Mapping):
            raise MalformedInput('a \'turn\' correction needs "turn": the turn as it really '
                                 'was, e.g. {"ev": "higher", "block": "blue"}', line)
        out.update(index=index, turn=Turn.from_event(turn, line))
    elif what == NOTE:
        text = obj.get("text")
        if not isinstance(text, str) or not text.strip() or len(text) > MAX_NOTE:
            raise MalformedInput(f'a \'note\' correction needs "text" (1 to {MAX_NOTE} '
                                 "characters)", line)
        out["text"] = text.strip()
    else:
        player = obj.get("player")
        points = obj.get("points")
        if not isinstance(player, str):
            raise MalformedInput('a \'score\' correction needs "player", a player\'s name', line)
        if (isinstance(points, bool) or not isinstance(points, int) or points == 0
                or abs(points) > MAX_POINTS):
            raise MalformedInput(f'a \'score\' correction needs "points", a whole number from '
                                 f"-{MAX_POINTS} to {MAX_POINTS}, not 0", line)
        out.update(player=player, points=points)
    return out


@dataclass
class Ledger:
    """What the arbiter changed in one game: score adjustments and the corrections' log."""

    adjustments: dict[str, int] = field(default_factory=dict)
    log: list[dict[str, Any]] = field(default_factory=list)

    def correct(self, game: Game, c: Mapping[str, Any], t: float) -> Game:
        """Apply one parsed correction; the game to go on with (``game`` or a replayed one).
        Raises :class:`IllegalTurn` (kind ``correction`` or ``not-arbiter``) when refused."""
        if c["by"] != ARBITER:
            raise IllegalTurn(NOT_ARBITER, "corrections are made by the arbiter only, not by "
                                           f"{c['by']!r}")
        what = c["what"]
        if what == SCORE:
            if c["player"] not in game.players:
                raise IllegalTurn(CORRECTION, f"score: {c['player']!r} is not playing")
            self.adjustments[c["player"]] = self.adjustments.get(c["player"], 0) + c["points"]
        elif what == TURN:
            game = self._retype(game, c["index"], c["turn"])
        entry = {"t": t, **{k: v for k, v in c.items() if k != "turn"}}
        if what == TURN:
            entry["turn"] = c["turn"].to_event()
        self.log.append(entry)
        return game

    def _retype(self, game: Game, index: int, turn: Turn) -> Game:
        history = game.history
        if index > len(history):
            raise IllegalTurn(CORRECTION, f"turn: there is no turn {index} "
                                          f"({len(history)} stand)")
        stopped = game.is_over() and game.reason == "stopped"
        fresh = type(game)(game.setup)  # the table's own kind of game (it watches refusals)
        for n, played in enumerate(history, start=1):
            try:
                fresh.play(turn if n == index else played.turn)
            except IllegalTurn as exc:
                which = "the corrected turn" if n == index else f"turn {n} after it"
                raise IllegalTurn(CORRECTION, f"turn: {which} would break the rules: "
                                              f"{exc.detail}") from None
        if stopped:
            fresh.stop()
        return fresh

    def finish(self, state: dict[str, Any]) -> dict[str, Any]:
        """The fold's output with the arbiter's score adjustments, notes and fixes in it."""
        if self.adjustments:
            for player, points in self.adjustments.items():
                score = state["scores"][player]
                score["adjusted"] = points
                score["total"] += points
            order = list(state["players"])
            totals = {p: state["scores"][p]["total"] for p in order}
            state["standings"] = [[p, totals[p]] for p in sorted(order, key=lambda p: -totals[p])]
            if state["over"]:
                best = max(totals.values())
                leaders = [p for p in order if totals[p] == best]
                state["winner"] = leaders[0] if len(leaders) == 1 else "tie"
        state["corrections"] = [*state.get("corrections", []), *self.log]
        notes = [e["text"] for e in self.log if e["what"] == NOTE]
        if notes:
            state["notes"] = notes
        return state
