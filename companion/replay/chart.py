"""A chart of the whole game as an SVG string: each Tamsk glass's sand, or each Tantrix
player's points, over time (each game's replay facet draws its lines in the frame made here).

A vertical cursor (``id="cursor"``) marks the frame on show; the viewer moves it
using the ``data-x0``/``data-x1``/``data-t1`` attributes that map time to x.
"""

from __future__ import annotations

from html import escape

from companion.replay.kinds import of
from companion.replay.model import Replay
from companion.replay.palette import Ink, hex_of

WIDTH, HEIGHT = 760, 220
LEFT, RIGHT, TOP, BOTTOM = 46, 110, 16, 30


def tick_step(span: float) -> float:
    """Seconds between two time ticks: at most ten on the axis."""
    for step in (5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600):
        if span / step <= 10:
            return float(step)
    return 7200.0


def tick_label(t: float) -> str:
    """A tick's time, ``m:ss``."""
    m, s = divmod(int(round(t)), 60)
    return f"{m}:{s:02d}"


def axes(t1: float, y_max: float, y_label: str, y_ticks: list[float]) -> tuple[list[str], float,
                                                                               float]:
    """The plot area, the time ticks up to ``t1`` and the ``y_ticks`` up to ``y_max``, as SVG
    elements; with the x of time 0 and of ``t1``."""
    x0, x1 = LEFT, WIDTH - RIGHT
    y0, y1 = HEIGHT - BOTTOM, TOP
    out = [
        f'<rect x="{x0}" y="{y1}" width="{x1 - x0}" height="{y0 - y1}" fill="#ffffff" '
        f'stroke="{hex_of(Ink.RULE)}"/>'
    ]
    step = tick_step(t1)
    t = 0.0
    while t <= t1 + 1e-9:
        x = x0 + (x1 - x0) * t / t1
        out.append(f'<line x1="{x:.1f}" y1="{y0}" x2="{x:.1f}" y2="{y0 + 4}" '
                   f'stroke="{hex_of(Ink.GREY)}"/>')
        out.append(f'<text x="{x:.1f}" y="{y0 + 16}" font-size="10" text-anchor="middle" '
                   f'fill="{hex_of(Ink.GREY)}">{tick_label(t)}</text>')
        t += step
    for v in y_ticks:
        y = y0 - (y0 - y1) * v / y_max
        out.append(f'<line x1="{x0}" y1="{y:.1f}" x2="{x1}" y2="{y:.1f}" '
                   f'stroke="{hex_of(Ink.PALE)}"/>')
        out.append(f'<text x="{x0 - 4}" y="{y + 3:.1f}" font-size="10" text-anchor="end" '
                   f'fill="{hex_of(Ink.GREY)}">{v:g}</text>')
    out.append(f'<text x="{x0}" y="{TOP - 4}" font-size="10" fill="{hex_of(Ink.GREY)}">'
               f"{escape(y_label)}</text>")
    return out, float(x0), float(x1)


def chart(replay: Replay) -> str:
    """The chart of this game (the game's own :meth:`~companion.replay.kinds.ReplayGame.chart`:
    sand for Tamsk at levels 2-3, points for Tantrix, totals for Tokami)."""
    return of(replay.game).chart(replay)


def finish(parts: list[str], x0: float, x1: float, t1: float) -> str:
    """The chart's ``<svg>`` around ``parts``, with the viewer's cursor at time 0."""
    cursor = (f'<line id="cursor" x1="{x0}" y1="{TOP}" x2="{x0}" y2="{HEIGHT - BOTTOM}" '
              f'stroke="{hex_of(Ink.HIGHLIGHT)}" stroke-width="2"/>')
    return (f'<svg id="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
            f'data-x0="{x0}" data-x1="{x1}" data-t1="{t1:.3f}">' + "".join(parts) + cursor
            + "</svg>")
