"""Two small tournaments whose printouts the tests read: a Swiss of five (a bye every round,
a forfeit, ties, accented names, one unrated player) and a round robin of four (a tie, a
forfeit, a double forfeit), both folded from their records as the tournament file holds them."""

from __future__ import annotations

from typing import Any

from companion.tournament.model import Result, Settings, Source, Tournament, fold, header

#: Entry order; their ratings give the starting numbers 1-5 in this order.
SWISS = (("Jiří Novák", 1800), ("Zoë Müller", 1750), ("Łukasz Żak", 1700),
         ("Anne-Sophie Lefèvre", 1650), ("=Bob", 0))
WIN_FIRST = Result("first", False, (20, 25), "rings")
WIN_SECOND = Result("second", False, (25, 20), "rings")
TIE = Result("tie", False, (28, 28), "tie")
FORFEIT_SECOND = Result("second", True, None, "forfeit")  # -+
FORFEIT_FIRST = Result("first", True, None, "forfeit")  # +-
DOUBLE_FORFEIT = Result("none", True, None, "forfeit")  # --


def _fold(name: str, system: str, rounds: int, players: tuple[tuple[str, int], ...],
          played: list[tuple[list[tuple[int, int, Result | None]], list[dict[str, Any]]]],
          settings: Settings | None = None) -> Tournament:
    """``played``: each round's games (first, second, result or None) by entry number, and
    its byes."""
    tag = {"wall": 1_790_000_000.0, "via": "cli"}
    records: list[dict[str, Any]] = [{"ev": "player", "id": i + 1, "name": n, "rating": r,
                                      **tag} for i, (n, r) in enumerate(players)]
    records.append({"ev": "numbers", "numbers": {str(i + 1): i + 1 for i in range(len(players))},
                    **tag})
    for number, (games, byes) in enumerate(played, start=1):
        records.append({"ev": "pair", "round": number, "byes": byes, **tag,
                        "games": [{"board": b + 1, "first": a, "second": c}
                                  for b, (a, c, _) in enumerate(games)]})
        for b, (_, _, result) in enumerate(games):
            if result is not None:
                records.append({"ev": "result", "round": number, "board": b + 1,
                                "result": result.to_dict(),
                                "source": Source("arbiter").to_dict(), **tag})
    head = header(name, "tamsk", system, rounds, settings or Settings(), 1_790_000_000.0)
    return fold(head, [(i + 2, r) for i, r in enumerate(records)])


def swiss(*, last_result: bool = True) -> Tournament:
    """Three rounds of five; round 3's second board without its result unless
    ``last_result``.

    Round 1: 1-3 a tie, 4-2 won by 2 by forfeit (-+), 5 the bye. Round 2: 2-1 won by 2,
    3-5 won by 5, 4 the bye. Round 3: 2-5 a tie, 1-4 won by 1, 3 the bye.
    Points after each round: 1: ½ ½ 1½; 2: 1 2 2½; 3: ½ ½ 1½; 4: 0 1 1; 5: 1 2 2½.
    """
    return _fold("Podzimní Tamsk", "swiss", 3, SWISS, [
        ([(1, 3, TIE), (4, 2, FORFEIT_SECOND)], [{"player": 5, "kind": "pab"}]),
        ([(2, 1, WIN_FIRST), (3, 5, WIN_SECOND)], [{"player": 4, "kind": "pab"}]),
        ([(2, 5, TIE), (1, 4, WIN_FIRST if last_result else None)],
         [{"player": 3, "kind": "pab"}]),
    ], Settings(tiebreaks=("BH", "SB", "game:rings")))


ROUND_ROBIN = (("Ann", 1900), ("Bob", 1800), ("Cid", 1700), ("Dee", 1600))


def round_robin() -> Tournament:
    """Four players, three rounds (the Berger table of 4): 1-4 ½-½, 2-3 +- (a forfeit);
    4-3 1-0, 1-2 0-1; 2-4 --, 3-1 1-0."""
    return _fold("Club Cup", "round-robin", 3, ROUND_ROBIN, [
        ([(1, 4, TIE), (2, 3, FORFEIT_FIRST)], []),
        ([(4, 3, WIN_FIRST), (1, 2, WIN_SECOND)], []),
        ([(2, 4, DOUBLE_FORFEIT), (3, 1, WIN_FIRST)], []),
    ])
