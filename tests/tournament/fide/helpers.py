"""Small histories for the FIDE tests, written the way an arbiter reads a cross table."""

from __future__ import annotations

from collections.abc import Sequence

from companion.tournament.fide.history import Bye, Entrant, Game, History, Round, numbered


def players(n: int, *, rated: bool = True) -> tuple[Entrant, ...]:
    """``n`` players, P1 the strongest: start numbers follow the ids."""
    return tuple(Entrant(i, f"P{i}", rating=(2400 - 10 * i) if rated else 0)
                 for i in range(1, n + 1))


def game(text: str) -> Game:
    """``"1-4 1-0"``: player 1 (white) against 4, the result."""
    pair, result = text.split()
    white, black = pair.split("-")
    return Game(int(white), int(black), result)


def rnd(*games: str, byes: Sequence[tuple[int, str]] = ()) -> Round:
    return Round(tuple(game(g) for g in games), tuple(Bye(p, k) for p, k in byes))


def history(n: int, *rounds: Round, total: int = 5, **kw: object) -> History:
    return numbered(History(players(n), tuple(rounds), total, **kw))  # type: ignore[arg-type]


def pairs(pairing: object) -> list[tuple[int, int]]:
    return [(g.white, g.black) for g in pairing.games]  # type: ignore[attr-defined]
