"""A picture as a list of shapes, and two ways to paint it: Pillow pixels and SVG text.

The Tamsk and Tantrix drawings only say *what* to draw (:class:`Circle`, :class:`Arc`,
:class:`Text`...); :func:`to_png` paints the list into a palette image and :func:`to_svg`
writes it as SVG, so a GIF frame and the HTML viewer show the same picture from one drawing.
Both are pure functions: no file, no clock.

A :class:`Sprite` is a group drawn many times (a Tantrix tile, a glass): Pillow paints it once
and pastes it after that; SVG defines it once in ``<defs>`` and ``<use>``\\ s it.
A :class:`Group` carries ``data-*`` attributes into the SVG (what the viewer and the tests read);
Pillow just paints its children.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from html import escape

from PIL import Image, ImageDraw

from companion.replay import bitmap
from companion.replay.palette import Ink, hex_of, palette_bytes

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Circle:
    x: float
    y: float
    r: float
    fill: Ink | None = None
    outline: Ink | None = None
    width: int = 1


@dataclass(frozen=True, slots=True)
class Arc:
    """A stroke ``width`` wide just inside radius ``r``, from ``start`` to ``end`` degrees
    clockwise from three o'clock (screen coordinates, y down)."""

    x: float
    y: float
    r: float
    start: float
    end: float
    ink: Ink
    width: int = 1


@dataclass(frozen=True, slots=True)
class Line:
    points: tuple[Point, ...]
    ink: Ink
    width: int = 1


@dataclass(frozen=True, slots=True)
class Polygon:
    points: tuple[Point, ...]
    fill: Ink | None = None
    outline: Ink | None = None


@dataclass(frozen=True, slots=True)
class Rect:
    x0: float
    y0: float
    x1: float
    y1: float
    fill: Ink | None = None
    outline: Ink | None = None


@dataclass(frozen=True, slots=True)
class Text:
    """Bitmap text; ``anchor`` as in :func:`companion.replay.bitmap.draw`."""

    x: float
    y: float
    text: str
    ink: Ink = Ink.TEXT
    scale: int = 1
    anchor: str = "lt"


@dataclass(frozen=True, slots=True)
class Sprite:
    """``shapes`` (drawn around the origin, inside ``box``) placed at ``(x, y)``; ``key`` must
    name the same shapes wherever it is used."""

    key: str
    x: float
    y: float
    shapes: tuple[Shape, ...]
    box: tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Group:
    attrs: tuple[tuple[str, str], ...]
    children: tuple[Shape, ...] = field(default=())


Shape = Circle | Arc | Line | Polygon | Rect | Text | Sprite | Group


# ---------------------------------------------------------------------------------- pixels


def _i(v: float) -> int:
    return int(round(v))


def _paint(draw: ImageDraw.ImageDraw, image: Image.Image, shape: Shape, dx: int, dy: int,
           mask_ink: int | None) -> None:
    """Paint one shape; with ``mask_ink`` every ink becomes that value (to draw a mask)."""

    def ink(value: Ink | None) -> int | None:
        if value is None:
            return None
        return int(value) if mask_ink is None else mask_ink

    if isinstance(shape, Circle):
        box = (_i(shape.x - shape.r) + dx, _i(shape.y - shape.r) + dy,
               _i(shape.x + shape.r) + dx, _i(shape.y + shape.r) + dy)
        draw.ellipse(box, fill=ink(shape.fill), outline=ink(shape.outline), width=shape.width)
    elif isinstance(shape, Arc):
        box = (_i(shape.x - shape.r) + dx, _i(shape.y - shape.r) + dy,
               _i(shape.x + shape.r) + dx, _i(shape.y + shape.r) + dy)
        if shape.end - shape.start >= 360:
            draw.ellipse(box, outline=ink(shape.ink), width=shape.width)
        elif shape.end > shape.start:
            draw.arc(box, shape.start, shape.end, fill=ink(shape.ink), width=shape.width)
    elif isinstance(shape, Line):
        pts = [(_i(x) + dx, _i(y) + dy) for x, y in shape.points]
        draw.line(pts, fill=ink(shape.ink), width=shape.width,
                  joint="curve" if len(pts) > 2 else None)
        if shape.width > 3:
            r = shape.width / 2 - 0.5
            for x, y in (pts[0], pts[-1]):
                draw.ellipse((x - r, y - r, x + r, y + r), fill=ink(shape.ink))
    elif isinstance(shape, Polygon):
        pts = [(_i(x) + dx, _i(y) + dy) for x, y in shape.points]
        draw.polygon(pts, fill=ink(shape.fill), outline=ink(shape.outline))
    elif isinstance(shape, Rect):
        draw.rectangle((_i(shape.x0) + dx, _i(shape.y0) + dy, _i(shape.x1) + dx,
                        _i(shape.y1) + dy), fill=ink(shape.fill), outline=ink(shape.outline))
    elif isinstance(shape, Text):
        value = int(shape.ink) if mask_ink is None else mask_ink
        bitmap.draw(image, (_i(shape.x) + dx, _i(shape.y) + dy), shape.text, value,
                    shape.scale, shape.anchor)
    elif isinstance(shape, Sprite):
        if mask_ink is not None:
            for child in shape.shapes:
                _paint(draw, image, child, dx + _i(shape.x), dy + _i(shape.y), mask_ink)
            return
        tile, mask = _sprite(shape.key, shape.shapes, shape.box)
        image.paste(tile, (_i(shape.x) + shape.box[0] + dx, _i(shape.y) + shape.box[1] + dy),
                    mask)
    else:
        for child in shape.children:
            _paint(draw, image, child, dx, dy, mask_ink)


