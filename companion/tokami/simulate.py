"""`companion simulate` for Tokami: a ``{"game": "tokami", ...}`` scenario or journal in, the
scores out (the Tokami part of the scenario contract, ``docs/tokami.md``).

A line that is not a Tokami input at all raises :class:`~companion.scenario.MalformedInput`
naming its line; a turn the rules refuse is reported in ``violations`` and changes nothing.
Fields this module does not know (journals add ``seq``, ``prev``, ``hash``, ``wall``, ``src``)
are ignored.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.remark import english, english_in
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



def summary(
    result: Mapping[str, Any],
    _: Callable[[str], str] = english,
    pgettext: Callable[[str, str], str] = english_in,
) -> str:
    """The result in a few lines a player can read (what ``companion simulate`` prints).

    English unless the shell gives its gettext functions (``_``, ``pgettext``): the rules never
    import gettext, but the words are marked here, where they are written.
    """
    head = _("Tokami, round {round} of {rounds}: {left} blocks left on the cross").format(
        round=result["round"], rounds=result["rounds"], left=result["blocks_left"])
    if result.get("forbidden"):
        head += _(", {colour} forbidden").format(colour=_(str(result.get("forbidden"))))
    lines = [head]
    width = max(len(p) for p in result["players"])
    for player, total in result["standings"]:
        rounds = " + ".join(str(s) for s in result["scores"][player]["rounds"])
        held = result["held"][player]
        lines.append(
            f"  {player:<{width}}  {total:>3}  "
            + _("(rounds: {rounds})  bonus {bonus}  malus {malus}").format(
                rounds=rounds, bonus=_blocks(held["bonus"], _), malus=_blocks(held["malus"], _))
        )
    if result["over"]:
        winner = result["winner"]
        verdict = _("a tie") if winner == "tie" else _("{player} wins").format(player=winner)
        how = (_("Game stopped: {verdict}.") if result["reason"] == "stopped"
               else _("Game over: {verdict}."))
        lines.append(how.format(verdict=verdict))
    else:
        lines.append(_("{player} to play.").format(player=result["turn"]))
    if result["corrections"]:
        lines.append(_("{n} turn(s) undone.").format(n=len(result["corrections"])))
    if result["violations"]:
        lines.append(_("{n} input(s) refused:").format(n=len(result["violations"])))
        for v in result["violations"]:
            lines.append(f"  t={v['t']:g} {v['player']}: {v['kind']}: {v['detail']}")
    return "\n".join(lines)


def _blocks(counts: Mapping[str, int], _: Callable[[str], str] = english) -> str:
    shown = [f"{n} {_(c)}" for c, n in counts.items() if n]
    return ", ".join(shown) if shown else _("none")
