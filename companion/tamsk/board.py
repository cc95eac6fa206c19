"""The Tamsk board: 37 spaces (tubes) named like ZERTZ's 37-ring board, their capacities and
neighbours.

Columns a..g hold 4, 5, 6, 7, 6, 5, 4 spaces, rows counted from the bottom. With column index
``i`` (a=0) and ``y = row + max(0, i - 3)``, the neighbours of ``(i, y)`` are ``(i, y +- 1)``,
``(i +- 1, y)``, ``(i + 1, y + 1)`` and ``(i - 1, y - 1)``.
"""

from __future__ import annotations

from collections.abc import Mapping

COLUMNS = "abcdefg"
COLUMN_HEIGHTS = (4, 5, 6, 7, 6, 5, 4)
CENTRE = "d4"

#: Every space, column by column, bottom to top.
SPACES: tuple[str, ...] = tuple(
    f"{col}{row}"
    for col, height in zip(COLUMNS, COLUMN_HEIGHTS, strict=True)
    for row in range(1, height + 1)
)

_CAPACITY_4 = {"d4"}
_CAPACITY_3 = {"c3", "c4", "d3", "d5", "e3", "e4"}
_CAPACITY_2 = {"b2", "b3", "b4", "c2", "c5", "d2", "d6", "e2", "e5", "f2", "f3", "f4"}


def _capacity(space: str) -> int:
    if space in _CAPACITY_4:
        return 4
    if space in _CAPACITY_3:
        return 3
    if space in _CAPACITY_2:
        return 2
    return 1


#: How many rings each space holds before it is full (the height of its tube).
CAPACITY: Mapping[str, int] = {space: _capacity(space) for space in SPACES}

#: The rings in the game: exactly enough to fill every tube.
TOTAL_RINGS = sum(CAPACITY.values())
RINGS_PER_PLAYER = TOTAL_RINGS // 2


def coordinates(space: str) -> tuple[int, int]:
    """The ``(i, y)`` lattice coordinates of a space."""
    i = COLUMNS.index(space[0])
    return i, int(space[1:]) + max(0, i - 3)


_BY_COORDINATES = {coordinates(space): space for space in SPACES}
_STEPS = ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1))

#: The neighbours of every space.
NEIGHBOURS: Mapping[str, frozenset[str]] = {
    space: frozenset(
        _BY_COORDINATES[(i + di, y + dy)]
        for di, dy in _STEPS
        if (i + di, y + dy) in _BY_COORDINATES
    )
    for space in SPACES
    for i, y in [coordinates(space)]
}

#: The six corners, where the hourglasses stand at the standard start.
CORNERS = ("a1", "a4", "d7", "g4", "g1", "d1")

#: The standard start: the colours alternate around the corners.
STANDARD_START: Mapping[str, str] = {
    "r1": "a1",
    "r2": "d7",
    "r3": "g1",
    "b1": "d1",
    "b2": "g4",
    "b3": "a4",
}


def is_space(name: object) -> bool:
    return isinstance(name, str) and name in CAPACITY


def are_adjacent(a: str, b: str) -> bool:
    return b in NEIGHBOURS[a]
