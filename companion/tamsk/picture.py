"""A Tamsk position drawn as shapes: the board, its rings and glasses, and a side panel.

Everything comes from one frame's state (the contract's JSON object): each space shows its
rings as filled pips out of its capacity and as ``n/c``; a full space is shaded; each glass is
a disc in its colour with its name, and an arc around its space shows the sand left in its
upper part (a full circle is a whole period); a lost glass is grey and crossed. The panel
gives the move in notation, whose turn it is, rings left, each glass's sand, the 15-second
timer, and what the rules made of the move (penalties, refusals, passes).

:func:`png` and :func:`svg` are pure: a frame in, a picture out.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from PIL import Image

from companion import numbers
from companion.i18n import _, say
from companion.replay import bitmap
from companion.replay.model import Frame
from companion.replay.palette import Ink, glass_ink
from companion.replay.panel import clock, panel_head
from companion.replay.shapes import (
    Arc,
    Circle,
    Group,
    Line,
    Polygon,
    Rect,
    Shape,
    Sprite,
    Text,
    to_png,
    to_svg,
)
from companion.tamsk.board import CAPACITY, SPACES
from companion.tamsk.picture_layout import (
    GLASS_DY,
    GLASS_R,
    HEIGHT,
    PANEL_W,
    PANEL_X,
    PIP_R,
    RADIUS,
    WIDTH,
    centre,
    column_labels,
    pips,
    plate,
)
from companion.tamsk.words import colour_word, reason_in_words

SIZE = (WIDTH, HEIGHT)
GLASSES = ("r1", "r2", "r3", "b1", "b2", "b3")
_CHARS = PANEL_W // bitmap.CHAR_WIDTH


# ---------------------------------------------------------------------------------- board


def static() -> list[Shape]:
    """What never changes: the plate and the column letters."""
    out: list[Shape] = [Polygon(plate(), Ink.PLATE, Ink.EDGE)]
    for letter, x, y in column_labels():
        out.append(Text(x, y, letter, Ink.EDGE, 2, "mm"))
    return out


@functools.lru_cache(maxsize=1024)
def _space(space: str, rings: int, glass: bool) -> Shape:
    """One space: its tube seen from above, rings as filled pips out of its capacity (a pure
    function of a few values, so each is built once: 37 of them in every frame)."""
    cap = CAPACITY[space]
    full = rings >= cap
    key = f"sp{cap}-{rings}{'g' if glass else ''}"
    x0, y0 = centre(space)
    local: list[Shape] = [Circle(0, 0, RADIUS, Ink.FULL if full else Ink.SPACE, Ink.EDGE, 2)]
    if not glass:  # under a glass, the pips are drawn over its sand arc (see _glass)
        local += _pips(space, rings, -x0, -y0)
        local.append(Text(0, -2, f"{rings}/{cap}", Ink.TEXT if rings else Ink.GREY, 2, "mm"))
    box = (-RADIUS - 1, -RADIUS - 1, RADIUS + 2, RADIUS + 2)
    children: list[Shape] = [Sprite(key, x0, y0, tuple(local), box)]
    if not glass:
        children.append(Text(x0, y0 - 19, space, Ink.GREY, 1, "mm"))
    return Group(
        (("space", space), ("rings", str(rings)), ("capacity", str(cap))), tuple(children)
    )


def _pips(space: str, rings: int, dx: int = 0, dy: int = 0) -> list[Shape]:
    """The rings of a space as pips: filled for each ring, hollow for each free place."""
    return [
        Circle(px + dx, py + dy, PIP_R, Ink.RING if k < rings else Ink.SPACE, Ink.RING)
        for k, (px, py) in enumerate(pips(space, CAPACITY[space]))
    ]


def _glass(name: str, g: Mapping[str, Any], timed: bool, rings: int = 0) -> Shape | None:
    """A glass on its space: a disc with its name, the sand arc, a cross when lost."""
    space = g.get("space")
    if not space:
        return None
    x, y = centre(space)
    dead = bool(g.get("dead"))
    if dead:
        d = GLASS_R - 4
        local: list[Shape] = [
            Circle(0, 0, GLASS_R, Ink.PALE, Ink.DEAD, 2),
            Line(((-d, -d), (d, d)), Ink.DEAD, 2),
            Line(((-d, d), (d, -d)), Ink.DEAD, 2),
            Text(0, 0, name, Ink.BLACK, 2, "mm"),
        ]
    else:
        local = [Circle(0, 0, GLASS_R, glass_ink(name), Ink.WHITE, 2)]
        local.append(Text(0, 0, name, Ink.WHITE, 2, "mm"))
    box = (-GLASS_R - 1, -GLASS_R - 1, GLASS_R + 2, GLASS_R + 2)
    children: list[Shape] = []
    if timed:
        period = float(g.get("period") or 180.0)
        fraction = max(0.0, min(1.0, float(g.get("sand") or 0.0) / period))
        children.append(Arc(x, y, RADIUS - 2, 0, 360, Ink.PALE, 4))
        if fraction > 0:
            children.append(Arc(x, y, RADIUS - 2, -90, -90 + 360 * fraction, Ink.SAND, 4))
    children.append(Sprite(f"g{name}{'x' if dead else ''}", x, y + GLASS_DY, tuple(local), box))
    children += _pips(str(space), rings)
    attrs = (
        ("glass", name),
        ("on", str(space)),
        ("sand", f"{float(g.get('sand') or 0):.1f}"),
        ("dead", "true" if dead else "false"),
    )
    return Group(attrs, tuple(children))


def board(state: Mapping[str, Any], highlight: tuple[Any, ...] | None = None) -> list[Shape]:
    """The spaces with their rings, the last move's arrow, and the glasses."""
    glasses = state.get("glasses", {})
    timed = int(state.get("level", 3)) >= 2
    occupied = {g.get("space") for g in glasses.values() if g.get("space")}
    rings = state.get("spaces", {})
    out: list[Shape] = []
    moved = bool(highlight and highlight[1])
    if moved and highlight and highlight[0]:
        # the last move: a band between the two spaces, seen in the gap between them
        out.append(Line((centre(str(highlight[0])), centre(str(highlight[1]))),
                        Ink.HIGHLIGHT, 9))
    out += [_space(s, int(rings.get(s, 0)), s in occupied) for s in SPACES]
    if moved and highlight:
        tx, ty = centre(str(highlight[1]))
        if highlight[0]:
            fx, fy = centre(str(highlight[0]))
            out.append(Circle(fx, fy, RADIUS + 3, None, Ink.HIGHLIGHT, 1))
        out.append(Circle(tx, ty, RADIUS + 3, None, Ink.HIGHLIGHT, 3))
    for name in GLASSES:
        if name in glasses:
            space = glasses[name].get("space")
            shape = _glass(name, glasses[name], timed, int(rings.get(space, 0)) if space else 0)
            if shape is not None:
                out.append(shape)
    return out


