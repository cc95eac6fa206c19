"""Colours by meaning, for each kind of display, and the blank canvas every screen starts from.

A screen never names a colour: it asks for ``palette.warning`` or ``palette.player("red")``.
On a one-bit OLED (SSD1306, SH1106) every role is simply "lit"; on a greyscale panel the roles
become grey levels; on the colour SSD1351 the players get their own colours and warnings turn
amber. So one drawing routine serves every panel, the way luma hands the same ``ImageDraw`` to
every device.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

#: A fill value as Pillow takes it for the modes we draw in: an int for "1" and "L", RGB for "RGB".
Colour = int | tuple[int, int, int]

#: Width and height in pixels, as luma's ``device.size``.
Size = tuple[int, int]

#: The image modes luma's OLED devices use: "1" (SSD1306, SH1106), "L" (SSD1322, SSD1327),
#: "RGB" (SSD1351, SSD1331).
MODES = ("1", "L", "RGB")

#: Smallest panel the layouts are designed for (the common 0.96" and 1.3" OLEDs).
MIN_SIZE: Size = (128, 64)
#: Largest panel accepted: beyond any OLED luma drives (the SSD1322 is 256x64), so a larger size
#: is a mistake, not a display.
MAX_SIZE: Size = (512, 512)


@dataclass(frozen=True)
class Palette:
    """The colour of each role on one kind of display."""

    background: Colour
    foreground: Colour
    red: Colour
    black: Colour
    #: Text drawn on top of a filled player box, title bar or selected menu line.
    on_fill: Colour
    #: Title bars and the selected line of a menu.
    accent: Colour
    warning: Colour
    #: Text drawn on top of the warning bar.
    on_warning: Colour
    sand: Colour
    dim: Colour

    def player(self, player: str) -> Colour:
        """The colour that stands for a player's side: his header box, his glass labels."""
        return self.red if player == "red" else self.black


_PALETTES = {
    "1": Palette(
        background=0,
        foreground=255,
        red=255,
        black=255,
        on_fill=0,
        accent=255,
        warning=255,
        on_warning=0,
        sand=255,
        dim=255,
    ),
    "L": Palette(
        background=0,
        foreground=255,
        red=200,
        black=255,
        on_fill=0,
        accent=255,
        warning=255,
        on_warning=0,
        sand=170,
        dim=110,
    ),
    # The black player's pieces cannot be drawn black on a black panel: a slate grey stands for
    # them, with white text on it, beside a clear red.
    "RGB": Palette(
        background=(0, 0, 0),
        foreground=(255, 255, 255),
        red=(220, 30, 30),
        black=(130, 130, 155),
        on_fill=(255, 255, 255),
        accent=(30, 90, 170),
        warning=(255, 176, 0),
        on_warning=(0, 0, 0),
        sand=(230, 200, 120),
        dim=(120, 120, 120),
    ),
}


def palette_for(mode: str) -> Palette:
    """The palette for an image mode; a mode no OLED uses is refused with the ones that work."""
    try:
        return _PALETTES[mode]
    except KeyError:
        raise ValueError(
            f"display mode must be one of {', '.join(repr(m) for m in MODES)}, got {mode!r}"
        ) from None


def blank(size: Size, mode: str) -> tuple[Image.Image, Palette]:
    """A cleared canvas of ``size`` and ``mode`` and its palette, after checking both.

    The layouts are made for at least 128x64 pixels; a smaller, larger or malformed size is
    refused with a message rather than drawn clipped beyond reading.
    """
    palette = palette_for(mode)
    if (
        len(size) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in size)
        or not MIN_SIZE[0] <= size[0] <= MAX_SIZE[0]
        or not MIN_SIZE[1] <= size[1] <= MAX_SIZE[1]
    ):
        raise ValueError(
            f"display size must be from {MIN_SIZE[0]}x{MIN_SIZE[1]} to "
            f"{MAX_SIZE[0]}x{MAX_SIZE[1]} pixels, got {size!r}"
        )
    return Image.new(mode, (size[0], size[1]), palette.background), palette
