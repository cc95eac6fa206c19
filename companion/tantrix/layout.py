"""A free table of Tantrix tiles for the solo modes (Solitaire, Rainbow, Gobble).

These modes keep only two rules of Strategy: every touching pair of sides matches (the golden
rule) and a new tile touches the table (the first goes anywhere); Gobble asks two neighbours.
There are no turns, no restrictions and tiles may be taken back, so a plain mapping of cells is
enough; the band walk that scores lines and loops is the engine's own
(:func:`companion.tantrix.scoring.score_all`).
"""

from __future__ import annotations

from companion.tantrix.game import (
    GOLDEN_RULE,
    NOT_TOUCHING,
    OCCUPIED,
    TILE_ALREADY_PLACED,
    IllegalPlacement,
    Placement,
)
from companion.tantrix.geometry import STEP, Cell, key
from companion.tantrix.scoring import Score, score_all
from companion.tantrix.tiles import COLOURS, SIDE_NAMES, TILES


def _where(c: Cell) -> str:
    return f"({c[0]}, {c[1]})"


class Layout:
    """Tiles on cells, in the order they were laid.

    >>> t = Layout()
    >>> t.lay(Placement(1, 0, 0, 0))
    >>> t.neighbours((1, 0))
    1
    """

    def __init__(self) -> None:
        self._cells: dict[Cell, Placement] = {}
        self._tiles: dict[int, Placement] = {}

    # ------------------------------------------------------------------ reading

    @property
    def placed(self) -> int:
        return len(self._cells)

    @property
    def placements(self) -> list[Placement]:
        """The tiles on the table in the order they were laid."""
        return list(self._tiles.values())

    def where_is(self, tile: int) -> Cell | None:
        p = self._tiles.get(tile)
        return None if p is None else p.cell

    def neighbours(self, c: Cell) -> int:
        """How many tiles touch cell ``c``."""
        return sum((c[0] + dq, c[1] + dr) in self._cells for dq, dr in STEP)

    def frontier(self) -> list[Cell]:
        """Empty cells touching a tile, sorted."""
        out = {
            (c[0] + dq, c[1] + dr)
            for c in self._cells
            for dq, dr in STEP
            if (c[0] + dq, c[1] + dr) not in self._cells
        }
        return sorted(out)

    def forced_spaces(self) -> list[Cell]:
        """Empty cells with three or more neighbouring tiles, sorted."""
        return [c for c in self.frontier() if self.neighbours(c) >= 3]

    def side(self, c: Cell, s: int) -> str | None:
        p = self._cells.get(c)
        return None if p is None else TILES[p.tile].sides(p.rot)[s]

    def clash(self, p: Placement) -> str | None:
        """Why ``p`` breaks the golden rule (None: every touching side matches)."""
        mine = TILES[p.tile].sides(p.rot)
        for s, (dq, dr) in enumerate(STEP):
            other = self._cells.get((p.q + dq, p.r + dr))
            if other is None:
                continue
            theirs = TILES[other.tile].sides(other.rot)[(s + 3) % 6]
            if theirs != mine[s]:
                return (
                    f"side {SIDE_NAMES[s]} of tile {p.tile} is {mine[s]} but tile {other.tile} "
                    f"there shows {theirs}"
                )
        return None

    def fits(self, tile: int, c: Cell, *, touching: int = 1) -> list[int]:
        """The rotations in which ``tile`` may go on empty cell ``c`` (golden rule, at least
        ``touching`` neighbours; the first tile anywhere)."""
        if c in self._cells or (self._cells and self.neighbours(c) < touching):
            return []
        return [rot for rot in range(6) if self.clash(Placement(tile, c[0], c[1], rot)) is None]

    def spots(self, tile: int, *, touching: int = 1) -> list[Placement]:
        """Every legal placement of ``tile`` (on (0, 0) when the table is empty)."""
        cells = self.frontier() if self._cells else [(0, 0)]
        return [Placement(tile, c[0], c[1], rot) for c in cells for rot in self.fits(tile, c,
                touching=touching)]

    def scores(self) -> dict[str, Score]:
        """Each colour's longest line and largest loop."""
        every = score_all({key(p.q, p.r): p.tile * 6 + p.rot for p in self._cells.values()})
        return {c: every[i] for i, c in enumerate(COLOURS)}

    def showing(self, colour: str) -> int:
        """Tiles on the table that carry ``colour``."""
        return sum(colour in TILES[p.tile].edges for p in self._cells.values())

    # ------------------------------------------------------------------ changing

    def check(self, p: Placement, *, touching: int = 1) -> None:
        """Raise :class:`IllegalPlacement` unless ``p`` may be laid now."""
        at = self.where_is(p.tile)
        if at is not None:
            where = _where(at)
            raise IllegalPlacement(TILE_ALREADY_PLACED, f"tile {p.tile} already lies at {where}")
        if p.cell in self._cells:
            other = self._cells[p.cell].tile
            raise IllegalPlacement(OCCUPIED, f"{_where(p.cell)} already holds tile {other}")
        if self._cells and self.neighbours(p.cell) < touching:
            what = "touches no tile" if touching == 1 else f"touches fewer than {touching} tiles"
            raise IllegalPlacement(NOT_TOUCHING, f"{_where(p.cell)} {what}")
        why = self.clash(p)
        if why is not None:
            raise IllegalPlacement(GOLDEN_RULE, why)

    def lay(self, p: Placement, *, touching: int = 1) -> None:
        self.check(p, touching=touching)
        self._cells[p.cell] = p
        self._tiles[p.tile] = p

    def lift(self, tile: int) -> Placement:
        """Take ``tile`` off the table (KeyError when it is not there)."""
        p = self._tiles.pop(tile)
        del self._cells[p.cell]
        return p
