"""A Tamsk table's players for ``companion tournament demo``: legal moves typed on the keypad.

Each move is typed as the rule book's keypad entry (glass, column, row, ``#``; ``0#`` to pass;
``A``/``B`` a ring dropped in the window), through the table's own key handling, with game time
running on by a random gap between inputs on the demo's fake clock, so glasses run low and out
and the game ends as it would at a club (rings, or a player who cannot move).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from companion.inputs import RawInput
from companion.tamsk.board import COLUMNS
from companion.tamsk.table import Table

#: Inputs before the demo stops waiting for an end (a game ends long before).
MAX_INPUTS = 2000
#: The arbiter's correction the demo sends this game once, mid-game (``tournament demo``).
DEMO_CORRECTION = {"what": "undo", "reason": "demo: the players say the last move was typed wrong"}


def play(table: Table, clock: Any, rng: random.Random,
         between: Callable[[], None] | None = None) -> int:
    """Play the table's open game to its end; returns the number of inputs made. ``between``
    is called after each input (the demo sends its correction from there)."""

    def key(k: str) -> None:
        table.feed(RawInput("key", k, True, clock.now()))

    made = 0
    while made < MAX_INPUTS:
        game = table.game
        if game is None or game.over:
            if game is not None and game.outcome is not None:
                # A game that ended by time (a glass out, no move left) has no record of its
                # end: the players' note puts one after it, so the journal alone decides it.
                table.note(f"game over: {game.outcome.winner} ({game.outcome.reason}); "
                           "the players agree")
            return made
        player = game.turn
        window = next((w for w in game.windows if not w.dropped), None)
        if window is not None and window.move.player != player and rng.random() < 0.7:
            key("A" if window.move.player == "red" else "B")
        else:
            glasses = game.movable(player)
            if not glasses:
                for k in "0#":
                    key(k)
            else:
                glass = rng.choice(glasses)
                to = rng.choice(game.destinations(glass))
                for k in f"{glass[1]}{COLUMNS.index(to[0]) + 1}{to[1:]}#":
                    key(k)
        made += 1
        clock.advance(rng.uniform(20.0, 75.0))
        table.poll()
        if between is not None:
            between()
    return made
