"""The error screen: why an input was refused or something failed, in a few plain words."""

from __future__ import annotations

from PIL import Image, ImageDraw

from companion.screens.layout import PITCH, draw_footer, draw_title_bar
from companion.screens.palette import Size, blank
from companion.screens.text import columns, draw_text, wrap


def error_screen(
    reason: str,
    *,
    title: str = "Error",
    hint: str | None = None,
    size: Size = (128, 64),
    mode: str = "1",
) -> Image.Image:
    """``reason`` wrapped to the panel under a warning-coloured title bar.

    ``hint`` (e.g. ``"any key: back"``) goes on the bottom line. A reason longer than the
    screen holds is cut, its last line ending in ``~``; an empty one is refused, since a
    screen that says nothing cannot tell a player what went wrong.
    """
    if not reason or not reason.strip():
        raise ValueError("an error screen needs a reason to show")
    image, palette = blank(size, mode)
    draw = ImageDraw.Draw(image)
    width, height = image.size
    y = draw_title_bar(draw, palette, title, width, fill=palette.warning, ink=palette.on_warning)
    bottom = draw_footer(draw, palette, hint, width, height) if hint else height - 1
    rows = max(1, (bottom - y + 2) // PITCH)
    for line in wrap(reason, columns(width - 2), max_lines=rows):
        draw_text(draw, 1, y, line, palette.foreground)
        y += PITCH
    return image
