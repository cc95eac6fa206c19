"""The 56 Tantrix tiles, read once from the package data ``tiles.json``.

A tile is seen from its printed face as a pointy-topped hexagon. ``edges[i]`` is the colour of
side ``i``, sides clockwise from the upper right: 0 NE, 1 E, 2 SE, 3 SW, 4 W, 5 NW. A tile laid
with rotation ``k`` (0..5) is turned ``k`` sixths clockwise, so side ``s`` then shows
``edges[(s - k) % 6]`` (the scenario contract fixes this).

Besides the readable :class:`Tile` objects this module builds flat lookup tables indexed by a
*code* ``tile * 6 + rot``: the engine asks "what colour faces side s" tens of thousands of times
per game, and a tuple index is far cheaper than recomputing a rotation each time.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

#: The four path colours, in the index order the lookup tables use.
COLOURS: tuple[str, ...] = ("red", "yellow", "green", "blue")
#: One letter per colour, as in ``tiles.json`` and in compact text output.
LETTERS: dict[str, str] = {"red": "R", "yellow": "Y", "green": "G", "blue": "B"}
#: Side names, index = side number.
SIDE_NAMES: tuple[str, ...] = ("NE", "E", "SE", "SW", "W", "NW")
TILE_COUNT = 56


@dataclass(frozen=True)
class Tile:
    """One physical tile: its number (printed on the back), side colours and back colour."""

    number: int
    edges: tuple[str, ...]
    back: str

    def sides(self, rot: int = 0) -> tuple[str, ...]:
        """The colours of sides NE..NW once the tile is turned ``rot`` sixths clockwise."""
        return tuple(self.edges[(s - rot) % 6] for s in range(6))

    @property
    def colours(self) -> frozenset[str]:
        """The three colours on this tile (every tile lacks exactly one of the four)."""
        return frozenset(self.edges)

    def letters(self, rot: int = 0) -> str:
        """The sides NE..NW as letters, e.g. ``"RBYYBR"``: handy in text and tests."""
        return "".join(LETTERS[c] for c in self.sides(rot))


def _load() -> dict[int, Tile]:
    raw: dict[str, Any] = json.loads(
        resources.files("companion.tantrix").joinpath("tiles.json").read_text(encoding="utf-8")
    )
    names: dict[str, str] = raw["colours"]
    tiles: dict[int, Tile] = {}
    for entry in raw["tiles"]:
        number = int(entry["number"])
        tiles[number] = Tile(number, tuple(names[e] for e in entry["edges"]), str(entry["back"]))
    return tiles


#: Tile number (1..56) -> :class:`Tile`.
TILES: dict[int, Tile] = _load()


def tile(number: int) -> Tile:
    """The tile with this number; ``KeyError`` names the valid range otherwise."""
    try:
        return TILES[number]
    except KeyError:
        raise KeyError(f"there is no tile {number!r}: tiles are numbered 1 to 56") from None


# ---------------------------------------------------------------------------- lookup tables
# Every table is indexed by code = number * 6 + rot; codes 0..5 are unused padding.

CODES = range(6, (TILE_COUNT + 1) * 6)
_COLOUR_INDEX = {c: i for i, c in enumerate(COLOURS)}


def code_of(number: int, rot: int) -> int:
    """The table index of tile ``number`` turned ``rot`` sixths."""
    return number * 6 + rot


def _side_colours(code: int) -> tuple[int, ...]:
    if code < 6:
        return (0,) * 6
    t = TILES[code // 6]
    return tuple(_COLOUR_INDEX[c] for c in t.sides(code % 6))


#: SIDE_COLOUR[code][s]: colour index shown on side s.
SIDE_COLOUR: tuple[tuple[int, ...], ...] = tuple(
    _side_colours(code) for code in range((TILE_COUNT + 1) * 6)
)

#: EDGE_BITS[code]: the six side colours packed two bits each (side s at bit 2s), so a whole
#: golden-rule test is one ``(bits & mask) == value``.
EDGE_BITS: tuple[int, ...] = tuple(
    sum(col << (2 * s) for s, col in enumerate(cols)) for cols in SIDE_COLOUR
)


def _partner(code: int) -> tuple[int, ...]:
    cols = SIDE_COLOUR[code]
    if code < 6:
        return (0,) * 6
    return tuple(next(o for o in range(6) if o != s and cols[o] == cols[s]) for s in range(6))


#: PARTNER[code][s]: the other side joined to side s by the same coloured band.
PARTNER: tuple[tuple[int, ...], ...] = tuple(_partner(code) for code in range((TILE_COUNT + 1) * 6))

#: EXIT[code][s]: a band walked *into* this tile by moving across side s of the previous tile
#: (so it enters on side s + 3) leaves on this side.
EXIT: tuple[tuple[int, ...], ...] = tuple(tuple(p[(s + 3) % 6] for s in range(6)) for p in PARTNER)


def _ends(code: int) -> tuple[tuple[int, int] | None, ...]:
    if code < 6:
        return (None,) * 4
    cols = SIDE_COLOUR[code]
    out: list[tuple[int, int] | None] = []
    for c in range(4):
        sides = [s for s in range(6) if cols[s] == c]
        out.append((sides[0], sides[1]) if sides else None)
    return tuple(out)


#: ENDS[code][colour]: the two sides of the band of that colour, or None if the tile lacks it.
ENDS: tuple[tuple[tuple[int, int] | None, ...], ...] = tuple(
    _ends(code) for code in range((TILE_COUNT + 1) * 6)
)
