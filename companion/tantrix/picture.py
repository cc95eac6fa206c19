"""A Tantrix position drawn as shapes: the tiles with their coloured paths, the forced and
controlled spaces, each player's scoring line or loop traced, and a side panel.

Tiles are pointy-topped hexagons at axial ``(q, r)`` (centre ``x = s*sqrt(3)*(q + r/2)``,
``y = 1.5*s*r``); side ``i`` (0 NE, clockwise) faces its neighbour ``STEP[i]``. A band joining
opposite sides is straight; one joining sides two apart is an arc around the centre of the
neighbouring cell across the side between them (radius 1.5 s); one joining adjacent sides is an
arc around their shared corner (radius s/2). Forced spaces are shaded red with ``!``, cells
controlled by restriction 3 grey with ``x``; a thin white line runs along each player's best
chain (his longest line, or his loop when it scores more).

The board is lettered and numbered as the table's screen letters its map
(:func:`companion.tantrix.screens.board_frame`: rows ``a``, ``b``... down the left edge, columns
``1``, ``2``... along the top, crowded ones skipped), and the replay's remarks name cells by it
(``fills the forced space c4``), never by axial coordinates. The naming is
:class:`~companion.tantrix.cellnames.CellNames` of the *whole game's* cells, the same on every
frame, and not the naming the table's screen had at that move (which follows the layout as it
grows, so a tile laid above the top row renames every row): a replay draws the whole game on
one board that does not move from frame to frame, and a reader stepping through it must find
``c4`` on the board in front of him at every frame, with letters that do not jump. The notation
file and the journal keep the engine's exact coordinates.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image

from companion.i18n import _, pgettext, say
from companion.replay import bitmap
from companion.replay.model import Frame
from companion.replay.palette import TANTRIX, Ink
from companion.replay.panel import panel_head
from companion.replay.shapes import (
    Arc,
    Circle,
    Group,
    Line,
    Polygon,
    Rect,
    Shape,
    Sprite,
    Text,
    to_png,
    to_svg,
)
from companion.tantrix.cellnames import CellNames
from companion.tantrix.screens import board_frame
from companion.tantrix.tiles import COLOURS, ENDS, code_of

WIDTH, HEIGHT = 760, 540
SIZE = (WIDTH, HEIGHT)
BOARD = (12, 12, 512, 528)  # x0, y0, x1, y1 of the board area
PANEL_X = 530
PANEL_W = WIDTH - PANEL_X - 10
_CHARS = PANEL_W // bitmap.CHAR_WIDTH
MIN_SIDE, MAX_SIDE = 8, 56
ROOT3 = math.sqrt(3)

Cell = tuple[int, int]


class Layout:
    """Where cells go and what they are called: ``cells`` (the whole game's, so the board does
    not jump from frame to frame) fitted in the board area with their row letters and column
    numbers beside them, as the table's screen fits its map (:func:`board_frame`), with a
    whole-pixel tile side so that neighbouring tiles meet without a seam."""

    def __init__(self, cells: Sequence[Cell]) -> None:
        if not cells:
            cells = [(0, 0)]
        self.names = CellNames.of(cells)
        fitted = board_frame(cells, self.names, BOARD, largest=MAX_SIDE)
        self.side = max(MIN_SIDE, int(fitted.radius))
        self.frame = board_frame(cells, self.names, BOARD, largest=self.side)

    def centre(self, cell: Cell) -> tuple[int, int]:
        x, y = self.frame.centre(*cell)
        return round(x), round(y)


def names(layout: Layout) -> list[Shape]:
    """The row letters and column numbers round the board, where the table's map puts them."""
    frame = layout.frame
    out: list[Shape] = [
        Text(frame.letters_x, round(label.at), label.text, Ink.GREY, 1, "lm")
        for label in frame.rows if label.shown
    ]
    out += [Text(round(label.at), frame.numbers_y, label.text, Ink.GREY, 1, "mt")
            for label in frame.columns if label.shown]
    return [Group((("names", "rows and columns"),), tuple(out))]


