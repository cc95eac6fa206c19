"""The next round of a tournament, from its system (pure: the tournament in, records out).

:func:`pair_records` gives what ``tournament pair`` appends: the starting numbers when they are
not given yet (the initial ranking, :func:`companion.tournament.model.initial_numbers`), then
the ``pair`` record: the games (board, the table that plays it, who moves first, who second)
and the byes (pairing-allocated, the ½ or 0 byes players asked for, the withdrawn as absent).
A round robin follows the Berger tables on the starting numbers; a Swiss is paired by the
built-in Swiss (:mod:`.swiss`) or an outside engine on the TRF (:mod:`.engine`).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any

from companion.remark import N_
from companion.tournament.berger import Pair, berger_round, rounds_needed
from companion.tournament.model import Tournament, TournamentError, apply, initial_numbers, refuse
from companion.tournament.swiss import FIRST, SECOND, PairingError, SwissPlayer, swiss_round


def scores(t: Tournament) -> dict[int, float]:
    """Game points so far by player id."""
    return t.points()


def pairable(t: Tournament, number: int) -> list[int]:
    """The players to pair in round ``number``: entered, not withdrawn, no bye asked for."""
    return [pid for pid, p in t.players.items()
            if p.plays_in(number) and (pid, number) not in t.requested]


def swiss_players(t: Tournament, number: int) -> list[SwissPlayer]:
    """What the Swiss pairing needs to know of each player to pair (by starting number)."""
    points = t.points()
    entries = t.entries()
    numbers = t.start_numbers()
    out = []
    for pid in pairable(t, number):
        opponents: set[int] = set()
        colours: list[str] = []
        had_bye = False
        for e in entries[pid].values():
            if e.kind == "pab":
                had_bye = True
            if e.kind != "game" or e.opponent is None:
                continue
            opponents.add(numbers[e.opponent])
            game = e.game
            if game is None or game.result is None or not game.result.forfeit:
                colours.append(FIRST if e.colour == "w" else SECOND)
        out.append(SwissPlayer(numbers[pid], points[pid], t.players[pid].rating,
                               frozenset(opponents), tuple(colours), had_bye))
    return out


def check_can_pair(t: Tournament) -> int:
    """The number of the round to pair next, or :class:`TournamentError` saying why not."""
    if len(t.played) >= t.rounds:
        raise refuse(N_("all {rounds} rounds are paired"), rounds=t.rounds)
    current = t.current
    if current is not None and not current.done:
        missing = ", ".join(str(g.board) for g in current.games if g.result is None)
        raise refuse(N_("round {round} has no result yet at board(s) {boards}"),
                     round=current.number, boards=missing)
    number = t.next_round
    if len(pairable(t, number)) < 2:
        raise refuse(N_("a round needs at least two players"))
    if t.system == "round-robin":
        n = len(t.players)
        if t.rounds > rounds_needed(n):
            raise refuse(N_("a round robin of {n} players has {needed} rounds, not {rounds}"),
                         n=n, needed=rounds_needed(n), rounds=t.rounds)
    return number


def numbers_record(t: Tournament) -> dict[str, Any] | None:
    """The starting numbers to write before pairing, when a player has none yet."""
    if all(pid in t.numbers for pid in t.players):
        return None
    numbers = dict(t.numbers)
    initial = initial_numbers(t)
    for pid in sorted(t.players, key=initial.__getitem__):
        numbers.setdefault(pid, len(numbers) + 1)
    return {"ev": "numbers", "numbers": {str(k): v for k, v in sorted(numbers.items())}}


def round_record(t: Tournament, number: int, pairs: Sequence[Pair], engine: str
                 ) -> dict[str, Any]:
    """The ``pair`` record of round ``number`` from pairs of starting numbers (``(n, None)``:
    the pairing-allocated bye), with the ½/0 byes asked for and the withdrawn as absent."""
    by_number = {n: pid for pid, n in t.start_numbers().items()}
    games = [p for p in pairs if p[1] is not None]
    first_table = t.settings.first_table
    body: dict[str, Any] = {
        "ev": "pair", "round": number,
        "games": [{"board": b, "table": first_table + b - 1, "first": by_number[a],
                   "second": by_number[int(c)]}  # c is not None: filtered above
                  for b, (a, c) in enumerate(games, start=1) if c is not None],
        "byes": [{"player": by_number[a], "kind": "pab"} for a, c in pairs if c is None],
        "engine": engine, "warnings": [],
    }
    for (pid, rnd), points in sorted(t.requested.items()):
        if rnd == number:
            body["byes"].append({"player": pid, "kind": "half" if points else "zero"})
    for pid, p in t.players.items():
        if p.withdrawn_in(number) and (p.late_from is None or number >= p.late_from):
            body["byes"].append({"player": pid, "kind": "absent"})
    return body


Engine = Callable[[Tournament], list[Pair]]


def pair_records(t: Tournament, engine: Engine | None = None, engine_name: str = ""
                 ) -> list[dict[str, Any]]:
    """The records that pair the next round: starting numbers when missing, then the round
    (by the tournament's system, or by ``engine``, given the numbered tournament)."""
    number = check_can_pair(t)
    records: list[dict[str, Any]] = []
    numbers = numbers_record(t)
    if numbers is not None:
        t = copy.deepcopy(t)
        apply(t, {**numbers, "wall": 0.0, "via": "cli"}, seq=0)
        records.append(numbers)
    if engine is not None:
        pairs = engine(t)
        check_pairs(t, number, pairs)
        records.append(round_record(t, number, pairs, engine_name))
        return records
    if t.system == "round-robin":
        try:
            pairs = berger_round(len(t.players), number)
        except ValueError as exc:
            raise TournamentError(str(exc)) from None
        records.append(round_record(t, number, pairs, "berger"))
        return records
    try:
        pairs = swiss_round(swiss_players(t, number))
    except PairingError as exc:
        raise TournamentError(str(exc)) from None
    records.append(round_record(t, number, pairs, "simple"))
    return records


def check_pairs(t: Tournament, number: int, pairs: Sequence[Pair]) -> None:
    """Refuse an outside engine's pairings that break the absolute rules: every player to pair
    exactly once, no one unknown, at most one bye, no rematch."""
    numbers = t.start_numbers()
    wanted = sorted(numbers[pid] for pid in pairable(t, number))
    seen: list[int] = []
    for a, b in pairs:
        seen += [a] + ([b] if b is not None else [])
    if sorted(seen) != wanted:
        raise refuse(N_("the engine's pairings do not name every player exactly once"))
    if sum(1 for _, b in pairs if b is None) > 1:
        raise refuse(N_("the engine gave more than one bye"))
    met = {frozenset((numbers[g.first], numbers[g.second])) for r in t.played for g in r.games}
    for a, b in pairs:
        if b is not None and frozenset((a, b)) in met:
            raise refuse(N_("the engine paired players {a} and {b} again"), a=a, b=b)
