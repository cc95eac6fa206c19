"""The standings of a tournament: one ranking rule, used by everything that shows one.

:func:`standings` ranks the players of a :class:`~companion.tournament.model.Tournament` after
a round: by **points** (each round's: a game's result, a bye as the tournament counts it, a
missed round of a late entrant), then by the tournament's **tie-breaks** in order
(``settings.tiebreaks``; by default the game's own columns, ``companion.<game>.standings``:
Tamsk's rings margin and time tie-break, Tantrix's TP and score difference, Tokami's totals).
Players equal on every column share a rank, listed by name. The command line, the arbiter's
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
    neutral history (:mod:`.neutral`); direct encounter (``DE``) is not among them: it depends
    on who is tied, which these columns do not know."""
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

    return {code: (Column(code.lower(), tb.title, tb.unit, tb.legend), compute(code))
            for code, tb in FIDE.items() if code != "DE"}


#: The FIDE tie-breaks this companion computes, by code (``settings.tiebreaks``).
TIEBREAKS: dict[str, Tiebreak] = _fide()


@dataclass
class Row:
    name: str
    id: int = 0
    values: dict[str, float] = field(default_factory=dict)
    played: int = 0  # games played over the board (not byes, not forfeits)
    rank: int = 0


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
    codes = t.settings.tiebreaks or tuple(f"game:{c.key}" for c in own[1:])
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
    for code in t.settings.tiebreaks:
        if code in TIEBREAKS:
            column, compute = TIEBREAKS[code]
            for pid, value in compute(t, last).items():
                rows[pid].values[column.key] = float(value)
    keys = [c.key for c in cols]
    ordered = sorted(rows.values(), key=lambda r: ([-r.values[k] for k in keys], r.name))
    for i, row in enumerate(ordered):
        prev = ordered[i - 1] if i else None
        same = prev is not None and all(prev.values[k] == row.values[k] for k in keys)
        row.rank = prev.rank if same and prev is not None else i + 1
    return Table(t.game, registry.get(t.game).title, cols, ordered, last, t.name)