def corners(side: float) -> tuple[tuple[float, float], ...]:
    """The six corners of a pointy-topped hexagon around the origin."""
    return tuple(
        (side * math.cos(math.radians(-90 + 60 * k)), side * math.sin(math.radians(-90 + 60 * k)))
        for k in range(6)
    )


def _mid(side: float, i: int) -> tuple[float, float]:
    """The middle of side ``i`` (0 NE, clockwise)."""
    h = side * ROOT3 / 2
    a = math.radians(-60 + 60 * i)
    return h * math.cos(a), h * math.sin(a)


#: How far a band runs on past the edge of its tile (pixels), to meet its neighbour's band
#: without a seam: the tile's own hexagon is drawn that much larger too.
OVERLAP = 1.2


def band_shape(side: float, a: int, b: int, ink: Ink, width: int) -> Shape:
    """The path joining sides ``a`` and ``b`` of a tile centred on the origin."""
    d = (b - a) % 6
    if d == 3:
        (x0, y0), (x1, y1) = _mid(side, a), _mid(side, b)
        k = OVERLAP / math.hypot(x1 - x0, y1 - y0)
        return Line(((x0 - (x1 - x0) * k, y0 - (y1 - y0) * k),
                     (x1 + (x1 - x0) * k, y1 + (y1 - y0) * k)), ink, width)
    if d in (1, 5):
        first = a if d == 1 else b  # the sides are first and first + 1
        ang = math.radians(-30 + 60 * first)
        cx, cy, radius = side * math.cos(ang), side * math.sin(ang), side / 2
    else:
        between = (a + 1) % 6 if d == 2 else (b + 1) % 6
        ang = math.radians(-60 + 60 * between)
        cx, cy, radius = side * ROOT3 * math.cos(ang), side * ROOT3 * math.sin(ang), side * 1.5
    angles = []
    for s in (a, b):
        mx, my = _mid(side, s)
        angles.append(math.degrees(math.atan2(my - cy, mx - cx)) % 360)
    start, end = angles
    sweep = (end - start) % 360
    if sweep > 180:
        start, sweep = end, 360 - sweep
    more = math.degrees(OVERLAP / radius)
    return Arc(cx, cy, radius + width / 2, start - more, start + sweep + more, ink, width)


def _band_width(side: int) -> int:
    return max(2, round(side * 0.3))


def tile_sprite(tile: int, rot: int, side: int, x: float, y: float) -> Sprite:
    """A tile: black hexagon with its three coloured bands."""
    code = code_of(tile, rot)
    w = _band_width(side)
    # a hair larger than the cell, so that neighbouring tiles leave no seam between them
    local: list[Shape] = [Polygon(corners(side + OVERLAP / 2), Ink.TILE, Ink.TILE)]
    for ci, colour in enumerate(COLOURS):
        ends = ENDS[code][ci]
        if ends is not None:
            local.append(band_shape(side, ends[0], ends[1], TANTRIX[colour], w))
    box = (-side - 2, -side - 2, side + 3, side + 3)
    return Sprite(f"t{tile}r{rot}s{side}", x, y, tuple(local), box)


