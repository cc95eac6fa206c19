"""The next round of a tournament, from its system (the tournament in, records out).

:func:`pair_records` gives what ``tournament pair`` (and the page's "pair") appends: the
starting numbers when a player has none yet (the initial ranking of C.04.2 2.2,
:func:`companion.tournament.model.initial_numbers`: in a Swiss every player is numbered again
by it when a late entrant comes, as the engines read start numbers in initial-ranking order),
then the ``pair`` record: the games (board, the table that plays it, who moves first, who
second) and the byes (pairing-allocated, the ½ or 0 byes players asked for, the withdrawn as
absent).

- ``swiss``: the FIDE (Dutch) system (:mod:`.fide.dutch`), or an outside FIDE engine
  (bbpPairings, JaVaFo: :mod:`.fide.engines`), on the tournament's neutral history
  (:mod:`.neutral`);
- ``swiss-simple``: the simplified Swiss of :mod:`.swiss`, only when chosen;
- ``round-robin``: the Berger tables (C.05) on the starting numbers (drawn by lot or the
  initial ranking), twice with the colours reversed for a double round robin.

Every Swiss round is checked by :mod:`.fide.criteria` before its record is made: a pairing
breaking an absolute criterion is refused (never written, never sent). The only thing not pure
here is running an outside engine (its subprocess).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from companion.remark import N_, Remark
from companion.tournament.berger import Pair, berger_round, rounds_needed
from companion.tournament.fide.history import Bye as FideBye
from companion.tournament.fide.history import FideError, Game, Pairing
from companion.tournament.model import (
    Round,
    Tournament,
    TournamentError,
    apply,
    initial_numbers,
    refuse,
)
from companion.tournament.swiss import FIRST, SECOND, PairingError, SwissPlayer, swiss_round

#: The outside engines ``--engine`` names.
OUTSIDE = ("bbpPairings", "javafo")


def scores(t: Tournament) -> dict[int, float]:
    """Game points so far by player id."""
    return t.points()


def pairable(t: Tournament, number: int) -> list[int]:
    """The players to pair in round ``number``: entered, not withdrawn, no bye asked for."""
    return [pid for pid, p in t.players.items()
            if p.plays_in(number) and (pid, number) not in t.requested]


def swiss_players(t: Tournament, number: int) -> list[SwissPlayer]:
    """What the simplified Swiss needs to know of each player to pair (by starting number)."""
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


def cycle(t: Tournament) -> int:
    """The rounds of one cycle of a round robin of this tournament's players."""
    return rounds_needed(len(t.players))


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
        needed = rounds_needed(n) * (2 if t.settings.double else 1)
        if t.rounds > needed:
            raise refuse(N_("a round robin of {n} players has {needed} rounds, not {rounds}"),
                         n=n, needed=needed, rounds=t.rounds)
    return number


def numbers_record(t: Tournament) -> dict[str, Any] | None:
    """The starting numbers to write before pairing, when a player has none yet: the initial
    ranking (in a Swiss every player again, a late entrant in his place; a round robin keeps
    the numbers it has, its lot)."""
    if all(pid in t.numbers for pid in t.players):
        return None
    if t.system == "round-robin" and t.numbers:
        numbers = dict(t.numbers)
        initial = initial_numbers(t)
        for pid in sorted(t.players, key=initial.__getitem__):
            numbers.setdefault(pid, len(numbers) + 1)
    else:
        numbers = initial_numbers(t)
    return {"ev": "numbers", "numbers": {str(k): v for k, v in sorted(numbers.items())}}


def requested(t: Tournament, number: int) -> list[FideBye]:
    """The byes of round ``number`` known before it is paired: the ½ and 0 byes asked for,
    and the withdrawn (absent), as the FIDE modules read them."""
    out = [FideBye(pid, "half" if pts else "zero")
           for (pid, rnd), pts in sorted(t.requested.items()) if rnd == number]
    for pid, p in t.players.items():
        if p.withdrawn_in(number) and (p.late_from is None or number >= p.late_from):
            out.append(FideBye(pid, "absent"))
    return out


def record_of(t: Tournament, number: int, games: Sequence[tuple[int, int]],
              bye: int | None, engine: str, warnings: Sequence[str] = ()) -> dict[str, Any]:
    """The ``pair`` record of round ``number``: games of player ids (first mover first) in
    board order, the pairing-allocated bye, the ½/0 byes asked for and the withdrawn."""
    first_table = t.settings.first_table
    body: dict[str, Any] = {
        "ev": "pair", "round": number,
        "games": [{"board": b, "table": first_table + b - 1, "first": a, "second": c}
                  for b, (a, c) in enumerate(games, start=1)],
        "byes": [{"player": bye, "kind": "pab"}] if bye is not None else [],
        "engine": engine, "warnings": list(warnings),
    }
    for b in requested(t, number):
        body["byes"].append({"player": b.player, "kind": b.kind})
    return body


def round_record(t: Tournament, number: int, pairs: Sequence[Pair], engine: str
                 ) -> dict[str, Any]:
    """The ``pair`` record from pairs of starting numbers (``(n, None)``: the bye)."""
    by_number = {n: pid for pid, n in t.start_numbers().items()}
    games = [(by_number[a], by_number[b]) for a, b in pairs if b is not None]
    byes = [by_number[a] for a, b in pairs if b is None]
    return record_of(t, number, games, byes[0] if byes else None, engine)


