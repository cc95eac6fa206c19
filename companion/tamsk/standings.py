"""How a Tamsk game counts in a tournament: points, then the rings margin, then time.

- **Points** (game points): a win 1 (also by forfeit, and a bye), a tie ½, a loss 0.
- **Rings margin** (rings): the opponent's rings left minus one's own, summed over the games:
  in Tamsk fewer rings left is better, so a big win counts for more than a narrow one.
- **Time tie-break** (games): wins decided by the time tie-break (the rule book's last resort
  when the rings are equal: whose glasses ran out last); the last column, as it is the narrowest
  way to win.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.remark import N_, Remark
from companion.tamsk.board import RINGS_PER_PLAYER
from companion.tournament.record import Column, GameRecord, record_of_result

COLUMNS = (
    Column("points", N_("Points"), N_("game points"),
           N_("win 1, tie ½, loss 0 (a forfeit or a bye: 1)")),
    Column("rings", N_("Rings margin"), N_("rings"),
           N_("opponent's rings left minus one's own, summed over the games")),
    Column("time", N_("Time tie-break"), N_("games"), N_("wins decided by the time tie-break")),
)


#: The reasons a Tamsk result may give (``docs/tournament.md`` lists them).
REASONS = {
    "rings": "the winner has fewer rings left",
    "tie": "equal rings left, no time tie-break",
    "time-tiebreak": "equal rings left: whose glasses ran out last",
    "full-space": "a player put a ring on a full space and lost",
    "resignation": "a player resigned",
    "arbiter": "the arbiter's ruling",
    "forfeit": "a forfeit (+-, -+, --)",
}
#: A player's score: the rings he has left, 0 to 32.
SCORE_RANGE = (0, RINGS_PER_PLAYER)
#: The reasons a winner may have as many rings left as the loser, or more.
ANY_RINGS = ("full-space", "time-tiebreak", "resignation", "arbiter")


def default_reason(winner: str, score: tuple[int, int] | None) -> str | None:
    """What a typed result's score says of how the game ended."""
    if score is None:
        return None
    return "tie" if winner == "tie" else "rings"


def check_result(winner: str, forfeit: bool, score: tuple[int, int] | None, reason: str
                 ) -> Remark | None:
    """The Tamsk rule a result breaks: fewer rings left wins, equal rings tie (or go to the
    time tie-break)."""
    if forfeit or score is None:
        return None
    first, second = score
    if winner in ("first", "second") and reason not in ANY_RINGS:
        mine, other = (first, second) if winner == "first" else (second, first)
        if mine >= other:
            return Remark(N_("rule tamsk-fewer-rings: a Tamsk winner has fewer rings left "
                             "({mine} against {other}), unless the game ended on a full space "
                             "or by the time tie-break"), mine=mine, other=other)
    if reason in ("tie", "time-tiebreak") and first != second:
        return Remark(N_("rule tamsk-equal-rings: a tie or a time tie-break needs equal rings "
                         "left ({first} against {second})"), first=first, second=second)
    return None


def contributions(record: GameRecord) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    players = record.players
    for name in players:
        share = {"points": record.points(name), "rings": 0.0, "time": 0.0}
        if len(players) == 2 and record.score is not None:
            other = players[1] if name == players[0] else players[0]
            share["rings"] = float(record.score[other] - record.score[name])
        if record.winner == name and record.reason == "time-tiebreak":
            share["time"] = 1.0
        out[name] = share
    return out


def record(header: Mapping[str, Any], state: Mapping[str, Any]) -> GameRecord:
    from companion.tamsk.arbiter import result

    return record_of_result(header, result(state))
