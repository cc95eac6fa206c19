"""The Tantrix screens: the table between placements, and the keypad entry of one placement.

``tantrix_screen(view)`` draws the object :meth:`companion.tantrix.table.TantrixTable.view`
returns: the game (whose turn, the bag and phase, the open forced spaces, each player's best line
or loop) and, under ``"entry"``, the keypad dialogue. What it shows follows the dialogue's mode:

* ``tile`` (typing the number on the back of a tile): the table screen; on a tall panel the
  whole board is drawn above it, forced spaces marked;
* every map (the board, the small ones) letters its rows down the left edge and numbers its
  columns along the top, as :class:`~companion.tantrix.cellnames.CellNames` names the cells in
  every message (:class:`MapFrame` says where each name stands);
* ``place`` (choosing spot and rotation): a small map around the candidate spot with the tile
  drawn there as turned, which legal spot this is (``2/5``), the rotation, and whether it fits;
* ``menu``, ``scores``, ``forced``, ``undo``: the D menu and what it opens;
* a refusal (``view["error"]``): its rule and reason, until the next key.

On the colour SSD1351 tiles are drawn as on the table, black hexagons with coloured bands. A
one-bit panel cannot show colours, so there the tile in hand is drawn large with a letter on
each side (R, Y, G, B), a letter boxed where it clashes with the neighbour it faces.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from companion.i18n import N_, _, pgettext
from companion.screens.layout import (
    BAR,
    PITCH,
    draw_footer,
    draw_list,
    draw_paragraph,
    draw_refusal_box,
    draw_title_bar,
    draw_warning_bar,
)
from companion.screens.palette import Colour, Palette, Size, blank
from companion.screens.text import (
    CHAR_WIDTH,
    LINE_HEIGHT,
    clip,
    columns,
    draw_text,
    draw_text_centred,
    draw_text_right,
    text_width,
    wrap,
)
from companion.tantrix import messages as say
from companion.tantrix.cellnames import CellNames
from companion.tantrix.words import refusal_in_words

#: From this height on, the roomier layout (board maps, colours beside the text) is used.
TALL_HEIGHT = 112

#: The path colours on a colour panel, bright enough on black.
BAND_COLOURS: dict[str, tuple[int, int, int]] = {
    "red": (230, 40, 40),
    "yellow": (245, 210, 0),
    "green": (40, 190, 70),
    "blue": (60, 120, 255),
}
TILE_FILL = (28, 28, 28)
TILE_EDGE = (95, 95, 95)
def colour_letter(colour: object) -> str:
    """A band colour's letter on the screen as a player reads it: the first letter of the
    colour in his language (French ``J`` jaune, ``V`` vert; Czech ``Ž`` žlutá, ``M`` modrá);
    ``?`` for no colour. The notation keeps the English ones
    (:data:`companion.tantrix.tiles.LETTERS`)."""
    said = {"red": pgettext("colour letter", "R"), "yellow": pgettext("colour letter", "Y"),
            "green": pgettext("colour letter", "G"), "blue": pgettext("colour letter", "B")}
    return said.get(str(colour), "?")

#: The rules a refusal can name; the screen shows them as the title of the refusal.
RULES = (
    N_("golden rule"),
    N_("restriction 1"),
    N_("restriction 2"),
    N_("restriction 3"),
    N_("not touching"),
    N_("occupied"),
    N_("tile already placed"),
    N_("second free move"),
    N_("game over"),
    N_("nothing to undo"),
    # with hands
    N_("not in hand"),
    N_("draw first"),
    N_("forced space first"),
    N_("a forced space can be filled"),
    N_("not in the bag"),
    N_("hand full"),
    N_("starter"),
)

#: The D menu's entries (the dialogue names them in English; the screen says them).
MENU_WORDS = (N_("End turn"), N_("Undo last placement"), N_("Undo last tile"), N_("Scores"),
              N_("Forced spaces"))

Cell = tuple[int, int]


def tantrix_screen(
    view: Mapping[str, Any], *, size: Size = (128, 64), mode: str = "1"
) -> Image.Image:
    """Draw the Tantrix screen for ``view`` on a new image of ``size`` and ``mode``.

    Example::

        image = tantrix_screen(table.view(), size=device.size, mode=device.mode)
    """
    image, palette = blank(size, mode)
    draw = ImageDraw.Draw(image)
    width, height = image.size
    tall = height >= TALL_HEIGHT
    entry = view.get("entry") or {}
    kind = entry.get("mode", "tile")
    error = view.get("error")
    if error:  # the engine's cells, "(2, -1)", as the map names them
        error = CellNames.of_view(view).in_text(str(error))
    page = int(view.get("error_page") or 0)
    if kind == "place":
        _draw_place(draw, palette, view, entry, width, height, tall, error, page)
    elif error and not tall:
        _draw_refusal_page(draw, palette, str(error), width, height, page=page)
    elif kind == "menu":
        _draw_menu(draw, palette, entry, width, height)
    elif kind == "scores":
        _draw_scores_page(draw, palette, view, width, height)
    elif kind == "forced":
        _draw_forced_page(draw, palette, view, entry, width, height, tall)
    elif kind == "undo":
        _draw_undo(draw, palette, view, entry, width, height)
    elif view.get("mode") in say.SOLO_TITLES:
        _draw_solo(draw, palette, view, entry, width, height, tall)
    else:
        _draw_table(draw, palette, view, entry, width, height, tall)
    if error and kind != "place" and tall:
        _draw_refusal_box(draw, palette, str(error), width, height - 12 - 4 * PITCH, height - 1,
                          page=page)
    warning = view.get("warning")
    if warning and not error:
        draw_warning_bar(draw, palette, str(warning), width, height,
                         page=int(view.get("warning_page") or 0))
    return image


# -- words ---------------------------------------------------------------------------------------


def player_name(view: Mapping[str, Any], player: str) -> str:
    """The player's name where one was given, else his colour."""
    names = view.get("names") or {}
    return str(names.get(player) or _(player))


def chain_text(score: Mapping[str, int]) -> str:
    """``"loop 4"`` when the loop scores (doubled) at least as much as the line, else
    ``"line 7"``: the chain a player is counting on."""
    line, loop = int(score.get("line", 0)), int(score.get("loop", 0))
    if loop and 2 * loop >= line:
        return _("loop {n}").format(n=loop)
    return _("line {n}").format(n=line)


