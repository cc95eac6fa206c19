"""Pieces every screen is built from: a title bar, a scrolling list, a footer, a warning bar.

Each takes the ``ImageDraw`` and the panel's size and palette, so the screens differ only in
what they say, and a 128x128 panel simply shows more lines than a 128x64 one.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import ImageDraw

from companion.screens.palette import Colour, Palette
from companion.screens.text import (
    LINE_HEIGHT,
    clip,
    columns,
    draw_text,
    draw_text_right,
    printable,
    wrap,
)

#: Height of a title bar, a footer and the warning bar; also the pitch of list lines.
BAR = 10
#: Vertical distance between lines of a list.
PITCH = LINE_HEIGHT + 1


def draw_title_bar(
    draw: ImageDraw.ImageDraw,
    palette: Palette,
    title: str,
    width: int,
    *,
    right: str | None = None,
    fill: Colour | None = None,
    ink: Colour | None = None,
) -> int:
    """A filled bar across the top with ``title`` (and ``right`` flush right); returns the first
    free row below it. ``fill`` and ``ink`` default to the accent colour and text on it.

    ``right`` is whole when the title leaves it room; when both are long, each has half."""
    draw.rectangle((0, 0, width - 1, BAR - 1), fill=palette.accent if fill is None else fill)
    ink = palette.on_fill if ink is None else ink
    room = columns(width - 4)
    if right:
        right = clip(printable(right), max(room // 2, room - len(printable(title)) - 1))
        draw_text_right(draw, width - 1, 1, right, ink)
        room -= len(right) + 1
    draw_text(draw, 2, 1, clip(printable(title), room), ink)
    return BAR + 2


def bottom_text_row(height: int) -> int:
    """Where the bottom line's capitals start, so its descenders (and a cursor ``_``) end on
    the last pixel row."""
    return height - LINE_HEIGHT


def draw_footer(
    draw: ImageDraw.ImageDraw, palette: Palette, text: str, width: int, height: int
) -> int:
    """A hint on the bottom line, under a rule; returns the last row free above it."""
    top = height - BAR - 1
    draw.line((0, top, width - 1, top), fill=palette.dim)
    draw_text(
        draw, 1, bottom_text_row(height), clip(printable(text), columns(width - 2)), palette.dim
    )
    return top - 2


def warning_lines(warning: str, width: int) -> list[str]:
    """The warning bar's text wrapped to its width: one line shows at a time (see
    :func:`draw_warning_bar`); :func:`companion.pages.lasting` counts the same lines."""
    return wrap("! " + warning, columns(width - 4))


def draw_warning_bar(
    draw: ImageDraw.ImageDraw,
    palette: Palette,
    warning: str,
    width: int,
    height: int,
    *,
    page: int = 0,
) -> int:
    """The latest warning in a filled bar along the bottom edge (amber on a colour panel);
    returns the last row free above it.

    The bar is one line, so it hides nothing above it (glasses, a countdown); a longer
    warning is wrapped and shown a line at a time, line ``page`` (wrapping round: the table
    counts ``page`` up as time passes, see :mod:`companion.pages`), never cut."""
    top = height - BAR
    draw.rectangle((0, top, width - 1, height - 1), fill=palette.warning)
    lines = warning_lines(warning, width)
    draw_text(draw, 2, bottom_text_row(height), lines[page % len(lines)], palette.on_warning)
    return top - 2


def visible_window(count: int, selected: int, rows: int) -> range:
    """Which of ``count`` lines to show in ``rows`` so that ``selected`` is among them.

    The list scrolls only when the selection would leave the screen, one line at a time, as a
    keypad user expects.
    """
    rows = max(1, rows)
    first = 0 if selected < rows else selected - rows + 1
    return range(first, min(count, first + rows))


def _draw_scroll_marks(
    draw: ImageDraw.ImageDraw,
    palette: Palette,
    width: int,
    top: int,
    bottom: int,
    *,
    above: bool,
    below: bool,
) -> None:
    """Small triangles at the right edge saying that more lines lie above or below."""
    x = width - 5
    if above:
        draw.polygon([(x, top + 3), (x + 4, top + 3), (x + 2, top + 1)], fill=palette.foreground)
    if below:
        draw.polygon(
            [(x, bottom - 3), (x + 4, bottom - 3), (x + 2, bottom - 1)], fill=palette.foreground
        )


def draw_list(
    draw: ImageDraw.ImageDraw,
    palette: Palette,
    lines: Sequence[tuple[str, str]],
    selected: int | None,
    width: int,
    top: int,
    bottom: int,
) -> None:
    """Lines of ``(left, right)`` text from row ``top`` to ``bottom``, the selected one filled.

    ``right`` is drawn flush right (a setting's value); either may be empty. The list scrolls
    to keep ``selected`` in view, with marks at the edge when lines are hidden.
    """
    rows = max(1, (bottom - top + 2) // PITCH)
    window = visible_window(len(lines), selected or 0, rows)
    scrolled = window.start > 0 or window.stop < len(lines)
    text_right = width - 1 - (7 if scrolled else 0)
    for row, index in enumerate(window):
        y = top + 1 + row * PITCH
        left_text, right_text = lines[index]
        ink = palette.foreground
        if index == selected:
            draw.rectangle((0, y - 1, text_right, y + LINE_HEIGHT - 1), fill=palette.accent)
            ink = palette.on_fill
        room = columns(text_right - 2)
        right_text = clip(printable(right_text), max(0, room - 2))
        left_room = room - len(right_text) - (1 if right_text else 0)
        draw_text(draw, 2, y, clip(printable(left_text), left_room), ink)
        if right_text:
            draw_text_right(draw, text_right, y, right_text, ink)
    if scrolled:
        _draw_scroll_marks(
            draw,
            palette,
            width,
            top,
            top + len(window) * PITCH,
            above=window.start > 0,
            below=window.stop < len(lines),
        )


def draw_paragraph(
    draw: ImageDraw.ImageDraw,
    palette: Palette,
    words: str,
    left: int,
    right: int,
    top: int,
    bottom: int,
    *,
    page: int | None = None,
) -> int:
    """Words wrapped to the box from ``left`` to ``right``, line by line from ``top`` down to
    ``bottom``; returns how many pages the words take.

    Without ``page`` what does not fit is cut with the wrap's ellipsis (a prompt that must stay
    put). With ``page`` (0, 1, 2...: the table turns them, see :mod:`companion.pages`) the
    words are shown whole, one boxful a page, page ``page`` modulo their count."""
    rows = max(1, (bottom - top + 2) // PITCH)
    lines = wrap(words, columns(right - left - 1), max_lines=None if page is not None else rows)
    pages = max(1, -(-len(lines) // rows))
    first = (page % pages) * rows if page is not None else 0
    for i, line in enumerate(lines[first : first + rows]):
        draw_text(draw, left + 1, top + i * PITCH, line, palette.foreground)
    return pages


def paragraph_pages(words: str, left: int, right: int, top: int, bottom: int) -> int:
    """How many pages :func:`draw_paragraph` takes to show ``words`` whole in that box."""
    rows = max(1, (bottom - top + 2) // PITCH)
    return max(1, -(-len(wrap(words, columns(right - left - 1))) // rows))


def draw_refusal_box(
    draw: ImageDraw.ImageDraw,
    palette: Palette,
    title: str,
    reason: str,
    box: tuple[int, int, int, int],
    *,
    page: int = 0,
) -> None:
    """A refused input, as every keypad game shows it: ``title`` (``Not allowed``...) in a
    warning bar across the top of ``box`` (left, top, right, bottom) and the reason under it,
    over whatever was drawn there.

    The reason is never cut: one too long for the box is shown a boxful at a time, page
    ``page`` (counted up by the table while the refusal stays, until the next key), the bar
    saying which page of how many, as the Tamsk error screen does."""
    left, top, right, bottom = box
    draw.rectangle((left, top, right, bottom), fill=palette.background)
    draw.rectangle((left, top, right, top + 9), fill=palette.warning)
    room = columns(right - left - 3)
    pages = paragraph_pages(reason, left, right, top + 12, bottom)
    if pages > 1:
        mark = f"{page % pages + 1}/{pages}"
        draw_text_right(draw, right, top + 1, mark, palette.on_warning)
        room -= len(mark) + 1
    draw_text(draw, left + 2, top + 1, clip(printable(title), room), palette.on_warning)
    draw_paragraph(draw, palette, reason, left, right, top + 12, bottom, page=page)