# ---------------------------------------------------------------------------------- panel


def _bar(x: int, y: int, w: int, h: int, fraction: float, ink: Ink) -> list[Shape]:
    fraction = max(0.0, min(1.0, fraction))
    out: list[Shape] = [Rect(x, y, x + w, y + h, Ink.PALE, Ink.RULE)]
    fill = round((w - 2) * fraction)
    if fill > 0:
        out.append(Rect(x + 1, y + 1, x + fill, y + h - 1, ink))
    return out


def _status(g: Mapping[str, Any], in_hand: bool) -> str:
    if g.get("dead"):
        died = g.get("died_at")
        return _("lost {t}").format(t=clock(float(died))) if died is not None else _("lost")
    if in_hand:
        return _("in hand")
    if g.get("running"):
        return _("running")
    return _("not turned")


def panel(frame: Frame, *, title: str = "", total: int | None = None) -> list[Shape]:
    """The side panel: move, turn, rings, sand, timer, and what happened."""
    s = frame.state
    x = PANEL_X
    right = x + PANEL_W
    out: list[Shape] = [Rect(x - 10, 0, x - 10, HEIGHT, Ink.RULE)]
    y = 12
    head = "Tamsk " + _("level {n}").format(n=s.get("level", 3))
    if s.get("level", 3) >= 3:
        head += f" ({_(str(s.get('ruleset', 'adjusted')))})"
    y = panel_head(out, frame, head, x=x, width=PANEL_W, y=y, title=title, total=total)
    if s.get("over"):
        winner = s.get("winner")
        words = _("a tie") if winner == "tie" else _("{player} wins").format(
            player=colour_word(str(winner)))
        said = _("game over: {result} ({reason})").format(
            result=words, reason=reason_in_words(s.get("reason")))
        for line in bitmap.wrap(said, PANEL_W // bitmap.CHAR_WIDTH)[:2]:
            out.append(Text(x, y, line, Ink.TEXT, 1))
            y += 10
        y -= 10
    else:
        turn = str(s.get("turn"))
        out.append(Circle(x + 5, y + 3, 5, Ink.RED if turn == "red" else Ink.BLACK))
        out.append(Text(x + 16, y, _("{player} to move").format(player=colour_word(turn)),
                        Ink.TEXT, 1))
    y += 16
    left = s.get("rings_left", {})
    out.append(Text(x, y, _("rings left"), Ink.GREY, 1))
    y += 12
    label = max(bitmap.width(colour_word(p)) for p in ("red", "black")) + 6  # ČERVENÝ
    for player, ink in (("red", Ink.RED), ("black", Ink.BLACK)):
        n = int(left.get(player, 0))
        out.append(Text(x, y, colour_word(player), ink, 1))
        bar_x = x + max(40, label)  # the bar starts where the longest colour word ends
        out += _bar(bar_x, y - 1, 210 - (bar_x - x), 8, n / 32, ink)
        out.append(Text(right, y, f"{n:2d}", ink, 1, "rt"))
        y += 12
    y += 6
    glasses = s.get("glasses", {})
    timed = int(s.get("level", 3)) >= 2
    hands = set(s.get("in_hand", {}).values())
    out.append(Text(x, y, _("glasses: space, sand") if timed else _("glasses"), Ink.GREY, 1))
    y += 12
    for name in GLASSES:
        g = glasses.get(name, {})
        ink = Ink.DEAD if g.get("dead") else glass_ink(name)
        out.append(Circle(x + 5, y + 3, 5, ink))
        out.append(Text(x + 14, y, f"{name} {g.get('space') or '--':3}", Ink.TEXT, 1))
        if timed:
            period = float(g.get("period") or 180.0)
            sand = float(g.get("sand") or 0.0)
            out += _bar(x + 56, y - 1, 90, 8, sand / period, Ink.SAND)
            if not g.get("dead"):  # a lost glass's words (ztracené 0:25,0) take the room
                out.append(Text(x + 152, y, numbers.seconds(sand).rjust(7), Ink.TEXT, 1))
        if timed:
            out.append(Text(right, y, _status(g, name in hands), Ink.GREY, 1, "rt"))
        y += 12
    y += 6
    timer = s.get("timer15", {})
    if int(s.get("level", 3)) >= 3:
        if timer.get("running"):
            remaining = float(timer.get("remaining") or 0.0)
            out.append(Text(x, y, _("15 s timer {left}s against {player}").format(
                left=numbers.decimal(remaining, 1), player=colour_word(str(timer.get("against")))),
                Ink.TEXT, 1))
            y += 11
            out += _bar(x, y, PANEL_W, 8, remaining / 15.0, Ink.HIGHLIGHT)
            y += 14
        else:
            out.append(Text(x, y, _("15 s timer: not running"), Ink.GREY, 1))
            y += 14
    if s.get("bonus_ring"):
        out.append(Text(x, y, _("{player} may drop a second ring").format(
            player=colour_word(str(s["bonus_ring"]))), Ink.TEXT, 1))
        y += 12
    if s.get("skip_next"):
        out.append(Text(x, y, _("next turn skipped: {players}").format(
            players=", ".join(colour_word(p) for p in s["skip_next"])), Ink.TEXT, 1))
        y += 12
    penalties = s.get("penalties", [])
    violations = s.get("violations", [])
    out.append(
        Text(x, y, _("penalties {n}   refused inputs {m}").format(
            n=len(penalties), m=len(violations)), Ink.GREY, 1)
    )
    y += 14
    out.append(Rect(x, y - 4, right, y - 4, Ink.RULE))
    for mark in frame.marks:
        ink = Ink.REFUSED if mark.startswith("refused") else Ink.TEXT
        for part in bitmap.wrap(say(mark), _CHARS):
            if y > HEIGHT - 14:
                break
            out.append(Text(x, y, part, ink, 1))
            y += 11
    return out


def shapes(frame: Frame, *, title: str = "", total: int | None = None) -> list[Shape]:
    """The whole picture of one frame."""
    return [*static(), *dynamic(frame, title=title, total=total)]


def dynamic(frame: Frame, *, title: str = "", total: int | None = None) -> list[Shape]:
    """What changes from frame to frame (drawn over :func:`static`)."""
    return [*board(frame.state, frame.highlight), *panel(frame, title=title, total=total)]


def png(frame: Frame, *, title: str = "", total: int | None = None) -> Image.Image:
    """The frame as a palette image (PNG or GIF frame)."""
    return to_png(shapes(frame, title=title, total=total), SIZE)


def svg(frame: Frame, *, title: str = "", total: int | None = None) -> str:
    """The frame as a standalone SVG document."""
    return to_svg(shapes(frame, title=title, total=total), SIZE, title=frame.shown)