def split_refusal(error: str) -> tuple[str | None, str]:
    """``"restriction 2: (1, 1) touches..."`` -> ``("restriction 2", "(1, 1) touches...")``;
    a message that names no rule has no title."""
    for rule in RULES:
        if error.startswith(rule + ": "):
            return rule, error[len(rule) + 2 :]
    return None, error


def _headline(view: Mapping[str, Any], room: int = 20) -> tuple[str, str]:
    """The title bar: whose turn it is and the bag (``final phase`` once the bag is empty),
    or the result; in ``room`` characters the turn is said by the name alone rather than
    cut, and the bag keeps its word."""
    if view.get("over"):
        winner = view.get("winner")
        if winner == "tie":
            title = _("a tie")
        elif winner:
            title = _("{player} wins").format(player=player_name(view, str(winner)))
        else:
            return _("game ended"), _("bag {n}").format(n=view.get("bag", 0))
        right = _("game over")
        return title, right if len(title) + 1 + len(right) <= room else ""
    name = player_name(view, str(view.get("turn")))
    right = (_("final phase") if view.get("phase") == "final"
             else _("bag {n}").format(n=view.get("bag", 0)))
    title = _("{player}'s turn").format(player=name)
    if len(title) + 1 + len(right) > room:
        title = name  # the bar in the player's colour says it is his turn
    return title, right


def _status_text(view: Mapping[str, Any], room: int) -> str:
    """Where the table stands, in ``room`` characters: the open forced spaces (those that do
    not fit counted: ``+3``); with none, that the turn is to be ended once the free move is
    made, else that nothing is forced."""
    cells = _forced_cells(view)
    if cells:
        return with_cells(_("forced:"), cells, room)
    if view.get("free_move_used") and not view.get("over"):
        return _("D 1: end the turn")
    return _("no forced space")


def _forced_cells(view: Mapping[str, Any]) -> list[str]:
    names = CellNames.of_view(view)
    return [names.name(int(c[0]), int(c[1])) for c in view.get("forced") or []]


def with_cells(lead: str, cells: Sequence[str], room: int) -> str:
    """``lead`` and as many of ``cells`` as fit in ``room`` characters, the others counted
    (``"restricted ! j3 e5 +3"``): a name is never cut, and a player learns how many spaces
    the line leaves out (the D menu's "Forced spaces" shows each of them)."""
    for shown in range(len(cells), -1, -1):
        rest = len(cells) - shown
        text = " ".join([lead, *cells[:shown], *([f"+{rest}"] if rest else [])])
        if len(text) <= room:
            return text
    return clip(f"{lead} +{len(cells)}", room)


def _player_fill(palette: Palette, player: str | None) -> Colour:
    if isinstance(palette.background, tuple) and player in BAND_COLOURS:
        return BAND_COLOURS[str(player)]
    return palette.accent


def _ink_on(palette: Palette, player: str | None) -> Colour:
    """Text on a player's colour: black on yellow and green, white on red and blue."""
    if isinstance(palette.background, tuple) and player in ("yellow", "green"):
        return (0, 0, 0)
    return palette.on_fill


# -- hexagons ------------------------------------------------------------------------------------


def hex_centre(q: int, r: int, radius: float) -> tuple[float, float]:
    """Pixel offset of cell ``(q, r)`` from cell (0, 0), pointy-topped hexagons of ``radius``
    (side NE of a cell faces ``(q + 1, r - 1)``, as in the engine)."""
    return math.sqrt(3) * radius * (q + r / 2), 1.5 * radius * r


def _corners(cx: float, cy: float, radius: float) -> list[tuple[float, float]]:
    return [
        (cx + radius * math.cos(math.radians(a)), cy + radius * math.sin(math.radians(a)))
        for a in (-90, -30, 30, 90, 150, 210)
    ]


def _side_point(cx: float, cy: float, distance: float, side: int) -> tuple[float, float]:
    """The point ``distance`` from the centre towards the middle of ``side`` (0 NE .. 5 NW)."""
    a = math.radians(-60 + 60 * side)
    return cx + distance * math.cos(a), cy + distance * math.sin(a)


def _bands(sides: Sequence[str]) -> list[tuple[str, int, int]]:
    """Each colour of a tile with the two sides its band joins."""
    out = []
    for colour in dict.fromkeys(sides):
        ends = [s for s, c in enumerate(sides) if c == colour]
        if len(ends) == 2:
            out.append((colour, ends[0], ends[1]))
    return out


def _draw_band(
    draw: ImageDraw.ImageDraw,
    cx: float,
    cy: float,
    radius: float,
    a: int,
    b: int,
    fill: Colour,
    width: int,
) -> None:
    """A band from the middle of side ``a`` to the middle of side ``b``: a curve bent towards
    the centre (straight across for opposite sides), as the tiles are printed."""
    mid = radius * math.sqrt(3) / 2
    p0 = _side_point(cx, cy, mid, a)
    p2 = _side_point(cx, cy, mid, b)
    gap = min((a - b) % 6, (b - a) % 6)
    pull = {1: 0.45, 2: 0.15, 3: 0.0}[gap]
    corner_x = (p0[0] + p2[0]) / 2
    corner_y = (p0[1] + p2[1]) / 2
    ctrl = (cx + (corner_x - cx) * pull, cy + (corner_y - cy) * pull)
    points = []
    for i in range(9):
        t = i / 8
        x = (1 - t) ** 2 * p0[0] + 2 * (1 - t) * t * ctrl[0] + t**2 * p2[0]
        y = (1 - t) ** 2 * p0[1] + 2 * (1 - t) * t * ctrl[1] + t**2 * p2[1]
        points.append((round(x), round(y)))
    draw.line(points, fill=fill, width=width)


def _rounded(points: list[tuple[float, float]]) -> list[tuple[int, int]]:
    return [(round(x), round(y)) for x, y in points]


def draw_colour_tile(
    draw: ImageDraw.ImageDraw,
    cx: float,
    cy: float,
    radius: float,
    sides: Sequence[str],
    *,
    outline: Colour = TILE_EDGE,
) -> None:
    """A tile as printed: a black hexagon with its three coloured bands."""
    draw.polygon(_rounded(_corners(cx, cy, radius - 0.5)), fill=TILE_FILL, outline=outline)
    width = 1 if radius < 7 else 2
    for colour, a, b in _bands(sides):
        _draw_band(draw, cx, cy, radius, a, b, BAND_COLOURS.get(colour, (255, 255, 255)), width)


