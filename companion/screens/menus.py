"""Screens driven from the keypad: a menu, the new-game form and the key-entry prompt line."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

from companion.screens.layout import (
    BAR,
    bottom_text_row,
    draw_footer,
    draw_list,
    draw_title_bar,
)
from companion.screens.palette import Size, blank, palette_for
from companion.screens.text import clip, columns, draw_text, printable

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
