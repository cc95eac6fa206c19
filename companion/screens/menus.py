"""Screens driven from the keypad: a menu, the new-game form and the key-entry prompt line."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

from companion.screens.layout import (
    BAR,
    PITCH,
    bottom_text_row,
    draw_footer,
    draw_list,
    draw_title_bar,
)
from companion.screens.palette import Size, blank, palette_for
from companion.screens.text import (
    clip,
    columns,
    draw_text,
    draw_text_right,
    printable,
    text_width,
    wrap,
)

#: The new-game form's fields, top to bottom, as ``editing=`` names them.
NEW_GAME_FIELDS = ("level", "ruleset", "start", "red", "black", "table")
_FIELD_LABELS = {
    "level": "Level",
    "ruleset": "Rules",
    "start": "Start",
    "red": "Red",
    "black": "Black",
    "table": "Table",
}
RULESETS = ("adjusted", "original")
STARTS = ("standard", "free")
#: Drawn after text being typed, where the next key will go.
CURSOR = "_"
#: What ends a line the screens had to cut (see :func:`companion.screens.text.clip`).
CUT_MARK = "~"


def menu_screen(
    title: str,
    items: Sequence[str],
    selected: int,
    *,
    footer: str | None = None,
    size: Size = (128, 64),
    mode: str = "1",
) -> Image.Image:
    """A titled list with the ``selected`` item filled, scrolled to keep it on screen.

    Example: ``menu_screen("Menu", ["New game", "Calibrate", "Pause"], 0, footer="OK: choose")``.
    An empty list or a selection outside it is refused with :class:`ValueError`.
    """
    if not items:
        raise ValueError("a menu needs at least one item")
    if isinstance(selected, bool) or not 0 <= selected < len(items):
        raise ValueError(f"selected item must be 0 to {len(items) - 1}, got {selected!r}")
    image, palette = blank(size, mode)
    draw = ImageDraw.Draw(image)
    width, height = image.size
    top = draw_title_bar(draw, palette, title, width, right=f"{selected + 1}/{len(items)}")
    bottom = draw_footer(draw, palette, footer, width, height) if footer else height - 1
    draw_list(draw, palette, [(item, "") for item in items], selected, width, top, bottom)
    return image


def text_screen(
    title: str,
    lines: Sequence[str],
    *,
    footer: str | None = None,
    right: str | None = None,
    page: int | None = None,
    names: Sequence[str] = (),
    size: Size = (128, 64),
    mode: str = "1",
) -> Image.Image:
    """A title and lines of text to read (instructions, the arbiter's menu, a pairing), none
    of them selected: each line wrapped to the panel's width, and when they are more than it
    holds, shown a page at a time (page ``page`` modulo their count, the bar saying which);
    with no ``page`` (nothing turns them) the last line shown ends in the screens' cut mark.

    A title too long for the bar keeps its first word there and opens the text with the
    rest (``ARBITER`` over ``sand of a glass``), or with ``right`` (what is being typed, kept
    whole at the bar's right) says its first word alone. The lines in ``names`` are players'
    or tournaments' names: one too long for a line is cut rather than wrapped.
    """
    image, palette = blank(size, mode)
    draw = ImageDraw.Draw(image)
    width, height = image.size
    room = columns(width - 2)
    bottom = height - BAR - 3 if footer else height - 1
    per_page = max(1, (bottom - BAR - 2 + 2) // PITCH)
    rows: list[str] = []
    for line in lines:
        if line in names:
            rows.append(clip(printable(line), room))
        else:
            rows += wrap(line, room) if line else []
    head = title
    if right is not None:
        if len(printable(title)) + 1 + len(right) > columns(width - 4):
            head = title.partition(" ")[0]
    elif 2 + text_width(printable(title)) + (
        3 + text_width(f"{per_page}/{per_page}") if len(rows) > per_page else 0
    ) > width - 1:
        head, _space, rest = title.partition(" ")  # room for the page mark
        rows = wrap(rest.strip(), room) + rows
    pages = [rows[i : i + per_page] for i in range(0, len(rows), per_page)] or [[]]
    if page is None and len(pages) > 1:  # nothing turns the pages: cut, visibly
        pages = [[*pages[0][:-1], clip(pages[0][-1] + CUT_MARK, room)]]
    page = (page or 0) % len(pages)
    mark = f"{page + 1}/{len(pages)}" if len(pages) > 1 else None
    if mark is not None and right is None and 2 + text_width(head) + 3 <= (
        width - 1 - text_width(mark)
    ):  # the title whole beside the page mark, a few pixels apart
        top = draw_title_bar(draw, palette, head, width)
        draw_text_right(draw, width - 1, 1, mark, palette.on_fill)
    else:
        top = draw_title_bar(draw, palette, head, width, right=mark or right)
    if footer:
        draw_footer(draw, palette, footer, width, height)
    for i, line in enumerate(pages[page]):
        draw_text(draw, 1, top + i * PITCH, line, palette.foreground)
    return image


def _check_choice(name: str, value: object, choices: Sequence[object]) -> None:
    if isinstance(value, bool) or value not in choices:
        allowed = ", ".join(repr(c) for c in choices)
        raise ValueError(f"{name} must be one of {allowed}, got {value!r}")


def new_game_screen(
    *,
    level: int = 3,
    ruleset: str = "adjusted",
    start: str = "standard",
    names: Mapping[str, str] | None = None,
    table: int | str | None = None,
    editing: str | None = None,
    entry: str | None = None,
    footer: str | None = None,
    size: Size = (128, 64),
    mode: str = "1",
) -> Image.Image:
    """The settings of the next game, one per line, the field being edited filled.

    ``editing`` is one of :data:`NEW_GAME_FIELDS` (``"level"``, ``"ruleset"``, ``"start"``,
    ``"red"``, ``"black"``, ``"table"``) or None. While a value is being typed on the keypad,
    ``entry`` is the text so far: it replaces that field's value, followed by a cursor.
    """
    _check_choice("level", level, (1, 2, 3))
    _check_choice("ruleset", ruleset, RULESETS)
    _check_choice("start", start, STARTS)
    if editing is not None:
        _check_choice("editing", editing, NEW_GAME_FIELDS)
    names = names or {}
    values = {
        "level": str(level),
        "ruleset": ruleset,
        "start": start,
        "red": names.get("red") or "RED",
        "black": names.get("black") or "BLACK",
        "table": "-" if table is None or table == "" else str(table),
    }
    if editing is not None and entry is not None:
        values[editing] = entry + CURSOR
    image, palette = blank(size, mode)
    draw = ImageDraw.Draw(image)
    width, height = image.size
    top = draw_title_bar(draw, palette, "New game", width)
    bottom = draw_footer(draw, palette, footer, width, height) if footer else height - 1
    lines = [(_FIELD_LABELS[field], values[field]) for field in NEW_GAME_FIELDS]
    selected = NEW_GAME_FIELDS.index(editing) if editing is not None else None
    draw_list(draw, palette, lines, selected, width, top, bottom)
    return image


def with_prompt(image: Image.Image, prompt: str, entry: str) -> Image.Image:
    """A copy of ``image`` whose bottom line asks for keypad input: ``prompt``, then ``entry``
    typed so far and a cursor (e.g. ``"r2 to: c3_"``).

    Laid over any screen, typically the table screen while a destination is typed; the
    original image is left as it was.
    """
    palette = palette_for(image.mode)
    out = image.copy()
    draw = ImageDraw.Draw(out)
    width, height = out.size
    top = height - BAR - 1
    draw.rectangle((0, top, width - 1, height - 1), fill=palette.background)
    draw.line((0, top, width - 1, top), fill=palette.foreground)
    room = columns(width - 2)
    label = clip(printable(prompt), max(0, room - 4))
    typed = printable(entry)[-max(1, room - len(label) - 2) :] + CURSOR
    text = f"{label} {typed}" if label else typed
    draw_text(draw, 1, bottom_text_row(height), text, palette.foreground)
    return out
