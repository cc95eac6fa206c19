"""The Tamsk table screen: the six hourglasses, rings, whose turn, the 15-second timer, warnings.

``table_screen(view)`` draws the state a player glances at between moves. Red's side is always
on the left and black's on the right, in the header (name and rings left; the box of the player
on turn is filled) and in the columns of glasses below it, so a player finds his own glasses
without reading. When the neutral 15-second timer runs, its countdown shows in large digits
under the glasses. The latest warning sits in a bar at the bottom.

On a 128x64 panel (SSD1306, SH1106) the glasses show a sand bar and seconds, and the countdown
takes the line under them; from 112 rows up (the 128x128 SSD1351) each glass also shows its
space. The countdown never hides a glass.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from companion import numbers
from companion.i18n import _
from companion.screens.digits import digits_width, draw_digits
from companion.screens.layout import BAR as WARNING_BAR
from companion.screens.layout import draw_warning_bar
from companion.screens.palette import Colour, Palette, Size, blank
from companion.screens.text import (
    LINE_HEIGHT,
    clip,
    columns,
    draw_text,
    draw_text_right,
    printable,
    text_width,
    wrap,
)
from companion.tamsk.view import (
    LOW_SAND,
    PLAYERS,
    TableView,
    clock_text,
    countdown_number,
    read_table_view,
    seconds_text,
)
from companion.tamsk.words import entry_in_words, penalty_in_words

#: From this height on, the roomier layout (spaces shown, countdown beside the glasses) is used.
TALL_HEIGHT = 112
#: Tallest countdown digits on a short panel (the room under the glasses is less anyway).
COMPACT_COUNTDOWN = 41
#: The countdown turns to the warning colour for its last seconds, like the buzzer's ticks.
COUNTDOWN_WARNING = 5

_GLASS_COLUMNS = {"red": ("r1", "r2", "r3"), "black": ("b1", "b2", "b3")}


def table_screen(
    view: Mapping[str, Any], *, size: Size = (128, 64), mode: str = "1"
) -> Image.Image:
    """Draw the table screen for ``view`` on a new image of ``size`` and ``mode``.

    ``view`` is the object ``companion simulate --json`` prints for Tamsk, plus the display
    extras ``level`` (1-3, default 3), ``periods`` ({glass: seconds}), ``names``
    ({"red": ..., "black": ...}), ``warning`` (text or None), ``show_sand_seconds`` (default
    True; False shows bars only), ``bonus_ring`` (the player who may drop a second ring, or
    None) and ``in_hand`` (the glass lifted and not yet set down, or None).

    Example::

        image = table_screen(state, size=device.size, mode=device.mode)
        device.display(image)

    A malformed view raises :class:`ValueError` naming the field; nothing is drawn then.
    """
    image, palette = blank(size, mode)
    state = read_table_view(view)
    draw = ImageDraw.Draw(image)
    width, height = image.size
    if height >= TALL_HEIGHT:
        _draw_tall(draw, palette, state, width, height)
    else:
        _draw_compact(draw, palette, state, width, height)
    if state.warning:
        draw_warning_bar(draw, palette, state.warning, width, height, page=state.warning_page)
    return image


# -- pieces shared by both layouts --------------------------------------------------------------


def _column(player: str, width: int) -> tuple[int, int]:
    """Left and right (inclusive) pixel columns of a player's half: red left, black right."""
    half = width // 2
    return (0, half - 2) if player == "red" else (half + 1, width - 1)


def _draw_ring_icon(draw: ImageDraw.ImageDraw, x: int, y: int, fill: Colour) -> None:
    """A small ring (5x5) drawn before a ring count, so the number reads as "rings left"."""
    draw.ellipse((x, y + 1, x + 4, y + 5), outline=fill)


def said_seconds(sand: float) -> str:
    """A glass's seconds (:func:`seconds_text`) with the players' decimal mark: ``9,4``."""
    return seconds_text(sand).replace(".", numbers.cldr().decimal)


