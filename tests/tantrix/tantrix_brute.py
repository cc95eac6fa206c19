"""Slow, obviously correct recounts, written without the engine's tables or walks.

They work on a plain ``{(q, r): (tile, rot)}`` board and read the tile sides from the package's
``tiles.json`` directly, so a bug in the engine's packed keys, bit masks or band walks cannot
hide behind the same bug here.
"""

from __future__ import annotations

import json
from importlib import resources

STEP = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))
NAMES = {"R": "red", "Y": "yellow", "G": "green", "B": "blue"}

_raw = json.loads(resources.files("companion.tantrix").joinpath("tiles.json").read_text())
EDGES = {t["number"]: [NAMES[e] for e in t["edges"]] for t in _raw["tiles"]}

Board = dict[tuple[int, int], tuple[int, int]]


def side(board: Board, cell: tuple[int, int], s: int) -> str:
    tile, rot = board[cell]
    return EDGES[tile][(s - rot) % 6]


def neighbours(cell: tuple[int, int]) -> list[tuple[int, int]]:
    return [(cell[0] + dq, cell[1] + dr) for dq, dr in STEP]


def forced(board: Board) -> list[tuple[int, int]]:
    """Every empty cell with three or more tiles around it."""
    empty = {n for c in board for n in neighbours(c) if n not in board}
    return sorted(c for c in empty if sum(n in board for n in neighbours(c)) >= 3)


def golden_ok(board: Board) -> bool:
    return all(
        side(board, c, s) == side(board, n, (s + 3) % 6)
        for c in board
        for s, n in enumerate(neighbours(c))
        if n in board
    )


def scores(board: Board, colour: str) -> tuple[int, int]:
    """(longest line, largest loop) of a colour, by union-find over band half-edges.

    Every band of the colour is a node; two bands are joined when their tiles touch on a side
    the band uses. A component is a loop when it has as many joins as bands.
    """
    nodes = [c for c in board if colour in EDGES[board[c][0]]]
    parent = {c: c for c in nodes}

    def find(x: tuple[int, int]) -> tuple[int, int]:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    joins: dict[tuple[int, int], int] = {}
    links = []
    for c in nodes:
        for s, n in enumerate(neighbours(c)):
            if n in board and side(board, c, s) == colour and c < n:
                links.append((c, n))
    for a, b in links:
        parent[find(a)] = find(b)
    size: dict[tuple[int, int], int] = {}
    for c in nodes:
        size[find(c)] = size.get(find(c), 0) + 1
    for a, _ in links:
        joins[find(a)] = joins.get(find(a), 0) + 1
    line = loop = 0
    for root, count in size.items():
        if joins.get(root, 0) == count and count >= 3:
            loop = max(loop, count)
        else:
            line = max(line, count)
    return line, loop


# The controlled-cell walk, typed from the contract's pseudo-code.
D = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def controlled(board: Board) -> list[tuple[int, int]]:
    """for each forced space A, each i in 0..5, each s in (+1, -1): S = A; repeat: S = S + D[i];
    stop if S holds a tile or S + D[i + 2s] holds no tile; S is controlled; stop if
    S + D[i + s] holds no tile."""

    def add(a: tuple[int, int], d: tuple[int, int]) -> tuple[int, int]:
        return (a[0] + d[0], a[1] + d[1])

    out = set()
    for a in forced(board):
        for i in range(6):
            for s in (1, -1):
                cell = a
                while True:
                    cell = add(cell, D[i])
                    if cell in board or add(cell, D[(i + 2 * s) % 6]) not in board:
                        break
                    out.add(cell)
                    if add(cell, D[(i + s) % 6]) not in board:
                        break
    return sorted(out)


def refusal(
    board: Board, tile: int, cell: tuple[int, int], rot: int, *, players: int, free_used: bool
) -> str | None:
    """Why the rules refuse laying ``tile`` turned ``rot`` on ``cell`` (None: they accept it).
    Checks in the engine's order so the first broken rule is named the same way."""
    if len(board) == 56:
        return "game over"
    if any(t == tile for t, _ in board.values()):
        return "tile already placed"
    if cell in board:
        return "occupied"
    if board and not any(n in board for n in neighbours(cell)):
        return "not touching"
    spaces = forced(board)
    if free_used and cell not in spaces:
        return "second free move"
    after = dict(board)
    after[cell] = (tile, rot)
    for s, n in enumerate(neighbours(cell)):
        if n in board and side(after, cell, s) != side(board, n, (s + 3) % 6):
            return "golden rule"
    if 56 - 6 * players - len(board) <= 0:
        return None
    for space in forced(after):
        facing = [
            side(after, n, (s + 3) % 6) for s, n in enumerate(neighbours(space)) if n in after
        ]
        if any(facing.count(c) >= 3 for c in set(facing)):
            return "restriction 1"
    if any(n in spaces for n in neighbours(cell)):
        return "restriction 2"
    if cell in controlled(board):
        return "restriction 3"
    return None
