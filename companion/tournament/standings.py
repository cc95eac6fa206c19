"""The standings of a tournament: one ranking rule, used by everything that shows one.

:func:`standings` ranks the players of a :class:`~companion.tournament.model.Tournament` after
a round: by **points** (each round's: a game's result, a bye as the tournament counts it, a
missed round of a late entrant), then by the tournament's **tie-breaks** in order
(``settings.tiebreaks``, chosen and ordered per tournament: the C.07 tie-breaks of
:mod:`.fide.tiebreaks`, direct encounter included, and each game's own columns as
``game:<key>``; by default the game's own columns, ``companion.<game>.standings``: Tamsk's
rings margin and time tie-break, Tantrix's TP and score difference, Tokami's totals). Each
tie-break applies to the players still tied (C.07 4.2); direct encounter (``DE``) is the
points scored among exactly those players, so it has a value only for the tied (left blank
for the others). Players equal on every column share a rank, listed by starting number.
Unplayed rounds count as C.07 16 says (:mod:`.fide.tiebreaks`); "played" counts only the games
played over the board (no bye, no forfeit). The command line, the arbiter's
page, the round sheets, the TRF and the demo all call this one function; the CSV and HTML come
from :mod:`.sheets`.

Each game says how one of its games counts through its standings facet
(:class:`~companion.tournament.record.StandingsGame`): its columns (the first is the game
points) and each player's share of them for one game. A FIDE tie-break (``BH``, ``SB``, ...) is
computed by a function registered in :data:`TIEBREAKS`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import cast

from companion import registry
from companion.remark import N_
from companion.tournament.model import NONE, TIE, Entry, Result, Tournament, refuse
from companion.tournament.record import Column, GameRecord, StandingsGame


class NoStandings(ValueError):
    """A game kind that keeps no standings."""


def facet(game: str) -> StandingsGame:
    """The standings facet of the game called ``game``."""
    try:
        kind = registry.get(game)
    except registry.UnknownGame as exc:
        raise NoStandings(str(exc)) from None
    getter = getattr(kind, "standings", None)  # a facet newer than the GameKind contract
    module = getter() if callable(getter) else None
    if module is None:
        raise NoStandings(f"{kind.title} games keep no tournament standings")
    return cast(StandingsGame, module)


#: A FIDE tie-break: its column and its value for each player (by id) after round ``upto``.
Tiebreak = tuple[Column, Callable[[Tournament, int], Mapping[int, float]]]
def _fide() -> dict[str, Tiebreak]:
    """The C.07 tie-breaks of :mod:`companion.tournament.fide.tiebreaks`, on the tournament's
    neutral history (:mod:`.neutral`); direct encounter (``DE``) is computed by the ranking
    itself (it depends on who is tied), so its function here gives nothing."""
    from companion.tournament.fide.history import FideError
    from companion.tournament.fide.tiebreaks import TIEBREAKS as FIDE
    from companion.tournament.fide.tiebreaks import values
    from companion.tournament.neutral import history_of

    def compute(code: str) -> Callable[[Tournament, int], Mapping[int, float]]:
        def value(t: Tournament, upto: int) -> Mapping[int, float]:
            try:
                return values(history_of(t, upto), code, round_robin=t.system == "round-robin",
                              unrated=t.settings.rated_default)
            except FideError as exc:
                raise refuse(N_("tie-break {code}: {problem}"), code=code,
                             problem=exc.remark) from None
        return value

    def nothing(t: Tournament, upto: int) -> Mapping[int, float]:
        return {}

    return {code: (Column(code.lower(), tb.title, tb.unit, tb.legend),
                   compute(code) if code != "DE" else nothing)
            for code, tb in FIDE.items()}


#: The FIDE tie-breaks this companion computes, by code (``settings.tiebreaks``).
TIEBREAKS: dict[str, Tiebreak] = _fide()


@dataclass
class Row:
    name: str
    id: int = 0
    values: dict[str, float] = field(default_factory=dict)
    played: int = 0  # games played over the board (not byes, not forfeits)
    rank: int = 0
    withdrawn: bool = False
    #: Columns without a value for this player (direct encounter when he was not tied).
    blank: set[str] = field(default_factory=set)


@dataclass
class Table:
    """A tournament's standings after a round: its columns and the ranked rows."""

    game: str
    title: str
    columns: tuple[Column, ...]
    rows: list[Row]
    after: int = 0
    tournament: str = ""

    def legend(self) -> list[str]:
        return [f"{c.title} ({c.unit}): {c.legend}" for c in self.columns]


