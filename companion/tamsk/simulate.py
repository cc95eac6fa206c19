"""`companion simulate` for Tamsk: a scenario (or journal) in, the contract's state out."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from companion.remark import english, english_in
from companion.scenario import MalformedInput, NumberedEvent, event_times, timed_events
from companion.tamsk.board import CAPACITY, COLUMNS, SPACES, coordinates
from companion.tamsk.challenge import outcome as challenge_outcome
from companion.tamsk.challenge import parse_challenge
from companion.tamsk.events import GLASSES, Event, parse_event
from companion.tamsk.game import LEVELS, RULESETS, STARTS, Game, Rules

PERIOD_KEYS = (*GLASSES, "timer15")


def rules_from_header(header: Mapping[str, Any], line: int | None = 1) -> Rules:
    """The agreed rules from a scenario or journal header; a bad value is MalformedInput."""
    level = header.get("level", 3)
    if isinstance(level, bool) or level not in LEVELS:
        raise MalformedInput(f'"level" must be 1, 2 or 3, got {level!r}', line)
    ruleset = header.get("ruleset", "adjusted")
    if ruleset not in RULESETS:
        raise MalformedInput(f'"ruleset" must be adjusted or original, got {ruleset!r}', line)
    start = header.get("start", "standard")
    if start not in STARTS:
        raise MalformedInput(f'"start" must be standard or free, got {start!r}', line)
    periods_in = header.get("periods") or {}
    if not isinstance(periods_in, dict):
        raise MalformedInput('"periods" must map glasses to seconds, e.g. {"r1": 176.5}', line)
    periods: dict[str, float] = {}
    for key, value in periods_in.items():
        if key not in PERIOD_KEYS:
            raise MalformedInput(
                f'"periods": {key!r} is not a glass (r1-r3, b1-b3 or timer15)', line
            )
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < 3600:
            raise MalformedInput(f'"periods": {key} must be seconds > 0, got {value!r}', line)
        periods[key] = float(value)
    timer = periods.pop("timer15", 15.0)
    return Rules(int(level), str(ruleset), str(start), periods, timer)


def parse_events(events: Sequence[NumberedEvent]) -> list[Event]:
    times = event_times(events, required=True)
    return [parse_event(obj, t, line) for (line, obj), t in zip(events, times, strict=True)]


#: :func:`simulate` reads its events once, as they come (see companion.kindbase).
ONE_PASS = True


def simulate(
    header: dict[str, Any], events: Iterable[NumberedEvent], header_line: int = 1
) -> dict[str, Any]:
    """Fold the events while they are read: a journal's length costs no memory here beyond
    what the game itself keeps (notes, for one, are not kept)."""
    rules = rules_from_header(header, header_line)
    challenge = parse_challenge(header, header_line)
    game = Game(rules)
    last = 0.0
    for line, obj, t in timed_events(events, required=True):
        game.apply(parse_event(obj, t, line))
        last = t
    state = game.snapshot(last)
    if challenge is not None:
        state["challenge"] = challenge_outcome(challenge, bool(state["over"]), state["winner"])
    return state


def board_text(result: Mapping[str, Any]) -> str:
    """The hexagonal board as text: each space shows its glass or ``rings/capacity``."""
    at = {g["space"]: name for name, g in result["glasses"].items() if g["space"]}
    rings = result["spaces"]
    rows: dict[int, dict[int, str]] = {}
    for space in SPACES:
        i, y = coordinates(space)
        row = 2 * y - i
        n = rings.get(space, 0)
        if space in at:
            name = at[space]
            cell = (
                f"{name.upper() if result['glasses'][name]['dead'] else name}:{n}/{CAPACITY[space]}"
            )
        else:
            cell = "##" if n >= CAPACITY[space] else f"{n}/{CAPACITY[space]}"
        rows.setdefault(row, {})[i] = cell.rjust(6)
    lines = []
    for row in sorted(rows, reverse=True):
        line = ""
        for i, cell in sorted(rows[row].items()):
            line = line.ljust(i * 7) + cell
        lines.append(line.rstrip())
    lines.append("".join(c.rjust(5).ljust(7) for c in COLUMNS).rstrip())
    return "\n".join(lines)


def _clock(seconds: float) -> str:
    """``1:04.1``: tenths cut like the table's clock, the replay and the notation for people
    (rounding would say 1:04.2 here and 1:04.1 there for the same moment)."""
    tenths = int(seconds * 10 + 1e-6)
    minutes, rest = divmod(tenths, 600)
    return f"{minutes}:{rest // 10:02d}.{rest % 10}"



def _codes(pgettext: Callable[[str, str], str]) -> dict[tuple[str, str], str]:
    """The result's codes as words (in English the codes themselves, as they always read)."""
    return {
        ("ruleset", "adjusted"): pgettext("ruleset", "adjusted"),
        ("ruleset", "original"): pgettext("ruleset", "original"),
        ("start", "standard"): pgettext("start", "standard"),
        ("start", "free"): pgettext("start", "free"),
        ("reason", "rings"): pgettext("reason", "rings"),
        ("reason", "tie"): pgettext("reason", "tie"),
        ("reason", "time-tiebreak"): pgettext("reason", "time-tiebreak"),
        ("reason", "full-space"): pgettext("reason", "full-space"),
        ("reason", "resignation"): pgettext("reason", "resignation"),
        ("reason", "arbiter"): pgettext("reason", "arbiter"),
        ("reason", "forfeit"): pgettext("reason", "forfeit"),
        ("penalty", "late"): pgettext("penalty", "late"),
        ("penalty", "forfeit"): pgettext("penalty", "forfeit"),
        ("penalty", "pass"): pgettext("penalty", "pass"),
    }


