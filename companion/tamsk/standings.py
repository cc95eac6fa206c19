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

from companion.tournament.record import Column, GameRecord, record_of_result

COLUMNS = (
    Column("points", "Points", "game points", "win 1, tie ½, loss 0 (a forfeit or a bye: 1)"),
    Column("rings", "Rings margin", "rings",
           "opponent's rings left minus one's own, summed over the games"),
    Column("time", "Time tie-break", "games", "wins decided by the time tie-break"),
)


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
