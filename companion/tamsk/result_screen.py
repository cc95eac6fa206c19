"""The result screen: who won, why in plain words, and the order the glasses ran out.

``result_screen(view)`` takes the same object as the table screen (the ``simulate`` output and
its display extras). Its pure helpers are exported too: :func:`reason_in_words` for the words
the daemon may also speak or log, and :func:`run_out_order` for the time tie-break.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from companion import numbers
from companion.i18n import _
from companion.screens.layout import PITCH, draw_title_bar
from companion.screens.palette import Palette, Size, blank
from companion.screens.text import (
    LINE_HEIGHT,
    clip,
    columns,
    draw_text,
    printable,
    text_width,
    wrap,
)
from companion.tamsk.view import GLASSES, PLAYERS, TableView, read_table_view
from companion.tamsk.words import reason_in_words

__all__ = ["reason_in_words", "result_screen", "run_out_order"]

def run_out_order(view: Mapping[str, Any]) -> list[tuple[str, float | None]]:
    """Every glass with the game time its sand ran out, last to run out first.

    A dead glass ran out at ``died_at``; a living glass with sand runs out at ``t + sand``;
    a glass that never held sand has no time and comes last. This is the order the time
    tie-break looks at (the player whose last glass runs out last wins).
    """
    state = read_table_view(view)
    return _order(state)


def _order(state: TableView) -> list[tuple[str, float | None]]:
    times: list[tuple[str, float | None]] = []
    for glass in GLASSES:
        info = state.glasses[glass]
        if info.dead:
            times.append((glass, info.died_at if info.died_at is not None else state.t))
        elif info.sand > 0:
            times.append((glass, state.t + info.sand))
        else:
            times.append((glass, None))
    known = sorted((g for g in times if g[1] is not None), key=lambda g: -(g[1] or 0.0))
    return known + [g for g in times if g[1] is None]


def _decimals(times: list[float]) -> int:
    """Digits after the point needed to tell the run-out times apart (1 to 3)."""
    for decimals in (1, 2):
        shown = [round(t, decimals) for t in times]
        if len(set(shown)) == len(set(times)):
            return decimals
    return 3


def _headline(state: TableView) -> str:
    if not state.over:
        return _("Game not over")
    if state.winner in PLAYERS:
        return _("{player} wins").format(player=state.name(str(state.winner)))
    if state.winner == "tie":
        return _("Tie")
    return _("Game stopped")


def _reason_line(state: TableView) -> str:
    if state.winner == "tie" and state.reason in (None, "rings", "tie"):
        return _("equal rings")
    words = reason_in_words(state.reason)
    if state.reason in ("full-space", "full_space") and state.winner in PLAYERS:
        loser = "black" if state.winner == "red" else "red"
        return f"{state.name(loser)} {words}"
    if state.reason in ("rings", "time-tiebreak", "time_tiebreak"):
        return _("by {reason}").format(reason=words)
    return words


def result_screen(
    view: Mapping[str, Any], *, size: Size = (128, 64), mode: str = "1"
) -> Image.Image:
    """The end of a game: the winner in the title bar, the reason, then the rings left or,
    after a time tie-break, the glasses in the order they ran out with their times."""
    image, palette = blank(size, mode)
    state = read_table_view(view)
    draw = ImageDraw.Draw(image)
    width, height = image.size
    fill = palette.player(str(state.winner)) if state.winner in PLAYERS else palette.accent
    y = draw_title_bar(draw, palette, _headline(state), width, fill=fill)
    room = columns(width - 2)
    for line in wrap(_reason_line(state), room, max_lines=2):
        draw_text(draw, 1, y, line, palette.foreground)
        y += PITCH
    challenge = view.get("challenge")
    if isinstance(challenge, Mapping) and isinstance(challenge.get("text"), str):
        # a GIPF potential challenge: what it decided (or that a tie decided nothing)
        for line in wrap(printable(challenge["text"]), room, max_lines=2):
            draw_text(draw, 1, y, line, palette.accent)
            y += PITCH
        if y + 2 * PITCH > height:
            return image
    tie_break = state.reason in ("time-tiebreak", "time_tiebreak") and state.level >= 2
    if not tie_break or height >= 112:
        y = _draw_rings(draw, state, palette, width, y)
    if tie_break:
        _draw_run_out(draw, state, palette, width, height, y)
    return image


def _draw_rings(
    draw: ImageDraw.ImageDraw, state: TableView, palette: Palette, width: int, y: int
) -> int:
    """Rings left per player, red on the left and black on the right as on the table screen."""
    half = width // 2
    draw_text(draw, 1, y, _("rings left"), palette.dim)
    y += PITCH
    for player, left in (("red", 0), ("black", half + 1)):
        count = str(state.rings_left[player])
        name = clip(printable(state.name(player)), columns(half - 2) - len(count) - 1)
        draw_text(draw, left + 1, y, name, palette.player(player))
        draw_text(draw, left + 1 + text_width(name + " "), y, count, palette.foreground)
    return y + PITCH + 1


def _draw_run_out(
    draw: ImageDraw.ImageDraw,
    state: TableView,
    palette: Palette,
    width: int,
    height: int,
    y: int,
) -> None:
    """The glasses, last to run out first, ranked, with the game second each ran out.

    One glass a line, as many as fit: on a 128x64 panel the top three, which are the ones a
    time tie-break compares (each player's last glass, and the one before them when those two
    ran out within a millisecond).
    """
    order = _order(state)
    known = [t for _, t in order if t is not None]
    decimals = _decimals(known) if known else 1
    draw_text(draw, 1, y, _("last to run out:"), palette.dim)
    y += PITCH
    room = columns(width - 2)
    for rank, (glass, t) in enumerate(order, start=1):
        if y + LINE_HEIGHT > height:
            break
        owner = "red" if glass.startswith("r") else "black"
        time = "--" if t is None else numbers.seconds(t, decimals)  # game seconds
        draw_text(draw, 1, y, f"{rank}.", palette.dim)
        draw_text(draw, 19, y, f"{glass} {time}", palette.player(owner))
        name_x = 19 + text_width(f"{glass} {time} ")
        name = printable(state.name(owner))
        if state.names.get(owner) or len(name) <= room - columns(name_x):  # a colour word
            draw_text(draw, name_x, y, clip(name, room - columns(name_x)), palette.dim)
        y += PITCH  # a colour word too long is left out: the glass's letter says whose it is
