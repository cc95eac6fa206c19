"""``companion dispute`` for a Tamsk journal: what happened around one moment, in the arbiter's
language.

Every record near the moment: its ``seq``, game time and wall-clock time, who or what wrote it,
what it was (in words: ``r1 put down on c6``), whether the rules refused it and why, the
15-second timer, whose turn it was, the rings, and each glass's sand at that instant; and what
happened by itself (a glass running out, the 15-second timer running out and its penalty) at
the instant it happened, between the inputs. Times are the game clock to the millisecond
(``5:46.855``; ``5:46,855`` in French and Czech), sand to the hundredth of a second.

English keeps the engine's codes where the report always showed them (``REFUSED
(out-of-turn)``, ``release glass=r2, to=c6``): scripts and the tests read them. French and
Czech say them in the game's words (:mod:`companion.tamsk.words`).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from companion import numbers
from companion.arbiter.dispute import clock
from companion.i18n import N_, _, language, say
from companion.scenario import MalformedInput
from companion.tamsk.events import GLASSES, parse_event
from companion.tamsk.game import Game
from companion.tamsk.simulate import rules_from_header
from companion.tamsk.words import (
    colour_word,
    penalty_in_words,
    reason_in_words,
    refusal_in_words,
    rule_in_words,
)

#: The rule sets, as the dispute's first line names them.
RULE_SETS = {"adjusted": N_("adjusted rules"), "original": N_("original rules")}
#: Who wrote a record (``src``), in words.
SOURCES = {"table": N_("table"), "daemon": N_("the table's program"),
           "arbiter": N_("the arbiter"), "new-game": N_("new game")}
#: A correction's ``what``, in words.
CORRECTIONS = {
    "sand": N_("sand"), "space": N_("a glass's space"), "add-ring": N_("a ring added"),
    "remove-ring": N_("a ring taken back"), "undo": N_("the last input taken back"),
    "penalty": N_("a penalty"), "cancel-penalty": N_("a penalty struck out"),
    "turn": N_("whose turn it is"), "result": N_("the result"),
    "confirm": N_("the result confirmed"), "next-round": N_("the next round"),
}


def _english() -> bool:
    return language() == "en"


def _colour(player: object) -> str:
    return colour_word(str(player))


def dispute(
    header: Mapping[str, Any],
    events: list[tuple[int, dict[str, Any]]],
    *,
    moment: float,
    lo: float,
    hi: float,
) -> list[str]:
    """The account of the records from ``lo`` to ``hi`` (game seconds) around ``moment``."""
    game = Game(rules_from_header(header))
    names = header.get("names")
    players = ", ".join(_("{colour}: {name}").format(colour=_colour(c), name=n)
                        for c, n in names.items()) if isinstance(names, dict) and names else "-"
    rules = RULE_SETS.get(game.rules.ruleset)
    out = [_("Tamsk level {level}, {rules}; players: {players}").format(
        level=game.rules.level, rules=_(rules) if rules else game.rules.ruleset,
        players=players)]
    shown_state = False
    for line, body in events:
        t = body.get("t")
        if not isinstance(t, (int, float)) or isinstance(t, bool) or t < game.t:
            out.append("  " + _("line {line}: unreadable time, skipped by the rules").format(
                line=line))
            continue
        t = float(t)
        if t > hi:
            break
        try:
            event = parse_event(body, t, line)
        except MalformedInput as exc:
            out.append("  " + _("line {line}: {problem}").format(line=line, problem=exc.message))
            continue
        if t >= lo and not shown_state:
            if game.t < lo:
                game.advance(lo)
            out.append("  " + _("state at {clock}:").format(clock=clock(game.t)))
            out.append(_state(game, game.t))
            shown_state = True
        out += _run_to(game, t, lo)
        violation = game.apply(event)
        if t < lo:
            continue
        seq = _("seq")  # the record's number in the journal
        out.append(f"  {seq} {line - 1:4d}  {clock(t)}  ({_wall(body.get('wall'))})  "
                   f"[{_source(body.get('src', '?'))}] {describe(body)}"
                   + ("   " + _("<== the moment asked about") if abs(t - moment) < 0.5 else ""))
        if violation is not None:
            kind, detail = violation.kind, violation.detail
            if not _english():
                kind, detail = rule_in_words(kind), refusal_in_words(detail)
            out.append("      " + _("REFUSED ({rule}): {detail}").format(rule=kind,
                                                                         detail=detail))
        out.append(_state(game, t))
    if not shown_state:
        out.append("  " + _("no input in that window"))
    if not game.over and hi > game.t:
        out += _run_to(game, hi, lo)
        out.append("  " + _("state at {clock}:").format(clock=clock(game.t)))
        out.append(_state(game, game.t))
    if game.outcome is not None:
        o = game.outcome
        winner, reason = str(o.winner), str(o.reason)
        if not _english():
            winner = _("a tie") if winner == "tie" else _colour(winner)
            reason = reason_in_words(reason)
        out.append("  " + _("result: {winner} ({reason}) at {clock}").format(
            winner=winner, reason=reason, clock=clock(o.t)))
    return out


def _wall(wall: object) -> str:
    """A record's wall-clock time (local), to the millisecond."""
    if not isinstance(wall, (int, float)) or isinstance(wall, bool):
        return "?"
    text = datetime.fromtimestamp(float(wall)).strftime("%H:%M:%S.%f")[:-3]
    return text.replace(".", numbers.cldr().decimal)