def draw_map(
    draw: ImageDraw.ImageDraw,
    palette: Palette,
    cells: Sequence[Mapping[str, Any]],
    origin: tuple[float, float],
    centre: Cell,
    radius: float,
    *,
    rim: Colour | None = None,
) -> None:
    """Cells (``q``, ``r``, ``tile``, ``sides``, ``forced``, ``candidate``) as hexagons of
    ``radius`` pixels, cell ``centre`` drawn at pixel ``origin``.

    Colour panels draw every tile with its bands; a forced space is an amber outline with a
    dot; the candidate spot has a rim of colour ``rim`` (white by default). A one-bit panel
    draws tiles as outlines, the candidate filled and forced spaces as dots.
    """
    colour = isinstance(palette.background, tuple)
    ox, oy = origin
    candidate = None
    for c in cells:
        x, y = hex_centre(int(c["q"]) - centre[0], int(c["r"]) - centre[1], radius)
        cx, cy = ox + x, oy + y
        if c.get("candidate"):
            candidate = (cx, cy, c)
            continue
        sides = c.get("sides")
        if c.get("tile") is not None and sides:
            if colour:
                draw_colour_tile(draw, cx, cy, radius, sides)
            else:
                draw.polygon(_rounded(_corners(cx, cy, radius - 0.5)), outline=palette.foreground)
        elif c.get("forced"):
            outline = palette.warning if colour else palette.foreground
            if colour:
                draw.polygon(_rounded(_corners(cx, cy, radius - 1)), outline=outline)
            d = max(1, round(radius / 4))
            x, y = round(cx), round(cy)
            draw.rectangle((x - d, y - d, x + d, y + d), fill=outline)
    if candidate is None:
        return
    cx, cy, c = candidate
    rim = palette.foreground if rim is None else rim
    sides = c.get("sides")
    if colour and sides:
        draw_colour_tile(draw, cx, cy, radius, sides, outline=rim)
        draw.polygon(_rounded(_corners(cx, cy, radius + 0.5)), outline=rim)
    elif colour:
        draw.polygon(_rounded(_corners(cx, cy, radius - 0.5)), outline=rim)
    else:
        draw.polygon(
            _rounded(_corners(cx, cy, radius - 0.5)), fill=palette.foreground, outline=rim
        )


def fit_radius(cells: Sequence[Cell], width: int, height: int, largest: float) -> float:
    """The largest hexagon radius (at most ``largest``) that fits every cell in the box."""
    if not cells:
        return largest
    xs = [math.sqrt(3) * (q + r / 2) for q, r in cells]
    ys = [1.5 * r for _q, r in cells]
    span_x = max(xs) - min(xs) + math.sqrt(3)
    span_y = max(ys) - min(ys) + 2
    return max(1.5, min(largest, (width - 2) / span_x, (height - 2) / span_y))


# -- the names written round a map ----------------------------------------------------------------

#: Rows of a column number (the digits' ink), and the gap between it and the hexagons.
_NUMBER_HEIGHT = 7
_GAP = 2
#: The least distance between two row letters (a descender above an ascender must not touch),
#: and the least gap between two column numbers; closer rows or columns are named every other
#: (every third...) instead.
_ROW_PITCH = 8.0
_NUMBER_GAP = 2.5

Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class MapLabel:
    """One row letter (``at``: the pixel row of the row's centres) or column number (``at``:
    the pixel column of its middle); ``shown`` is False where neighbours crowd it out."""

    text: str
    at: float
    shown: bool


@dataclass(frozen=True)
class MapFrame:
    """How a map lies on the screen: hexagons of ``radius`` with cell (0, 0) at pixel
    ``origin``, the row letters down the left edge (from pixel column ``letters_x``) and the
    column numbers along the top (their ink from pixel row ``numbers_y``).

    The names are :class:`~companion.tantrix.cellnames.CellNames`' of the whole table, so the
    letter beside a tile's row and the number above its column spell the name the refusals,
    the forced-space line and the prompts give it, even on a small map of a corner of the table.
    """

    radius: float
    origin: tuple[float, float]
    rows: tuple[MapLabel, ...]
    columns: tuple[MapLabel, ...]
    letters_x: int
    numbers_y: int
    #: The strips the names take: left of the hexagons, above them.
    margins: tuple[int, int]
    #: The box the map and its names are drawn in.
    box: Box

    def centre(self, q: int, r: int) -> tuple[float, float]:
        """The pixel centre of cell ``(q, r)``."""
        x, y = hex_centre(q, r, self.radius)
        return self.origin[0] + x, self.origin[1] + y

    def label_of(self, q: int, r: int) -> str:
        """The name a player reads off the map for cell ``(q, r)``: the letter of the row
        nearest its centre and the number of the column nearest it."""
        x, y = self.centre(q, r)
        row = min(self.rows, key=lambda label: abs(label.at - y))
        column = min(self.columns, key=lambda label: abs(label.at - x))
        return row.text + column.text


def _labels(
    names: CellNames,
    rows: range,
    columns: range,
    radius: float,
    origin: tuple[float, float],
    anchor: tuple[int, int],
) -> tuple[tuple[MapLabel, ...], tuple[MapLabel, ...]]:
    """The letters of ``rows`` and the numbers of ``columns`` where ``origin`` puts them;
    when they crowd, every k-th is shown, counted from the ``anchor`` row and column."""
    ox, oy = origin
    row_step = math.ceil(_ROW_PITCH / (1.5 * radius) - 1e-9)
    widest = max((len(str(c)) for c in columns), default=1) * CHAR_WIDTH
    column_step = math.ceil((widest + _NUMBER_GAP) / (math.sqrt(3) * radius) - 1e-9)
    row_labels = tuple(
        MapLabel(names.row(r), oy + 1.5 * radius * r, (r - anchor[0]) % row_step == 0)
        for r in rows
    )
    column_labels = tuple(
        MapLabel(str(c), ox + math.sqrt(3) / 2 * radius * names.column_middle(c),
                 (c - anchor[1]) % column_step == 0)
        for c in columns
    )
    return row_labels, column_labels