_SPRITES: dict[tuple[str, tuple[int, int, int, int]], tuple[Image.Image, Image.Image]] = {}


def _sprite(key: str, shapes: Sequence[Shape], box: tuple[int, int, int, int]
            ) -> tuple[Image.Image, Image.Image]:
    """A sprite painted once: its pixels and its mask."""
    found = _SPRITES.get((key, box))
    if found is not None:
        return found
    x0, y0, x1, y1 = box
    size = (x1 - x0, y1 - y0)
    tile = Image.new("P", size, int(Ink.PAPER))
    tile.putpalette(palette_bytes())
    mask = Image.new("L", size, 0)
    tile_draw, mask_draw = ImageDraw.Draw(tile), ImageDraw.Draw(mask)
    for shape in shapes:
        _paint(tile_draw, tile, shape, -x0, -y0, None)
        _paint(mask_draw, mask, shape, -x0, -y0, 255)
    if len(_SPRITES) > 4096:
        _SPRITES.clear()
    _SPRITES[(key, box)] = (tile, mask)
    return tile, mask


def to_png(shapes: Iterable[Shape], size: tuple[int, int], background: Ink = Ink.PAPER
           ) -> Image.Image:
    """Paint the shapes into a new palette image of ``size``."""
    image = Image.new("P", size, int(background))
    image.putpalette(palette_bytes())
    draw = ImageDraw.Draw(image)
    for shape in shapes:
        _paint(draw, image, shape, 0, 0, None)
    return image


# ---------------------------------------------------------------------------------- SVG


def _n(v: float) -> str:
    """A coordinate: at most one decimal, no trailing zeros (short, and the same everywhere)."""
    text = f"{v:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _paint_attrs(fill: Ink | None, outline: Ink | None, width: int = 1) -> str:
    out = f' fill="{hex_of(fill)}"' if fill is not None else ' fill="none"'
    if outline is not None:
        out += f' stroke="{hex_of(outline)}"'
        if width != 1:
            out += f' stroke-width="{width}"'
    return out


def _arc_path(x: float, y: float, r: float, start: float, end: float) -> str:
    a0, a1 = math.radians(start), math.radians(end)
    x0, y0 = x + r * math.cos(a0), y + r * math.sin(a0)
    x1, y1 = x + r * math.cos(a1), y + r * math.sin(a1)
    large = 1 if end - start > 180 else 0
    return f"M{_n(x0)} {_n(y0)}A{_n(r)} {_n(r)} 0 {large} 1 {_n(x1)} {_n(y1)}"


