"""Which tiles make each player's best line or loop, so a picture can trace it.

The engine's :mod:`companion.tantrix.scoring` counts lines and loops (that is all the rules
need); a picture also needs to know *which* tiles they are. This walks the same coloured bands
(the tile tables of :mod:`companion.tantrix.tiles`) and returns the cells in path order. The
tests check that every chain found here has exactly the length the engine scores.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from companion.tantrix.geometry import STEP, Cell
from companion.tantrix.tiles import COLOURS, ENDS, PARTNER, code_of


def board_of(tiles: Iterable[Mapping[str, Any]]) -> dict[Cell, int]:
    """Cells to tile codes from the state's ``tiles`` list (``tile``, ``q``, ``r``, ``rot``)."""
    return {(int(t["q"]), int(t["r"])): code_of(int(t["tile"]), int(t["rot"])) for t in tiles}


def band(code: int, colour: str) -> tuple[int, int] | None:
    """The two sides joined by the band of ``colour`` on a tile, or None if it has none."""
    return ENDS[code][COLOURS.index(colour)]


def chains(board: Mapping[Cell, int], colour: str) -> list[tuple[str, list[Cell]]]:
    """Every chain of ``colour`` on the board as ``("line" | "loop", cells in path order)``,
    found from the cells in sorted order (so the result never depends on dict order)."""
    ci = COLOURS.index(colour)
    seen: set[Cell] = set()
    out: list[tuple[str, list[Cell]]] = []
    for start in sorted(board):
        ends = ENDS[board[start]][ci]
        if ends is None or start in seen:
            continue
        seen.add(start)
        forward, closed = _walk(board, start, ends[0], seen)
        if closed:
            out.append(("loop", [start, *forward]))
            continue
        backward, _ = _walk(board, start, ends[1], seen)
        out.append(("line", [*reversed(backward), start, *forward]))
    return out


def _walk(
    board: Mapping[Cell, int], start: Cell, side: int, seen: set[Cell]
) -> tuple[list[Cell], bool]:
    """Follow a band out of ``start`` across ``side``: the cells met, and whether it came back
    to ``start`` (a loop)."""
    cells: list[Cell] = []
    here = start
    for _ in range(len(board) + 1):
        dq, dr = STEP[side]
        there = (here[0] + dq, here[1] + dr)
        code = board.get(there)
        if code is None:
            return cells, False
        if there == start:
            return cells, True
        seen.add(there)
        cells.append(there)
        side = PARTNER[code][(side + 3) % 6]
        here = there
    return cells, False  # pragma: no cover - a walk cannot visit more cells than the board has


def best(board: Mapping[Cell, int], colour: str) -> dict[str, Any]:
    """A player's scoring chain: his longest line or, when it scores at least as much, his
    largest loop (a loop scores two points a tile). ``kind`` is None on an empty board."""
    line: list[Cell] = []
    loop: list[Cell] = []
    for kind, cells in chains(board, colour):
        if kind == "line" and len(cells) > len(line):
            line = cells
        if kind == "loop" and len(cells) > len(loop):
            loop = cells
    if loop and 2 * len(loop) >= len(line):
        return {"kind": "loop", "cells": [list(c) for c in loop], "line": len(line),
                "loop": len(loop), "points": 2 * len(loop)}
    return {"kind": "line" if line else None, "cells": [list(c) for c in line],
            "line": len(line), "loop": len(loop), "points": len(line)}


def traced(tiles: Sequence[Mapping[str, Any]], players: Sequence[str]) -> dict[str, Any]:
    """Each player's scoring chain on the table described by the state's ``tiles``."""
    board = board_of(tiles)
    return {p: best(board, p) for p in players}
