"""Every OLED screen of the companion, drawn with Pillow from plain data.

Rendering is kept apart from the display the way ``chess.svg`` is kept apart from the board:
each function here takes the state to show and returns a new ``PIL.Image`` of the panel's
``size`` and ``mode`` (luma's ``device.size`` and ``device.mode``), and does no I/O. Only
``companion.hw.display`` hands the image to a luma device. So the same frames go to an
SSD1306, a colour SSD1351, a terminal (:func:`frame_to_text`) or a GIF (:func:`upscale`),
and the tests compare them with golden images.

Example::

    from companion.screens import table_screen
    image = table_screen(state, size=(128, 64), mode="1")
"""

from companion.screens.error import error_screen
from companion.screens.frames import frame_to_text, upscale
from companion.screens.menus import NEW_GAME_FIELDS, menu_screen, new_game_screen, with_prompt
from companion.screens.palette import MODES, Palette, Size, palette_for
from companion.tamsk.calibration_screen import (
    calibration_screen,
    calibration_warning,
    mean_periods,
    off_nominal,
)
from companion.tamsk.result_screen import reason_in_words, result_screen, run_out_order
from companion.tamsk.screens import table_screen
from companion.tamsk.view import TableView, read_table_view

__all__ = [
    "MODES",
    "NEW_GAME_FIELDS",
    "Palette",
    "Size",
    "TableView",
    "calibration_screen",
    "calibration_warning",
    "error_screen",
    "frame_to_text",
    "mean_periods",
    "menu_screen",
    "new_game_screen",
    "off_nominal",
    "palette_for",
    "read_table_view",
    "reason_in_words",
    "result_screen",
    "run_out_order",
    "table_screen",
    "upscale",
    "with_prompt",
]
