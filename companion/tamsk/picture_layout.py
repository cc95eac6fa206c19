"""Where things go in a Tamsk picture: one geometry shared by the PNG and the SVG drawings.

The 37 spaces sit on a regular hexagonal lattice: each column of the board is a vertical line
of spaces, and the neighbour relation of :mod:`companion.tamsk.board` (``(i, y)`` next to
``(i, y+-1)``, ``(i+-1, y)``, ``(i+1, y+1)``, ``(i-1, y-1)``) puts every space at the same
distance from its six neighbours when column ``i`` is drawn at ``x = i * STEP * sqrt(3)/2``
and lattice row ``y`` at height ``(y - i/2) * STEP``.
"""

from __future__ import annotations

import math
from functools import cache

from companion.tamsk.board import COLUMNS, CORNERS, SPACES, coordinates

WIDTH, HEIGHT = 760, 540
#: Distance between the centres of two neighbouring spaces, and a space's radius.
STEP = 64
RADIUS = 26
CENTRE_X, CENTRE_Y = 236, 262
#: The side panel: its left edge and width.
PANEL_X = 474
PANEL_W = WIDTH - PANEL_X - 12
#: A glass: its disc radius and how far above the space's centre it sits.
GLASS_R = 15
GLASS_DY = -4
#: Ring pips: radius, spacing, and their row below the space's centre.
PIP_R = 3
PIP_GAP = 9
PIP_DY = 18


@cache
def centre(space: str) -> tuple[int, int]:
    """The pixel centre of a space."""
    i, y = coordinates(space)
    x = CENTRE_X + (i - 3) * STEP * math.sqrt(3) / 2
    h = y - i / 2 - 2.5
    return round(x), round(CENTRE_Y - h * STEP)


@cache
def pips(space: str, capacity: int) -> tuple[tuple[int, int], ...]:
    """Centres of the ``capacity`` ring pips of a space, left to right."""
    x, y = centre(space)
    left = x - (capacity - 1) * PIP_GAP // 2
    return tuple((left + k * PIP_GAP, y + PIP_DY) for k in range(capacity))


@cache
def plate() -> tuple[tuple[int, int], ...]:
    """The board's hexagonal plate: the six corner spaces pushed outwards."""
    out = []
    for space in CORNERS:
        x, y = centre(space)
        dx, dy = x - CENTRE_X, y - CENTRE_Y
        d = math.hypot(dx, dy) or 1.0
        grow = RADIUS + 16
        out.append((round(x + dx / d * grow), round(y + dy / d * grow)))
    return tuple(out)


@cache
def column_labels() -> tuple[tuple[str, int, int], ...]:
    """Each column letter under the lowest space of its column."""
    out = []
    for letter in COLUMNS:
        x, y = centre(f"{letter}1")
        out.append((letter, x, y + RADIUS + 12))
    return tuple(out)


ALL_SPACES = SPACES
