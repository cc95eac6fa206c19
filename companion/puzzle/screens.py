"""The Discovery puzzle screens: the layout so far, and the keypad entry of one tile.

``puzzle_screen(view)`` draws what :meth:`companion.puzzle.table.PuzzleTable.view` returns.
The title bar always names the puzzle and the loop colour to make (on a colour panel the bar is
that colour). Below it, following the keypad dialogue's mode:

* ``tile`` (typing a tile number): the whole layout as a map, how many tiles lie, and SOLVED in
  a filled box once the tiles close the loop;
* ``place``: a small map with the tile in hand on the candidate spot, which spot of how many,
  the tile large with a colour letter on each side (boxed where it clashes), its turn, and a
  tick or a cross for whether it fits;
* ``menu``, ``lift``, ``restart``: the D menu and what it opens;
* a refusal (``view["error"]``): the reason, until the next key, in the players' language
  with its cells named as the map names them (never the engine's axial coordinates).

Tiles are drawn by :func:`companion.tantrix.screens.draw_map`, as on the Tantrix screens.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from companion.i18n import N_, _, ngettext, pgettext
from companion.puzzle.words import in_words
from companion.screens.layout import (
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
    LINE_HEIGHT,
    clip,
    columns,
    draw_text,
    draw_text_centred,
    draw_text_right,
    printable,
    wrap,
)
from companion.tantrix.cellnames import CellNames
from companion.tantrix.screens import (
    BAND_COLOURS,
    board_frame,
    draw_local_map,
    draw_map,
    draw_names,
    draw_tick,
    draw_tile_inset,
)

#: The loop to make, by its colour (tile n's back), as the title bar says it: the colour is
#: said with the word it agrees with (French ``boucle jaune``, Czech ``žlutá smyčka``).
LOOPS = {
    "red": N_("red loop"),
    "yellow": N_("yellow loop"),
    "blue": N_("blue loop"),
    "green": N_("green loop"),
}

#: From this height on, the roomier layout is used (the 128x128 colour panel).
TALL_HEIGHT = 112


def puzzle_screen(
    view: Mapping[str, Any], *, size: Size = (128, 64), mode: str = "1"
) -> Image.Image:
    """Draw the puzzle screen for ``view`` on a new image of ``size`` and ``mode``.

    Example::

        image = puzzle_screen(table.view(), size=device.size, mode=device.mode)
    """
    image, palette = blank(size, mode)
    draw = ImageDraw.Draw(image)
    width, height = image.size
    entry = view.get("entry") or {}
    kind = entry.get("mode", "tile")
    top = _draw_title(draw, palette, view, entry, width)
    error = view.get("error")
    if error:
        said = in_words(str(error), CellNames.of_view(view))  # cells as the map names them
        draw_refusal_box(draw, palette, _("Not possible"), printable(said),
                         (0, top, width - 1, height - 1), page=int(view.get("error_page") or 0))
    elif kind == "place":
        _draw_place(draw, palette, view, entry, width, height, top)
    elif kind == "menu":
        items = [str(line) for line in entry.get("lines") or []]
        keys = _("1-{n}/#: choose *: back").format(n=len(items))
        bottom = draw_footer(draw, palette, keys, width, height)
        lines = [(f"{i + 1} {_(line)}", "") for i, line in enumerate(items)]
        draw_list(draw, palette, lines, int(entry.get("cursor") or 0), width, top, bottom)
    elif kind == "lift":
        _draw_lift(draw, palette, view, entry, width, height, top)
    elif kind == "restart":
        bottom = draw_footer(draw, palette, _("#: restart  *: keep"), width, height)
        count = len(view.get("laid") or [])
        words = ngettext("lift the {count} tile and start again?",
                         "lift all {count} tiles and start again?", count).format(count=count)
        draw_paragraph(draw, palette, words, 0, width - 1, top, bottom)
    else:
        _draw_layout(draw, palette, view, entry, width, height, top)
    warning = view.get("warning")
    if warning and not error:
        draw_warning_bar(draw, palette, str(warning), width, height,
                         page=int(view.get("warning_page") or 0))
    return image


def _colour_panel(palette: Palette) -> bool:
    return isinstance(palette.background, tuple)


def _draw_title(
    draw: ImageDraw.ImageDraw,
    palette: Palette,
    view: Mapping[str, Any],
    entry: Mapping[str, Any],
    width: int,
) -> int:
    """``Discovery 4 | red loop`` (``tile 2  3/5`` while placing), in the loop's colour on a
    colour panel. Where a language's words are longer, the name shortens (``Disc. 4``, ``D4``)
    and, while placing, the loop is said by its colour alone, so neither is cut."""
    colour = str(view.get("colour"))
    fill: Colour | None = None
    ink: Colour | None = None
    if _colour_panel(palette) and colour in BAND_COLOURS:
        fill = BAND_COLOURS[colour]
        ink = (0, 0, 0) if colour in ("yellow", "green") else (255, 255, 255)
    n = view.get("n")
    title = _("Discovery {n}").format(n=n)
    right = _(LOOPS[colour]) if colour in LOOPS else colour
    room = columns(width - 4)
    if entry.get("mode") == "place":
        index, count = int(entry.get("spot_index") or 0), int(entry.get("spot_count") or 0)
        title = _("tile {tile}  {at}/{of}").format(tile=entry.get("tile"), at=index + 1, of=count)
        if len(title) + 1 + len(right) > room:  # the spot count first; the colour word alone
            right = _(colour)
    else:  # a long loop colour (French, Czech) keeps its room: the puzzle's name gives way
        for short in (pgettext("puzzle title", "Disc. {n}"), pgettext("puzzle title", "D{n}")):
            if len(title) + 1 + len(right) <= room:
                break
            title = short.format(n=n)
    if len(right) <= room // 2 or len(title) + 1 + len(right) > room:
        return draw_title_bar(draw, palette, title, width, right=right, fill=fill, ink=ink)
    # The loop's colour whole: the title bar's own layout would cut it at half the bar.
    top = draw_title_bar(draw, palette, "", width, fill=fill, ink=ink)
    bar_ink = palette.on_fill if ink is None else ink
    draw_text_right(draw, width - 1, 1, right, bar_ink)
    draw_text(draw, 2, 1, title, bar_ink)
    return top


def _draw_board(
    draw: ImageDraw.ImageDraw,
    palette: Palette,
    cells: Sequence[Mapping[str, Any]],
    box: tuple[int, int, int, int],
    rim: Colour | None = None,
    largest: float = 9.0,
) -> None:
    """Every cell given, scaled to fit ``box`` (hexagons of at most ``largest`` pixels) and
    centred in it, its rows lettered and its columns numbered as on the Tantrix screens."""
    left, top, right, bottom = box
    if not cells:  # centred, in two lines when the box is narrow for the words
        words = wrap(_("no tile"), columns(right - left + 1))
        first = (top + bottom) // 2 - 4 - (len(words) - 1) * PITCH // 2
        for i, line in enumerate(words):
            draw_text_centred(draw, left, right + 1, first + i * PITCH, line, palette.dim)
        return
    coords = [(int(c["q"]), int(c["r"])) for c in cells]
    frame = board_frame(coords, CellNames.of(coords), box, largest)
    draw_map(draw, palette, cells, frame.origin, (0, 0), frame.radius, rim=rim)
    draw_names(draw, palette, frame)


def _tiles(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [
        {"q": t["q"], "r": t["r"], "tile": t["tile"], "sides": t["sides"]}
        for t in view.get("tiles") or []
    ]


def _draw_layout(
    draw: ImageDraw.ImageDraw,
    palette: Palette,
    view: Mapping[str, Any],
    entry: Mapping[str, Any],
    width: int,
    height: int,
    top: int,
) -> None:
    """The layout on the left (above, on a tall panel), the count and the verdict beside it,
    the number being typed at the bottom."""
    tall = height >= TALL_HEIGHT
    bottom_y = height - LINE_HEIGHT
    n, laid = int(view.get("n") or 0), len(view.get("laid") or [])
    solved = bool(view.get("solved"))
    if tall:
        text_top = bottom_y - 2 * PITCH - 2
        _draw_board(draw, palette, _tiles(view), (0, top, width - 1, text_top - 3), largest=14.0)
        x, y, room = 1, text_top, columns(width - 2)
    else:
        _draw_board(draw, palette, _tiles(view), (0, top, 63, bottom_y - 2))
        draw.line((64, top, 64, bottom_y - 2), fill=palette.dim)
        x, y, room = 67, top, columns(width - 67)
    count = _("{laid}/{n} laid").format(laid=laid, n=n)
    for line in [count] if len(count) <= room else wrap(count, room):  # never cut
        draw_text(draw, x, y, line, palette.foreground)
        y += PITCH
    if solved:
        box = (x - 2, y, width - 1, y + PITCH + 1) if tall else (x - 2, y, width - 1, y + 20)
        draw.rectangle(box, fill=palette.accent)
        draw_text_centred(
            draw, box[0], box[2] + 1, (box[1] + box[3]) // 2 - 4, _("SOLVED"), palette.on_fill
        )
    else:
        draw_text(draw, x, y, clip(_hint(view), room), palette.foreground)
    prompt = _("tile? {typed}_  D:menu").format(typed=entry.get("typed") or "")
    draw_text(draw, 1, bottom_y, clip(prompt, columns(width - 2)), palette.foreground)


def _hint(view: Mapping[str, Any]) -> str:
    """What stands between the layout and a solution, in a few words."""
    problems = [str(p) for p in view.get("problems") or []]
    if any(p.startswith("golden rule") for p in problems):
        return _("clash")
    if any(p.startswith("missing") for p in problems):
        return _("keep going")
    return _("no loop")


def _draw_place(
    draw: ImageDraw.ImageDraw,
    palette: Palette,
    view: Mapping[str, Any],
    entry: Mapping[str, Any],
    width: int,
    height: int,
    top: int,
) -> None:
    """The candidate spot on a small map, the tile large with its side letters, the turn and
    whether it fits."""
    tall = height >= TALL_HEIGHT
    spot = entry.get("spot") or [0, 0]
    centre = (int(spot[0]), int(spot[1]))
    fits = bool(entry.get("fits"))
    rim = palette.foreground if fits else palette.warning
    around = entry.get("around") or []
    divider = 64 if tall else 58
    map_bottom = top + 72 if tall else height - 1
    names = CellNames.of_view(view)
    draw_local_map(draw, palette, around, centre, names, (0, top, divider - 1, map_bottom),
                   9.0 if tall else 6.0, rim=rim)
    draw.line((divider, top, divider, map_bottom), fill=palette.dim)
    draw_tile_inset(draw, palette, entry, ((divider + width) / 2, top + 17), 9.0)
    text_y = top + 38 if tall else height - LINE_HEIGHT
    turn = _("rot. {n}").format(n=entry.get("rotation") or 0)
    draw_text(draw, divider + 3, text_y, turn, palette.foreground)
    draw_tick(draw, width - 9, text_y, fits, palette.foreground if fits else palette.warning)
    if tall:
        draw_footer(draw, palette, _("A/B:spot C:rot. #:lay"), width, height)


def _draw_lift(
    draw: ImageDraw.ImageDraw,
    palette: Palette,
    view: Mapping[str, Any],
    entry: Mapping[str, Any],
    width: int,
    height: int,
    top: int,
) -> None:
    """The layout with the tile to lift marked, and its number."""
    bottom = draw_footer(draw, palette, _("A/B,#: lift  *: back"), width, height)
    pick = entry.get("tile")
    cells = [dict(c, candidate=c["tile"] == pick) for c in _tiles(view)]
    _draw_board(draw, palette, cells, (0, top, 63, bottom), rim=palette.warning)
    draw.line((64, top, 64, bottom), fill=palette.dim)
    room = columns(width - 67)
    draw_text(draw, 67, top, clip(_("lift"), room), palette.foreground)
    draw_text(draw, 67, top + PITCH, clip(_("tile {tile}?").format(tile=pick), room),
              palette.foreground)


def screen(view: Mapping[str, Any], *, size: tuple[int, int], mode: str) -> Image.Image:
    """The registry's entry to this game's OLED screen."""
    return puzzle_screen(view, size=size, mode=mode)
