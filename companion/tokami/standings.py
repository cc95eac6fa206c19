"""How a Tokami game counts in a tournament: rank points, then the total.

Tokami is played by 2 to 6 players, so a game is counted by where each player finished:

- **Rank points** (points): one for every player one finished above, ½ for every player one
  tied with (a two-player game: win 1, tie ½, loss 0; a forfeit or a bye: a win).
- **Total** (block points): the game's score (bonus blocks minus malus blocks over all its
  rounds), summed over the games: the tie-break.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.remark import N_, Remark
from companion.tournament.record import TIE, Column, GameRecord, header_int, result_by_score

COLUMNS = (
    Column("rank", N_("Rank points"), N_("points"),
           N_("1 per player finished above, ½ per player tied with")),
    Column("total", N_("Total"), N_("block points"),
           N_("the games' scores (bonus minus malus), summed")),
)


#: The reasons a Tokami result may give (``docs/tournament.md`` lists them).
REASONS = {
    "rounds": "every round played: the higher total wins",
    "stopped": "the arbiter stopped the game: the totals as they stand decide",
    "resigned": "a player resigned",
    "arbiter": "the arbiter's ruling",
    "forfeit": "a forfeit (+-, -+, --)",
}
#: A player's total (bonus minus malus blocks over the game's rounds), within -999 to 999.
SCORE_RANGE = (-999, 999)


def default_reason(winner: str, score: tuple[int, int] | None) -> str | None:
    return None if score is None else "rounds"


def check_result(winner: str, forfeit: bool, score: tuple[int, int] | None, reason: str
                 ) -> Remark | None:
    """The Tokami rule a result breaks: decided by the totals, the higher total wins."""
    if forfeit or score is None or reason not in ("rounds", "stopped"):
        return None
    expected = result_by_score(winner, score)
    if expected is None:
        return None
    return Remark(N_("rule tokami-higher-total: decided by the totals, {first}:{second} "
                     "is {expected}"), first=score[0], second=score[1], expected=expected)


def contributions(record: GameRecord) -> dict[str, dict[str, float]]:
    players = record.players
    out: dict[str, dict[str, float]] = {}
    score = record.score
    for name in players:
        if score is None or record.forfeit or len(players) == 1:
            rank = record.points(name) * (len(players) - 1 if record.winner != TIE else 1)
            if len(players) == 1:
                rank = 1.0
            out[name] = {"rank": rank, "total": float(score[name]) if score else 0.0}
            continue
        mine = score[name]
        rank = sum(1.0 if mine > score[o] else 0.5 if mine == score[o] else 0.0
                   for o in players if o != name)
        out[name] = {"rank": rank, "total": float(mine)}
    return out


def record(header: Mapping[str, Any], state: Mapping[str, Any]) -> GameRecord:
    if not state.get("over"):
        raise ValueError("the game is not over: no result yet")
    players = tuple(str(p) for p in state["players"])
    score = {p: int(state["scores"][p]["total"]) for p in players}
    return GameRecord(
        players=players,
        winner=state.get("winner"),
        round=header_int(header, "round"),
        table=header_int(header, "table"),
        score=score,
        reason=state.get("reason"),
    )
