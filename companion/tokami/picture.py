"""A Tokami frame drawn as shapes, as text, and a chart of the whole game.

Tokami has no board the companion sees (the table only says how each turn ended), so a frame
is a score sheet: the turn just played and what the rules made of it, whose turn it is, a
standings table (each player's rounds, total, and the bonus and malus blocks he holds as
coloured chips with their counts), the blocks still on the cross colour by colour (the
forbidden one ringed) and the refused inputs. Everything comes from one frame's state (the
contract's JSON object).

:func:`png` and :func:`svg` are pure, like the Tamsk and Tantrix pictures; :func:`text_lines`
is the same sheet for a terminal; :func:`chart` is the HTML viewer's chart of each player's
total over the game; :func:`write_pngs` and :func:`write_gif` draw a whole game with the
timings of :mod:`companion.replay.gif`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from pathlib import Path
from typing import Any

from PIL import Image

from companion.i18n import N_, _, language, say
from companion.remark import Remark
from companion.replay import bitmap
from companion.replay import gif as gif_mod
from companion.replay.model import Frame, Replay
from companion.replay.model import where as move_words
from companion.replay.palette import Ink, hex_of
from companion.replay.panel import clock
from companion.replay.shapes import Circle, Group, Rect, Shape, Text, to_png, to_svg
from companion.tokami.setup import Setup
from companion.tokami.words import refusal_in_words, rule_in_words

#: The picture's width, and its height at most (see :func:`size_of`).
WIDTH, HEIGHT = 760, 540
MARGIN = 12
RIGHT = WIDTH - MARGIN
_CHARS = (RIGHT - MARGIN) // bitmap.CHAR_WIDTH

#: Block colours the palette knows by name; other colours take the spare inks in turn.
NAMED: dict[str, Ink] = {
    "red": Ink.T_RED,
    "yellow": Ink.T_YELLOW,
    "green": Ink.T_GREEN,
    "blue": Ink.T_BLUE,
    "black": Ink.BLACK,
    "white": Ink.WHITE,
    "natural": Ink.PLATE,
    "wood": Ink.PLATE,
    "grey": Ink.GREY,
    "gray": Ink.GREY,
    "orange": Ink.SAND,
    "brown": Ink.EDGE,
}
SPARE = (Ink.SAND, Ink.RING, Ink.EDGE, Ink.BLACK_SOFT, Ink.PLATE, Ink.DEAD, Ink.CONTROLLED)
#: Inks dark enough to carry white figures.
DARK = frozenset({Ink.T_RED, Ink.T_GREEN, Ink.T_BLUE, Ink.BLACK, Ink.RING, Ink.EDGE,
                  Ink.BLACK_SOFT, Ink.DEAD})
#: One ink per seat, for the player's numbered disc in the table and his line in the chart
#: (none of them a block colour of the default set, so a player is not taken for a colour).
SEATS = (Ink.RING, Ink.EDGE, Ink.BLACK_SOFT, Ink.SAND, Ink.DEAD)

# the standings table
TABLE_Y = 136
ROW_H = 34
CHIP_H = 20
COL_NAME = 30
COL_ROUNDS = 130
COL_TOTAL = 262  # right edge of the total
COL_BONUS = 278
CHIPS_W = (RIGHT - COL_BONUS - 16) // 2
# the cross
BLOCK = 9
BLOCK_GAP = 2
CROSS_X = 72
CROSS_RIGHT = 400
REFUSED_X = 420
RECENT = 4


def block_inks(colours: Sequence[str]) -> dict[str, Ink]:
    """The ink of each block colour of the set (the same in every frame of a game)."""
    out: dict[str, Ink] = {}
    spare = 0
    for colour in colours:
        ink = NAMED.get(colour.lower())
        if ink is None:
            ink = SPARE[spare % len(SPARE)]
            spare += 1
        out[colour] = ink
    return out


def seat_ink(players: Sequence[str], player: str) -> Ink:
    return SEATS[players.index(player) % len(SEATS)] if player in players else Ink.GREY


def seat_disc(players: Sequence[str], player: str, x: float, y: float) -> list[Shape]:
    """A disc in the player's seat ink with his seat number (1 plays first)."""
    seat = str(players.index(player) + 1) if player in players else "?"
    return [Circle(x, y, 6, seat_ink(players, player)),
            Text(x + 1, y + 1, seat, Ink.WHITE, 1, "mm")]


