"""The calibration screen of ``companion calibrate``: one glass timed twice, against 180 s.

Real Tamsk hourglasses differ from one another, so each is timed: the player turns it over and
presses his ring button when its upper part is empty, twice. The screen shows which glass and
pass this is, the seconds running in large digits, what each glass measured so far, and a
warning for a glass more than 5 % off the nominal 180 s.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

from companion import numbers
from companion.i18n import _, pgettext
from companion.screens.digits import digits_width, draw_digits
from companion.screens.layout import PITCH, draw_title_bar, draw_warning_bar
from companion.screens.palette import Size, blank
from companion.screens.text import LINE_HEIGHT, columns, draw_text, draw_text_right, wrap
from companion.tamsk.view import GLASSES, NOMINAL_PERIOD, glass_owner

#: A glass further than this fraction from the nominal period is flagged.
TOLERANCE = 0.05


def _check_measured(measured: Mapping[str, Sequence[float]]) -> dict[str, list[float]]:
    checked: dict[str, list[float]] = {}
    for glass, periods in measured.items():
        if glass not in GLASSES:
            raise ValueError(f"measured periods: unknown glass {glass!r}")
        values = []
        for value in periods:
            if (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or not math.isfinite(value)
                or value <= 0
            ):
                raise ValueError(
                    f"measured periods: {glass} must be positive seconds, got {value!r}"
                )
            values.append(float(value))
        if values:
            checked[glass] = values
    return checked


def mean_periods(measured: Mapping[str, Sequence[float]]) -> dict[str, float]:
    """Each measured glass's period: the mean of its passes so far."""
    return {g: sum(v) / len(v) for g, v in _check_measured(measured).items()}


def off_nominal(
    measured: Mapping[str, Sequence[float]],
    *,
    nominal: float = NOMINAL_PERIOD,
    tolerance: float = TOLERANCE,
) -> dict[str, float]:
    """The glasses whose mean period is more than ``tolerance`` off ``nominal``, with their
    deviation as a fraction (``-0.058`` for 169.6 s against 180 s), in glass order."""
    means = mean_periods(measured)
    deviations = {g: (means[g] - nominal) / nominal for g in GLASSES if g in means}
    return {g: d for g, d in deviations.items() if abs(d) > tolerance}


def calibration_warning(
    measured: Mapping[str, Sequence[float]],
    glass: str | None = None,
    *,
    nominal: float = NOMINAL_PERIOD,
    tolerance: float = TOLERANCE,
) -> str | None:
    """The warning line for the measurements: about ``glass`` if it is off, else the first
    glass that is; None when all are within tolerance (e.g. ``"r1 -5.8% (169.6 s)"``)."""
    off = off_nominal(measured, nominal=nominal, tolerance=tolerance)
    if not off:
        return None
    name = glass if glass in off else next(iter(off))
    mean = mean_periods(measured)[name]
    return f"{name} {numbers.percent(off[name], sign=True)} ({numbers.seconds(mean)})"


def _flowed(words: str, width: int, lines: int) -> tuple[list[str], str]:
    """``words`` in up to ``lines`` lines of ``width`` characters, and what is left over."""
    out: list[str] = []
    rest = words.split()
    while rest and len(out) < lines:
        line = rest.pop(0)
        while rest and len(line) + 1 + len(rest[0]) <= width:
            line += " " + rest.pop(0)
        out.append(line)
    return out, " ".join(rest)