def _margins(names: CellNames, rows: range) -> tuple[int, int]:
    """The room the row letters (left) and the column numbers (top) take."""
    letters = max((len(names.row(r)) for r in rows), default=1)
    return letters * CHAR_WIDTH + _GAP, _NUMBER_HEIGHT + _GAP


def board_frame(
    cells: Sequence[Cell], names: CellNames, box: Box, largest: float = 9.0
) -> MapFrame:
    """The whole table scaled to fit ``box`` with its row letters and column numbers beside
    it (the margin they need is kept out of the hexagons' room), the lot centred in the box."""
    left, top, right, bottom = box
    rows = range(min(r for _q, r in cells), max(r for _q, r in cells) + 1)
    numbers = [names.column(q, r) for q, r in cells]
    columns = range(min(numbers), max(numbers) + 1)
    margin_x, margin_y = _margins(names, rows)
    radius = fit_radius(cells, right - left + 1 - margin_x, bottom - top + 1 - margin_y, largest)
    xs = [hex_centre(q, r, radius)[0] for q, r in cells]
    ys = [hex_centre(q, r, radius)[1] for q, r in cells]
    half = math.sqrt(3) / 2 * radius
    width = margin_x + max(xs) - min(xs) + 2 * half
    height = margin_y + max(ys) - min(ys) + 2 * radius
    hexes_left = left + (right - left + 1 - width) / 2 + margin_x
    hexes_top = top + (bottom - top + 1 - height) / 2 + margin_y
    origin = (hexes_left + half - min(xs), hexes_top + radius - min(ys))
    row_labels, column_labels = _labels(
        names, rows, columns, radius, origin, (rows.start, columns.start)
    )
    return MapFrame(radius, origin, row_labels, column_labels,
                    letters_x=max(left, round(hexes_left) - margin_x),
                    numbers_y=max(top, round(hexes_top) - margin_y),
                    margins=(margin_x, margin_y), box=box)


def _middle(low: float, high: float, room: float, keep: float, half: float) -> float:
    """Where to put the middle of what spans ``low``..``high`` (pixels from cell (0, 0)) in a
    room ``room`` wide: its own middle when it fits, else as near to it as keeps the hexagon
    at ``keep`` (``half`` its size) inside."""
    middle = (low + high) / 2
    slack = max(0.0, room / 2 - half)
    return min(max(middle, keep - slack), keep + slack)


def local_frame(
    centre: Cell, names: CellNames, box: Box, radius: float, cells: Sequence[Cell] = ()
) -> MapFrame:
    """A map of fixed ``radius`` around cell ``centre`` in ``box`` less the margins for the
    names: the ``cells`` drawn are centred in it as far as the centre stays inside, and the
    rows and columns whose middle lies inside are named (the map may be cut at the edges)."""
    left, top, right, bottom = box
    drawn = [*cells, centre]
    margin_x, margin_y = _margins(names, range(min(r for _q, r in drawn),
                                               max(r for _q, r in drawn) + 1))
    seen = [hex_centre(q, r, radius) for q, r in drawn]
    half = math.sqrt(3) / 2 * radius
    x, y = hex_centre(centre[0], centre[1], radius)
    mid_x = _middle(min(p[0] for p in seen), max(p[0] for p in seen),
                    right + 1 - left - margin_x, x, half)
    mid_y = _middle(min(p[1] for p in seen), max(p[1] for p in seen),
                    bottom + 1 - top - margin_y, y, radius)
    cx, cy = (left + margin_x + right + 1) / 2, (top + margin_y + bottom + 1) / 2
    origin = (cx - mid_x, cy - mid_y)
    own = names.column(*centre)
    rows = [r for r in range(min(r for _q, r in drawn), max(r for _q, r in drawn) + 1)
            if r == centre[1] or top + margin_y + 4 <= origin[1] + 1.5 * radius * r <= bottom - 4]
    numbers = [names.column(q, r) for q, r in drawn]

    def fits(c: int) -> bool:  # the whole number inside the box
        middle = origin[0] + math.sqrt(3) / 2 * radius * names.column_middle(c)
        half_text = len(str(c)) * CHAR_WIDTH / 2
        return left + margin_x <= middle - half_text and middle + half_text <= right + 1

    columns = [c for c in range(min(numbers), max(numbers) + 1) if c == own or fits(c)]
    row_labels, column_labels = _labels(
        names, range(rows[0], rows[-1] + 1), range(columns[0], columns[-1] + 1), radius, origin,
        (centre[1], own),
    )
    hexes_left = origin[0] + min(p[0] for p in seen) - half
    hexes_top = origin[1] + min(p[1] for p in seen) - radius
    return MapFrame(radius, origin, row_labels, column_labels,
                    letters_x=max(left + 1, math.floor(hexes_left) - margin_x),
                    numbers_y=max(top + 1, math.floor(hexes_top) - margin_y),
                    margins=(margin_x, margin_y), box=box)


def draw_names(
    draw: ImageDraw.ImageDraw, palette: Palette, frame: MapFrame, box: Box | None = None
) -> None:
    """Write the frame's row letters and column numbers; with ``box``, first clear the strips
    they stand in (left and top of the box) of any hexagon the map cut there."""
    if box is not None:
        left, top, right, bottom = box
        margin_x, margin_y = frame.margins
        strip_right, strip_bottom = frame.letters_x + margin_x - 1, frame.numbers_y + margin_y - 1
        draw.rectangle((left, top, strip_right, bottom), fill=palette.background)
        draw.rectangle((left, top, right, strip_bottom), fill=palette.background)
    ink = palette.dim
    for label in frame.rows:
        if label.shown:  # the x-height (rows 2-6 of the ink) centred on the row
            draw_text(draw, frame.letters_x, round(label.at) - 4, label.text, ink)
    left, right = frame.box[0] + frame.margins[0], frame.box[2] + 1
    for label in frame.columns:
        if label.shown:  # centred on the column, kept inside the box
            x = round(label.at - text_width(label.text) / 2)
            x = max(left, min(x, right - text_width(label.text)))
            draw_text(draw, x, frame.numbers_y, label.text, ink)


