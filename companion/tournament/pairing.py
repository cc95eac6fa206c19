"""The next round of a tournament, from its system (pure: the tournament in, a round out)."""

from __future__ import annotations

from collections.abc import Sequence

from companion.tournament.berger import Pair, berger_round, rounds_needed
from companion.tournament.model import Game, Round, Tournament, TournamentError
from companion.tournament.swiss import FIRST, SECOND, PairingError, SwissPlayer, swiss_round


def scores(t: Tournament) -> dict[int, float]:
    """Game points so far by starting number (a bye counts ``bye_points``)."""
    out = {p.number: 0.0 for p in t.players}
    for r in t.played:
        for g in r.games:
            if g.second is None:
                out[g.first] += t.bye_points
            elif g.result is not None:
                a, b = g.result.codes()
                out[g.first] += _POINTS[a]
                out[g.second] += _POINTS[b]
    return out


_POINTS = {"1": 1.0, "+": 1.0, "=": 0.5, "0": 0.0, "-": 0.0}


def swiss_players(t: Tournament) -> list[SwissPlayer]:
    """What the Swiss pairing needs to know of each active player."""
    points = scores(t)
    opponents: dict[int, set[int]] = {p.number: set() for p in t.players}
    colours: dict[int, list[str]] = {p.number: [] for p in t.players}
    byes: set[int] = set()
    for r in t.played:
        for g in r.games:
            if g.second is None:
                byes.add(g.first)
                continue
            opponents[g.first].add(g.second)
            opponents[g.second].add(g.first)
            if g.result is None or not g.result.forfeit:
                colours[g.first].append(FIRST)
                colours[g.second].append(SECOND)
    return [SwissPlayer(p.number, points[p.number], p.rating, frozenset(opponents[p.number]),
                        tuple(colours[p.number]), p.number in byes) for p in t.active()]


def check_can_pair(t: Tournament) -> int:
    """The number of the round to pair next, or :class:`TournamentError` saying why not."""
    if len(t.played) >= t.rounds:
        raise TournamentError(f"all {t.rounds} rounds are paired")
    current = t.current
    if current is not None and not current.done:
        missing = [str(g.table) for g in current.games if not g.done]
        raise TournamentError(f"round {current.number} has no result yet at table(s) "
                              f"{', '.join(missing)}")
    if len(t.active()) < 2:
        raise TournamentError("a round needs at least two players")
    if t.system == "round-robin":
        n = len(t.players)
        if t.rounds > rounds_needed(n):
            raise TournamentError(f"a round robin of {n} players has {rounds_needed(n)} rounds, "
                                  f"not {t.rounds}")
    return len(t.played) + 1


def as_round(number: int, pairs: Sequence[Pair]) -> Round:
    games = [p for p in pairs if p[1] is not None] + [p for p in pairs if p[1] is None]
    return Round(number, [Game(i, a, b) for i, (a, b) in enumerate(games, start=1)])


def next_round(t: Tournament) -> Round:
    """The next round by the tournament's own system (not yet added to it)."""
    number = check_can_pair(t)
    if t.system == "round-robin":
        try:
            return as_round(number, berger_round(len(t.players), number))
        except ValueError as exc:
            raise TournamentError(str(exc)) from None
    try:
        return as_round(number, swiss_round(swiss_players(t)))
    except PairingError as exc:
        raise TournamentError(str(exc)) from None


def check_pairs(t: Tournament, pairs: Sequence[Pair]) -> None:
    """Refuse an outside engine's pairings that break the absolute rules: every active player
    exactly once, no one unknown, at most one bye, no rematch."""
    active = {p.number for p in t.active()}
    seen: list[int] = []
    for a, b in pairs:
        seen += [a] + ([b] if b is not None else [])
    if sorted(seen) != sorted(active):
        raise TournamentError("the engine's pairings do not name every player exactly once")
    if sum(1 for _, b in pairs if b is None) > 1:
        raise TournamentError("the engine gave more than one bye")
    met = {frozenset((g.first, g.second)) for r in t.played for g in r.games
           if g.second is not None}
    for a, b in pairs:
        if b is not None and frozenset((a, b)) in met:
            raise TournamentError(f"the engine paired players {a} and {b} again")
