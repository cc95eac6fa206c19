"""One game's result as the standings read it, and a game's standings facet.

Each game kind says how its games count in a tournament in its own module
``companion.<kind>.standings`` (found through the registry, like the other facets), which
satisfies :class:`StandingsGame`: the columns of its table (each with its unit and a line of
legend, so a printed sheet explains itself), a player's share of them for one game, and how a
finished game's folded journal becomes a :class:`GameRecord`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from companion.arbiter.kinds import GameResult

TIE = "tie"


@dataclass(frozen=True)
class Column:
    """One column of a game's standings: ranked by the columns in order, bigger first."""

    key: str
    title: str
    unit: str
    legend: str


@dataclass(frozen=True)
class GameRecord:
    """A finished game: its players by name (the first mover first), the winner's name (or
    ``"tie"``), and the score each player made when the game keeps one."""

    players: tuple[str, ...]
    winner: str | None
    round: int | None = None
    table: int | None = None
    forfeit: bool = False
    score: Mapping[str, int] | None = None
    reason: str | None = None
    source: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)

    def points(self, player: str) -> float:
        """Game points: 1 a win, ½ a tie, 0 a loss (a bye is a win)."""
        if self.winner == TIE:
            return 0.5
        return 1.0 if self.winner == player else 0.0


class StandingsGame(Protocol):
    """A game's standings facet: the module ``companion.<kind>.standings``."""

    COLUMNS: tuple[Column, ...]

    def contributions(self, record: GameRecord) -> dict[str, dict[str, float]]:
        """Each player's share of every column for this game (a bye: ``record.players`` has
        one name and ``winner`` is it)."""
        ...

    def record(self, header: Mapping[str, Any], state: Mapping[str, Any]) -> GameRecord:
        """The result of a finished game's folded journal; ValueError (saying why) when it has
        none yet."""
        ...


def result_by_score(winner: str, score: tuple[int, int]) -> str | None:
    """Where the higher score wins (Tantrix's points, Tokami's totals): the result the score
    makes (``1-0``, ``0-1`` or ``½-½``) when ``winner`` (``first``, ``second`` or ``tie``) is
    not it, else None."""
    first, second = score
    expected = "first" if first > second else "second" if second > first else "tie"
    if winner == expected:
        return None
    return {"first": "1-0", "second": "0-1", "tie": "½-½"}[expected]


def header_names(header: Mapping[str, Any], colours: list[str]) -> dict[str, str]:
    """Each colour's player name from the header's ``"names"`` (the colour when unnamed)."""
    names = header.get("names")
    names = names if isinstance(names, Mapping) else {}
    return {c: str(names.get(c) or c) for c in colours}


def header_int(header: Mapping[str, Any], key: str) -> int | None:
    value = header.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def record_of_result(header: Mapping[str, Any], outcome: GameResult) -> GameRecord:
    """A two-player game's :class:`GameRecord` from its arbiter facet's result: colours become
    the header's names, round and table come from the header."""
    names = header_names(header, outcome.colours)
    winner = outcome.winner
    return GameRecord(
        players=tuple(names[c] for c in outcome.colours),
        winner=names[winner] if winner in names else winner,
        round=header_int(header, "round"),
        table=header_int(header, "table"),
        forfeit=outcome.forfeit,
        score={names[c]: v for c, v in outcome.score.items()},
        reason=outcome.reason,
    )
