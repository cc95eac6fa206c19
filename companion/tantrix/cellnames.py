"""Cell names as the Tantrix screen's map shows the table: a row letter and a column number.

The engine names a cell by axial coordinates (``(2, -1)``), which no player can find on the
table. The screen draws the layout scaled to fit, so a cell is named on that picture: rows are
lettered from the top (``a`` is the row above the highest tile, since a tile may be laid
there), columns numbered from the left in hexagon widths (``1`` is the column left of the
leftmost tile), so ``c4`` is the third row from the top, fourth hexagon from the left. The
names follow the layout as it grows (a tile laid above the top row renames every row), which is
what a player reading the screen beside the table wants: the name of a spot on the board as it
lies now. Journals and the notation keep the engine's exact coordinates.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from string import ascii_lowercase
from typing import Any

Cell = tuple[int, int]

#: How the engine writes a cell in its refusals: ``(2, -1)``.
_ENGINE_CELL = re.compile(r"\((-?\d+), (-?\d+)\)")


@dataclass(frozen=True)
class CellNames:
    """The naming of one picture of the table: its top row and its left edge."""

    top: int = -1  # axial r of row "a"
    left: int = -2  # doubled column (2q + r) of column 1

    @classmethod
    def of(cls, cells: Iterable[Cell]) -> CellNames:
        """The naming for a layout of ``cells`` (the spots one ring around them included)."""
        cells = list(cells)
        if not cells:
            return cls()
        return cls(top=min(r for _q, r in cells) - 1,
                   left=min(2 * q + r for q, r in cells) - 2)

    @classmethod
    def of_view(cls, view: Mapping[str, Any]) -> CellNames:
        """The naming of the table a screen's ``view`` shows (its tiles and forced spaces)."""
        cells: list[Cell] = [(int(t["q"]), int(t["r"])) for t in view.get("tiles") or []]
        cells += [(int(q), int(r)) for q, r in view.get("forced") or []]
        return cls.of(cells)

    def name(self, q: int, r: int) -> str:
        """``c4``: the row's letter (``a``..``z``, then ``aa``...) and the column's number."""
        return self.row(r) + str(self.column(q, r))

    def row(self, r: int) -> str:
        """The letter of row ``r`` (``a`` the top row), as written down the map's edge."""
        return _letters(r - self.top)

    def column(self, q: int, r: int) -> int:
        """The number of the column cell ``(q, r)`` stands in (``1`` the leftmost)."""
        return (2 * q + r - self.left) // 2 + 1

    def column_middle(self, column: int) -> float:
        """Where the map writes ``column``'s number, in doubled columns (``2q + r``).

        A column holds a cell of every row, those of alternate rows half a hexagon apart
        (doubled columns ``2c`` and ``2c + 1`` from the left edge): its number stands between
        them, nearer to each of its own cells than to any other column's number.
        """
        return self.left + 2 * (column - 1) + 0.5

    def names(self, cells: Sequence[Sequence[int]]) -> str:
        return " ".join(self.name(int(c[0]), int(c[1])) for c in cells)

    def cell(self, name: str) -> Cell | None:
        """The cell a name such as ``c4`` names on this picture (what :meth:`name` writes
        read back), or None when ``name`` is not a cell's name.

        >>> names = CellNames()
        >>> names.cell(names.name(2, -1)) == (2, -1)
        True
        """
        match = _NAME.fullmatch(name.strip().lower())
        if match is None:
            return None
        letters, column = match[1], int(match[2])
        below = letters.startswith("-")
        index = _index(letters.lstrip("-"))
        r = self.top + (-index - 1 if below else index)
        doubled = self.left + 2 * (column - 1) + (r - self.left) % 2  # 2q + r, same parity as r
        return (doubled - r) // 2, r

    def in_text(self, text: str) -> str:
        """``(1, 1) touches no tile`` -> ``c4 touches no tile``: every engine cell renamed."""
        return _ENGINE_CELL.sub(lambda m: self.name(int(m[1]), int(m[2])), text)


#: A cell's name as :meth:`CellNames.name` writes it: row letters, column number.
_NAME = re.compile(r"(-?[a-z]+)(-?\d+)")


def _index(letters: str) -> int:
    """``a`` -> 0, ``z`` -> 25, ``aa`` -> 26: :func:`_letters` read back."""
    value = 0
    for ch in letters:
        value = value * 26 + ascii_lowercase.index(ch) + 1
    return value - 1


def _letters(row: int) -> str:
    """0 -> ``a``, 25 -> ``z``, 26 -> ``aa``; a row above ``a`` (never drawn) is ``-``-marked."""
    if row < 0:
        return "-" + _letters(-row - 1)
    word = ""
    row += 1
    while row:
        row, rest = divmod(row - 1, 26)
        word = ascii_lowercase[rest] + word
    return word