def fide_error(exc: FideError) -> TournamentError:
    return TournamentError(exc.remark)


def _swiss(t: Tournament, number: int, engine: str, engine_path: str | None,
           environ: Mapping[str, str] | None) -> dict[str, Any]:
    from companion.tournament.fide import engines
    from companion.tournament.fide.dutch import pair_dutch
    from companion.tournament.neutral import history_of

    history = history_of(t)
    asked = requested(t, number)
    try:
        if engine == engines.BBP:
            found = engines.find_bbp(engine_path, environ)
            pairing = engines.run(found, history, asked)
        elif engine == engines.JAVAFO:
            found = engines.find_javafo(engine_path, environ)
            pairing = engines.run(found, history, asked)
        else:
            pairing = pair_dutch(history, asked)
    except FideError as exc:
        raise fide_error(exc) from None
    return record_of(t, number, [(g.white, g.black) for g in pairing.games], pairing.bye,
                     engine or "dutch")


def _simple(t: Tournament, number: int) -> dict[str, Any]:
    from companion.tournament.fide.criteria import absolute, check_round
    from companion.tournament.neutral import history_of

    try:
        pairs = swiss_round(swiss_players(t, number))
    except PairingError as exc:
        raise TournamentError(str(exc)) from None
    body = round_record(t, number, pairs, "simple")
    proposal = as_pairing(t, number, body)
    try:
        found = check_round(history_of(t), proposal)
    except FideError as exc:
        raise fide_error(exc) from None
    bad = absolute(found)
    if bad:
        raise refuse(N_("the simplified Swiss paired against the rules: {breach} (pair the "
                        "round by hand with `tournament pair --pairs`)"),
                     breach=bad[0].text)
    return body


def _round_robin(t: Tournament, number: int) -> dict[str, Any]:
    n = len(t.players)
    one = rounds_needed(n)
    try:
        pairs = berger_round(n, (number - 1) % one + 1)
    except ValueError as exc:
        raise TournamentError(str(exc)) from None
    if number > one:  # the second cycle of a double round robin: the colours reversed
        pairs = [(b, a) if b is not None else (a, None) for a, b in pairs]
    return round_record(t, number, pairs, "berger")


def numbered_for_pairing(t: Tournament) -> tuple[Tournament, int, list[dict[str, Any]]]:
    """The next round's number, and ``t`` with its starting numbers: when they are still to be
    given (round 1, or after a late entry), a copy with the record that gives them applied, and
    that record to publish first."""
    number = check_can_pair(t)
    records: list[dict[str, Any]] = []
    numbers = numbers_record(t)
    if numbers is not None:
        t = copy.deepcopy(t)
        apply(t, {**numbers, "wall": 0.0, "via": "cli"}, seq=0)
        records.append(numbers)
    return t, number, records


def pair_records(t: Tournament, engine: str = "", *, engine_path: str | None = None,
                 environ: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
    """The records that pair the next round: starting numbers when missing, then the round
    (by the tournament's system, or by the outside ``engine`` named)."""
    t, number, records = numbered_for_pairing(t)
    if engine and engine not in OUTSIDE:
        raise refuse(N_("unknown engine {engine}: bbpPairings or javafo"), engine=engine)
    if engine and t.system != "swiss":
        raise refuse(N_("an outside engine pairs the Swiss (Dutch) system only"))
    if t.system == "round-robin":
        records.append(_round_robin(t, number))
    elif t.system == "swiss-simple":
        records.append(_simple(t, number))
    else:
        records.append(_swiss(t, number, engine, engine_path, environ))
    return records


# ---------------------------------------------------------------------------- checking


def as_pairing(t: Tournament, number: int, body: Mapping[str, Any] | Round) -> Pairing:
    """A round (a record's body, or the fold's) as the FIDE checker reads a proposal."""
    if isinstance(body, Round):
        games = [(g.first, g.second) for g in body.games]
        byes = [(b.player, b.kind) for b in body.byes]
    else:
        games = [(int(g["first"]), int(g["second"]))
                 for g in sorted(body.get("games", []), key=lambda g: int(g["board"]))]
        byes = [(int(b["player"]), str(b["kind"])) for b in body.get("byes", [])]
    pab = [p for p, kind in byes if kind == "pab"]
    return Pairing(number, tuple(Game(a, b) for a, b in games), pab[0] if pab else None,
                   tuple(FideBye(p, kind) for p, kind in byes if kind != "pab"))


def warnings_for(t: Tournament, number: int, body: Mapping[str, Any]) -> list[Remark]:
    """What a manual pairing of round ``number`` (``body``, a ``repair`` record) breaks,
    criterion by criterion (:func:`companion.tournament.fide.criteria.warnings`), against
    the Dutch pairing of the same round where the system is a Swiss; none for a round robin
    (the Berger tables are not the Swiss criteria)."""
    if t.system == "round-robin":
        return []
    from companion.tournament.fide.criteria import warnings
    from companion.tournament.fide.dutch import pair_dutch
    from companion.tournament.neutral import history_of

    history = history_of(t, number - 1)
    reference = None
    try:
        reference = pair_dutch(history, requested(t, number))
    except FideError:
        reference = None  # no Dutch pairing to compare the facts with: every breach named
    try:
        found = warnings(history, as_pairing(t, number, body), reference)
    except FideError as exc:
        raise fide_error(exc) from None
    return [b.text for b in found]
