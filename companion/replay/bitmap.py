"""Text for replay pictures in a bitmap font that is the same on every machine.

Pillow's built-in bitmap font (6 pixels a character, no FreeType, no system fonts) draws the
same pixels everywhere, which is what lets the tests compare whole pictures with reference
images. Larger text is the same glyphs enlarged 2 or 3 times with hard edges. Glyph masks are
cached: a game's pictures draw the same few hundred strings again and again.
"""

from __future__ import annotations

from functools import cache, lru_cache

from PIL import Image, ImageDraw, ImageFont

from companion.screens.text import draw_text, printable

#: Advance of every character at scale 1 (the font is monospaced).
CHAR_WIDTH = 6
#: Rows of a line at scale 1: 7 of capitals, 2 of descenders.
LINE_HEIGHT = 9
#: Rows of capitals at scale 1 (what "middle" anchors centre on).
CAP_HEIGHT = 7
_INK_TOP = 2  # blank rows above the capitals in the font's cell


@cache
def font() -> ImageFont.ImageFont:
    """Pillow's embedded bitmap font (never a TrueType one, whose pixels vary by FreeType)."""
    loader = getattr(ImageFont, "load_default_imagefont", None)
    if loader is not None:  # Pillow >= 10.4
        loaded = loader()
        if isinstance(loaded, ImageFont.ImageFont):
            return loaded
    fallback = ImageFont.load_default()
    if isinstance(fallback, ImageFont.ImageFont):
        return fallback
    raise RuntimeError(
        "replay pictures need Pillow >= 10.4 for its built-in bitmap font; upgrade Pillow"
    )


def width(text: str, scale: int = 1) -> int:
    return len(text) * CHAR_WIDTH * scale


@lru_cache(maxsize=1024)  # the strings drawn again and again; a game's clocks and labels pass
def mask(text: str, scale: int = 1) -> Image.Image:
    """The ink of ``text`` as an "L" mask, ``scale`` times enlarged."""
    text = printable(text)
    w = max(1, len(text) * CHAR_WIDTH)
    image = Image.new("L", (w, LINE_HEIGHT), 0)
    draw_text(ImageDraw.Draw(image), 0, 0, text, 255)  # Latin-2 letters too, as on the OLED
    if scale > 1:
        image = image.resize((w * scale, LINE_HEIGHT * scale), Image.Resampling.NEAREST)
    return image


def draw(
    image: Image.Image, xy: tuple[int, int], text: str, ink: int, scale: int = 1,
    anchor: str = "lt",
) -> int:
    """Paint ``text`` in palette colour ``ink``; returns its width.

    ``anchor`` is two letters like Pillow's: ``l``/``m``/``r`` horizontally, ``t`` (top of the
    capitals) or ``m`` (middle of the capitals) vertically.
    """
    if not text:
        return 0
    m = mask(text, scale)
    x, y = xy
    w, h = m.size
    if anchor[0] == "m":
        x -= w // 2
    elif anchor[0] == "r":
        x -= w
    if anchor[1] == "m":
        y -= (CAP_HEIGHT * scale) // 2
    image.paste(ink, (x, y, x + w, y + h), m)
    return w


def clip(text: str, chars: int) -> str:
    """``text`` cut to ``chars`` characters, ending in ``~`` when something was cut."""
    if len(text) <= chars:
        return text
    return text[: max(0, chars - 1)] + "~"


def wrap(text: str, chars: int) -> list[str]:
    """Words of ``text`` in lines of at most ``chars`` characters (long words are cut)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        if len(word) > chars:
            word = clip(word, chars)
        if not line:
            line = word
        elif len(line) + 1 + len(word) <= chars:
            line += " " + word
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return lines
