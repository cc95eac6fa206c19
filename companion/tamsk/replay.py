"""Tamsk's replay facet (:class:`companion.replay.kinds.ReplayGame`): the fold of
:mod:`companion.tamsk.fold`, the pictures of :mod:`companion.tamsk.picture`, the text and the
sand chart."""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

from PIL import Image

from companion import numbers
from companion.i18n import _, language
from companion.replay.chart import BOTTOM, HEIGHT, LEFT, RIGHT, TOP, WIDTH, axes, finish
from companion.replay.model import Frame, Replay
from companion.replay.palette import Ink, glass_ink, hex_of
from companion.replay.panel import clock
from companion.replay.shapes import Shape
from companion.replay.text import names_title, recent
from companion.tamsk import picture as drawing
from companion.tamsk.fold import fold
from companion.tamsk.simulate import board_text
from companion.tamsk.words import (
    colour_word,
    penalty_in_words,
    reason_in_words,
    refusal_in_words,
    rule_in_words,
)

__all__ = ["axis", "chart", "dynamics", "fold", "picture", "player", "size", "static", "svg",
           "text_lines", "title"]

#: The sand chart's dashes: one style for each glass number (r1, r2, r3...).
DASHES = {"1": "", "2": "7 4", "3": "2 3"}


def title(replay: Replay) -> str:
    """Who played, from the header's names: ``Ada (red) v Ben (black)``."""
    return names_title(replay.header, colour_word)


def player(replay: Replay, name: str) -> str:
    """A player (``red``, ``black``) as the replay's words say him: ``červený`` in Czech."""
    return colour_word(name)


def text_lines(replay: Replay, state: Mapping[str, Any]) -> list[str]:
    """A frame's state for a terminal: the board, the rings, the glasses, the timer, the
    penalties and refusals."""
    out = [board_text(state), "  " + _("n/c: n rings of c on a space, r1:n/c a glass on it, "
                                      "R1 a lost glass, ## a full space"), ""]
    left = state["rings_left"]
    out.append(_("Rings left: {red} {n}, {black} {m}").format(
        red=colour_word("red"), n=left["red"], black=colour_word("black"), m=left["black"]))
    if state["level"] >= 2:
        hands = set(state.get("in_hand", {}).values())
        for name, g in state["glasses"].items():
            if g["dead"]:
                how = (_("lost at {t}").format(t=clock(g["died_at"]))
                       if g["died_at"] is not None else _("lost"))
            elif name in hands:
                how = _("in hand")
            else:
                how = _("running") if g["running"] else _("not turned yet")
            out.append("  " + _("{glass} on {space} sand {sand} s  {how}").format(
                glass=name, space=f"{g['space'] or '?':3}",
                sand=f"{numbers.decimal(g['sand'], 1):>6}", how=how))
    if state["level"] >= 3:
        timer = state["timer15"]
        out.append(
            _("15-second timer: {left} s left against {player}").format(
                left=numbers.decimal(timer["remaining"], 1),
                player=colour_word(str(timer["against"])))
            if timer["running"]
            else _("15-second timer: not running")
        )
    if state["over"]:
        w = state["winner"]
        result = _("a tie") if w == "tie" else _("{player} wins").format(player=colour_word(w))
        # English keeps the engine's reason code (what scripts read); others say it in words
        reason = state["reason"] if language() == "en" else reason_in_words(state["reason"])
        out.append(_("Game over: {result}").format(result=result) + f" ({reason})")
    else:
        out.append(_("Turn: {player}").format(player=colour_word(str(state["turn"]))))
        if state.get("bonus_ring"):
            out.append("  " + _("{player} may drop a second ring on any space not full").format(
                player=colour_word(str(state["bonus_ring"]))))
    pen = state["penalties"]
    out.append(_("Penalties: {n}").format(n=len(pen)))
    out += recent(pen, lambda p: f"  {clock(p['t'])} {colour_word(str(p['player']))} "
                                 f"{penalty_in_words(str(p['kind']))}")
    vio = state["violations"]
    out.append(_("Refused inputs: {n}").format(n=len(vio)))
    out += recent(vio, lambda v: f"  {clock(v['t'])} {colour_word(str(v['player']))}: "
                                 f"{refusal_in_words(str(v['detail']))} "
                                 f"({rule_in_words(str(v['kind']))})")
    return out


def picture(replay: Replay, frame: Frame) -> Image.Image:
    return drawing.png(frame, title=title(replay), total=replay.moves)


def svg(replay: Replay, frame: Frame) -> str:
    return drawing.svg(frame, title=title(replay), total=replay.moves)


def static(replay: Replay) -> list[Shape]:
    return drawing.static()


def dynamics(replay: Replay) -> list[list[Shape]]:
    who, total = title(replay), replay.moves
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
        no_sand = _("level 1: the glasses are plain pieces, no sand")
        body = [f'<text x="{WIDTH // 2}" y="{HEIGHT // 2}" text-anchor="middle" '
                f'font-size="12" fill="{hex_of(Ink.GREY)}">{escape(no_sand)}</text>']
        return finish(body, x0, x1, t1)
    y_max = max(replay.periods.get(g, 180.0) for g in replay.sand)
    body, _x0, _x1 = axes(t1, y_max, _("sand in the upper part (s)"),
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
