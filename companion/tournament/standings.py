"""Standings per game kind: each game's own points and tie-breaks, summed over its games.

A player's row adds up his share of every column of his game (:mod:`.record`) over all the
games he played; rows are ranked by the columns in order, bigger first, and players equal on
every column share a rank (listed by name). Games of different kinds are never mixed in one
table: a tournament plays one game, and standings from journals are made per game.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from companion import registry
from companion.tournament.record import Column, GameRecord, StandingsGame


class NoStandings(ValueError):
    """A game kind that keeps no standings, or a journal that gives no result."""


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


@dataclass
class Row:
    name: str
    values: dict[str, float] = field(default_factory=dict)
    played: int = 0
    rank: int = 0


@dataclass
class Table:
    """A game's standings: its columns and the ranked rows."""

    game: str
    title: str
    columns: tuple[Column, ...]
    rows: list[Row]

    def legend(self) -> list[str]:
        return [f"{c.title} ({c.unit}): {c.legend}" for c in self.columns]


def standings(game: str, records: Iterable[GameRecord], players: Sequence[str] = ()) -> Table:
    """The standings of these games of ``game`` (``players``: listed even before they play)."""
    module = facet(game)
    columns = tuple(module.COLUMNS)
    rows: dict[str, Row] = {p: Row(p, {c.key: 0.0 for c in columns}) for p in players}
    for record in records:
        for name, share in module.contributions(record).items():
            row = rows.setdefault(name, Row(name, {c.key: 0.0 for c in columns}))
            for c in columns:
                row.values[c.key] += float(share.get(c.key, 0.0))
            row.played += 1
    keys = [c.key for c in columns]
    ordered = sorted(rows.values(), key=lambda r: ([-r.values[k] for k in keys], r.name))
    for i, row in enumerate(ordered):
        prev = ordered[i - 1] if i else None
        same = prev is not None and all(prev.values[k] == row.values[k] for k in keys)
        row.rank = prev.rank if same and prev is not None else i + 1
    return Table(game, registry.get(game).title, columns, ordered)


def record_from_journal(path: str | Path) -> tuple[str, GameRecord]:
    """``(game, record)`` for a finished game's journal: read, checked and folded by the game's
    own engine; no club key is needed to read (a damaged hash chain is refused)."""
    from companion import journal as journal_mod
    from companion.scenario import MalformedInput

    path = Path(path)
    j = journal_mod.read_path(path)
    if not j.intact or j.header is None:
        problems = [str(p) for p in j.problems] + ([str(j.torn)] if j.torn else [])
        raise NoStandings(f"the journal is damaged: {'; '.join(problems) or 'no header'}")
    header: Mapping[str, Any] = j.header
    game = str(header.get("game"))
    module = facet(game)
    try:
        state = registry.get(game).simulate(dict(header), [(n, b) for n, b in j.events])
        record = module.record(header, state)
    except (MalformedInput, ValueError) as exc:
        raise NoStandings(str(exc)) from None
    from dataclasses import replace

    return game, replace(record, source=path.name)
