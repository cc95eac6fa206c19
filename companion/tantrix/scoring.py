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


def chains(board: Mapping[int, int], colour: int) -> list[tuple[int, bool]]:
    """Every chain of one colour (index into COLOURS) as ``(tiles, is_loop)``.

    ``board`` maps packed cell keys to tile codes (``tile * 6 + rot``).
    """
    out: list[tuple[int, bool]] = []
    seen: set[int] = set()
    get = board.get
    for start, code in board.items():
        ends = ENDS[code][colour]
        if ends is None or start in seen:
            continue
        seen.add(start)
        n = 1
        cur, s = start, ends[0]
        closed = False
        while True:
            nxt = cur + STEP_KEY[s]
            ncode = get(nxt)
            if ncode is None:
                break
            if nxt == start:
                closed = True
                break
            seen.add(nxt)
            n += 1
            s = EXIT[ncode][s]
            cur = nxt
        if not closed:
            cur, s = start, ends[1]
            while True:
                nxt = cur + STEP_KEY[s]
                ncode = get(nxt)
                if ncode is None:
                    break
                seen.add(nxt)
                n += 1
                s = EXIT[ncode][s]
                cur = nxt
        out.append((n, closed))
    return out


def score_colour(board: Mapping[int, int], colour: int) -> Score:
    """The longest line and the largest loop of one colour (index into COLOURS)."""
    line = loop = 0
    for n, closed in chains(board, colour):
        if closed:
            if n > loop:
                loop = n
        elif n > line:
            line = n
    return Score(line, loop)


def score_board(board: Mapping[int, int], colours: tuple[str, ...] = COLOURS) -> dict[str, Score]:
    """Scores of the named colours on a board of packed keys -> tile codes."""
    return {c: score_colour(board, COLOURS.index(c)) for c in colours}