def svg_shape(shape: Shape, defs: dict[str, str]) -> Iterator[str]:
    """The SVG elements of one shape; sprites add their definition to ``defs``."""
    if isinstance(shape, Circle):
        # Pillow strokes inside the circle's box; SVG centres the stroke on the radius.
        r = shape.r - (shape.width / 2 if shape.outline is not None else 0) + 0.5
        yield (f'<circle cx="{_n(shape.x + 0.5)}" cy="{_n(shape.y + 0.5)}" r="{_n(r)}"'
               f"{_paint_attrs(shape.fill, shape.outline, shape.width)}/>")
    elif isinstance(shape, Arc):
        r = shape.r - shape.width / 2 + 0.5
        cx, cy = shape.x + 0.5, shape.y + 0.5
        if shape.end - shape.start >= 360:
            yield (f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(r)}" fill="none" '
                   f'stroke="{hex_of(shape.ink)}" stroke-width="{shape.width}"/>')
        elif shape.end > shape.start:
            yield (f'<path d="{_arc_path(cx, cy, r, shape.start, shape.end)}" fill="none" '
                   f'stroke="{hex_of(shape.ink)}" stroke-width="{shape.width}"/>')
    elif isinstance(shape, Line):
        pts = " ".join(f"{_n(x + 0.5)},{_n(y + 0.5)}" for x, y in shape.points)
        yield (f'<polyline points="{pts}" fill="none" stroke="{hex_of(shape.ink)}" '
               f'stroke-width="{shape.width}" stroke-linecap="round" stroke-linejoin="round"/>')
    elif isinstance(shape, Polygon):
        pts = " ".join(f"{_n(x + 0.5)},{_n(y + 0.5)}" for x, y in shape.points)
        yield f'<polygon points="{pts}"{_paint_attrs(shape.fill, shape.outline)}/>'
    elif isinstance(shape, Rect):
        yield (f'<rect x="{_n(shape.x0)}" y="{_n(shape.y0)}" '
               f'width="{_n(shape.x1 - shape.x0 + 1)}" height="{_n(shape.y1 - shape.y0 + 1)}"'
               f"{_paint_attrs(shape.fill, shape.outline)}/>")
    elif isinstance(shape, Text):
        if not shape.text:
            return
        anchor = {"l": "start", "m": "middle", "r": "end"}[shape.anchor[0]]
        cap = bitmap.CAP_HEIGHT * shape.scale
        base = shape.y + (cap if shape.anchor[1] == "t" else cap / 2) + 0.5
        size = 10 * shape.scale
        # font size 10, start anchor and the text colour are the SVG root's defaults (FONT)
        attrs = f' font-size="{size}"' if size != 10 else ""
        attrs += f' text-anchor="{anchor}"' if anchor != "start" else ""
        attrs += f' fill="{hex_of(shape.ink)}"' if shape.ink != Ink.TEXT else ""
        attrs += ' xml:space="preserve"' if "  " in shape.text else ""
        yield (f'<text x="{_n(shape.x)}" y="{_n(base)}"{attrs}>'
               f"{escape(shape.text, quote=False)}</text>")
    elif isinstance(shape, Sprite):
        if shape.key not in defs:
            inner = "".join(s for child in shape.shapes for s in svg_shape(child, defs))
            defs[shape.key] = f'<g id="{shape.key}">{inner}</g>'
        yield f'<use href="#{shape.key}" x="{_n(shape.x)}" y="{_n(shape.y)}"/>'
    else:
        attrs = "".join(f' data-{k}="{escape(v)}"' for k, v in shape.attrs)
        inner = "".join(s for child in shape.children for s in svg_shape(child, defs))
        yield f"<g{attrs}>{inner}</g>"


def svg_body(shapes: Iterable[Shape], defs: dict[str, str]) -> str:
    """The SVG elements of the shapes (without the ``<svg>`` element)."""
    return "".join(s for shape in shapes for s in svg_shape(shape, defs))


#: The SVG root's style: what every text element leaves out.
FONT = (
    "font-family:'DejaVu Sans Mono',Menlo,Consolas,monospace;font-size:10px;"
    f"fill:{hex_of(Ink.TEXT)}"
)


def to_svg(shapes: Iterable[Shape], size: tuple[int, int], background: Ink = Ink.PAPER,
           *, title: str = "") -> str:
    """A whole standalone SVG document of the shapes."""
    defs: dict[str, str] = {}
    body = svg_body(shapes, defs)
    w, h = size
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" '
            f'width="{w}" height="{h}" style="{FONT}">')
    if title:
        head += f"<title>{escape(title)}</title>"
    return (head + (f"<defs>{''.join(defs.values())}</defs>" if defs else "")
            + f'<rect width="{w}" height="{h}" fill="{hex_of(background)}"/>' + body + "</svg>")
