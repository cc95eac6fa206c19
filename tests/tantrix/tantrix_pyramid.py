"""An independent search for the Rainbow pyramid puzzles (blue: rows 4-3-2-1, red: 5-4-3-2-1):
the tiles fill the triangle and one line of one colour runs through every tile. It walks the
line cell by cell over raw tile letters, never using the engine, so the puzzle tests can use
its layouts as known solutions."""

from __future__ import annotations

from collections.abc import Sequence

from tantrix_loops import ends, letters, rotate

STEP = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))
Cell = tuple[int, int]


def triangle(rows: int) -> set[Cell]:
    """Rows of rows, rows-1, ..., 1 cells: {q >= 0, r >= 0, q + r < rows}."""
    return {(q, r) for r in range(rows) for q in range(rows - r)}


def _step(c: Cell, s: int) -> Cell:
    return (c[0] + STEP[s][0], c[1] + STEP[s][1])


def find_line(numbers: Sequence[int], rows: int, colour: str) -> dict[Cell, tuple[int, int]]:
    """A layout {cell: (tile, rot)} of ``numbers`` on the triangle with one ``colour`` line
    (a letter: "R", "Y", "G", "B") through all of them; empty when there is none."""
    cells = triangle(rows)
    n = len(numbers)
    tiles = [letters(t) for t in numbers]
    board: dict[Cell, tuple[str, ...]] = {}
    owner: dict[Cell, tuple[int, int]] = {}
    used = [False] * n

    def fits(cell: Cell, sides: tuple[str, ...]) -> bool:
        return all(
            _step(cell, s) not in board or board[_step(cell, s)][(s + 3) % 6] == sides[s]
            for s in range(6)
        )

    def hopeless(nxt: Cell) -> bool:
        """The empty cells (with ``nxt``, where the line goes on) cannot all be visited by one
        path starting at ``nxt``: they fall apart, or more than one is a dead end."""
        empty = cells - set(board)
        seen, stack = {nxt}, [nxt]
        while stack:
            c = stack.pop()
            for s in range(6):
                n = _step(c, s)
                if n in empty and n not in seen:
                    seen.add(n)
                    stack.append(n)
        if len(seen) != len(empty):
            return True
        dead = sum(
            1 for c in empty if c != nxt and sum(_step(c, s) in empty for s in range(6)) <= 1
        )
        return dead > 1

    def dfs(cell: Cell, entry: int | None) -> bool:
        for i in range(n):
            if used[i]:
                continue
            for rot in range(6):
                sides = rotate(tiles[i], rot)
                a, b = ends(sides, colour)
                if entry is None:
                    options = [(a, b), (b, a)]
                elif entry in (a, b):
                    options = [(entry, b if entry == a else a)]
                else:
                    continue
                for into, out in options:
                    if entry is None and _step(cell, into) in cells:
                        continue  # the line's first end must leave the triangle
                    if not fits(cell, sides):
                        continue
                    board[cell], owner[cell], used[i] = sides, (numbers[i], rot), True
                    nxt = _step(cell, out)
                    if len(board) == n:
                        if nxt not in cells:
                            return True
                    elif (
                        nxt in cells
                        and nxt not in board
                        and not hopeless(nxt)
                        and dfs(nxt, (out + 3) % 6)
                    ):
                        return True
                    del board[cell], owner[cell]
                    used[i] = False
        return False

    for start in sorted(cells):
        if dfs(start, None):
            return dict(owner)
    return {}
