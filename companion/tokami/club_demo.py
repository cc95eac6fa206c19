"""A Tokami table's players for ``companion tournament demo``: legal turns typed on the keypad.

Each turn is one the rules allow (a block moved higher, with a bonus block or without; a block
that would not go higher; now and then the forbidden block declined), typed as the rule book's
keypad dialogue: the outcome key, the colours by their keys (``1`` = the set's first colour...)
and ``#``, through the table's own key handling, until the blocks run out.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from companion.inputs import RawInput
from companion.tokami.table import TokamiTable
from companion.tokami.turns import Outcome, Turn

#: Turns before the demo stops waiting for an end (the blocks run out long before).
MAX_TURNS = 400
#: The arbiter's correction the demo sends this game once, mid-game (``tournament demo``).
DEMO_CORRECTION = {"what": "note", "text": "demo: the arbiter watched this turn",
                   "reason": "demo: a ruling for the record"}
_KEYS = {Outcome.BONUS: "1", Outcome.HIGHER: "2", Outcome.NOT_HIGHER: "4",
         Outcome.DECLINED: "5"}


def _choices(game: Any) -> list[Turn]:
    colours = [c for c, n in game.on_cross.items() if n > 0]
    turns = [Turn.moved(c) for c in colours]
    turns += [Turn.moved(c, bonus=b) for c in colours for b in colours]
    turns += [Turn.not_higher(c) for c in colours]
    turns.append(Turn.declined())
    return [t for t in turns if game.is_legal(t)]


def _keys(game: Any, turn: Turn) -> str:
    digit = {c: str(i + 1) for i, c in enumerate(game.colours)}
    keys = _KEYS[turn.outcome]
    if turn.block is not None:
        keys += digit[turn.block]
    if turn.bonus is not None:
        keys += digit[turn.bonus]
    return keys + "#"


def play(table: TokamiTable, clock: Any, rng: random.Random,
         between: Callable[[], None] | None = None) -> int:
    """Play the table's open game to its end; returns the number of turns typed."""
    made = 0
    while made < MAX_TURNS:
        game = table.game
        if game is None or game.is_over():
            return made
        choices = _choices(game)
        if not choices:
            return made
        weights = [1 if t.outcome is Outcome.DECLINED else 4 for t in choices]
        turn = rng.choices(choices, weights)[0]
        for k in _keys(game, turn):
            table.feed(RawInput("key", k, True, clock.now()))
        clock.advance(rng.uniform(10.0, 40.0))
        made += 1
        if between is not None:
            between()
    return made
