"""Tantrix Strategy: a pure rules engine (standard library only, no clock, no I/O).

* :mod:`.tiles`: the 56 tiles from the package data, and lookup tables per rotation;
* :mod:`.geometry`: axial coordinates and the contract's directions;
* :mod:`.game`: :class:`Game`, :class:`Placement`, :class:`IllegalPlacement`;
* :mod:`.scoring`: lines and loops;
* :mod:`.simulate`: scenarios and journals for ``companion simulate``;
* :mod:`.entry`: the keypad dialogue as a state machine;
* :mod:`.autoplay`: random legal games for tests, benchmarks and demos.
"""

from companion.tantrix.game import Game, IllegalPlacement, Placement
from companion.tantrix.scoring import Score
from companion.tantrix.tiles import COLOURS, TILES, Tile

__all__ = ["COLOURS", "TILES", "Game", "IllegalPlacement", "Placement", "Score", "Tile"]
