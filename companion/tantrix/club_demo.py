"""A Tantrix table's players for ``companion tournament demo``: a random legal game, to its end.

The game is drawn by :func:`companion.tantrix.autoplay.random_game` (seeded, so an evening is
reproducible) and each of its events goes through the open table exactly as a confirmed keypad
placement does: journaled first (published from there), then applied, the keypad's twin kept
in step. A game that gets stuck before the table is full is ended (the ``end`` event): the score
as it stands decides it, as the arbiter's stop does.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from companion.tantrix.autoplay import random_game
from companion.tantrix.simulate import apply_event
from companion.tantrix.table import TantrixTable

#: The arbiter's correction the demo sends this game once, mid-game (``tournament demo``).
DEMO_CORRECTION = {"what": "take-back", "reason": "demo: the last tile was typed wrong"}


def play(table: TantrixTable, clock: Any, rng: random.Random,
         between: Callable[[], None] | None = None) -> int:
    """Play the table's open game to its end; returns the number of records written.
    ``between`` is called after each record (the demo's arbiter acts from there)."""
    game = table.game
    if game is None:
        raise ValueError("no game is open at this table")
    drawn = random_game(rng, list(game.players))
    events: list[dict[str, Any]] = [dict(e) for e in drawn.events]
    if not drawn.game.is_over:
        events.append({"ev": "end"})
    for event in events:
        clock.advance(rng.uniform(2.0, 12.0))
        table._record(event)
        if event["ev"] == "end":
            table.ended = True
        else:
            refused = apply_event(game, event)
            if refused is not None:
                raise ValueError(f"the demo's game was refused: {refused}")
        if between is not None:
            between()
    table._resync()
    table._final_if_over()  # as after a key: a finished game's journal ends with its final record
    return len(events)