def _draw_header(
    draw: ImageDraw.ImageDraw, palette: Palette, state: TableView, width: int, box_height: int
) -> None:
    """Each player's name and rings left; the half of the player on turn is filled.

    Only the player on turn gets a box at all, so on a one-bit panel the turn reads as "which
    half is lit" from across the table.
    """
    text_y = (box_height - 7) // 2
    for player in PLAYERS:
        left, right = _column(player, width)
        if player == state.turn and not state.over:
            draw.rectangle((left, 0, right, box_height - 1), fill=palette.player(player))
            ink = palette.on_fill
        else:
            ink = palette.player(player)
        rings = str(state.rings_left[player]) + ("+" if state.bonus_ring == player else "")
        rings_left_edge = right - 1 - text_width(rings)
        name = printable(state.name(player))
        name_x, room = left + 2, columns(rings_left_edge - 8 - (left + 2))
        if len(name) > room:  # the ring before the count gives way to the name (ČERVENÝ),
            name_x = left + 1  # and the second ring's "+" (the line under the glasses says it)
            rings = rings.rstrip("+") if len(name) > columns(
                right - text_width(rings) - 4 - name_x) else rings
            room = columns(right - text_width(rings) - 4 - name_x)
        else:
            _draw_ring_icon(draw, rings_left_edge - 7, text_y, ink)
        draw_text(draw, name_x, text_y, clip(name, room), ink)
        draw_text_right(draw, right, text_y, rings, ink)


def _draw_bar(
    draw: ImageDraw.ImageDraw,
    palette: Palette,
    box: tuple[int, int, int, int],
    fraction: float,
    fill: Colour,
) -> None:
    """An outlined bar filled from the left by ``fraction`` (any sand at all shows a sliver)."""
    left, top, right, bottom = box
    draw.rectangle(box, outline=palette.dim)
    inner = right - left - 1
    if inner <= 0 or fraction <= 0:
        return
    filled = max(1, min(inner, round(inner * fraction)))
    draw.rectangle((left + 1, top + 1, left + filled, bottom - 1), fill=fill)


def _draw_cross(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], fill: Colour) -> None:
    left, top, right, bottom = box
    draw.line((left, top, right, bottom), fill=fill)
    draw.line((left, bottom, right, top), fill=fill)


def label_box(x: int, y: int) -> tuple[int, int, int, int]:
    """The box around a glass's name drawn at ``(x, y)``, filled when the glass is in hand."""
    return (x, y - 1, x + 13, y + 7)


def _draw_label(
    draw: ImageDraw.ImageDraw, palette: Palette, state: TableView, glass: str, x: int, y: int
) -> None:
    """The glass's name in its owner's colour; filled behind when the glass is in hand."""
    colour = palette.player(state.glasses[glass].owner)
    if state.in_hand == glass:
        draw.rectangle(label_box(x, y), fill=colour)
        draw_text(draw, x + 1, y, glass, palette.on_fill)
    else:
        draw_text(draw, x + 1, y, glass, colour)


def _sand_colours(palette: Palette, state: TableView, glass: str) -> tuple[Colour, Colour]:
    """Colours of the bar and of the seconds: the warning colour when a running glass is low."""
    info = state.glasses[glass]
    if info.dead:
        return palette.dim, palette.dim
    if info.running and 0 < info.sand < LOW_SAND:
        return palette.warning, palette.warning
    return palette.sand, palette.foreground


def _draw_glass_row(
    draw: ImageDraw.ImageDraw,
    palette: Palette,
    state: TableView,
    glass: str,
    x: int,
    y: int,
    right: int,
) -> None:
    """One glass on one text line from column ``x`` to ``right`` (inclusive).

    Level 1: its space. Levels 2-3: a sand bar and the seconds left (or a longer bar alone).
    A dead glass says ``dead`` where its sand was and its row is struck through: a corner to
    corner cross over a row nine pixels high would be too flat to read, and one over the name
    alone would hide which glass died.
    """
    info = state.glasses[glass]
    _draw_label(draw, palette, state, glass, x, y)
    cursor = x + 16
    if state.level == 1:
        draw_text(draw, cursor, y, info.space or "--", palette.foreground)
    elif info.dead:
        draw_text(draw, cursor, y, _("dead"), palette.dim)
    else:
        bar_colour, text_colour = _sand_colours(palette, state, glass)
        bar_right = right
        if state.show_sand_seconds:
            draw_text_right(draw, right + 1, y, said_seconds(info.sand), text_colour)
            bar_right = right - 3 * 6 - 2
        fraction = info.sand / state.period(glass)
        _draw_bar(draw, palette, (cursor, y, bar_right, y + 6), fraction, bar_colour)
    if info.dead:
        draw.line((x, y + 3, right, y + 3), fill=palette.foreground)


