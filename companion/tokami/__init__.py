"""Tokami scoring: a pure engine (standard library only: no clock, no I/O).

Modules: :mod:`~companion.tokami.setup` (players, blocks, rounds), :mod:`~companion.tokami.turns`
(the five ways a turn ends, and their journal events), :mod:`~companion.tokami.game` (the rules and
the score), :mod:`~companion.tokami.entry` (the keypad dialogue), :mod:`~companion.tokami.simulate`
(``companion simulate`` for Tokami scenarios).

>>> from companion.tokami import Game, Setup, Turn
>>> game = Game(Setup(("Anna", "Ben")))
>>> game.play(Turn.moved("blue", bonus="green"))
>>> game.standings()
[('Anna', 1), ('Ben', 0)]
"""

from companion.tokami.game import Game, Hand, IllegalTurn, Played
from companion.tokami.setup import DEFAULT_BLOCKS, Setup
from companion.tokami.turns import Outcome, Turn

__all__ = [
    "DEFAULT_BLOCKS",
    "Game",
    "Hand",
    "IllegalTurn",
    "Outcome",
    "Played",
    "Setup",
    "Turn",
]