def title(replay: Replay) -> str:
    """The players in turn order: ``Anna, Ben, Chloé``."""
    return ", ".join(str(p) for p in replay.header.get("players", []))


# ---------------------------------------------------------------------------------- shapes


def _chip(x: float, y: float, w: float, colour: str, ink: Ink, count: int, held: str
          ) -> Shape:
    """One colour's blocks held: a chip in the colour with the count, pale when none."""
    if count:
        figure = Ink.WHITE if ink in DARK else Ink.TEXT
        inner: tuple[Shape, ...] = (
            Rect(x, y, x + w, y + CHIP_H, ink, Ink.EDGE),
            Text(x + w / 2 + 1, y + CHIP_H / 2 + 1, str(count), figure, 1, "mm"),
        )
    else:  # none held: pale, with a strip of the colour to say which column it is
        inner = (Rect(x, y, x + w, y + CHIP_H, Ink.PALE, Ink.RULE),
                 Rect(x + 1, y + CHIP_H - 3, x + w - 1, y + CHIP_H - 1, ink))
    return Group((("colour", colour), ("held", held), ("count", str(count))), inner)


def _chips(x: float, y: float, counts: Mapping[str, int], inks: Mapping[str, Ink],
           held: str) -> list[Shape]:
    step = max(8, min(30, CHIPS_W // max(1, len(inks))))
    return [
        _chip(x + k * step, y, step - 3, colour, ink, int(counts.get(colour, 0)), held)
        for k, (colour, ink) in enumerate(inks.items())
    ]


def header(frame: Frame, *, title: str = "", total: int | None = None) -> list[Shape]:
    """The turn just played, when, and what the rules made of it."""
    s = frame.state
    out: list[Shape] = [Text(MARGIN, 12, "Tokami", Ink.TEXT, 1)]
    if title:
        out.append(Text(MARGIN + 48, 12, bitmap.clip(title, 70), Ink.GREY, 1))
    out.append(Text(RIGHT, 12, clock(frame.t), Ink.TEXT, 2, "rt"))
    where = _("round {n} of {rounds}").format(n=s["round"], rounds=s["rounds"])
    if total is not None:  # a replay's frame (the arbiter's live sheet has no move number)
        where += "   " + move_words(frame, total)
    out.append(Text(MARGIN, 32, where, Ink.GREY, 1))
    label = frame.shown.split(" @")[0] if frame.index else _("start of the game")
    scale = 2 if len(label) <= _CHARS // 2 else 1
    out.append(Text(MARGIN, 48, bitmap.clip(label, _CHARS // scale),
                    Ink.REFUSED if frame.refused else Ink.TEXT, scale))
    y = 72
    # The bottom line says who won; the fold's own "game over: X wins (scores)" mark would say
    # it a second time, so only its scores are kept here.
    marks = [(say(m), m.startswith("refused"))
             for m in (_final_scores(m) if s["over"] and m.startswith("game over:") else m
                       for m in frame.marks) if m]
    lines = [(part, refused) for mark, refused in marks for part in bitmap.wrap(mark, _CHARS)]
    for k, (part, refused) in enumerate(lines[:3]):
        if k == 2 and len(lines) > 3:
            part = bitmap.clip(part + " ...", _CHARS)
        out.append(Text(MARGIN, y, part, Ink.REFUSED if refused else Ink.TEXT, 1))
        y += 11
    players = list(s["players"])
    if s["over"]:
        w = s["winner"]
        result = _("a tie") if w == "tie" else _("{player} wins").format(player=w)
        how = _("stopped: {result}") if s["reason"] == "stopped" else _("game over: {result}")
        out.append(Text(MARGIN, 110, how.format(result=result),
                        Ink.TEXT, 1))
    else:
        turn = str(s["turn"])
        out += seat_disc(players, turn, MARGIN + 6, 113)
        out.append(Text(MARGIN + 16, 110, _("{player} to play").format(player=turn), Ink.TEXT, 1))
    out.append(Rect(MARGIN, 126, RIGHT, 126, Ink.RULE))
    return out


def _final_scores(mark: str) -> str:
    """``game over: Anna wins (Anna 0, Ben -2)`` -> ``final scores: Anna 0, Ben -2``."""
    scores = mark.rpartition(" (")[2].rstrip(")") if mark.endswith(")") else ""
    return Remark(N_("final scores: {scores}"), scores=scores) if scores else ""


def _ordinal(n: int) -> str:
    """``1st``, ``2nd``...: the rank in the standings (equal totals share it)."""
    if language() != "en":
        return _("{n}.").format(n=n)
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n, 'th')}"


def setup_of(state: Mapping[str, Any], header: Mapping[str, Any] | None = None) -> Setup:
    """The game's fixed facts (the worthless colour, where a round ends): from the header when
    there is one, else the defaults for the state's players and blocks."""
    fields = dict(header or {})
    fields.setdefault("players", list(state["players"]))
    fields.setdefault("blocks", dict(state["blocks"]))
    return Setup.from_header(fields)


def standings(state: Mapping[str, Any], setup: Setup) -> list[Shape]:
    """One row a player, in turn order: rank, rounds, total, bonus and malus chips."""
    players = list(state["players"])
    inks = block_inks(list(state["blocks"]))
    worthless = setup.worthless
    bonus_note = (_("bonus (+1, {colour} 0)").format(colour=_(worthless)) if worthless
                  else _("bonus (+1 each)"))
    out: list[Shape] = [
        Text(COL_NAME, TABLE_Y, _("player"), Ink.GREY, 1),
        Text(COL_ROUNDS, TABLE_Y, _("rounds"), Ink.GREY, 1),
        Text(COL_TOTAL, TABLE_Y, _("total"), Ink.GREY, 1, "rt"),
        Text(COL_BONUS, TABLE_Y, bonus_note, Ink.GREY, 1),
        Text(COL_BONUS + CHIPS_W + 16, TABLE_Y, _("malus (-1 each)"), Ink.GREY, 1),
    ]
    rank = {p: 1 + sum(1 for _, t in state["standings"] if t > total)
            for p, total in state["standings"]}
    y = TABLE_Y + 14
    for player in players:
        score = state["scores"][player]
        held = state["held"][player]
        row: list[Shape] = []
        if player == state["turn"]:
            row.append(Rect(MARGIN - 4, y - 2, RIGHT + 4, y + ROW_H - 6, Ink.PALE))
        row += seat_disc(players, player, MARGIN + 6, y + CHIP_H / 2)
        row.append(Text(COL_NAME, y + 3, bitmap.clip(player, 14), Ink.TEXT, 1))
        row.append(Text(COL_NAME, y + 14, _ordinal(rank[player]), Ink.GREY, 1))
        rounds = [f"{r:+d}" if r else "0" for r in score["rounds"]]
        if len(rounds) > 5:
            rounds = ["..", *rounds[-4:]]
        row.append(Text(COL_ROUNDS, y + 7, " ".join(rounds), Ink.TEXT, 1))
        row.append(Text(COL_TOTAL, y + 3, str(score["total"]), Ink.TEXT, 2, "rt"))
        row += _chips(COL_BONUS, y, held["bonus"], inks, "bonus")
        row += _chips(COL_BONUS + CHIPS_W + 16, y, held["malus"], inks, "malus")
        out.append(Group((("player", player), ("total", str(score["total"]))), tuple(row)))
        y += ROW_H
    return out


def cross(state: Mapping[str, Any], setup: Setup, top: float) -> list[Shape]:
    """The blocks of each colour: those still on the cross filled, those taken off hollow, the
    forbidden one ringed."""
    inks = block_inks(list(state["blocks"]))
    left = state["blocks_left"]
    total = sum(state["blocks"].values())
    ends = setup.round_ends_at
    out: list[Shape] = [
        Text(MARGIN, top, _("on the cross: {left} of {total} blocks").format(
            left=left, total=total), Ink.TEXT, 1),
    ]
    y = top + 14
    per_row = (CROSS_RIGHT - CROSS_X) // (BLOCK + BLOCK_GAP)
    for colour, ink in inks.items():
        count = int(state["blocks"][colour])
        there = int(state["on_cross"][colour])
        row: list[Shape] = [Text(MARGIN, y + 1, bitmap.clip(_(colour), 9), Ink.TEXT, 1)]
        for k in range(min(count, per_row)):
            x = CROSS_X + k * (BLOCK + BLOCK_GAP)
            if k < there:
                row.append(Rect(x, y, x + BLOCK, y + BLOCK, ink, Ink.EDGE))
            else:
                row.append(Rect(x, y, x + BLOCK, y + BLOCK, None, Ink.RULE))
        if count > per_row:
            row.append(Text(CROSS_RIGHT + 2, y + 1, f"+{count - per_row}", Ink.GREY, 1))
        if state["forbidden"] == colour and there:
            k = min(there, per_row) - 1
            x = CROSS_X + k * (BLOCK + BLOCK_GAP)
            row.append(Rect(x - 2, y - 2, x + BLOCK + 2, y + BLOCK + 2, None, Ink.HIGHLIGHT))
            row.append(Rect(x - 1, y - 1, x + BLOCK + 1, y + BLOCK + 1, None, Ink.HIGHLIGHT))
        out.append(Group((("cross", colour), ("left", str(there))), tuple(row)))
        y += BLOCK + 4
    forbidden = state["forbidden"]
    note = (_("ringed: {colour}, forbidden to {player}").format(
        colour=_(forbidden), player=state["turn"]) if forbidden and state["turn"]
        else _("nothing forbidden"))
    out.append(Text(MARGIN, y + 2, _("{note}; a round ends at {n} left").format(note=note, n=ends),
                    Ink.GREY, 1))
    return out


def refusals(state: Mapping[str, Any], top: float) -> list[Shape]:
    """The refused inputs so far (the latest ones)."""
    violations = state["violations"]
    out: list[Shape] = [
        Text(REFUSED_X, top, _("refused inputs: {n}").format(n=len(violations)), Ink.TEXT, 1)]
    y = top + 14
    chars = (RIGHT - REFUSED_X) // bitmap.CHAR_WIDTH
    for v in violations[-RECENT:]:
        text = f"{clock(float(v['t']))} {v['player']}: {refusal_in_words(str(v['detail']))}"
        for part in bitmap.wrap(text, chars)[:3]:
            if y > size_of(state)[1] - 14:
                return out
            out.append(Text(REFUSED_X, y, part, Ink.REFUSED, 1))
            y += 11
        y += 3
    return out


def _top(state: Mapping[str, Any]) -> int:
    """Where the cross and the refusals start: below the standings."""
    return TABLE_Y + 14 + ROW_H * len(state["players"]) + 6


def size_of(state: Mapping[str, Any]) -> tuple[int, int]:
    """The picture's size for this game (its players and colours; the same in every frame):
    the full width, and tall enough for the cross and the latest refusals."""
    top = _top(state)
    cross_end = top + 14 + (BLOCK + 4) * len(state["blocks"]) + 16
    refusals_end = top + 14 + RECENT * 36
    return WIDTH, min(HEIGHT, max(cross_end, refusals_end) + MARGIN)


def shapes(frame: Frame, *, setup: Setup | None = None, title: str = "",
           total: int | None = None) -> list[Shape]:
    """The whole sheet of one frame (``setup``: the game's, else read from the state)."""
    s = frame.state
    setup = setup or setup_of(s)
    top = _top(s)
    return [*header(frame, title=title, total=total), *standings(s, setup),
            *cross(s, setup, top), *refusals(s, top)]


def png(frame: Frame, *, setup: Setup | None = None, title: str = "",
        total: int | None = None) -> Image.Image:
    return to_png(shapes(frame, setup=setup, title=title, total=total), size_of(frame.state))


def svg(frame: Frame, *, setup: Setup | None = None, title: str = "",
        total: int | None = None) -> str:
    return to_svg(shapes(frame, setup=setup, title=title, total=total), size_of(frame.state),
                  title=frame.shown)


def dynamic(replay: Replay, frame: Frame) -> list[Shape]:
    """The shapes of one frame of this game (what the HTML viewer swaps frame by frame)."""
    setup = setup_of(frame.state, replay.header)
    return shapes(frame, setup=setup, title=title(replay), total=replay.moves)


def picture(replay: Replay, frame: Frame) -> Image.Image:
    """One frame of a Tokami game as a palette image."""
    return to_png(dynamic(replay, frame), size_of(frame.state))


def picture_svg(replay: Replay, frame: Frame) -> str:
    """One frame of a Tokami game as a standalone SVG document."""
    return to_svg(dynamic(replay, frame), size_of(frame.state), title=frame.shown)


def write_pngs(replay: Replay, folder: str | Path) -> list[Path]:
    """One PNG per frame (:func:`companion.replay.gif.write_pngs`)."""
    return gif_mod.write_pngs(replay, folder)


def write_gif(replay: Replay, path: str | Path, *, speed: float | None = None,
              fps: float = 2.0, per_move_ms: int = gif_mod.PER_MOVE_MS) -> gif_mod.Plan:
    """An animated GIF of the game at ``path`` (:func:`companion.replay.gif.write_gif`)."""
    return gif_mod.write_gif(replay, path, speed=speed, fps=fps, per_move_ms=per_move_ms)


# ---------------------------------------------------------------------------------- text


def _counts(counts: Mapping[str, int]) -> str:
    shown = [f"{n} {_(c)}" for c, n in counts.items() if n]
    return ", ".join(shown) if shown else "-"


def text_lines(state: Mapping[str, Any]) -> list[str]:
    """The sheet as lines of text for a terminal."""
    cross_now = ", ".join(f"{_(c)} {n}" for c, n in state["on_cross"].items())
    forbidden = state["forbidden"]
    out = [
        _("Round {n} of {rounds}: {left} blocks left on the cross ({cross})").format(
            n=state["round"], rounds=state["rounds"], left=state["blocks_left"], cross=cross_now),
        _("Forbidden block: {colour}").format(
            colour=_(forbidden) if forbidden else _("none")),
    ]
    if state["over"]:
        w = state["winner"]
        how = _("Stopped: {result}") if state["reason"] == "stopped" else _("Game over: {result}")
        out.append(how.format(
            result=_("a tie") if w == "tie" else _("{player} wins").format(player=w)))
    else:
        out.append(_("Turn: {player}").format(player=state["turn"]))
    width = max(len(p) for p in state["players"])
    out.append(_("Standings (total; rounds; bonus held; malus held):"))
    for player in state["players"]:
        score = state["scores"][player]
        held = state["held"][player]
        rounds = " + ".join(str(r) for r in score["rounds"])
        line = (f"  {player:<{width}} {score['total']:>4}   {rounds:<10} "
                + _("bonus {held}; malus {malus}").format(
                    held=_counts(held["bonus"]), malus=_counts(held["malus"])))
        if any(held["discarded"].values()):
            line += " (" + _("discarded {held}").format(held=_counts(held["discarded"])) + ")"
        out.append(line)
    violations = state["violations"]
    out.append(_("Refused inputs: {n}").format(n=len(violations)))
    if len(violations) > RECENT:
        out.append("  ... " + _("{n} earlier").format(n=len(violations) - RECENT))
    for v in violations[-RECENT:]:
        out.append(f"  {clock(float(v['t']))} {v['player']}: "
                   f"{refusal_in_words(str(v['detail']))} ({rule_in_words(str(v['kind']))})")
    return out


# ---------------------------------------------------------------------------------- chart

CHART_W, CHART_H = 760, 220
C_LEFT, C_RIGHT, C_TOP, C_BOTTOM = 46, 130, 16, 30


def axis(replay: Replay) -> list[float]:
    """Where each frame sits on the chart: its time, or its number when the record has no
    times (a notation typed by hand)."""
    if replay.duration > 0:
        return [f.t for f in replay.frames]
    return [float(f.index) for f in replay.frames]


def chart(replay: Replay) -> str:
    """Each player's total over the game as an SVG, with the viewer's cursor
    (``id="cursor"``, moved by the page using ``data-x0``/``data-x1``/``data-t1``)."""
    xs = axis(replay)
    timed = replay.duration > 0
    t1 = max(xs[-1], 1.0)
    players = [str(p) for p in replay.header.get("players", [])]
    totals = [[int(f.state["scores"][p]["total"]) for p in players] for f in replay.frames]
    low = min([0, *(v for row in totals for v in row)])
    high = max([1, *(v for row in totals for v in row)])
    x0, x1 = C_LEFT, CHART_W - C_RIGHT
    y0, y1 = CHART_H - C_BOTTOM, C_TOP

    def x_of(t: float) -> float:
        return x0 + (x1 - x0) * min(t, t1) / t1

    def y_of(v: float) -> float:
        return y0 - (y0 - y1) * (v - low) / (high - low)

    grey = hex_of(Ink.GREY)
    parts = [f'<rect x="{x0}" y="{y1}" width="{x1 - x0}" height="{y0 - y1}" fill="#ffffff" '
             f'stroke="{hex_of(Ink.RULE)}"/>']
    step = max(1, (high - low) // 5)
    for v in range(low, high + 1, step):
        y = y_of(v)
        stroke = hex_of(Ink.GREY if v == 0 else Ink.PALE)
        parts.append(f'<line x1="{x0}" y1="{y:.1f}" x2="{x1}" y2="{y:.1f}" stroke="{stroke}"/>')
        parts.append(f'<text x="{x0 - 4}" y="{y + 3:.1f}" font-size="10" text-anchor="end" '
                     f'fill="{grey}">{v}</text>')
    tick = _tick(t1, timed)
    t = 0.0
    while t <= t1 + 1e-9:
        x = x_of(t)
        words = (f"{int(t) // 60}:{int(t) % 60:02d}" if timed else f"{int(t)}")
        parts.append(f'<text x="{x:.1f}" y="{y0 + 16}" font-size="10" text-anchor="middle" '
                     f'fill="{grey}">{words}</text>')
        t += tick
    legend = _("total points (by time)") if timed else _("total points (by move)")
    parts.append(f'<text x="{x0}" y="{C_TOP - 4}" font-size="10" fill="{grey}">'
                 f"{escape(legend)}</text>")
    for k, player in enumerate(players):
        corners: list[str] = []
        last: float | None = None
        for x_at, row in zip(xs, totals, strict=True):
            x, y = x_of(x_at), y_of(row[k])
            if last is not None:
                corners.append(f"{x:.1f},{last:.1f}")
            corners.append(f"{x:.1f},{y:.1f}")
            last = y
        colour = hex_of(SEATS[k % len(SEATS)])
        parts.append(f'<polyline data-player="{escape(player)}" points="{" ".join(corners)}" '
                     f'fill="none" stroke="{colour}" stroke-width="2"/>')
        ly = C_TOP + 14 + 16 * k
        parts.append(f'<line x1="{x1 + 10}" y1="{ly}" x2="{x1 + 34}" y2="{ly}" '
                     f'stroke="{colour}" stroke-width="3"/>')
        parts.append(f'<text x="{x1 + 40}" y="{ly + 4}" font-size="11" '
                     f'fill="{hex_of(Ink.TEXT)}">{escape(bitmap.clip(player, 13))}</text>')
    parts.append(f'<line id="cursor" x1="{x0}" y1="{C_TOP}" x2="{x0}" y2="{y0}" '
                 f'stroke="{hex_of(Ink.HIGHLIGHT)}" stroke-width="2"/>')
    return (f'<svg id="chart" xmlns="http://www.w3.org/2000/svg" '
            f'viewBox="0 0 {CHART_W} {CHART_H}" data-x0="{x0}" data-x1="{x1}" '
            f'data-t1="{t1:.3f}">' + "".join(parts) + "</svg>")


def _tick(span: float, timed: bool) -> float:
    steps = (1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600) if timed else (
        1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)
    for step in steps:
        if span / step <= 10:
            return float(step)
    return float(steps[-1] * 2)
