"""OLED frames outside the OLED: as terminal text for the demo, enlarged for a GIF.

A 128x64 frame becomes 32 lines of 128 characters with Unicode half blocks, two pixel rows to
a character, so ``companion demo`` can show the display live in any terminal.
"""

from __future__ import annotations

from PIL import Image, ImageChops

#: Half-block characters by (upper pixel lit, lower pixel lit).
_BLOCKS = {
    (False, False): " ",
    (True, False): "\u2580",
    (False, True): "\u2584",
    (True, True): "\u2588",
}

#: Largest enlargement :func:`upscale` accepts (a 128x64 frame becomes 2048x1024).
MAX_FACTOR = 16


def _lit(image: Image.Image) -> Image.Image:
    """A one-bit copy in which every pixel that gives any light at all is set."""
    if image.mode == "1":
        return image
    if image.mode == "L":
        brightest = image
    else:
        # The brightest channel, not luminance: a dim blue pixel has luminance 0 yet is lit.
        red, green, blue = image.convert("RGB").split()
        brightest = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    return brightest.point(lambda v: 255 if v else 0, mode="1")


def frame_to_text(image: Image.Image) -> str:
    """The frame as lines of ``▀ ▄ █`` and spaces, two pixel rows per line, one column per
    character. Lines are all as wide as the frame (trailing spaces kept, so a redraw in
    place overwrites the last frame) and joined by newlines without a final one; an odd last
    pixel row is paired with an unlit one.
    """
    mono = _lit(image)
    width, height = mono.size
    pixels = mono.load()
    assert pixels is not None
    lines = []
    for y in range(0, height, 2):
        row = []
        for x in range(width):
            upper = bool(pixels[x, y])
            lower = y + 1 < height and bool(pixels[x, y + 1])
            row.append(_BLOCKS[(upper, lower)])
        lines.append("".join(row))
    return "\n".join(lines)


def upscale(image: Image.Image, factor: int) -> Image.Image:
    """``image`` enlarged ``factor`` times with hard pixel edges (nearest neighbour), in the
    same mode, so an OLED frame stays crisp in a GIF or a README."""
    if isinstance(factor, bool) or not isinstance(factor, int) or not 1 <= factor <= MAX_FACTOR:
        raise ValueError(f"upscale factor must be a whole number 1 to {MAX_FACTOR}, got {factor!r}")
    width, height = image.size
    return image.resize((width * factor, height * factor), Image.Resampling.NEAREST)
