"""Small text in a bitmap font that is the same on every machine.

The screens use Pillow's built-in Courier Bold 8 bitmap font (``courB08``, embedded in Pillow
itself and unchanged for two decades): 6 pixels a character, so 21 characters across a
128-pixel OLED. That font has Latin-1 only (French, not Czech); the letters of Latin-2 it lacks
(``č ř ě š ž ů ň ť ď``...) come from the same face's ISO 8859-2 glyphs, shipped in
``screens/fonts`` with their licence, so a Czech line looks like the rest. A bitmap font draws
byte-identical pixels on any machine and Pillow version,
which is what lets the tests compare whole frames with golden images; a system TrueType font
would differ from one machine to the next.

Coordinates here are those of the *ink*: ``y`` is the top row of a capital letter, and a line
of text takes :data:`LINE_HEIGHT` rows (7 rows of capitals, 2 of descenders).
"""

from __future__ import annotations

import textwrap
import unicodedata
from functools import cache

from PIL import ImageDraw, ImageFont

from companion.screens.palette import Colour

#: Advance of every character (the font is monospaced).
CHAR_WIDTH = 6
#: Rows a line of text occupies, from the top of its capitals to the bottom of its descenders.
LINE_HEIGHT = 9
#: Blank rows above the capitals inside the font's 11-row cell.
_INK_TOP = 2


@cache
def latin2_font() -> ImageFont.ImageFont:
    """The Latin-2 glyphs of the same Courier Bold 8 (indexed by ISO 8859-2 byte)."""
    from pathlib import Path

    return ImageFont.load(str(Path(__file__).parent / "fonts" / "courB08-latin2.pil"))


def _latin2_only(ch: str) -> bool:
    """A letter the Latin-1 font lacks and the Latin-2 one has (``č``, ``ů``, ``Ř``...)."""
    if ord(ch) < 256:
        return False
    try:
        ch.encode("iso8859-2")
    except UnicodeEncodeError:
        return False
    return True


@cache
def font() -> ImageFont.ImageFont:
    """Pillow's embedded bitmap font (never a TrueType one, whose pixels vary by FreeType)."""
    loader = getattr(ImageFont, "load_default_imagefont", None)
    if loader is not None:  # Pillow >= 10.4
        loaded = loader()
        assert isinstance(loaded, ImageFont.ImageFont)
        return loaded
    fallback = ImageFont.load_default()  # the bitmap font when Pillow lacks FreeType
    if isinstance(fallback, ImageFont.ImageFont):
        return fallback
    raise RuntimeError(
        "the OLED screens need Pillow >= 10.4 for its built-in bitmap font "
        "(ImageFont.load_default_imagefont); upgrade Pillow"
    )


def printable(text: str) -> str:
    """``text`` reduced to what the two bitmap fonts (Latin-1 and Latin-2) can draw.

    Other accents fall back to their base letter (``ŀ`` has none and becomes ``?``),
    control characters become spaces, so a player's name can never stop a frame from drawing.
    """
    out = []
    for ch in text:
        if ch in "\t\n\r":
            out.append(" ")
        elif 32 <= ord(ch) < 127 or 160 <= ord(ch) < 256 or _latin2_only(ch):
            out.append(ch)
        else:
            base = unicodedata.normalize("NFKD", ch)[:1]
            out.append(base if base and 32 <= ord(base) < 127 else "?")
    return "".join(out)


def columns(width: int) -> int:
    """How many characters fit in ``width`` pixels."""
    return max(0, width // CHAR_WIDTH)


def text_width(text: str) -> int:
    return len(text) * CHAR_WIDTH


def clip(text: str, max_chars: int) -> str:
    """``text`` cut to ``max_chars`` characters, its last one a ``~`` when something was cut."""
    if len(text) <= max_chars:
        return text
    if max_chars <= 1:
        return text[:max_chars]
    return text[: max_chars - 1] + "~"


def wrap(text: str, max_chars: int, max_lines: int | None = None) -> list[str]:
    """``text`` broken into lines of at most ``max_chars``, at spaces where possible.

    With ``max_lines`` the rest is dropped and the last line kept ends in ``~`` to say so.
    """
    lines = textwrap.wrap(printable(text), max(1, max_chars), break_long_words=True) or [""]
    if max_lines is not None and len(lines) > max_lines:
        lines = lines[:max_lines]
        last = lines[-1]
        lines[-1] = clip(last + "~", max_chars) if len(last) >= max_chars else last + "~"
    return lines


def draw_text(draw: ImageDraw.ImageDraw, x: int, y: int, text: str, fill: Colour) -> None:
    """Draw one line with its capitals' top row at ``y``; Latin-2 letters from their font."""
    line = printable(text)
    if not any(_latin2_only(ch) for ch in line):
        draw.text((x, y - _INK_TOP), line, font=font(), fill=fill)
        return
    start = 0
    for i in range(1, len(line) + 1):  # runs of one font each, at their monospaced columns
        if i == len(line) or _latin2_only(line[i]) != _latin2_only(line[start]):
            run = line[start:i]
            if _latin2_only(run[0]):  # the Latin-2 font is indexed by ISO 8859-2 byte
                run_font, run = latin2_font(), run.encode("iso8859-2").decode("latin-1")
            else:
                run_font = font()
            draw.text((x + start * CHAR_WIDTH, y - _INK_TOP), run, font=run_font, fill=fill)
            start = i


def draw_text_right(draw: ImageDraw.ImageDraw, right: int, y: int, text: str, fill: Colour) -> None:
    """Draw one line ending just left of pixel column ``right``."""
    draw_text(draw, right - text_width(text), y, text, fill)


def draw_text_centred(
    draw: ImageDraw.ImageDraw, left: int, right: int, y: int, text: str, fill: Colour
) -> None:
    """Draw one line centred between columns ``left`` and ``right`` (exclusive)."""
    draw_text(draw, left + (right - left - text_width(text)) // 2, y, text, fill)
