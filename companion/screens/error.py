"""The error screen: why an input was refused or something failed, in a few plain words."""

from __future__ import annotations

from PIL import Image, ImageDraw

from companion.screens.layout import BAR, PITCH, draw_footer, draw_title_bar
from companion.screens.palette import Size, blank
from companion.screens.text import columns, draw_text, wrap


def error_screen(
    reason: str,
    *,
    title: str = "Error",
    hint: str | None = None,
    size: Size = (128, 64),
    mode: str = "1",
    page: int | None = None,
) -> Image.Image:
    """``reason`` wrapped to the panel under a warning-coloured title bar.

    ``hint`` (e.g. ``"any key: back"``) goes on the bottom line. A reason longer than the
    screen holds is cut, its last line ending in ``~``; with ``page`` (0, 1, 2...: the caller
    turns the pages, e.g. every few seconds) it is shown whole instead, one screenful a page,
    the title saying which page of how many. An empty reason is refused, since a screen that
    says nothing cannot tell a player what went wrong.
    """
    if not reason or not reason.strip():
        raise ValueError("an error screen needs a reason to show")
    image, palette = blank(size, mode)
    draw = ImageDraw.Draw(image)
    width, height = image.size
    bottom = draw_footer(draw, palette, hint, width, height) if hint else height - 1
    top = BAR + 2  # the first row under the title bar (what draw_title_bar returns)
    rows = max(1, (bottom - top + 2) // PITCH)
    lines = wrap(reason, columns(width - 2), max_lines=None if page is not None else rows)
    pages = max(1, -(-len(lines) // rows))
    right = None
    if page is not None and pages > 1:
        page %= pages
        lines = lines[page * rows : (page + 1) * rows]
        right = f"{page + 1}/{pages}"
    y = draw_title_bar(draw, palette, title, width, fill=palette.warning, ink=palette.on_warning,
                       right=right)
    for line in lines[:rows]:
        draw_text(draw, 1, y, line, palette.foreground)
        y += PITCH
    return image
