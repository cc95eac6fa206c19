"""A chart of the whole game as an SVG string: each Tamsk glass's sand, or each Tantrix
player's points, over time.

The sand lines are the exact corner points the fold read from the engine's glasses
(:attr:`Replay.sand`), so the chart shows every turn-over as a jump and every lost glass
reaching zero. A vertical cursor (``id="cursor"``) marks the frame on show; the viewer moves it
using the ``data-x0``/``data-x1``/``data-t1`` attributes that map time to x.
"""

from __future__ import annotations

from html import escape

from companion.replay.model import Replay
from companion.replay.palette import TANTRIX, Ink, glass_ink, hex_of

WIDTH, HEIGHT = 760, 220
LEFT, RIGHT, TOP, BOTTOM = 46, 110, 16, 30
DASHES = {"1": "", "2": "7 4", "3": "2 3"}


def _tick_step(span: float) -> float:
    for step in (5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600):
        if span / step <= 10:
            return float(step)
    return 7200.0


def _clock(t: float) -> str:
    m, s = divmod(int(round(t)), 60)
    return f"{m}:{s:02d}"


def _frame(t1: float, y_max: float, y_label: str, y_ticks: list[float]) -> tuple[list[str], float,
                                                                                 float]:
    x0, x1 = LEFT, WIDTH - RIGHT
    y0, y1 = HEIGHT - BOTTOM, TOP
    out = [
        f'<rect x="{x0}" y="{y1}" width="{x1 - x0}" height="{y0 - y1}" fill="#ffffff" '
        f'stroke="{hex_of(Ink.RULE)}"/>'
    ]
    step = _tick_step(t1)
    t = 0.0
    while t <= t1 + 1e-9:
        x = x0 + (x1 - x0) * t / t1
        out.append(f'<line x1="{x:.1f}" y1="{y0}" x2="{x:.1f}" y2="{y0 + 4}" '
                   f'stroke="{hex_of(Ink.GREY)}"/>')
        out.append(f'<text x="{x:.1f}" y="{y0 + 16}" font-size="10" text-anchor="middle" '
                   f'fill="{hex_of(Ink.GREY)}">{_clock(t)}</text>')
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
    """The chart of this game (sand for Tamsk at levels 2-3, points for Tantrix)."""
    t1 = max(replay.duration, 1.0)
    x0, x1 = LEFT, WIDTH - RIGHT
    y0, y1 = HEIGHT - BOTTOM, TOP
    lines: list[str] = []
    if replay.game == "tamsk":
        if not replay.sand:
            body = [f'<text x="{WIDTH // 2}" y="{HEIGHT // 2}" text-anchor="middle" '
                    f'font-size="12" fill="{hex_of(Ink.GREY)}">level 1: the glasses are plain '
                    "pieces, no sand</text>"]
            return _svg(body, x0, x1, t1)
        y_max = max(replay.periods.get(g, 180.0) for g in replay.sand)
        body, _, _ = _frame(t1, y_max, "sand in the upper part (s)",
                            [v for v in (60.0, 120.0, 180.0) if v <= y_max + 1e-9])
        for k, (glass, points) in enumerate(sorted(replay.sand.items())):
            pts = " ".join(
                f"{x0 + (x1 - x0) * min(t, t1) / t1:.1f},{y0 - (y0 - y1) * s / y_max:.1f}"
                for t, s in points
            )
            dash = DASHES.get(glass[1], "")
            style = f' stroke-dasharray="{dash}"' if dash else ""
            colour = hex_of(glass_ink(glass))
            lines.append(f'<polyline data-glass="{glass}" points="{pts}" fill="none" '
                         f'stroke="{colour}" stroke-width="1.6"{style}/>')
            ly = TOP + 14 + 16 * k
            lines.append(f'<line x1="{x1 + 10}" y1="{ly}" x2="{x1 + 34}" y2="{ly}" '
                         f'stroke="{colour}" stroke-width="2"{style}/>')
            lines.append(f'<text x="{x1 + 40}" y="{ly + 4}" font-size="11" '
                         f'fill="{hex_of(Ink.TEXT)}">{glass}</text>')
        for frame in replay.frames[-1:]:
            for glass, g in frame.state.get("glasses", {}).items():
                if g.get("dead") and g.get("died_at") is not None:
                    x = x0 + (x1 - x0) * min(float(g["died_at"]), t1) / t1
                    lines.append(f'<text x="{x:.1f}" y="{y0 - 3}" font-size="11" '
                                 f'text-anchor="middle" fill="{hex_of(glass_ink(glass))}" '
                                 f'data-lost="{glass}">x</text>')
        return _svg(body + lines, x0, x1, t1)
    players = list(replay.header.get("players", []))
    top = max([1] + [s["points"] for f in replay.frames for s in f.state["scores"].values()])
    body, _, _ = _frame(t1, float(top), "points", [float(v) for v in range(0, top + 1,
                                                                            max(1, top // 4))])
    for k, player in enumerate(players):
        corners: list[str] = []
        last = None
        for f in replay.frames:
            y = y0 - (y0 - y1) * f.state["scores"][player]["points"] / top
            x = x0 + (x1 - x0) * min(f.t, t1) / t1
            if last is not None:
                corners.append(f"{x:.1f},{last:.1f}")
            corners.append(f"{x:.1f},{y:.1f}")
            last = y
        colour = hex_of(TANTRIX.get(player, Ink.GREY))
        lines.append(f'<polyline data-player="{escape(player)}" points="{" ".join(corners)}" '
                     f'fill="none" stroke="{colour}" stroke-width="2"/>')
        ly = TOP + 14 + 16 * k
        lines.append(f'<line x1="{x1 + 10}" y1="{ly}" x2="{x1 + 34}" y2="{ly}" '
                     f'stroke="{colour}" stroke-width="3"/>')
        lines.append(f'<text x="{x1 + 40}" y="{ly + 4}" font-size="11" '
                     f'fill="{hex_of(Ink.TEXT)}">{escape(player)}</text>')
    return _svg(body + lines, x0, x1, t1)


def _svg(parts: list[str], x0: float, x1: float, t1: float) -> str:
    cursor = (f'<line id="cursor" x1="{x0}" y1="{TOP}" x2="{x0}" y2="{HEIGHT - BOTTOM}" '
              f'stroke="{hex_of(Ink.HIGHLIGHT)}" stroke-width="2"/>')
    return (f'<svg id="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
            f'data-x0="{x0}" data-x1="{x1}" data-t1="{t1:.3f}">' + "".join(parts) + cursor
            + "</svg>")
