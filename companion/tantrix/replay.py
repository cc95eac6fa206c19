"""Tantrix's replay facet (:class:`companion.replay.kinds.ReplayGame`): the fold of
:mod:`companion.tantrix.fold`, the pictures of :mod:`companion.tantrix.picture`, the text and
the points chart."""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

from PIL import Image

from companion.i18n import N_, _, pgettext
from companion.replay.chart import BOTTOM, HEIGHT, LEFT, RIGHT, TOP, WIDTH, axes, finish
from companion.replay.model import Frame, Replay
from companion.replay.palette import TANTRIX, Ink, hex_of
from companion.replay.shapes import Shape
from companion.replay.text import names_title, recent
from companion.tantrix import picture as drawing
from companion.tantrix.cellnames import CellNames
from companion.tantrix.fold import fold
from companion.tantrix.simulate import board_map
from companion.tantrix.words import refusal_in_words, rule_in_words

#: A traced chain's kind, as the text replay names it.
CHAIN_KINDS = (N_("line"), N_("loop"))

__all__ = ["axis", "chart", "dynamics", "fold", "picture", "size", "static", "svg",
           "text_lines", "title"]


def title(replay: Replay) -> str:
    """Who played: the header's names (``Ada (red) v Ben (yellow)``), else the colours."""
    names = replay.header.get("names")
    if isinstance(names, Mapping) and names:
        return names_title(replay.header)
    mode = replay.header.get("mode", "strategy")
    if mode != "strategy":
        extra = replay.header.get("puzzle") or replay.header.get("target") or ""
        return f"Tantrix {mode} {extra}".strip()
    return " v ".join(dict.fromkeys(str(p) for p in replay.header.get("players", [])))


def text_lines(replay: Replay, state: Mapping[str, Any]) -> list[str]:
    """A frame's state for a terminal: the map of the tiles, the scores and refusals, the rows
    lettered and the columns numbered, and the cells named, as the replay's picture does
    (:class:`~companion.tantrix.cellnames.CellNames` of the whole game's cells)."""
    names = CellNames.of(replay.cells or [(0, 0)])
    out = [
        _("{placed} tiles placed, bag {bag}").format(placed=state["placed"], bag=state["bag"])
        + " (" + _("{phase} phase").format(phase=pgettext("phase", str(state["phase"]))) + ")",
    ]
    if state.get("mode") in ("solitaire", "rainbow", "gobble"):
        out.append(_("SOLVED") if state.get("solved") else _("not solved"))
    drawn = drawing.drawn_tiles(state)
    if drawn:  # Gobble's opening holds two drawn tiles before they are laid together
        out.append(_("drawn: {tiles}").format(tiles=" ".join(map(str, drawn))))
    tiles = state.get("tiles", [])
    if tiles:
        out += board_map(
            [(t["tile"], (t["q"], t["r"])) for t in tiles],
            [(q, r) for q, r in state["forced"]],
            [(q, r) for q, r in state["controlled"]],
            names,
        )
        out.append("  " + _("tile numbers on the map; !! forced space, xx controlled cell"))
    out.append(_("Scores (line, loop, points; the traced chain):"))
    for player, s in state["scores"].items():
        chain = state.get("chains", {}).get(player, {})
        kind = _("{kind} of {n}").format(kind=_(str(chain["kind"])), n=len(chain.get("cells", []))
                                         ) if chain.get("kind") else "-"
        out.append(f"  {_(player):<7} {s['line']:2d} {s['loop']:2d} {s['points']:3d}   {kind}")
    if state["over"] and state.get("winner"):
        w = state["winner"]
        out.append(_("Game over: {result}").format(
            result=_("a tie") if w == "tie" else _("{player} wins").format(player=_(w))))
    else:
        out.append(_("Turn: {player}").format(player=_(str(state["turn"]))))
    vio = state["violations"]
    out.append(_("Refused inputs: {n}").format(n=len(vio)))
    out += recent(vio, lambda v: f"  {_(str(v['player']))}: "
                                 f"{refusal_in_words(str(v['detail']), names)} "
                                 f"({rule_in_words(str(v['kind']))})")
    return out


def picture(replay: Replay, frame: Frame) -> Image.Image:
    return drawing.png(frame, cells=replay.cells, title=title(replay), total=replay.moves)


def svg(replay: Replay, frame: Frame) -> str:
    return drawing.svg(frame, cells=replay.cells, title=title(replay), total=replay.moves)


def static(replay: Replay) -> list[Shape]:
    """The board's row letters and column numbers, the same on every frame."""
    return drawing.names(drawing.Layout(replay.cells))


def dynamics(replay: Replay) -> list[list[Shape]]:
    layout = drawing.Layout(replay.cells)
    who, total = title(replay), replay.moves
    return [drawing.dynamic(f, layout, title=who, total=total) for f in replay.frames]


def size(replay: Replay) -> tuple[int, int]:
    return drawing.SIZE


def axis(replay: Replay) -> list[float]:
    return [f.t for f in replay.frames]


def chart(replay: Replay) -> str:
    """Each player's points over the game."""
    t1 = max(replay.duration, 1.0)
    x0, x1 = LEFT, WIDTH - RIGHT
    y0, y1 = HEIGHT - BOTTOM, TOP
    lines: list[str] = []
    players = list(replay.frames[0].state["scores"]) if replay.frames else []
    top = max([1] + [s["points"] for f in replay.frames for s in f.state["scores"].values()])
    ticks = [float(v) for v in range(0, top + 1, max(1, top // 4))]
    body, _x0, _x1 = axes(t1, float(top), _("points"), ticks)
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
    return finish(body + lines, x0, x1, t1)
