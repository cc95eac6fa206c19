"""What a drawn screen shows, line by line, and what it failed to show whole.

:func:`recording` collects every line of text a screen hands to Pillow while it draws (with
where it stands and the size of the picture); :func:`defects` reads them like a player who
needs every word: a line the screens cut (their ``~``, see :func:`companion.screens.text.clip`
and :func:`~companion.screens.text.wrap`), a line that runs off the picture, two lines drawn
over each other, or a key the screen offers (``view["entry"]["choices"]``) that no line shows.

A player's own name may be shortened where a row of standings has no room for it (``Domin~``):
that is the one cut allowed, since the name is known at the table and shown whole elsewhere.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, ImageDraw

from companion.screens import text as screen_text

#: The mark the screens put where they cut a line.
CUT = "~"


@dataclass
class Drawn:
    """One line of text as drawn: its ink's top-left pixel and the picture's size."""

    x: int
    y: int
    text: str
    size: tuple[int, int]

    @property
    def right(self) -> int:
        """The first pixel column after the line's last character."""
        return self.x + screen_text.CHAR_WIDTH * len(self.text.rstrip())

    def box(self) -> tuple[int, int, int, int] | None:
        """The pixels its characters take (left, top, right, bottom: inclusive), blanks at
        either end left out; None for a blank line."""
        stripped = self.text.strip()
        if not stripped:
            return None
        left = self.x + screen_text.CHAR_WIDTH * (len(self.text) - len(self.text.lstrip()))
        right = left + screen_text.CHAR_WIDTH * len(stripped) - 2  # the last column is a gap
        return left, self.y, right, self.y + 6  # capitals' height: descenders may meet


@dataclass
class Frame:
    """What one screen drew: its lines in the order drawn, and the areas filled after each."""

    lines: list[Drawn] = field(default_factory=list)
    #: (index of the next line when the area was filled, the area): a filled rectangle
    #: drawn over earlier text covers it (a refusal box over the map).
    fills: list[tuple[int, tuple[int, int, int, int]]] = field(default_factory=list)

    def texts(self) -> list[str]:
        return [line.text for line in self.lines]


@contextmanager
def recording() -> Iterator[Frame]:
    """Collect the lines (and filled areas) of everything drawn inside the block."""
    frame = Frame()
    text = ImageDraw.ImageDraw.text
    rectangle = ImageDraw.ImageDraw.rectangle
    latin2 = screen_text.latin2_font()

    def recorded_text(self: ImageDraw.ImageDraw, xy: Any, words: Any, *args: Any,
                      **kwargs: Any) -> Any:
        said = str(words)
        if kwargs.get("font") is latin2:  # drawn as Latin-1 bytes of the ISO 8859-2 font
            said = said.encode("latin-1").decode("iso8859-2")
        x, y = int(xy[0]), int(xy[1]) + 2  # the font's cell starts 2 rows above the ink
        size = self.im.size
        last = frame.lines[-1] if frame.lines else None
        if last is not None and last.y == y and last.size == size and last.right == x and (
            not last.text.endswith(" ")
        ):  # the next run of one line (Latin-1 and Latin-2 letters come from two fonts)
            last.text += said
        else:
            frame.lines.append(Drawn(x, y, said, size))
        return text(self, xy, words, *args, **kwargs)

    def recorded_rectangle(self: ImageDraw.ImageDraw, xy: Any, fill: Any = None,
                           *args: Any, **kwargs: Any) -> Any:
        if fill is not None:
            left, top, right, bottom = (int(v) for v in xy)
            frame.fills.append((len(frame.lines), (left, top, right, bottom)))
        return rectangle(self, xy, fill, *args, **kwargs)

    ImageDraw.ImageDraw.text = recorded_text  # type: ignore[method-assign]
    ImageDraw.ImageDraw.rectangle = recorded_rectangle  # type: ignore[method-assign]
    try:
        yield frame
    finally:
        ImageDraw.ImageDraw.text = text  # type: ignore[method-assign]
        ImageDraw.ImageDraw.rectangle = rectangle  # type: ignore[method-assign]


def drawn(draw: Callable[[], Image.Image]) -> Frame:
    """The frame of one call of ``draw``."""
    with recording() as frame:
        draw()
    return frame


def _cut_names(text: str, names: Iterable[str]) -> str:
    """``text`` without the players' names shortened in it (``Domin~`` for Dominique)."""
    for cut in re.finditer(r"(\S+?)( ?)" + re.escape(CUT), text):  # "Jean-Christophe ~"
        stem = cut.group(1) + cut.group(2)
        if any(n.startswith(stem) and n != stem for n in [*names, *(n + " " for n in names)]):
            text = text.replace(cut.group(0), stem, 1)
    return text


def _overlaps(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


def _covered(box: tuple[int, int, int, int], area: tuple[int, int, int, int]) -> bool:
    return area[0] <= box[0] and area[1] <= box[1] and box[2] <= area[2] and box[3] <= area[3]


def defects(frame: Frame, *, names: Iterable[str] = (), choices: Iterable[str] = ()) -> list[str]:
    """Everything a player could not read whole on the screen ``frame`` recorded: cut lines
    (but for ``names`` shortened), lines off the picture, lines over each other, and those
    of ``choices`` (``"5 declined"``: a key and its word) whose key no line shows."""
    names = [n for n in names if n]
    names += [word for n in names for word in n.split()]  # "Barth~" of "Maximilian Barth..."
    found: list[str] = []
    for line in frame.lines:
        width, height = line.size
        if CUT in _cut_names(line.text, names):
            found.append(f"cut: {line.text!r}")
        if line.x < 0 or line.right > width + 1 or line.y < 0 or line.y + 7 > height:
            found.append(f"off the screen: {line.text!r} at ({line.x}, {line.y})")
    boxes = [(i, line, line.box()) for i, line in enumerate(frame.lines)]
    for i, first, a in boxes:
        for j, second, b in boxes[i + 1 :]:
            if a is None or b is None or not _overlaps(a, b):
                continue
            both = (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))
            if any(i < at <= j and _covered(both, area) for at, area in frame.fills):
                continue  # the later line is drawn on a box that hid the earlier one there
            found.append(f"over each other: {first.text!r} and {second.text!r}")
    shown = " " + " ".join(frame.texts()) + " "
    for choice in choices:
        key = str(choice).split(" ")[0]
        if f" {key} " not in shown and f" {key}:" not in shown:
            found.append(f"choice not shown: {choice!r}")
    return found


def players_of(view: Mapping[str, Any]) -> list[str]:
    """Every name the view gives a player (the one cut :func:`defects` allows)."""
    names = [str(n) for n in (view.get("names") or {}).values()]
    names += [str(p) for p, _score in view.get("standings") or []]
    names += [str(p) for p in view.get("players") or []]
    return names