def calibration_screen(
    glass: str,
    pass_number: int,
    elapsed: float,
    measured: Mapping[str, Sequence[float]],
    *,
    passes: int = 2,
    nominal: float = NOMINAL_PERIOD,
    tolerance: float = TOLERANCE,
    size: Size = (128, 64),
    mode: str = "1",
    page: int = 0,
) -> Image.Image:
    """The glass being timed (``"r1"`` ... ``"b3"``), this pass (1 to ``passes``), the seconds
    since it was turned, and ``measured`` ({glass: [seconds per pass done]}).

    The glass in progress is filled in the table of measurements; a glass more than
    ``tolerance`` off ``nominal`` is marked ``!`` and named in the warning bar; a warning
    longer than the bar shows its ``page`` (counted up by :class:`companion.pages.Paging`,
    as on the game tables).
    """
    if glass not in GLASSES:
        raise ValueError(f"glass must be one of {', '.join(GLASSES)}, got {glass!r}")
    if isinstance(passes, bool) or not isinstance(passes, int) or passes < 1:
        raise ValueError(f"passes must be a positive whole number, got {passes!r}")
    if isinstance(pass_number, bool) or pass_number not in range(1, passes + 1):
        raise ValueError(f"pass must be 1 to {passes}, got {pass_number!r}")
    if isinstance(elapsed, bool) or not isinstance(elapsed, int | float) or not elapsed >= 0:
        raise ValueError(f"elapsed must be seconds from 0 on, got {elapsed!r}")
    if not math.isfinite(elapsed):
        raise ValueError(f"elapsed must be seconds from 0 on, got {elapsed!r}")
    means = mean_periods(measured)
    off = off_nominal(measured, nominal=nominal, tolerance=tolerance)
    image, palette = blank(size, mode)
    draw = ImageDraw.Draw(image)
    width, height = image.size
    tall = height >= 112
    top = draw_title_bar(
        draw, palette, _("Calibrate {glass}").format(glass=glass), width,
        right=f"{pass_number}/{passes}"
    )
    digit_height = 24 if tall else 18
    seconds = numbers.decimal(min(elapsed, 999.9), 1).replace(" ", "")
    right = draw_digits(draw, 2, top, seconds, digit_height, palette.foreground)
    owner = pgettext("player", glass_owner(glass)).upper()
    words = _("{owner} ring when empty").format(owner=owner)
    if tall:
        draw_text(draw, right + 3, top + digit_height - 7, "s", palette.foreground)
        hint_top = top + digit_height + 4
        hint = wrap(words, columns(width - 2))
        for i, line in enumerate(hint):
            draw_text(draw, 2, hint_top + i * PITCH, line, palette.dim)
        table_top = hint_top + len(hint) * PITCH + 3
    else:
        # No room for the unit beside the hint on 128 columns; the title says what is timed.
        # The hint fills the two lines beside the digits, then the line under the glasses.
        hint_x = 2 + digits_width("888.8", digit_height) + 11
        beside, under = _flowed(words, columns(width - hint_x), 2)
        for i, line in enumerate(beside):
            draw_text(draw, hint_x, top + 1 + i * PITCH, line, palette.dim)
        if under:
            draw_text(draw, 1, height - LINE_HEIGHT, under, palette.dim)
        table_top = top + digit_height + 3
    for i, name in enumerate(GLASSES):
        if tall:
            x, y, cell = 0, table_top + i * PITCH, width
        else:
            cell = width // 3
            x, y = (i % 3) * cell, table_top + (i // 3) * PITCH
        if y + LINE_HEIGHT > height:
            break
        ink = palette.player(glass_owner(name))
        value_ink = palette.warning if name in off else palette.foreground
        if name == glass:
            draw.rectangle((x, y - 1, x + cell - 2, y + LINE_HEIGHT - 1), fill=palette.accent)
            ink = value_ink = palette.on_fill
        draw_text(draw, x + 1, y, name, ink)
        mark = "!" if name in off else ""
        if tall:
            passes_done = measured.get(name) or ()
            text = " ".join(numbers.decimal(p, 1) for p in passes_done) or "---"
            draw_text(draw, x + 19, y, text, value_ink)
            if name in means:
                deviation = (means[name] - nominal) / nominal
                draw_text_right(draw, x + cell - 2, y,
                                numbers.percent(deviation, sign=True) + mark, value_ink)
        else:
            value = f"{means[name]:.0f}{mark}" if name in means else "---"
            draw_text(draw, x + 16, y, value, value_ink)
    warning = calibration_warning(measured, glass, nominal=nominal, tolerance=tolerance)
    if warning:
        draw_warning_bar(draw, palette, warning, width, height, page=page)
    return image
