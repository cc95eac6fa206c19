"""`companion dispute FILE --at TIME`: exactly what happened around one moment of a game.

Disputes are about time (who overran the 15 seconds, whose glass ran out first) and about
rings. This reads the journal, checks its hash chain, and folds it through the engine one
record at a time, printing for every record near the moment: its ``seq``, its game time and
wall-clock time, who or what wrote it, what it was, whether the rules refused it and why, the
15-second timer, whose turn it was, the rings, and each glass's sand at that instant. Things
that happen by themselves (a glass running out, the 15-second timer running out and the
penalty it gives) are shown at the instant they happened, between the inputs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from companion import journal as journal_mod
from companion.scenario import MalformedInput
from companion.tamsk.events import GLASSES, parse_event
from companion.tamsk.game import Game

DEFAULT_WINDOW = 20.0


class DisputeError(ValueError):
    """A journal or a time the dispute tool cannot work with."""


def clock(seconds: float) -> str:
    m, s = divmod(max(0.0, seconds), 60.0)
    return f"{int(m)}:{s:06.3f}"


def parse_at(text: str, wall0: float | None) -> float:
    """A moment as game seconds: ``212.5``, ``3:32.5`` (game clock), or a wall-clock time
    ``14:03:12`` / ``2026-05-02T14:03:12`` (local time, needs the journal's ``wall0``)."""
    text = text.strip()
    if re.fullmatch(r"\d+(\.\d+)?", text):
        return float(text)
    m = re.fullmatch(r"(\d+):(\d{1,2}(\.\d+)?)", text)
    if m:
        return int(m.group(1)) * 60 + float(m.group(2))
    if wall0 is None:
        raise DisputeError(f"{text!r}: the journal has no wall-clock start (wall0)")
    start = datetime.fromtimestamp(wall0)
    try:
        if "T" in text or "-" in text:
            moment = datetime.fromisoformat(text)
        else:
            parts = datetime.strptime(text, "%H:%M:%S.%f" if "." in text else "%H:%M:%S")
            moment = start.replace(
                hour=parts.hour, minute=parts.minute, second=parts.second,
                microsecond=parts.microsecond,
            )
    except ValueError:
        raise DisputeError(
            f"{text!r}: give seconds (212.5), the game clock (3:32.5) or the time of day "
            "(14:03:12)"
        ) from None
    return moment.timestamp() - wall0


@dataclass
class Line:
    """One line of the account: an input, or something that happened by itself."""

    t: float
    text: str


def _state(game: Game, t: float) -> str:
    timer = game.timer
    if timer.running:
        t15 = f"15 s timer {max(0.0, timer.expires - t):.2f} s left against {timer.against}"
    else:
        t15 = "15 s timer not running"
    sand = []
    for name in GLASSES:
        g = game.glasses[name]
        if g.dead:
            sand.append(f"{name} lost at {clock(g.died_at or 0.0)}")
        elif not game.rules.timed:
            sand.append(f"{name}@{g.space or '?'}")
        else:
            flag = "" if g.running else " (not running)"
            sand.append(f"{name}@{g.space or '?'} {g.sand_at(t):.2f}s{flag}")
    rl = game.rings_left
    turn = "game over" if game.over else f"turn {game.turn}"
    return (
        f"      {turn}; {t15}; rings left red {rl['red']} black {rl['black']}\n"
        f"      sand: {', '.join(sand)}"
    )


def _describe(body: dict[str, Any]) -> str:
    skip = {"t", "ev", "wall", "src", "seq", "prev", "hash"}
    rest = ", ".join(f"{k}={v}" for k, v in body.items() if k not in skip)
    return f"{body.get('ev')} {rest}".strip()


def account(path: str | Path, at: str | float, window: float = DEFAULT_WINDOW) -> str:
    """The text ``companion dispute`` prints."""
    j = journal_mod.read_path(path)
    if j.header is None:
        raise DisputeError(f"{path}: not a journal (no header)")
    if j.header.get("game") != "tamsk":
        raise DisputeError(f"{path}: disputes are told for Tamsk journals")
    from companion.tamsk.simulate import rules_from_header

    wall0 = j.header.get("wall0")
    moment = at if isinstance(at, float) else parse_at(str(at), wall0 if wall0 else None)
    lo, hi = moment - window, moment + window
    out = [
        f"{path}: what happened from {clock(lo)} to {clock(hi)} "
        f"(game clock; asked about {clock(moment)})"
    ]
    if j.intact:
        out.append("journal intact: hash chain unbroken, nothing edited, removed or reordered")
    else:
        out.append("WARNING: THE JOURNAL IS ALTERED OR DAMAGED (companion verify tells where):")
        out += [f"  {p}" for p in j.problems] + ([f"  {j.torn}"] if j.torn else [])
    try:
        game = Game(rules_from_header(j.header))
    except MalformedInput as exc:
        raise DisputeError(f"{path}: {exc}") from None
    out.append(
        f"Tamsk level {game.rules.level}, {game.rules.ruleset} rules; "
        f"players {j.header.get('names') or {}}"
    )
    shown_state = False
    for line, body in j.events:
        t = body.get("t")
        if not isinstance(t, (int, float)) or isinstance(t, bool) or t < game.t:
            out.append(f"  line {line}: unreadable time, skipped by the rules")
            continue
        t = float(t)
        if t > hi:
            break
        try:
            event = parse_event(body, t, line)
        except MalformedInput as exc:
            out.append(f"  line {line}: {exc.message}")
            continue
        if t >= lo and not shown_state:
            if game.t < lo:
                game.advance(lo)
            out.append(f"  state at {clock(game.t)}:")
            out.append(_state(game, game.t))
            shown_state = True
        out += _run_to(game, t, lo)
        violation = game.apply(event)
        if t < lo:
            continue
        wall = body.get("wall")
        when = (
            datetime.fromtimestamp(float(wall)).strftime("%H:%M:%S.%f")[:-3]
            if isinstance(wall, (int, float)) and not isinstance(wall, bool)
            else "?"
        )
        marker = "   <== the moment asked about" if abs(t - moment) < 0.5 else ""
        out.append(
            f"  seq {line - 1:4d}  {clock(t)}  ({when})  [{body.get('src', '?')}] "
            f"{_describe(body)}{marker}"
        )
        if violation is not None:
            out.append(f"      REFUSED ({violation.kind}): {violation.detail}")
        out.append(_state(game, t))
    if not shown_state:
        out.append("  no input in that window")
    if not game.over and hi > game.t:
        out += _run_to(game, hi, lo)
        out.append(f"  state at {clock(game.t)}:")
        out.append(_state(game, game.t))
    if game.outcome is not None:
        o = game.outcome
        out.append(f"  result: {o.winner} ({o.reason}) at {clock(o.t)}")
    return "\n".join(out)


def _run_to(game: Game, t: float, lo: float) -> list[str]:
    """Let time run to ``t`` and tell what happened by itself meanwhile (from ``lo`` on)."""
    before_pen = len(game.penalties)
    dead_before = {g for g, x in game.glasses.items() if x.dead}
    timer_before = game.timer.running
    game.advance(t)
    return _happenings(game, before_pen, dead_before, timer_before, lo)


def _happenings(
    game: Game, before_pen: int, dead_before: set[str], timer_before: bool, lo: float
) -> list[str]:
    lines: list[tuple[float, str]] = []
    for p in game.penalties[before_pen:]:
        lines.append((p.t, f"  ----  {clock(p.t)}  the 15 s timer ran out: {p.player} {p.kind}"))
    for name, g in game.glasses.items():
        if g.dead and name not in dead_before and g.died_at is not None:
            lines.append((g.died_at, f"  ----  {clock(g.died_at)}  {name} ran out of sand"))
    if timer_before and not game.timer.running and len(game.penalties) == before_pen:
        lines.append((game.t, f"  ----  by {clock(game.t)}  the 15 s timer ran out (no penalty)"))
    return [text for t, text in sorted(lines) if t >= lo]