def draw_local_map(
    draw: ImageDraw.ImageDraw,
    palette: Palette,
    cells: Sequence[Mapping[str, Any]],
    centre: Cell,
    names: CellNames,
    box: Box,
    radius: float,
    *,
    rim: Colour | None = None,
) -> MapFrame:
    """A small map of ``cells`` around cell ``centre`` inside ``box``, cut at its edges, the
    rows and columns it shows named as on the whole table."""
    drawn = [(int(c["q"]), int(c["r"])) for c in cells
             if c.get("sides") or c.get("forced") or c.get("candidate")]
    frame = local_frame(centre, names, box, radius, drawn)
    draw_map(draw, palette, cells, frame.origin, (0, 0), radius, rim=rim)
    left, top, right, bottom = box
    width, height = draw.im.size
    if right + 1 < width:  # what spilled over the box's right and bottom edges
        draw.rectangle((right + 1, top, width - 1, bottom), fill=palette.background)
    if bottom + 1 < height:
        draw.rectangle((left, bottom + 1, right, height - 1), fill=palette.background)
    draw_names(draw, palette, frame, box)
    return frame


def _draw_board(
    draw: ImageDraw.ImageDraw,
    palette: Palette,
    view: Mapping[str, Any],
    box: tuple[int, int, int, int],
) -> None:
    """The whole table, scaled to fit ``box``: tiles and open forced spaces, the rows lettered
    and the columns numbered as the cells are named."""
    left, top, right, bottom = box
    tiles = [t for t in view.get("tiles") or [] if t.get("sides")]
    cells: list[dict[str, Any]] = [
        {"q": t["q"], "r": t["r"], "tile": t["tile"], "sides": t["sides"]} for t in tiles
    ]
    cells += [{"q": q, "r": r, "forced": True} for q, r in view.get("forced") or []]
    if not cells:
        draw_text_centred(
            draw, left, right + 1, (top + bottom) // 2 - 4, _("empty table"), palette.dim
        )
        return
    coords = [(int(c["q"]), int(c["r"])) for c in cells]
    frame = board_frame(coords, CellNames.of_view(view), box)
    draw_map(draw, palette, cells, frame.origin, (0, 0), frame.radius)
    draw_names(draw, palette, frame)


# -- the table (typing a tile number) ------------------------------------------------------------


def _letter_colour(palette: Palette, colour: str | None) -> Colour:
    """A path colour's ink: itself on a colour panel, plain text elsewhere."""
    if isinstance(palette.background, tuple) and colour in BAND_COLOURS:
        return BAND_COLOURS[str(colour)]
    return palette.foreground


def _draw_table(
    draw: ImageDraw.ImageDraw,
    palette: Palette,
    view: Mapping[str, Any],
    entry: Mapping[str, Any],
    width: int,
    height: int,
    tall: bool,
) -> None:
    """Whose turn, the bag, the phase and forced spaces, every player's chain, the number
    typed so far; on a tall panel the whole board above them."""
    turn = None if view.get("over") else view.get("turn")
    title, right = _headline(view, columns(width - 4))
    stage = entry.get("stage")
    if stage == "starter" and not view.get("over"):
        title, turn = _(say.START_TITLE), None
        if len(title) + 1 + len(right) > columns(width - 4):
            right = ""  # the bag is full at the start draw: its count says nothing
    y = draw_title_bar(
        draw,
        palette,
        title,
        width,
        right=right,
        fill=_player_fill(palette, turn),
        ink=_ink_on(palette, turn),
    )
    room = columns(width - 2)
    players = list(dict.fromkeys(str(p) for p in view.get("players") or []))
    scores = view.get("scores") or {}
    hands = "hand" in view
    paired = not tall and (len(players) > 3 or hands)
    score_rows = (len(players) + 1) // 2 if paired else len(players)
    bottom_y = height - LINE_HEIGHT
    hand_lines = _hand_lines(view, stage, room) if hands and not view.get("over") else []
    spare = (bottom_y - y) // PITCH - 1 - score_rows  # rows left for the hand
    if len(hand_lines) > max(1, spare):
        hand_lines = [_hand_lines(view, stage, room, rows=1)[0]]
    if tall:
        text_top = bottom_y - PITCH * (1 + score_rows + len(hand_lines)) - 2
        _draw_board(draw, palette, view, (0, y, width - 1, text_top - 3))
        draw.line((0, text_top - 1, width - 1, text_top - 1), fill=palette.dim)
        y = text_top + 1
    forced_ink = palette.warning if view.get("forced") and tall else palette.foreground
    fills = view.get("must_fill") or []
    if fills and not view.get("over"):
        names = CellNames.of_view(view)
        lead = _(say.MUST_FILL).format(fills="").rstrip()
        draw_text(draw, 1, y, with_cells(lead, [f"{t}@{names.name(q, r)}" for t, q, r in fills],
                                         room), palette.warning)
    else:
        draw_text(draw, 1, y, _status_text(view, room), forced_ink)
    y += PITCH
    for line in hand_lines:
        draw_text(draw, 1, y, line, palette.foreground)
        y += PITCH
    half = (width - 2) // 2
    for i, player in enumerate(players):
        s = scores.get(player) or {}
        ink = _letter_colour(palette, player)
        if paired:  # two to a line: the name (cut to fit) and the points
            x = 1 + (i % 2) * half
            points = str(int(s.get("points", 0)))
            name = clip(player_name(view, player), columns(half) - len(points) - 2)
            draw_text(draw, x, y, f"{name} {points}", ink)
            if i % 2:
                y += PITCH
            continue
        right = f"{chain_text(s)} ={int(s.get('points', 0)):>3}"
        draw_text(draw, 1, y, clip(player_name(view, player), room - len(right) - 1), ink)
        draw_text_right(draw, width - 1, y, right, palette.foreground)
        y += PITCH
    if paired and len(players) % 2:
        y += PITCH
    typed = entry.get("typed") or ""
    drawing = player_name(view, str(entry.get("drawing")))
    if view.get("over"):
        prompt = _("D: menu")
    elif stage == "starter":
        prompt = _(say.SCREEN_START).format(player=drawing, typed=typed)
    elif stage == "draw":
        prompt = _(say.SCREEN_DRAW).format(player=drawing, typed=typed)
    elif view.get("free_move_used"):
        prompt = _(say.TILE_OR_END).format(typed=typed)
    else:
        prompt = _(say.TILE).format(typed=typed)
    draw_text(draw, 1, bottom_y, clip(prompt, room), palette.foreground)