def _source(src: object) -> str:
    text = str(src)
    return _(SOURCES[text]) if text in SOURCES and not _english() else text


def describe(body: Mapping[str, Any]) -> str:
    """One record as the account tells it: in English its kind and fields as the journal
    holds them (``release glass=r2, to=c6``), in French and Czech in words."""
    if _english():
        skip = {"t", "ev", "wall", "src", "seq", "prev", "hash", "sig"}
        rest = ", ".join(f"{k}={v}" for k, v in body.items() if k not in skip)
        return f"{body.get('ev')} {rest}".strip()
    ev, glass, player = body.get("ev"), body.get("glass"), _colour(body.get("player"))
    where = body.get("to") if ev == "release" else body.get("space")
    if ev == "lift":
        return _("{glass} lifted").format(glass=glass)
    if ev == "release":
        return (_("{glass} put down on {space}").format(glass=glass, space=where) if where
                else _("{glass} put down").format(glass=glass))
    if ev == "putback":
        return _("{glass} put back").format(glass=glass)
    if ev == "ring":
        return (_("{player} drops a ring on {space}").format(player=player, space=where)
                if where else _("{player} drops a ring").format(player=player))
    if ev == "timer15":
        return _("the 15-second timer turned against {player}").format(player=player)
    if ev == "pass":
        return _("{player} passes").format(player=player)
    if ev == "resign":
        return _("{player} resigns").format(player=player)
    if ev == "end":
        return _("the arbiter ends the game")
    if ev == "note":
        from companion.notation import note_text

        text = note_text(str(body.get("text", "")))
        shown = text if isinstance(text, str) else "".join(say(w) for w in text)
        return _("note {text}").format(text=shown)
    if ev == "correct":
        what = str(body.get("what"))
        values = [_value(k, v) for k, v in body.items()
                  if k not in ("t", "ev", "wall", "src", "what", "by", "auth", "nonce",
                               "reason", "signer", "sig")]
        said = _("the arbiter's correction: {what}").format(
            what=_(CORRECTIONS[what]) if what in CORRECTIONS else what)
        if values:
            said += " (" + ", ".join(v for v in values if v) + ")"
        if body.get("reason"):
            said += " " + _("why: {why}").format(why=body["reason"])
        return said
    return str(ev)


def _value(key: str, value: object) -> str:
    """A correction's field as the account shows it: colours in words, seconds with the
    reader's decimal mark, spaces and glasses as the board names them."""
    if isinstance(value, bool):
        return _("running") if key == "running" and value else (
            _("not running") if key == "running" else "")
    if isinstance(value, float):
        return numbers.seconds(value, 1) if key in ("sand", "target_t", "penalty_t") \
            else numbers.decimal(value, 1)
    if key in ("player", "winner"):
        return _("a tie") if value == "tie" else _colour(value)
    if key in ("kind",):
        return penalty_in_words(str(value))
    return "" if value is None else str(value)


def _state(game: Game, t: float) -> str:
    english = _english()
    timer = game.timer
    if timer.running:
        t15 = _("15 s timer {left} s left against {player}").format(
            left=numbers.decimal(max(0.0, timer.expires - t), 2),
            player=timer.against if english else _colour(timer.against))
    else:
        t15 = _("15 s timer not running")
    sand = []
    for name in GLASSES:
        g = game.glasses[name]
        if g.dead:
            sand.append(_("{glass} lost at {clock}").format(glass=name,
                                                            clock=clock(g.died_at or 0.0)))
        elif not game.rules.timed:
            sand.append(f"{name}@{g.space or '?'}")
        else:
            text = (_("{glass}@{space} {sand}s") if g.running
                    else _("{glass}@{space} {sand}s (not running)"))
            sand.append(text.format(glass=name, space=g.space or "?",
                                    sand=numbers.decimal(g.sand_at(t), 2)))
    rl = game.rings_left
    turn = _("game over") if game.over else _("turn {player}").format(
        player=game.turn if english else _colour(game.turn))
    return ("      " + _("{turn}; {timer}; rings left red {red} black {black}").format(
        turn=turn, timer=t15, red=rl["red"], black=rl["black"]) + "\n"
        "      " + _("sand: {glasses}").format(glasses=", ".join(sand)))


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
    english = _english()
    lines: list[tuple[float, str]] = []
    for p in game.penalties[before_pen:]:
        player = p.player if english else _colour(p.player)
        kind = p.kind if english else penalty_in_words(p.kind)
        lines.append((p.t, f"  ----  {clock(p.t)}  " + _(
            "the 15 s timer ran out: {player} {penalty}").format(player=player, penalty=kind)))
    for name, g in game.glasses.items():
        if g.dead and name not in dead_before and g.died_at is not None:
            lines.append((g.died_at, f"  ----  {clock(g.died_at)}  " + _(
                "{glass} ran out of sand").format(glass=name)))
    if timer_before and not game.timer.running and len(game.penalties) == before_pen:
        lines.append((game.t, "  ----  " + _("by {clock}  the 15 s timer ran out (no "
                                             "penalty)").format(clock=clock(game.t))))
    return [text for t, text in sorted(lines) if t >= lo]