def columns(t: Tournament) -> tuple[Column, ...]:
    """Points, then the tournament's tie-breaks in order."""
    own = tuple(facet(t.game).COLUMNS)
    codes = codes_of(t)
    out = [own[0]]
    for code in codes:
        if code.startswith("game:"):
            found = next((c for c in own if c.key == code[5:]), None)
            if found is None:
                raise refuse(N_("{game} has no column {key} to break ties"), game=t.game,
                              key=code[5:])
            out.append(found)
        elif code in TIEBREAKS:
            out.append(TIEBREAKS[code][0])
        else:
            raise refuse(N_("the tie-break {code} is not computed by this companion yet"),
                         code=code)
    return tuple(out)


def game_record(t: Tournament, number: int, entry: Entry, result: Result) -> GameRecord:
    """A game's result as the game's standings facet reads it (names, first mover first)."""
    g = entry.game
    assert g is not None
    first, second = t.players[g.first].name, t.players[g.second].name
    winner = {"first": first, "second": second, TIE: TIE, NONE: None}[result.winner]
    score = None if result.score is None else {first: result.score[0], second: result.score[1]}
    return GameRecord((first, second), winner, number, g.board, result.forfeit, score,
                      result.reason)


def standings(
    t: Tournament,
    *,
    after: int | None = None,
    results: Mapping[tuple[int, int], Result] | None = None,
) -> Table:
    """The standings after round ``after`` (default: every round paired); ``results`` gives
    other results for some games ``(round, board)`` (what the tables' journals say)."""
    module = facet(t.game)
    cols = columns(t)
    points, own = cols[0], {c.key for c in module.COLUMNS}
    last = len(t.played) if after is None else min(after, len(t.played))
    rows = {pid: Row(p.name, pid, {c.key: 0.0 for c in cols}) for pid, p in t.players.items()}
    counted = set()
    for pid, rounds in t.entries(last).items():
        row = rows[pid]
        for number, entry in rounds.items():
            result = entry.game.result if entry.game is not None else None
            if entry.game is not None and results is not None:
                result = results.get((number, entry.game.board), result)
            if entry.kind == "game":
                if result is None:
                    continue
                a, b = result.points()
                row.values[points.key] += a if entry.colour == "w" else b
                row.played += 0 if result.forfeit else 1
                key = (number, entry.game.board if entry.game else 0)
                if key in counted:
                    continue
                counted.add(key)
                assert entry.game is not None
                shares = module.contributions(game_record(t, number, entry, result))
                for name_pid in entry.game.players():
                    share = shares.get(t.players[name_pid].name, {})
                    for c in cols[1:]:
                        if c.key in own:
                            rows[name_pid].values[c.key] += float(share.get(c.key, 0.0))
                continue
            row.values[points.key] += entry.points
            if entry.kind == "pab":
                won = {1.0: row.name, 0.5: TIE}.get(t.settings.bye_points)
                share = module.contributions(GameRecord((row.name,), won, number)).get(
                    row.name, {})
                for c in cols[1:]:
                    if c.key in own:
                        row.values[c.key] += float(share.get(c.key, 0.0))
    for pid, p in t.players.items():
        rows[pid].withdrawn = p.withdrawn
    ordered = _ranked(t, last, cols, rows, results)
    return Table(t.game, registry.get(t.game).title, cols, ordered, last, t.name)


def codes_of(t: Tournament) -> tuple[str, ...]:
    """The tournament's tie-break codes in order (the game's own columns by default)."""
    own = tuple(facet(t.game).COLUMNS)
    return t.settings.tiebreaks or tuple(f"game:{c.key}" for c in own[1:])


def _ranked(t: Tournament, last: int, cols: tuple[Column, ...], rows: dict[int, Row],
            results: Mapping[tuple[int, int], Result] | None) -> list[Row]:
    """The rows in the order of C.07 4.2: points, then each tie-break for those still tied
    (:func:`companion.tournament.fide.tiebreaks.standings`), with their ranks."""
    import copy

    from companion.tournament.fide.history import FideError
    from companion.tournament.fide.tiebreaks import standings as fide_standings
    from companion.tournament.neutral import history_of

    codes = codes_of(t)
    counted = t
    if results:
        counted = copy.deepcopy(t)
        for r in counted.played:
            for g in r.games:
                g.result = results.get((r.number, g.board), g.result)
    extra = {code: {pid: row.values[code[5:]] for pid, row in rows.items()}
             for code in codes if code.startswith("game:")}
    try:
        ranked = fide_standings(history_of(counted, last), codes,
                                round_robin=t.system == "round-robin",
                                unrated=t.settings.rated_default, extra=extra)
    except FideError as exc:
        raise refuse(N_("standings: {problem}"), problem=exc.remark) from None
    keys = [c.key for c in cols[1:]]
    out = []
    for standing in ranked:
        row = rows[standing.player]
        row.rank = standing.rank
        for key, value in zip(keys, standing.values, strict=True):
            if value is None:
                row.blank.add(key)
                row.values[key] = 0.0
            else:
                row.values[key] = float(value)
        out.append(row)
    return out