def _hand_lines(
    view: Mapping[str, Any], stage: object, room: int, rows: int = 2
) -> list[str]:
    """The hand (``hand 12 16 18 39 54 60``) or, at the start draw, how it goes: in one line,
    else in ``rows`` lines; in one line when ``rows`` is 1, the tiles alone, the others
    counted (``+2``) when even they do not fit."""
    if stage == "starter":
        return wrap(_(say.SKIP_START), room, max_lines=rows)
    tiles = [str(t) for t in view.get("hand") or []]
    words = _(say.HAND).format(tiles=" ".join(tiles))
    if len(words) <= room:
        return [words]
    if rows > 1:
        return wrap(words, room, max_lines=rows)
    return [with_cells("", tiles, room).strip()]


def _draw_solo(
    draw: ImageDraw.ImageDraw,
    palette: Palette,
    view: Mapping[str, Any],
    entry: Mapping[str, Any],
    width: int,
    height: int,
    tall: bool,
) -> None:
    """A solo mode's page: its name and bag, how far from solved, the forced spaces, the
    prompt (in two lines when long, a page at a time when longer); on a tall panel the
    board above."""
    title = _(say.SOLO_TITLES[str(view["mode"])])
    if view.get("puzzle"):
        title = f"{title} {_(str(view['puzzle']))}"
    right = (
        f"{view.get('placed', 0)}/{view.get('size')}" if view.get("size")
        else _("bag {n}").format(n=view.get("bag", 0))
    )
    race = bool(view.get("race"))
    if race:  # the real-time clock of the race
        title = _(say.RACE_TITLE)
        minutes, seconds = divmod(int(float(view.get("clock") or 0)), 60)
        right = f"{minutes}:{seconds:02d}"
    y = draw_title_bar(draw, palette, title, width, right=right)
    room = columns(width - 2)
    bottom_y = height - LINE_HEIGHT
    lines = solo_lines(view, room)
    if not race:
        cells = _forced_cells(view)
        lines.append(with_cells(_("forced:"), cells, room) if cells else _("no forced space"))
    prompt = _("D: menu") if view.get("over") else str(entry.get("prompt") or "").split(". ")[-1]
    asked = wrap(prompt, room)
    prompt_rows = 1 if len(asked) == 1 else 2
    rows = (bottom_y - PITCH * (prompt_rows - 1) - y) // PITCH  # above the prompt
    if tall and not race:
        text_top = bottom_y - PITCH * (len(lines) + prompt_rows - 1) - 2
        _draw_board(draw, palette, view, (0, y, width - 1, text_top - 3))
        y = text_top + 1
        rows = len(lines)
    page = int(view.get("prompt_page") or 0)
    if len(lines) > rows:  # the race's players: a page at a time
        pages = [lines[i : i + rows] for i in range(0, len(lines), max(1, rows))]
        lines = pages[page % len(pages)]
    for i, line in enumerate(lines):
        ink = palette.warning if line == _(say.SOLVED) else palette.foreground
        draw_text(draw, 1, y + i * PITCH, line, ink)
    top = bottom_y - PITCH * (prompt_rows - 1)
    draw_paragraph(draw, palette, prompt, 0, width - 1, top, height - 1, page=page)


def solo_lines(view: Mapping[str, Any], room: int) -> list[str]:
    """How a solo game stands, a few short lines of at most ``room`` characters: the red
    line or loop of Solitaire, the Rainbow's longest line, Gobble's gobbles and discard pile,
    the tiles laid; in a race each player's rank and gobbles (a long name cut)."""
    if view.get("race"):
        finished = {f.get("player") for f in view.get("finished") or []}
        out = []
        for rank, player in enumerate(view.get("ranking") or [], start=1):
            tail = " " + _("g{n}").format(n=(view.get("gobbles") or {}).get(player, 0))
            if player in finished:
                tail += " " + _(say.RACE_DONE)
            head = f"{rank}. "
            out.append(head + clip(str(player), max(1, room - len(head) - len(tail))) + tail)
        return out
    mode = view.get("mode")
    if mode == "solitaire":
        best = view.get("red_line") if view.get("target") == "line" else view.get("red_loop")
        words = (_("red line {best}/{tiles}") if view.get("target") == "line"
                 else _("red loop {best}/{tiles}"))
        first = [words.format(best=best, tiles=view.get("red_tiles"))]
    elif mode == "rainbow":
        longest = max((int(s.get("line", 0)) for s in (view.get("scores") or {}).values()),
                      default=0)
        first = [_("longest line {n}/{size}").format(n=longest, size=view.get("size"))]
    else:
        pile = " ".join(map(str, (view.get("discard") or [])[-3:]))
        first = [_("gobbles: {n}").format(n=view.get("gobbles", 0)),
                 _("discard: {tiles}").format(tiles=pile) if pile else _("no discard")]
    second = (_(say.SOLVED) if view.get("solved")
              else _("{placed} placed").format(placed=view.get("placed", 0)))
    return [*first, second]


# -- placing a tile ------------------------------------------------------------------------------


def draw_tick(draw: ImageDraw.ImageDraw, x: int, y: int, ok: bool, fill: Colour) -> None:
    """A 7x7 tick (the tile fits as turned) or cross (it clashes)."""
    if ok:
        draw.line([(x, y + 4), (x + 2, y + 6), (x + 6, y)], fill=fill, width=2)
    else:
        draw.line([(x, y), (x + 6, y + 6)], fill=fill, width=2)
        draw.line([(x, y + 6), (x + 6, y)], fill=fill, width=2)