def _named(words: str, name: str, room: int) -> str:
    """``words`` (a message with a ``{player}``) said of ``name``, the name cut rather than
    the message when they do not fit in ``room`` characters."""
    whole = words.format(player=name)
    if len(whole) <= room:
        return whole
    return words.format(player=clip(name, max(2, len(name) - (len(whole) - room))))


def _status_text(state: TableView, room: int) -> str:
    """The one-line news beside the clock: the result, the glass in hand, a second ring."""
    if state.over:
        if state.winner in PLAYERS:
            return _named(_("{player} wins"), state.name(str(state.winner)), room)
        return _("tie") if state.winner == "tie" else _("game over")
    if state.in_hand:
        return _("{glass} in hand").format(glass=state.in_hand)
    if state.bonus_ring:
        return _named(_("{player}: 2nd ring"), state.name(state.bonus_ring), room)
    return ""


def _draw_countdown(
    draw: ImageDraw.ImageDraw,
    palette: Palette,
    state: TableView,
    x: int,
    top: int,
    bottom: int,
    *,
    centre_in: int | None = None,
    tallest: int = 56,
) -> int:
    """The 15-second countdown in digits as tall as ``top..bottom`` allows; returns its right edge.

    Whole seconds, rounded up: 15 when turned, 1 in its last second. The digits are always two
    wide (`` 9``) so they do not jump sideways as the count drops.
    """
    height = min(bottom - top + 1, tallest)
    number = countdown_number(state.timer_remaining)
    colour = palette.warning if number <= COUNTDOWN_WARNING else palette.foreground
    text = f"{min(number, 99):2d}"
    if centre_in is not None:
        text = text.strip()
        x = x + (centre_in - digits_width(text, height)) // 2
    return draw_digits(draw, x, top + (bottom - top + 1 - height) // 2, text, height, colour)


# -- 128x64 and other short panels ---------------------------------------------------------------


def _draw_compact(
    draw: ImageDraw.ImageDraw, palette: Palette, state: TableView, width: int, height: int
) -> None:
    header = 10
    _draw_header(draw, palette, state, width, header)
    rows = [header + 2 + i * (LINE_HEIGHT + 1) for i in range(3)]
    status_y = rows[-1] + LINE_HEIGHT + 2
    for player in PLAYERS:
        left, right = _column(player, width)
        for glass, y in zip(_GLASS_COLUMNS[player], rows, strict=True):
            _draw_glass_row(draw, palette, state, glass, left, y, right)
    if state.timer_running:
        # The countdown sits under the six glasses, never over them: the player it runs against
        # is choosing which glass to move, and his opponent watches all of them too. The clock
        # keeps the left of its line; the digits are as tall as the room down to the warning
        # bar (or the bottom edge when no warning shows).
        clock = clock_text(state.t)
        draw_text(draw, 1, status_y, clock, palette.dim)
        bottom = height - WARNING_BAR - 2 if state.warning else height - 1
        left = text_width(clock) + 4
        _draw_countdown(draw, palette, state, left, status_y - 1, bottom,
                        centre_in=width - 2 * left, tallest=COMPACT_COUNTDOWN)
        return
    clock = clock_text(state.t)
    status = _status_text(state, columns(width - 2))
    if len(status) + 1 + len(clock) <= columns(width - 2):  # else the news whole, no clock
        draw_text(draw, 1, status_y, clock, palette.dim)
    draw_text_right(draw, width - 1, status_y, status, palette.foreground)


# -- 128x128 and other tall panels ---------------------------------------------------------------


def _draw_glass_block(
    draw: ImageDraw.ImageDraw,
    palette: Palette,
    state: TableView,
    glass: str,
    x: int,
    y: int,
    right: int,
) -> int:
    """One glass on a tall panel: name, space and seconds on a line, the bar below; its height."""
    info = state.glasses[glass]
    _draw_label(draw, palette, state, glass, x, y)
    draw_text(draw, x + 18, y, info.space or "--", palette.foreground)
    if state.level == 1:
        block = LINE_HEIGHT
    else:
        bar_colour, text_colour = _sand_colours(palette, state, glass)
        if info.dead:  # the word on the bar's row: beside the space a long one would meet it
            draw_text(draw, x + 3, y + 10, _("dead"), palette.dim)
        else:
            if state.show_sand_seconds:
                draw_text_right(draw, right + 1, y, said_seconds(info.sand), text_colour)
            fraction = info.sand / state.period(glass)
            _draw_bar(draw, palette, (x + 1, y + 10, right - 1, y + 16), fraction, bar_colour)
        block = 17
    if info.dead:
        _draw_cross(draw, (x, y - 1, right, y + block - 1), palette.foreground)
    return block


def _draw_tall(
    draw: ImageDraw.ImageDraw, palette: Palette, state: TableView, width: int, height: int
) -> None:
    header = 12
    _draw_header(draw, palette, state, width, header)
    pitch = LINE_HEIGHT + 2 if state.level == 1 else 20
    bottom = header
    for player in PLAYERS:
        left, right = _column(player, width)
        for i, glass in enumerate(_GLASS_COLUMNS[player]):
            y = header + 4 + i * pitch
            bottom = max(bottom, y + _draw_glass_block(draw, palette, state, glass, left, y, right))
    top = bottom + 4
    last = height - WARNING_BAR - 3
    if state.timer_running:
        _draw_countdown(draw, palette, state, 0, top, last, centre_in=width)
        return
    lines = [f"{clock_text(state.t)}  " + _("level {n}").format(n=state.level)]
    status = _status_text(state, columns(width - 2))
    if status:
        lines.append(status)
    if state.penalties:
        last_penalty = state.penalties[-1]
        head, at = penalty_in_words(last_penalty.kind), clock_text(last_penalty.t)
        lines += wrap(f"{head} {printable(state.name(last_penalty.player))} {at}",
                      columns(width - 2))
    for i, line in enumerate(lines):
        y = top + i * (LINE_HEIGHT + 1)
        if y + LINE_HEIGHT > last + 1:
            break
        draw_text(draw, 1, y, clip(printable(line), columns(width - 2)), palette.foreground)


def menu_back_key(view: Mapping[str, Any]) -> str:
    """What ``*`` does in the new-game menu, as its footer says: clear the digits typed, else
    close the menu back to the game in play (the key map's "closes a dialog"); with no game
    behind the menu and nothing typed, it does nothing, and the footer says nothing."""
    if view.get("entry"):
        return _("*: clear")
    return _("*: back") if view.get("game") is not None else ""


def screen(view: Mapping[str, Any], *, size: tuple[int, int], mode: str) -> Image.Image:
    """The screen a Tamsk table shows for its view: the new-game menu while paused or before a
    game, the arbiter's menu, the result, or the glasses."""
    from companion.screens.menus import text_screen, with_prompt
    from companion.tamsk.result_screen import result_screen

    if view.get("paused") or view.get("game") is None:  # the digits typed in the title bar
        back = menu_back_key(view)
        return text_screen(
            _("New game"),
            [_("level 1-3,"), _("rules 1 adj. 2 orig.,"), _("start 1 std. 2 free,"),
             _("then #. 31# = level 3"), *([back] if back else [])],
            right=f"> {view.get('entry', '')}_",
            size=size,
            mode=mode,
        )
    if view.get("arbiter"):
        lines = [str(line) for line in view["arbiter"]]
        return text_screen(lines[0] if lines else _("Arbiter"), lines[1:],
                           page=int(view.get("arbiter_page") or 0), size=size, mode=mode)
    if view.get("error"):  # a refusal, whole, until the next input
        from companion.screens import error_screen

        return error_screen(str(view["error"]), title=_("Refused"), hint=_("move or key: back"),
                            size=size, mode=mode, page=int(view.get("error_page") or 0))
    if view.get("over"):
        return result_screen(view, size=size, mode=mode)
    image = table_screen(view, size=size, mode=mode)
    if view.get("entry"):
        image = with_prompt(image, _("to"), entry_in_words(str(view["entry"]), view.get("turn")))
    return image
