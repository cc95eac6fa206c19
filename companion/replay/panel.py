"""What every replay picture's side panel opens with: the game, the clock, the title, the move
number and the move itself, and the game clock as people read it."""

from __future__ import annotations

from companion import notation, numbers
from companion.i18n import _
from companion.remark import Remark
from companion.replay import bitmap
from companion.replay.model import Frame, where
from companion.replay.palette import Ink
from companion.replay.shapes import Shape, Text


def clock(t: float) -> str:
    """Game time as people read it, ``1:23.4`` (``1:23,4`` in French and Czech: the tenths
    cut, like a clock, as the notation cuts them; the notation keeps its point)."""
    return numbers.clock(t)


def moment(t: float) -> Remark:
    """The time of something a fold says (``ran out at 1:23.4``): as the notation writes it in
    the record's English text, with the reader's decimal mark where a replay shows it."""
    return Remark.via(_with_decimal_mark, notation.format_time(t, exact=False))


def _with_decimal_mark(text: str) -> str:
    return text.replace(".", numbers.cldr().decimal)


def panel_head(
    out: list[Shape],
    frame: Frame,
    heading: str,
    *,
    x: int,
    width: int,
    y: int,
    title: str = "",
    total: int | None = None,
) -> int:
    """Append the panel's opening lines to ``out``; returns the ``y`` below them. ``total``
    is the game's number of moves (:attr:`~companion.replay.model.Replay.moves`)."""
    chars = width // bitmap.CHAR_WIDTH
    shown = clock(frame.t)
    beside = (width - bitmap.width(shown, 2) - 6) // bitmap.CHAR_WIDTH
    for i, line in enumerate(bitmap.wrap(heading, beside)[:2]):  # never under the clock
        out.append(Text(x, y + 9 * i, line, Ink.TEXT, 1))
    out.append(Text(x + width, y, shown, Ink.TEXT, 2, "rt"))
    y += 18  # below the clock (twice the size)
    if title:
        out.append(Text(x, y, bitmap.clip(title, chars), Ink.GREY, 1))
    y += 14
    out.append(Text(x, y, bitmap.clip(where(frame, total), chars), Ink.GREY, 1))
    y += 12
    label = frame.shown.split(" @")[0] if frame.index else _("start of the game")
    scale = 2 if len(label) <= width // 12 else 1
    for part in bitmap.wrap(label, width // (6 * scale))[:2]:
        out.append(Text(x, y, part, Ink.REFUSED if frame.refused else Ink.TEXT, scale))
        y += 9 * scale + 3
    return y + 6
