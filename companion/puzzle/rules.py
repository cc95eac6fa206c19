"""The Discovery solo puzzle: tiles 1..N must form one loop of the colour on tile N's back.

Rule book ("Discovery puzzle", tiles 1 to 30): make a yellow loop with tiles 1, 2 and 3, break it,
add tile 4 and make a red loop, and so on; "la couleur du dos de chaque nouvelle tuile utilisée
indique la couleur de la boucle à réaliser" (the colour of the number on the back of the newest
tile gives the loop's colour). Touching sides must match (the golden rule); the loop may take any
shape. The back colours come from the package's ``tiles.json`` (field ``back``; its sources are
listed in that file's ``source_notes``), and agree with the rule book's table for 3..10: yellow,
red, red, blue, blue, blue, yellow, red.

Unlike Tantrix Strategy, a puzzle layout is rearranged freely, so :class:`DiscoveryPuzzle` lets a
tile be laid, moved and lifted in any order, and :func:`check_discovery` judges a whole layout.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from companion.tantrix.game import Placement
from companion.tantrix.geometry import STEP_KEY, Cell, cell, key
from companion.tantrix.scoring import score_all
from companion.tantrix.tiles import COLOURS, SIDE_COLOUR, SIDE_NAMES, TILES

#: The rule book's Discovery series runs from 3 to 30 tiles.
SMALLEST, LARGEST = 3, 30


def discovery_colour(n: int) -> str:
    """The loop colour of the Discovery puzzle with tiles 1..n: tile n's back colour."""
    if not SMALLEST <= n <= LARGEST:
        raise ValueError(f"the Discovery puzzles use tiles 1 to N with N from 3 to 30, got {n}")
    return TILES[n].back


@dataclass(frozen=True)
class Verdict:
    """Whether a layout solves the puzzle, and if not, every reason why not."""

    n: int
    colour: str
    solved: bool
    loop: int  # tiles in the largest loop of the colour (0 when the golden rule fails)
    problems: tuple[str, ...]


def check_discovery(n: int, layout: Iterable[Placement]) -> Verdict:
    """Judge a Discovery layout: exactly tiles 1..n on distinct cells, every touching pair of
    sides matching, and the colour of tile n's back making one loop through all n tiles."""
    colour = discovery_colour(n)
    problems: list[str] = []
    board: dict[int, int] = {}
    numbers: dict[int, Cell] = {}
    for p in layout:
        k = key(p.q, p.r)
        if p.tile in numbers:
            problems.append(f"tile {p.tile} is laid twice")
            continue
        if k in board:
            problems.append(f"tiles {board[k] // 6} and {p.tile} share cell ({p.q}, {p.r})")
            continue
        numbers[p.tile] = p.cell
        board[k] = p.tile * 6 + p.rot
    extra = sorted(t for t in numbers if t > n)
    if extra:
        problems.append("not part of this puzzle: tiles " + ", ".join(map(str, extra)))
    missing = [t for t in range(1, n + 1) if t not in numbers]
    if missing:
        problems.append(("missing: tile " if len(missing) == 1 else "missing: tiles ")
                        + ", ".join(map(str, missing)))
    mismatches = _mismatches(board)
    problems += mismatches
    loop = 0
    if not mismatches:  # the band walk assumes matching sides
        loop = score_all(board)[COLOURS.index(colour)].loop
        if loop != n:
            problems.append(
                f"the {colour} bands make no loop through all {n} tiles"
                + (f" (largest {colour} loop: {loop})" if loop else "")
            )
    return Verdict(n, colour, not problems, loop, tuple(problems))


def _mismatches(board: dict[int, int]) -> list[str]:
    out = []
    for k, code in board.items():
        for s in range(3):  # each touching pair once: look NE, E and SE only
            other = board.get(k + STEP_KEY[s])
            if other is None:
                continue
            mine, theirs = SIDE_COLOUR[code][s], SIDE_COLOUR[other][(s + 3) % 6]
            if mine != theirs:
                q, r = cell(k)
                out.append(
                    f"golden rule: side {SIDE_NAMES[s]} of tile {code // 6} at ({q}, {r}) is "
                    f"{COLOURS[mine]} but tile {other // 6} shows {COLOURS[theirs]}"
                )
    return out


class DiscoveryPuzzle:
    """A Discovery layout being built at the table, one tile at a time.

    >>> puzzle = DiscoveryPuzzle(3)
    >>> puzzle.colour
    'yellow'
    >>> puzzle.lay(Placement(1, 0, 0, 0)); puzzle.verdict().solved
    False
    """

    def __init__(self, n: int) -> None:
        self.colour = discovery_colour(n)
        self.n = n
        self._layout: dict[int, Placement] = {}

    def lay(self, placement: Placement) -> None:
        """Lay (or move, or turn) a tile. Raises ValueError for a tile outside 1..n or a cell
        another tile holds: in a puzzle that is a slip of the finger, not a move."""
        if not 1 <= placement.tile <= self.n:
            raise ValueError(f"this puzzle uses tiles 1 to {self.n}, not {placement.tile}")
        for other in self._layout.values():
            if other.cell == placement.cell and other.tile != placement.tile:
                raise ValueError(
                    f"tile {other.tile} already lies at ({placement.q}, {placement.r})"
                )
        self._layout[placement.tile] = placement

    def lift(self, tile: int) -> None:
        """Take a tile off the table (KeyError if it is not there)."""
        del self._layout[tile]

    @property
    def layout(self) -> list[Placement]:
        return sorted(self._layout.values())

    def verdict(self) -> Verdict:
        return check_discovery(self.n, self._layout.values())
