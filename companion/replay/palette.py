"""The colours of every replay picture, as one fixed palette.

Pictures are drawn straight into palette ("P") images with these indices: a GIF needs a
palette anyway, so no frame is ever quantised (slow, and not the same from one Pillow to the
next), and every frame of an animation shares the same colour table. The SVG drawings use the
same colours as ``#rrggbb``.
"""

from __future__ import annotations

from enum import IntEnum


class Ink(IntEnum):
    """Palette indices, named for what they paint."""

    PAPER = 0
    PLATE = 1
    SPACE = 2
    EDGE = 3
    RING = 4
    FULL = 5
    RED = 6
    BLACK = 7
    SAND = 8
    TEXT = 9
    GREY = 10
    WHITE = 11
    HIGHLIGHT = 12
    DEAD = 13
    PALE_RED = 14
    PALE = 15
    T_RED = 16
    T_YELLOW = 17
    T_GREEN = 18
    T_BLUE = 19
    TILE = 20
    FORCED = 21
    CONTROLLED = 22
    TRACE = 23
    RULE = 24
    REFUSED = 25
    BLACK_SOFT = 26


RGB: dict[Ink, tuple[int, int, int]] = {
    Ink.PAPER: (247, 244, 236),
    Ink.PLATE: (222, 201, 160),
    Ink.SPACE: (252, 249, 242),
    Ink.EDGE: (125, 102, 68),
    Ink.RING: (46, 111, 150),
    Ink.FULL: (196, 184, 160),
    Ink.RED: (196, 38, 38),
    Ink.BLACK: (38, 38, 42),
    Ink.SAND: (226, 178, 64),
    Ink.TEXT: (24, 24, 24),
    Ink.GREY: (150, 150, 150),
    Ink.WHITE: (255, 255, 255),
    Ink.HIGHLIGHT: (255, 196, 0),
    Ink.DEAD: (128, 128, 128),
    Ink.PALE_RED: (250, 214, 210),
    Ink.PALE: (232, 230, 224),
    Ink.T_RED: (222, 40, 40),
    Ink.T_YELLOW: (246, 204, 18),
    Ink.T_GREEN: (34, 160, 70),
    Ink.T_BLUE: (40, 96, 214),
    Ink.TILE: (22, 22, 26),
    Ink.FORCED: (255, 170, 160),
    Ink.CONTROLLED: (214, 214, 206),
    Ink.TRACE: (255, 255, 255),
    Ink.RULE: (200, 196, 186),
    Ink.REFUSED: (170, 30, 30),
    Ink.BLACK_SOFT: (96, 96, 104),
}

#: Tantrix path colours by name.
TANTRIX: dict[str, Ink] = {
    "red": Ink.T_RED,
    "yellow": Ink.T_YELLOW,
    "green": Ink.T_GREEN,
    "blue": Ink.T_BLUE,
}


def palette_bytes() -> bytes:
    """768 bytes for ``Image.putpalette``: the inks in index order, then black."""
    flat = bytearray()
    for ink in Ink:
        flat += bytes(RGB[ink])
    flat += bytes(768 - len(flat))
    return bytes(flat)


def hex_of(ink: Ink) -> str:
    """``#rrggbb`` for SVG."""
    r, g, b = RGB[ink]
    return f"#{r:02x}{g:02x}{b:02x}"


def glass_ink(glass: str) -> Ink:
    """Red glasses in red, black ones in black."""
    return Ink.RED if glass.startswith("r") else Ink.BLACK
