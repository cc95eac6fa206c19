"""How a Tantrix game counts in a tournament: the win, then tournament points (TP).

Tantrix tournaments rank by wins and break ties on the score difference, counted as
*Tournament Points* ("TP": the tantrix.com online tournament rules, rule 9 "Tournament
scoring", https://tournaments.tantrix.co.uk/rules.shtml, and the table rules at
https://www.tantrix.com/english/TantrixTableTournamentRules.html). A game is worth 20 TP
between its two players: each starts from 10 and gains the score difference (his points minus
the opponent's), kept within 0 and 20 (:data:`TP_PER_GAME`). The rules' time penalty moves TP
from one player to the other, which is why TP are shared this way; the companion does not take
time penalties (the arbiter adjusts the result with a correction instead).

- **Wins** (games): a win 1, a tie ½, a loss 0; a forfeit or a bye is a win.
- **TP** (tournament points): 10 plus the score difference, within 0-20; a forfeit or a bye
  gives 20 to the winner and 0 to the loser; a result typed without scores gives 10 each.
- **Score difference** (points): one's line/loop points minus the opponent's, summed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.remark import N_, Remark
from companion.tournament.record import Column, GameRecord, record_of_result, result_by_score

TP_PER_GAME = 20

COLUMNS = (
    Column("wins", N_("Wins"), N_("games"), N_("win 1, tie ½, loss 0 (a forfeit or a bye: 1)")),
    Column("tp", N_("TP"), N_("tournament points"),
           N_("10 plus the score difference, within 0 and 20, per game")),
    Column("diff", N_("Score difference"), N_("points"),
           N_("own points minus the opponent's, summed")),
)


#: The reasons a Tantrix result may give (``docs/tournament.md`` lists them).
REASONS = {
    "score": "the game ended: the higher score wins",
    "score at end": "the arbiter stopped the game: the score as it stands decides",
    "arbiter": "the arbiter's ruling",
    "forfeit": "a forfeit (+-, -+, --)",
}
#: A player's score: his line or loop points, 0 to 112 (56 tiles, a loop counts double).
SCORE_RANGE = (0, 112)


def default_reason(winner: str, score: tuple[int, int] | None) -> str | None:
    return None if score is None else "score"


def check_result(winner: str, forfeit: bool, score: tuple[int, int] | None, reason: str
                 ) -> Remark | None:
    """The Tantrix rule a result breaks: decided by the score, the higher score wins."""
    if forfeit or score is None or reason not in ("score", "score at end"):
        return None
    expected = result_by_score(winner, score)
    if expected is None:
        return None
    return Remark(N_("rule tantrix-higher-score: decided by the score, {first}:{second} "
                     "is {expected}"), first=score[0], second=score[1], expected=expected)


def contributions(record: GameRecord) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    half = TP_PER_GAME // 2
    players = record.players
    for name in players:
        share = {"wins": record.points(name), "tp": float(half), "diff": 0.0}
        if len(players) == 1 or record.forfeit:
            share["tp"] = float(TP_PER_GAME if record.winner == name else 0)
        elif record.score is not None:
            other = players[1] if name == players[0] else players[0]
            diff = record.score[name] - record.score[other]
            share["diff"] = float(diff)
            share["tp"] = float(min(TP_PER_GAME, max(0, half + diff)))
        out[name] = share
    return out


def record(header: Mapping[str, Any], state: Mapping[str, Any]) -> GameRecord:
    from companion.tantrix.arbiter import result

    return record_of_result(header, result(state))
