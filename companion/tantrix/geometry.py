"""Axial hex coordinates, as fixed by the scenario contract.

A cell is ``(q, r)``. The neighbour across side ``i`` of a tile (sides clockwise from the upper
right: NE, E, SE, SW, W, NW) is ``(q, r) + STEP[i]``. The controlled-side walk of restriction 3
uses its own direction list ``CONTROL_DIRS`` (consecutive 60-degree directions, anticlockwise
from east), copied verbatim from the contract so the walk reads exactly like its pseudo-code.

Inside the engine a cell is packed into one ``int`` key (``q * SPAN + r``): dictionary look-ups on
small ints are several times cheaper than on tuples, and a neighbour is one addition.
"""

from __future__ import annotations

Cell = tuple[int, int]

#: Neighbour across side i (0 NE, 1 E, 2 SE, 3 SW, 4 W, 5 NW).
STEP: tuple[Cell, ...] = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))
#: The directions D of the controlled-side walk (indices taken mod 6).
CONTROL_DIRS: tuple[Cell, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

#: Coordinates must lie within +-LIMIT so that packed keys never collide.
LIMIT = 100_000
SPAN = 1 << 20

#: STEP and CONTROL_DIRS as key offsets.
STEP_KEY: tuple[int, ...] = tuple(dq * SPAN + dr for dq, dr in STEP)
CONTROL_KEY: tuple[int, ...] = tuple(dq * SPAN + dr for dq, dr in CONTROL_DIRS)


def key(q: int, r: int) -> int:
    """Pack a cell into its int key."""
    return q * SPAN + r


def cell(k: int) -> Cell:
    """Unpack an int key into ``(q, r)``."""
    q = (k + SPAN // 2) // SPAN
    return (q, k - q * SPAN)


def neighbour(c: Cell, side: int) -> Cell:
    """The cell across ``side`` of cell ``c``."""
    dq, dr = STEP[side]
    return (c[0] + dq, c[1] + dr)


def distance(a: Cell, b: Cell) -> int:
    """Hex distance (number of steps) between two cells."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def in_range(q: int, r: int) -> bool:
    """Whether a cell is inside the coordinate range the engine accepts."""
    return -LIMIT <= q <= LIMIT and -LIMIT <= r <= LIMIT
