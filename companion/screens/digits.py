"""Large seven-segment digits, drawn from rectangles, for what must be read across a table.

The 15-second countdown has to be legible from the far side of the board at a glance, so it is
drawn as segments of any height rather than as a scaled font: a few rectangles give crisp,
deterministic pixels at every size.
"""

from __future__ import annotations

from PIL import ImageDraw

from companion.screens.palette import Colour

# Segments: a top, b upper right, c lower right, d bottom, e lower left, f upper left, g middle.
_SEGMENTS = {
    "0": "abcdef",
    "1": "bc",
    "2": "abged",
    "3": "abgcd",
    "4": "fgbc",
    "5": "afgcd",
    "6": "afgedc",
    "7": "abc",
    "8": "abcdefg",
    "9": "abcdfg",
    "-": "g",
    " ": "",
}

#: Characters :func:`draw_digits` can draw.
DIGIT_CHARS = frozenset(_SEGMENTS) | {".", ",", ":"}


def thickness(height: int) -> int:
    """Segment stroke for a digit ``height`` pixels tall (about a ninth, at least 2)."""
    return max(2, height // 9)


def digit_width(height: int) -> int:
    """Width of one digit ``height`` pixels tall."""
    return max(5, height * 5 // 9)


def narrow_width(height: int) -> int:
    """Width taken by a ``.``, ``,`` or ``:`` (its stroke plus a gap on each side)."""
    return thickness(height) + 2 * max(1, thickness(height) // 2)


def digits_width(text: str, height: int) -> int:
    """Pixels ``text`` takes when drawn ``height`` tall, a gap of one stroke between digits."""
    gap = thickness(height)
    widths = [narrow_width(height) if ch in ".,:" else digit_width(height) for ch in text]
    return sum(widths) + gap * max(0, len(widths) - 1)


def _draw_digit(
    draw: ImageDraw.ImageDraw, x: int, y: int, ch: str, height: int, fill: Colour
) -> None:
    w = digit_width(height)
    t = thickness(height)
    mid = y + (height - t) // 2  # top row of the middle segment
    right = x + w - 1
    bottom = y + height - 1
    boxes = {
        "a": (x + t, y, right - t, y + t - 1),
        "d": (x + t, bottom - t + 1, right - t, bottom),
        "g": (x + t, mid, right - t, mid + t - 1),
        "f": (x, y, x + t - 1, mid + t - 1),
        "b": (right - t + 1, y, right, mid + t - 1),
        "e": (x, mid, x + t - 1, bottom),
        "c": (right - t + 1, mid, right, bottom),
    }
    for segment in _SEGMENTS[ch]:
        draw.rectangle(boxes[segment], fill=fill)


def draw_digits(
    draw: ImageDraw.ImageDraw, x: int, y: int, text: str, height: int, fill: Colour
) -> int:
    """Draw ``text`` (digits, ``-``, space, ``.``, ``,`` and ``:``) with its top left at
    ``(x, y)``: a decimal comma (French, Czech) is the point with a tail below the line.

    Returns the column just right of what was drawn. Any other character is refused, so a
    formatting slip shows up in a test, not as a blank on the table.
    """
    unknown = set(text) - DIGIT_CHARS
    if unknown:
        raise ValueError(f"seven-segment digits cannot show {''.join(sorted(unknown))!r}")
    t = thickness(height)
    pad = max(1, t // 2)
    for i, ch in enumerate(text):
        if i:
            x += t
        if ch in ".,":
            draw.rectangle((x + pad, y + height - t, x + pad + t - 1, y + height - 1), fill=fill)
            if ch == ",":  # the tail: a stroke's length down and to the left, under the line
                for i in range(1, t + 2):
                    right = x + pad + t - 1 - i // 2
                    draw.rectangle((right - max(0, t // 2 - 1), y + height - 1 + i, right,
                                    y + height - 1 + i), fill=fill)
            x += narrow_width(height)
        elif ch == ":":
            for row in (y + height // 3 - t // 2, y + 2 * height // 3 - t // 2):
                draw.rectangle((x + pad, row, x + pad + t - 1, row + t - 1), fill=fill)
            x += narrow_width(height)
        else:
            _draw_digit(draw, x, y, ch, height, fill)
            x += digit_width(height)
    return x