def _draw_place(
    draw: ImageDraw.ImageDraw,
    palette: Palette,
    view: Mapping[str, Any],
    entry: Mapping[str, Any],
    width: int,
    height: int,
    tall: bool,
    error: str | None,
    page: int = 0,
) -> None:
    """The candidate spot on a small map with the tile on it as turned, which legal spot of
    how many, the turn, and whether it fits; a refusal's reason below (or instead, on a short
    panel)."""
    turn = view.get("turn")
    forced = bool(entry.get("spot_is_forced"))
    where = f"{int(entry.get('spot_index') or 0) + 1}/{int(entry.get('spot_count') or 0)}"
    title = _("{player}: tile {tile}").format(player=player_name(view, str(turn)),
                                               tile=entry.get("tile"))
    if view.get("mode") in say.SOLO_TITLES:  # one player: the tile is the news
        title = _("tile {tile}").format(tile=entry.get("tile"))
    y = draw_title_bar(
        draw,
        palette,
        title,
        width,
        right=("!" if forced else "") + where,
        fill=_player_fill(palette, turn),
        ink=_ink_on(palette, turn),
    )
    spot = entry.get("spot") or [0, 0]
    centre = (int(spot[0]), int(spot[1]))
    legal = bool(entry.get("legal"))
    rotation = int(entry.get("rotation") or 0)
    rim = palette.foreground if legal else palette.warning
    around = entry.get("around") or []
    if error and not tall:
        _draw_refusal_page(draw, palette, error, width, height, top=y, page=page)
        return
    names = CellNames.of_view(view)
    if tall:
        map_bottom = y + 72
        x = 86
        draw_local_map(draw, palette, around, centre, names, (0, y, x - 3, map_bottom), 9.0,
                       rim=rim)
        info: list[tuple[str, Colour]] = [
            (_("forced") if forced else _("spot"),
             palette.warning if forced else palette.foreground),
            (where, palette.foreground),
            (_("at {cell}").format(cell=names.name(*centre)), palette.foreground),
            (_("rot. {n}").format(n=rotation), palette.foreground),  # a narrow column
        ]
        for i, (text, ink) in enumerate(info):
            draw_text(draw, x, y + 1 + i * PITCH, clip(text, columns(width - x)), ink)
        tick_y = y + 1 + len(info) * PITCH
        draw_tick(draw, x, tick_y, legal, palette.foreground if legal else palette.warning)
        draw_text(draw, x + 10, tick_y, _("fits") if legal else _("clash"), rim)
        below = map_bottom + 1
        if error:
            _draw_refusal_box(draw, palette, error, width, below, height - 1, page=page)
            return
        _draw_sides_table(draw, palette, entry, 1, below + 1)
        draw_footer(draw, palette, _("A/B:spot C:rot. #:lay"), width, height)
        return
    divider = 58
    draw_local_map(draw, palette, around, centre, names, (0, y, divider - 1, height - 1), 6.0,
                   rim=rim)
    draw.line((divider, y, divider, height - 1), fill=palette.dim)
    draw_tile_inset(draw, palette, entry, ((divider + width) / 2, y + 17), 9.0)
    bottom = height - LINE_HEIGHT
    turned = _("rotation {n}").format(n=rotation)
    if divider + 3 + text_width(turned) > width - 11:  # clear of the tick
        turned = _("rot. {n}").format(n=rotation)
    draw_text(draw, divider + 3, bottom, turned, palette.foreground)
    draw_tick(draw, width - 9, bottom, legal, palette.foreground)


def draw_tile_inset(
    draw: ImageDraw.ImageDraw,
    palette: Palette,
    entry: Mapping[str, Any],
    centre: tuple[float, float],
    radius: float,
) -> None:
    """The tile in hand, large, a colour letter outside each side as it is turned; a letter
    that clashes with the colour of the tile it faces is drawn reversed in a box."""
    colours = [str(c) for c in entry.get("colours") or []]
    facing = list(entry.get("facing") or [None] * 6)
    cx, cy = centre
    draw.polygon(_rounded(_corners(cx, cy, radius)), outline=palette.foreground)
    for _band, a, b in _bands(colours):
        _draw_band(draw, cx, cy, radius, a, b, palette.foreground, 1)
    for side, colour in enumerate(colours):
        lx, ly = _side_point(cx, cy, radius * math.sqrt(3) / 2 + 7, side)
        letter = colour_letter(colour)
        x, y = round(lx) - 2, round(ly) - 3
        other = facing[side] if side < len(facing) else None
        if other is not None and other != colour:
            draw.rectangle((x - 2, y - 2, x + CHAR_WIDTH, y + 8), fill=palette.foreground)
            draw_text(draw, x, y, letter, palette.background)
        else:
            draw_text(draw, x, y, letter, palette.foreground)


def _draw_sides_table(
    draw: ImageDraw.ImageDraw, palette: Palette, entry: Mapping[str, Any], x: int, y: int
) -> None:
    """Two rows, side by side NE..NW: the tile's colours as turned, and the colours the
    neighbours show towards it (``.`` where no tile touches); a clash is framed."""
    colours = [str(c) for c in entry.get("colours") or []]
    facing = list(entry.get("facing") or [None] * 6)
    draw_text(draw, x, y, _("tile"), palette.dim)
    draw_text(draw, x, y + PITCH, _("faces"), palette.dim)
    left = x + 9 * CHAR_WIDTH  # room for the label "tile" in every language (cs "destička")
    for side, colour in enumerate(colours):
        cx = left + side * (CHAR_WIDTH + 4)
        other = facing[side] if side < len(facing) else None
        if other is not None and other != colour:
            draw.rectangle((cx - 2, y - 2, cx + CHAR_WIDTH, y + PITCH + 7), outline=palette.warning)
        draw_text(draw, cx, y, colour_letter(colour), _letter_colour(palette, colour))
        mark = "." if other is None else colour_letter(other)
        draw_text(draw, cx, y + PITCH, mark, _letter_colour(palette, other))


# -- the D menu and its pages --------------------------------------------------------------------

#: Menu entries shortened to fit a menu line (17 characters beside the key and the marks
#: of a list that scrolls), in every language.
_SHORT = {
    "Undo last placement": N_("Undo last tile"),
    say.DISCARD: N_("Discard tile"),
    say.RETURN: N_("Return discard"),
    say.PLAY_TOP: N_("Play discard"),
    say.UNDO: N_("Undo last step"),
}


def _draw_menu(
    draw: ImageDraw.ImageDraw, palette: Palette, entry: Mapping[str, Any], width: int, height: int
) -> None:
    lines = [str(line) for line in entry.get("lines") or []]
    lines = [f"{key} {_(_SHORT.get(item, item))}"
             for key, _space, item in (line.partition(" ") for line in lines)]
    cursor = int(entry.get("cursor") or 0)
    top = draw_title_bar(draw, palette, _("Menu"), width, right=f"{cursor + 1}/{len(lines)}")
    keys = _("1-{n}/#: choose *: back").format(n=len(lines))  # menus have 1 to 5 entries
    bottom = draw_footer(draw, palette, keys, width, height)
    draw_list(draw, palette, [(line, "") for line in lines], cursor, width, top, bottom)


