"""`companion simulate` for Tokami: a ``{"game": "tokami", ...}`` scenario or journal in, the
scores out (the Tokami part of the scenario contract, ``docs/tokami.md``).

A line that is not a Tokami input at all raises :class:`~companion.scenario.MalformedInput`
naming its line; a turn the rules refuse is reported in ``violations`` and changes nothing.
Fields this module does not know (journals add ``seq``, ``prev``, ``hash``, ``wall``, ``src``)
are ignored.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.scenario import MalformedInput, NumberedEvent, event_times
from companion.tokami.corrections import Ledger, parse_correction
from companion.tokami.game import Game, IllegalTurn
from companion.tokami.setup import Setup
from companion.tokami.turns import Outcome, Turn

#: Events that are not turns: take back the last turn; stop the game where it stands; a
#: player gives it up (``player``: who); a remark (changes nothing); an arbiter's correction
#: (:mod:`companion.tokami.corrections`).
CONTROL_EVENTS = ("undo", "end", "resign", "note", "correct")
EVENTS = tuple(o.value for o in Outcome) + CONTROL_EVENTS


def simulate(header: dict[str, Any], events: list[NumberedEvent]) -> dict[str, Any]:
    """Play ``events`` through a :class:`Game` built from ``header`` and report the result."""
    game = Game(Setup.from_header(header))
    times = event_times(events, required=False)
    violations: list[dict[str, Any]] = []
    corrections: list[dict[str, Any]] = []
    ledger = Ledger()
    for (line, event), t in zip(events, times, strict=True):
        name = event.get("ev")
        if name not in EVENTS:
            got = "no \"ev\"" if name is None else f"unknown event {name!r}"
            raise MalformedInput(f"{got}: a Tokami event is one of {', '.join(EVENTS)}", line)
        by = event.get("player")
        if by is not None and not isinstance(by, str):
            raise MalformedInput('"player" must be a player\'s name', line)
        fix = parse_correction(event, line) if name == "correct" else None
        try:
            if name == "note":
                pass
            elif fix is not None:
                game = ledger.correct(game, fix, t)
            elif name == "end":
                game.stop()
            elif name == "resign":
                if by is None:
                    raise MalformedInput('a resignation needs "player": who resigned', line)
                try:
                    game.resign(by)
                except KeyError:
                    raise MalformedInput(f"{by!r} is not playing this game", line) from None
            elif name == "undo":
                undone = game.undo()
                corrections.append(
                    {
                        "t": t,
                        "player": by,
                        "undid": {"player": undone.player, "round": undone.round,
                                  **undone.turn.to_event()},
                    }
                )
            else:
                turn = Turn.from_event(event, line)
                game.play(turn, by=by)
        except IllegalTurn as refused:
            violations.append(
                {"t": t, "player": by or game.turn, "kind": refused.kind, "detail": refused.detail}
            )
    result = game.as_dict()
    result["t"] = times[-1] if times else 0.0
    result["history"] = [
        {"player": p.player, "round": p.round, **p.turn.to_event()} for p in game.history
    ]
    result["corrections"] = corrections
    result["violations"] = violations
    return ledger.finish(result)


def summary(result: Mapping[str, Any]) -> str:
    """The result in a few lines a player can read (what ``companion simulate`` prints)."""
    lines = [
        f"Tokami, round {result['round']} of {result['rounds']}: "
        f"{result['blocks_left']} blocks left on the cross"
        + (f", {result['forbidden']} forbidden" if result.get("forbidden") else "")
    ]
    width = max(len(p) for p in result["players"])
    for player, total in result["standings"]:
        rounds = " + ".join(str(s) for s in result["scores"][player]["rounds"])
        held = result["held"][player]
        lines.append(
            f"  {player:<{width}}  {total:>3}  (rounds: {rounds})"
            f"  bonus {_blocks(held['bonus'])}  malus {_blocks(held['malus'])}"
        )
    if result["over"]:
        winner = result["winner"]
        verdict = "a tie" if winner == "tie" else f"{winner} wins"
        how = "stopped" if result["reason"] == "stopped" else "over"
        lines.append(f"Game {how}: {verdict}.")
    else:
        lines.append(f"{result['turn']} to play.")
    if result["corrections"]:
        lines.append(f"{len(result['corrections'])} turn(s) undone.")
    if result["violations"]:
        lines.append(f"{len(result['violations'])} input(s) refused:")
        for v in result["violations"]:
            lines.append(f"  t={v['t']:g} {v['player']}: {v['kind']}: {v['detail']}")
    return "\n".join(lines)


def _blocks(counts: Mapping[str, int]) -> str:
    shown = [f"{n} {c}" for c, n in counts.items() if n]
    return ", ".join(shown) if shown else "none"