def _trace(layout: Layout, chain: Mapping[str, Any], colour: str,
           board: Mapping[Cell, int]) -> list[Shape]:
    ci = COLOURS.index(colour)
    w = max(1, _band_width(layout.side) // 4)
    out: list[Shape] = []
    for q, r in chain.get("cells", []):
        code = board.get((q, r))
        if code is None:
            continue
        ends = ENDS[code][ci]
        if ends is None:
            continue
        x, y = layout.centre((q, r))
        shape = band_shape(layout.side, ends[0], ends[1], Ink.TRACE, w)
        out.append(_moved(shape, x, y))
    return out


def _moved(shape: Shape, dx: float, dy: float) -> Shape:
    if isinstance(shape, Line):
        return Line(tuple((x + dx, y + dy) for x, y in shape.points), shape.ink, shape.width)
    assert isinstance(shape, Arc)
    return Arc(shape.x + dx, shape.y + dy, shape.r, shape.start, shape.end, shape.ink,
               shape.width)


def board(state: Mapping[str, Any], layout: Layout, highlight: Any = None) -> list[Shape]:
    """Marked empty cells, tiles, traces and the last placement's outline."""
    side = layout.side
    hexagon = corners(side - 1)
    out: list[Shape] = []
    for cells, fill, mark, name in (
        (state.get("controlled", []), Ink.CONTROLLED, "x", "controlled"),
        (state.get("forced", []), Ink.FORCED, "!", "forced"),
    ):
        for q, r in cells:
            x, y = layout.centre((q, r))
            pts = tuple((x + cx, y + cy) for cx, cy in hexagon)
            out.append(
                Group((("cell", f"{q},{r}"), ("kind", name)),
                      (Polygon(pts, fill, Ink.RULE), Text(x, y, mark, Ink.EDGE, 2, "mm")))
            )
    board_codes: dict[Cell, int] = {}
    for t in state.get("tiles", []):
        cell = (int(t["q"]), int(t["r"]))
        board_codes[cell] = code_of(int(t["tile"]), int(t["rot"]))
        x, y = layout.centre(cell)
        out.append(
            Group((("tile", str(t["tile"])), ("cell", f"{cell[0]},{cell[1]}"),
                   ("rot", str(t["rot"]))),
                  (tile_sprite(int(t["tile"]), int(t["rot"]), side, x, y),))
        )
    for player, chain in state.get("chains", {}).items():
        if chain.get("kind"):
            out.append(
                Group((("trace", player), ("kind", str(chain["kind"])),
                       ("tiles", str(len(chain.get("cells", []))))),
                      tuple(_trace(layout, chain, player, board_codes)))
            )
    if highlight is not None:
        x, y = layout.centre((int(highlight[0]), int(highlight[1])))
        pts = tuple((x + cx, y + cy) for cx, cy in corners(side + 1))
        out.append(Line((*pts, pts[0]), Ink.HIGHLIGHT, 3))
    return out


def panel(frame: Frame, *, title: str = "", total: int | None = None) -> list[Shape]:
    s = frame.state
    x = PANEL_X
    right = x + PANEL_W
    out: list[Shape] = [Rect(x - 10, 0, x - 10, HEIGHT, Ink.RULE)]
    y = 12
    y = panel_head(out, frame, "Tantrix", x=x, width=PANEL_W, y=y, title=title, total=total)
    if s.get("mode") in ("solitaire", "rainbow", "gobble"):
        solved = _("SOLVED") if s.get("solved") else _("{mode}: not solved").format(
            mode=s["mode"])
        out.append(Text(x, y, solved, Ink.TEXT, 1))
    elif s.get("over"):
        w = s.get("winner")
        out.append(Text(x, y, _("game over: {result}").format(
            result=_("a tie") if w == "tie" else _("{player} wins").format(player=_(str(w)))),
                        Ink.TEXT, 1))
    else:
        turn = str(s.get("turn"))
        out.append(Circle(x + 5, y + 3, 5, TANTRIX.get(turn, Ink.GREY)))
        out.append(Text(x + 16, y, _("{player} to play").format(player=_(turn)), Ink.TEXT, 1))
    y += 14
    out.append(Text(x, y, _("{placed} tiles placed, bag {bag}").format(
        placed=s.get("placed", 0), bag=s.get("bag", 0)),
                    Ink.TEXT, 1))
    y += 12
    drawn = drawn_tiles(s)
    if drawn:  # a solo mode's tiles drawn and not laid yet: Gobble's opening holds two
        out.append(Text(x, y, _("drawn: {tiles}").format(tiles=" ".join(map(str, drawn))),
                        Ink.TEXT, 1))
        y += 12
    phase = pgettext("phase", str(s.get("phase", "")))
    out.append(Text(x, y, _("{phase} phase").format(phase=phase), Ink.GREY, 1))
    y += 16
    out.append(Text(x, y, _("scores: line, loop, points"), Ink.GREY, 1))
    y += 12
    for player, score in s.get("scores", {}).items():
        out.append(Circle(x + 5, y + 3, 5, TANTRIX.get(player, Ink.GREY)))
        out.append(Text(x + 16, y, f"{_(player):7} {score['line']:2d} {score['loop']:2d}",
                        Ink.TEXT, 1))
        out.append(Text(right, y, f"{score['points']:2d}", Ink.TEXT, 2, "rt"))
        y += 18
    y += 2
    forced, controlled = len(s.get("forced", [])), len(s.get("controlled", []))
    out.append(Polygon(_mini(x + 5, y + 3), Ink.FORCED, Ink.RULE))
    out.append(Text(x + 16, y, _("forced spaces {n}").format(n=forced), Ink.TEXT, 1))
    y += 12
    out.append(Polygon(_mini(x + 5, y + 3), Ink.CONTROLLED, Ink.RULE))
    out.append(Text(x + 16, y, _("controlled cells {n}").format(n=controlled), Ink.TEXT, 1))
    y += 12
    out.append(Text(x, y, _("white line: each scoring chain"), Ink.GREY, 1))
    y += 12
    refused = len(s.get("violations", []))
    out.append(Text(x, y, _("refused inputs {n}").format(n=refused), Ink.GREY, 1))
    y += 14
    out.append(Rect(x, y - 4, right, y - 4, Ink.RULE))
    for mark in frame.marks:
        ink = Ink.REFUSED if mark.startswith("refused") else Ink.TEXT
        for part in bitmap.wrap(say(mark), _CHARS):
            if y > HEIGHT - 14:
                break
            out.append(Text(x, y, part, ink, 1))
            y += 11
    return out


def drawn_tiles(state: Mapping[str, Any]) -> list[int]:
    """The tiles a solo game has drawn and not laid yet, in the order drawn: Gobble's
    ``held`` (two during its opening), Solitaire's ``drawn``; none in other modes."""
    held = state.get("held")
    if isinstance(held, list):
        return [int(t) for t in held]
    drawn = state.get("drawn")
    return [int(drawn)] if isinstance(drawn, int) and not isinstance(drawn, bool) else []


def _mini(x: float, y: float) -> tuple[tuple[float, float], ...]:
    return tuple((x + cx, y + cy) for cx, cy in corners(6))


def dynamic(frame: Frame, layout: Layout, *, title: str = "", total: int | None = None
            ) -> list[Shape]:
    return [*board(frame.state, layout, frame.highlight),
            *panel(frame, title=title, total=total)]


def layout_for(frame: Frame, cells: Sequence[Cell] | None = None) -> Layout:
    """The layout of ``cells`` (a whole game's) or of the frame's own cells."""
    if cells is None:
        s = frame.state
        cells = [(int(t["q"]), int(t["r"])) for t in s.get("tiles", [])]
        cells += [(q, r) for q, r in s.get("forced", [])]
        cells += [(q, r) for q, r in s.get("controlled", [])]
    return Layout(cells)


def png(frame: Frame, *, cells: Sequence[Cell] | None = None, title: str = "",
        total: int | None = None) -> Image.Image:
    layout = layout_for(frame, cells)
    return to_png([*names(layout), *dynamic(frame, layout, title=title, total=total)], SIZE)


def svg(frame: Frame, *, cells: Sequence[Cell] | None = None, title: str = "",
        total: int | None = None) -> str:
    layout = layout_for(frame, cells)
    return to_svg([*names(layout), *dynamic(frame, layout, title=title, total=total)], SIZE,
                  title=frame.shown)