def _draw_scores_page(
    draw: ImageDraw.ImageDraw, palette: Palette, view: Mapping[str, Any], width: int, height: int
) -> None:
    """A small table: each player's longest line, largest loop and points."""
    top = draw_title_bar(draw, palette, _("Scores"), width,
                         right=_("{n} tiles").format(n=view.get("placed", 0)))
    players = list(view.get("players") or [])
    if top + PITCH * (len(players) + 1) + PITCH <= height:  # room for the hint below
        draw_footer(draw, palette, _("any key: back"), width, height)
    draw_text_right(draw, width - 1, top, _("line loop pts"), palette.dim)
    scores = view.get("scores") or {}
    y = top + PITCH
    for p in players:
        s = scores.get(p) or {}
        numbers = f"{s.get('line', 0):>4}{s.get('loop', 0):>5}{s.get('points', 0):>4}"
        draw_text(draw, 1, y, clip(player_name(view, p), 7), _letter_colour(palette, p))
        draw_text_right(draw, width - 1, y, numbers, palette.foreground)
        y += PITCH


def _draw_forced_page(
    draw: ImageDraw.ImageDraw,
    palette: Palette,
    view: Mapping[str, Any],
    entry: Mapping[str, Any],
    width: int,
    height: int,
    tall: bool,
) -> None:
    """One open forced space on a small map, with the colours its neighbours show it."""
    forced = view.get("forced") or []
    cursor = int(entry.get("cursor") or 0)
    right = f"{cursor % len(forced) + 1}/{len(forced)}" if forced else _("none")
    top = draw_title_bar(draw, palette, _("Forced spaces"), width, right=right)
    bottom = height - BAR - 3  # the footer's, drawn once the map is
    if not forced:
        draw_text(draw, 1, top, _("no forced space"), palette.foreground)
        draw_footer(draw, palette, _("A/B: next, key: back"), width, height)
        return
    spot = entry.get("spot") or forced[cursor % len(forced)]
    centre = (int(spot[0]), int(spot[1]))
    map_right = 82 if tall else 58
    radius = 9.0 if tall else 6.0
    names = CellNames.of_view(view)
    draw_local_map(draw, palette, entry.get("around") or [], centre, names,
                   (0, top, map_right, bottom), radius, rim=palette.warning)
    draw_footer(draw, palette, _("A/B: next, key: back"), width, height)  # the map cleared it
    x = map_right + 3
    where = clip(_("at {cell}").format(cell=names.name(*centre)), columns(width - x))
    draw_text_right(draw, width - 1, top, where, palette.foreground)
    inset = ((x + width) / 2, (top + PITCH + bottom) / 2)
    _draw_space_inset(draw, palette, list(entry.get("facing") or []), inset, 8.0 if tall else 6.0)


def _draw_space_inset(
    draw: ImageDraw.ImageDraw,
    palette: Palette,
    facing: Sequence[str | None],
    centre: tuple[float, float],
    radius: float,
) -> None:
    """An empty space with, outside each side, the colour the tile there shows it."""
    cx, cy = centre
    draw.polygon(_rounded(_corners(cx, cy, radius)), outline=palette.warning)
    for side, colour in enumerate(facing):
        if colour is None:
            continue
        lx, ly = _side_point(cx, cy, radius * math.sqrt(3) / 2 + 6, side)
        x, y = round(lx) - 2, round(ly) - 3
        draw_text(draw, x, y, colour_letter(colour), _letter_colour(palette, colour))


def _draw_undo(
    draw: ImageDraw.ImageDraw,
    palette: Palette,
    view: Mapping[str, Any],
    entry: Mapping[str, Any],
    width: int,
    height: int,
) -> None:
    top = draw_title_bar(
        draw, palette, _("Undo?"), width, fill=palette.warning, ink=palette.on_warning
    )
    bottom = draw_footer(draw, palette, _("#: undo  *: keep it"), width, height)
    tile, spot = entry.get("tile"), entry.get("spot")
    at = CellNames.of_view(view).name(*spot) if spot else ""
    words = (_("take back tile {tile} at {cell}").format(tile=tile, cell=at)
             if spot else _("take back tile {tile}").format(tile=tile))
    words += _("; the correction is journaled")
    draw_paragraph(draw, palette, words, 0, width - 1, top, bottom)


# -- refusals ------------------------------------------------------------------------------------


def refusal_title(error: str) -> tuple[str, str]:
    """The title (``"No: golden rule"``, or ``"Not possible"``) and the words under it."""
    rule, detail = split_refusal(error)
    detail = refusal_in_words(detail)
    return (_("No: {rule}").format(rule=_(rule)) if rule else _("Not possible")), detail


def _draw_refusal_page(
    draw: ImageDraw.ImageDraw,
    palette: Palette,
    error: str,
    width: int,
    height: int,
    *,
    top: int = 0,
    page: int = 0,
) -> None:
    """A short panel gives all the room below ``top`` to the reason."""
    _draw_refusal_box(draw, palette, error, width, top, height - 1, page=page)


def _draw_refusal_box(
    draw: ImageDraw.ImageDraw,
    palette: Palette,
    error: str,
    width: int,
    top: int,
    bottom: int,
    *,
    page: int = 0,
) -> None:
    """The rule in a warning bar and the reason under it, over whatever was below ``top``,
    paged when it is longer than the box (:func:`draw_refusal_box`)."""
    title, detail = refusal_title(error)
    if len(title) > columns(width - 3) - 4:  # the rule whole, as the reason's first words
        rule, _detail = split_refusal(error)
        title, detail = _("No"), f"{_(rule or '')}: {detail}"
    draw_refusal_box(draw, palette, title, detail, (0, top, width - 1, bottom), page=page)


def screen(view: Mapping[str, Any], *, size: tuple[int, int], mode: str) -> Image.Image:
    """The registry's entry to this game's OLED screen."""
    return tantrix_screen(view, size=size, mode=mode)
