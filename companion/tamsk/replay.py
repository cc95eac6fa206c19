"""Tamsk's replay facet (:class:`companion.replay.kinds.ReplayGame`): the fold of
:mod:`companion.tamsk.fold`, the pictures of :mod:`companion.tamsk.picture`, the text and the
sand chart."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image

from companion.replay.chart import BOTTOM, HEIGHT, LEFT, RIGHT, TOP, WIDTH, axes, finish
from companion.replay.model import Frame, Replay
from companion.replay.palette import Ink, glass_ink, hex_of
from companion.replay.panel import clock
from companion.replay.shapes import Shape
from companion.replay.text import names_title, recent
from companion.tamsk import picture as drawing
from companion.tamsk.fold import fold
from companion.tamsk.simulate import board_text

__all__ = ["axis", "chart", "dynamics", "fold", "picture", "size", "static", "svg",
           "text_lines", "title"]

#: The sand chart's dashes: one style for each glass number (r1, r2, r3...).
DASHES = {"1": "", "2": "7 4", "3": "2 3"}


def title(replay: Replay) -> str:
    """Who played, from the header's names: ``Ada (red) v Ben (black)``."""
    return names_title(replay.header)


def text_lines(state: Mapping[str, Any]) -> list[str]:
    """A frame's state for a terminal: the board, the rings, the glasses, the timer, the
    penalties and refusals."""
    out = [board_text(state), "  n/c: n rings of c on a space, r1:n/c a glass on it, R1 a lost "
           "glass, ## a full space", ""]
    left = state["rings_left"]
    out.append(f"Rings left: red {left['red']}, black {left['black']}")
    if state["level"] >= 2:
        hands = set(state.get("in_hand", {}).values())
        for name, g in state["glasses"].items():
            if g["dead"]:
                how = f"lost at {clock(g['died_at'])}" if g["died_at"] is not None else "lost"
            elif name in hands:
                how = "in hand"
            else:
                how = "running" if g["running"] else "not turned yet"
            out.append(f"  {name} on {g['space'] or '?':3} sand {g['sand']:6.1f} s  {how}")
    if state["level"] >= 3:
        timer = state["timer15"]
        out.append(
            f"15-second timer: {timer['remaining']:.1f} s left against {timer['against']}"
            if timer["running"]
            else "15-second timer: not running"
        )
    if state["over"]:
        w = state["winner"]
        out.append(f"Game over: {'a tie' if w == 'tie' else w + ' wins'} ({state['reason']})")
    else:
        out.append(f"Turn: {state['turn']}")
        if state.get("bonus_ring"):
            out.append(f"  {state['bonus_ring']} may drop a second ring on any space not full")
    pen = state["penalties"]
    out.append(f"Penalties: {len(pen)}")
    out += recent(pen, lambda p: f"  {clock(p['t'])} {p['player']} {p['kind']}")
    vio = state["violations"]
    out.append(f"Refused inputs: {len(vio)}")
    out += recent(vio, lambda v: f"  {clock(v['t'])} {v['player']}: {v['detail']} ({v['kind']})")
    return out


def picture(replay: Replay, frame: Frame) -> Image.Image:
    return drawing.png(frame, title=title(replay), total=replay.records)


def svg(replay: Replay, frame: Frame) -> str:
    return drawing.svg(frame, title=title(replay), total=replay.records)


def static(replay: Replay) -> list[Shape]:
    return drawing.static()


def dynamics(replay: Replay) -> list[list[Shape]]:
    who, total = title(replay), replay.records
    return [drawing.dynamic(f, title=who, total=total) for f in replay.frames]


def size(replay: Replay) -> tuple[int, int]:
    return drawing.SIZE


def axis(replay: Replay) -> list[float]:
    return [f.t for f in replay.frames]


def chart(replay: Replay) -> str:
    """Each glass's sand over the game (levels 2-3): the exact corner points the fold read
    from the engine's glasses (:attr:`Replay.sand`), so every turn-over shows as a jump and
    every lost glass reaching zero is marked."""
    t1 = max(replay.duration, 1.0)
    x0, x1 = LEFT, WIDTH - RIGHT
    y0, y1 = HEIGHT - BOTTOM, TOP
    lines: list[str] = []
    if not replay.sand:
        body = [f'<text x="{WIDTH // 2}" y="{HEIGHT // 2}" text-anchor="middle" '
                f'font-size="12" fill="{hex_of(Ink.GREY)}">level 1: the glasses are plain '
                "pieces, no sand</text>"]
        return finish(body, x0, x1, t1)
    y_max = max(replay.periods.get(g, 180.0) for g in replay.sand)
    body, _, _ = axes(t1, y_max, "sand in the upper part (s)",
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
    return finish(body + lines, x0, x1, t1)
