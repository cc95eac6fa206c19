"""Every OLED screen of the companion, drawn with Pillow from plain data.

Rendering is kept apart from the display the way ``chess.svg`` is kept apart from the board:
each function here takes the state to show and returns a new ``PIL.Image`` of the panel's
``size`` and ``mode`` (luma's ``device.size`` and ``device.mode``), and does no I/O. Only
``companion.hw.display`` hands the image to a luma device. So the same frames go to an
SSD1306, a colour SSD1351, a terminal (:func:`frame_to_text`) or a GIF (:func:`upscale`),
and the tests compare them with golden images.

The primitives live here (palette, text, digits, layout, menus, frames); each game draws its
own screens from them in its package (e.g. :func:`companion.tamsk.screens.table_screen`), and
:func:`companion.hw.display.pick_screen` asks the game's kind for the picture.
"""

from companion.screens.error import error_screen
from companion.screens.frames import frame_to_text, upscale
from companion.screens.menus import (
    NEW_GAME_FIELDS,
    menu_screen,
    new_game_screen,
    text_screen,
    with_prompt,
)
from companion.screens.palette import MODES, Palette, Size, palette_for

__all__ = [
    "MODES",
    "NEW_GAME_FIELDS",
    "Palette",
    "Size",
    "error_screen",
    "frame_to_text",
    "menu_screen",
    "new_game_screen",
    "palette_for",
    "text_screen",
    "upscale",
    "with_prompt",
]
