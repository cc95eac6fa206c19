"""An independent loop search over raw tile letters, adapted from the shared tile-data checker.

Given tiles 1..n it lays them so that one colour makes a closed loop through every tile, every
touching pair of sides matching. It never uses the engine: the tile tests use it to check the
data against published Discovery solution counts, and the puzzle tests use its layouts as known
solutions.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.tantrix.tiles import TILES

STEP = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))
Cell = tuple[int, int]
Sides = tuple[str, ...]


def letters(number: int) -> Sides:
    """Tile ``number`` at rotation 0 as letters NE..NW."""
    return tuple(TILES[number].letters(0))


def rotate(tile: Sides, k: int) -> Sides:
    """Turned k sixths clockwise: side i shows what side i-k showed."""
    return tuple(tile[(i - k) % 6] for i in range(6))


def ends(tile: Sides, colour: str) -> list[int]:
    return [i for i in range(6) if tile[i] == colour]


def _step(cell: Cell, side: int) -> Cell:
    return (cell[0] + STEP[side][0], cell[1] + STEP[side][1])


def _hex_distance(a: Cell, b: Cell) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def has_hole(cells: set[Cell]) -> bool:
    """True if some empty cell is enclosed by the placed cells."""
    qs = [c[0] for c in cells]
    rs = [c[1] for c in cells]
    lo_q, hi_q, lo_r, hi_r = min(qs) - 1, max(qs) + 1, min(rs) - 1, max(rs) + 1
    start = (lo_q, lo_r)
    seen = {start}
    stack = [start]
    while stack:
        cur = stack.pop()
        for side in range(6):
            n = _step(cur, side)
            if lo_q <= n[0] <= hi_q and lo_r <= n[1] <= hi_r and n not in cells and n not in seen:
                seen.add(n)
                stack.append(n)
    return len(seen) + len(cells) != (hi_q - lo_q + 1) * (hi_r - lo_r + 1)


def find_loops(
    tiles: Sequence[Sides], colour: str, *, forbid_holes: bool = True, first_only: bool = True
) -> list[dict[Cell, tuple[int, Sides]]]:
    """Layouts where ``colour`` makes one loop through all tiles (first tile fixed at (0, 0) in
    its given orientation, so each layout is found once up to turning the whole table).
    Each layout maps a cell to (index into ``tiles``, rotated sides)."""
    n = len(tiles)
    found: list[dict[Cell, tuple[int, Sides]]] = []
    if n < 2 or any(colour not in t for t in tiles):
        return found
    origin = (0, 0)
    first = tuple(tiles[0])
    a, b = ends(first, colour)
    board: dict[Cell, Sides] = {origin: first}
    owner = {origin: 0}
    used = [False] * n
    used[0] = True

    def dfs(cell: Cell, entry: int, placed: int) -> bool:
        remaining_after = n - placed - 1
        for i in range(n):
            if used[i]:
                continue
            for j in ends(tiles[i], colour):
                rt = rotate(tiles[i], entry - j)
                if any(
                    _step(cell, s) in board and board[_step(cell, s)][(s + 3) % 6] != rt[s]
                    for s in range(6)
                ):
                    continue
                x, y = ends(rt, colour)
                exit_ = y if x == entry else x
                nxt = _step(cell, exit_)
                if remaining_after == 0:
                    if nxt != origin or (exit_ + 3) % 6 != a:
                        continue
                    board[cell] = rt
                    owner[cell] = i
                    if not (forbid_holes and has_hole(set(board))):
                        found.append({c: (owner[c], board[c]) for c in board})
                        if first_only:
                            return True
                    del board[cell], owner[cell]
                    continue
                if nxt in board or _hex_distance(nxt, origin) > remaining_after:
                    continue
                board[cell] = rt
                owner[cell] = i
                used[i] = True
                if dfs(nxt, (exit_ + 3) % 6, placed + 1):
                    return True
                used[i] = False
                del board[cell], owner[cell]
        return False

    dfs(_step(origin, b), (b + 3) % 6, 1)
    return found
