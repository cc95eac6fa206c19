"""Lines and loops: what each colour scores.

Every tile carries each of its three colours on exactly one band, so the bands of one colour form
separate chains: open *lines* and closed *loops*. A player scores the most tiles in one line of
his colour, or twice the tiles of his largest loop, whichever is more (rule book, "Le gagnant").
A loop is not also counted as a line: "une ligne dont les deux extrémités se rejoignent est
appelée boucle".

The walk follows bands across touching sides; it trusts the golden rule (touching sides match),
which the engine enforces before any tile reaches the board.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from companion.tantrix.geometry import STEP_KEY
from companion.tantrix.tiles import COLOURS, ENDS, EXIT


@dataclass(frozen=True)
class Score:
    """One colour's best chains: ``line`` and ``loop`` in tiles, ``points`` as scored."""

    line: int = 0
    loop: int = 0

    @property
    def points(self) -> int:
        return max(self.line, 2 * self.loop)

    def as_dict(self) -> dict[str, int]:
        return {"line": self.line, "loop": self.loop, "points": self.points}


#: BANDS[code]: ``(colour, side, side)`` for each band of a tile code, so a walk over the board
#: visits only the colours a tile really has.
BANDS: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    tuple((c, e[0], e[1]) for c, e in enumerate(ends) if e is not None) for ends in ENDS
)


def score_all(board: Mapping[int, int]) -> list[Score]:
    """The longest line and largest loop of each colour, in :data:`COLOURS` order.

    ``board`` maps packed cell keys to tile codes (``tile * 6 + rot``). Each band not yet seen
    is walked out through one side; coming back to the start makes a loop, otherwise the walk
    continues out through the other side and the chain is a line. Every band is visited once.
    A tile lies on the table once, so its code also identifies it: bands already walked are
    marked in a small byte array indexed by code, cheaper than a set of cells.
    """
    get = board.get
    step = STEP_KEY
    exit_ = EXIT
    size = len(EXIT)
    marks = (bytearray(size), bytearray(size), bytearray(size), bytearray(size))
    line = [0, 0, 0, 0]
    loop = [0, 0, 0, 0]
    for start, code in board.items():
        for colour, a, b in BANDS[code]:
            mark = marks[colour]
            if mark[code]:
                continue
            n = 1
            cur = start
            s = a
            while True:
                cur += step[s]
                ncode = get(cur)
                if ncode is None or ncode == code:
                    break
                mark[ncode] = 1
                n += 1
                s = exit_[ncode][s]
            if ncode is not None:  # back at the start: a loop
                if n > loop[colour]:
                    loop[colour] = n
                continue
            cur = start
            s = b
            while True:
                cur += step[s]
                ncode = get(cur)
                if ncode is None:
                    break
                mark[ncode] = 1
                n += 1
                s = exit_[ncode][s]
            if n > line[colour]:
                line[colour] = n
    return [Score(line[c], loop[c]) for c in range(4)]


def score_board(board: Mapping[int, int], colours: tuple[str, ...] = COLOURS) -> dict[str, Score]:
    """Scores of the named colours on a board of packed keys -> tile codes."""
    every = score_all(board)
    return {c: every[COLOURS.index(c)] for c in colours}