def summary(
    result: dict[str, Any],
    _: Callable[[str], str] = english,
    pgettext: Callable[[str, str], str] = english_in,
    refusal: Callable[[str], str] = english,
    rule: Callable[[str], str] = english,
) -> str:
    """A person's view of the state: board, rings, sand, timer, penalties and violations.

    English unless the shell gives its gettext functions (``_``, ``pgettext``) and ``refusal``
    and ``rule``, which say a refusal's English detail and its rule code in the players'
    language (:mod:`companion.tamsk.words`): the rules never import gettext, but the words are
    marked here, where they are written.
    """

    def player(colour: Any) -> str:
        return pgettext("player", colour) if colour in ("red", "black") else str(colour)

    codes = _codes(pgettext)

    def code(context: str, value: Any) -> str:
        return codes.get((context, value), str(value))

    out = [
        _("Tamsk level {level} ({ruleset} rules, {start} start) at {t}").format(
            level=result["level"], ruleset=code("ruleset", result["ruleset"]),
            start=code("start", result["start"]),
            t=_clock(result["t"])),
        "",
        board_text(result),
        _("  r1:n/c a glass on a space with n rings of c, R1 a lost glass, ## a full space"),
        "",
        _("Rings left: red {red}, black {black}").format(
            red=result["rings_left"]["red"], black=result["rings_left"]["black"]),
    ]
    if result["level"] >= 2:
        for name, g in result["glasses"].items():
            state = (
                _("lost at {t}").format(t=_clock(g["died_at"]))
                if g["dead"]
                else (_("running") if g["running"] else _("not turned yet"))
            )
            out.append(_("  {glass} on {space:3} sand {sand:6.1f} s  {state}").format(
                glass=name, space=g["space"] or "?", sand=g["sand"], state=state))
    timer = result["timer15"]
    if timer["running"]:
        out.append(_("15-second timer: {left:.1f} s left against {player}").format(
            left=timer["remaining"], player=player(timer["against"])))
    if result["over"]:
        out.append(_("Game over: {winner} ({reason})").format(
            winner=player(result["winner"]) if result["winner"] != "tie" else _("tie"),
            reason=code("reason", result["reason"])))
        if result["tiebreak"]:
            order = ", ".join(f"{g} {_clock(t)}" for g, t in result["tiebreak"])
            out.append(_("  glasses ran out in this order: {order}").format(order=order))
    else:
        out.append(_("Turn: {player}").format(player=player(result["turn"])))
        if result["bonus_ring"]:
            out.append(_("  {player} may drop a second ring on any space not full").format(
                player=player(result["bonus_ring"])))
    for p in result["penalties"]:
        out.append(_("Penalty at {t}: {player} {kind}").format(
            t=_clock(p["t"]), player=player(p["player"]),
            kind=code("penalty", p["kind"])))
    for v in result["violations"]:
        out.append(_("Refused at {t} ({player}): {kind}: {detail}").format(
            t=_clock(v["t"]), player=player(v["player"]), kind=rule(str(v["kind"])),
            detail=refusal(str(v["detail"]))))
    return "\n".join(out)
