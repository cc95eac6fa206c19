"""The tournament as the FIDE modules read it: :mod:`companion.tournament.fide.history`.

The FIDE modules (the Dutch pairing, the criteria checker, the C.07 tie-breaks, TRF-2016) work
on a neutral history of their own; :func:`history_of` gives it from the fold of the tournament
file, rounds up to one, so they read exactly what the file holds: the players with their
starting numbers and first rounds, each round's games (the first mover as white) with their
results, the byes by kind, and the scoring the tournament's settings give. Standard library
only, as both sides are.
"""

from __future__ import annotations

from companion.tournament.fide.history import Bye, Entrant, Game, History, Round, Scoring
from companion.tournament.model import FIRST, NONE, SECOND, TIE, Result, Tournament


def result_code(result: Result | None) -> str | None:
    """A result as the neutral history writes it (first mover's side first)."""
    if result is None:
        return None
    if result.winner == TIE:
        return "1/2"
    if result.winner == NONE:
        return "--"
    first = result.winner == FIRST
    if result.forfeit:
        return "+-" if first else "-+"
    assert result.winner in (FIRST, SECOND)
    return "1-0" if first else "0-1"


def history_of(t: Tournament, upto: int | None = None) -> History:
    """The neutral history of ``t`` after round ``upto`` (default: every round paired)."""
    numbers = t.start_numbers()
    players = tuple(Entrant(p.id, p.name, p.rating, p.title, p.sex, p.federation,
                            str(p.fide_id or ""), p.birth, numbers[p.id], p.late_from or 1)
                    for p in t.players.values())
    last = len(t.played) if upto is None else min(upto, len(t.played))
    rounds = tuple(Round(tuple(Game(g.first, g.second, result_code(g.result)) for g in r.games),
                         tuple(Bye(b.player, b.kind) for b in r.byes))
                   for r in t.played[:last])
    s = t.settings
    return History(players, rounds, t.rounds, Scoring(pab=s.bye_points, late=s.late_points),
                   "black" if s.first_colour == "black" else "white")
