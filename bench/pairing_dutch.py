"""The FIDE (Dutch) adapter's time for one round: a 40-player and a 100-player Swiss.

Each tournament is played round by round with results from a fixed seed (white wins, draws,
black wins 40/20/40, a forfeit now and then); every round is paired by
:func:`companion.tournament.fide.dutch.pair_dutch` (the pinned caissify-pairings engine, the
checks before and after it) and timed, CPU time. Printed: the median and the slowest round,
and the share of the slowest round spent in the engine itself. A Pi Zero 2 W is roughly 10x
slower than the machine of bench/README.md's figures.
"""

from __future__ import annotations

import random
import statistics
import time

from companion.tournament.fide import dutch
from companion.tournament.fide.history import Entrant, Game, History, Round, numbered

SIZES = ((40, 7), (100, 9))
RESULTS = ["1-0"] * 40 + ["1/2"] * 20 + ["0-1"] * 38 + ["+-", "-+"]


def play(players: int, rounds: int, seed: int = 11) -> tuple[list[float], list[float]]:
    """Per round: the adapter's CPU time and the engine's own share (s)."""
    rng = random.Random(seed)
    field = tuple(Entrant(i, f"P{i}", 2400 - 7 * i) for i in range(1, players + 1))
    history = numbered(History(field, (), rounds))
    engine_time: list[float] = []
    real = dutch._engine

    def timed(ctx, players):  # type: ignore[no-untyped-def]
        t0 = time.process_time()
        out = real(ctx, players)
        engine_time.append(time.process_time() - t0)
        return out

    dutch._engine = timed  # type: ignore[assignment]
    totals: list[float] = []
    try:
        for _ in range(rounds):
            t0 = time.process_time()
            pairing = dutch.pair_dutch(history)
            totals.append(time.process_time() - t0)
            games = tuple(Game(g.white, g.black, rng.choice(RESULTS)) for g in pairing.games)
            history = History(history.players,
                              (*history.rounds, Round(games, pairing.as_round().byes)), rounds)
    finally:
        dutch._engine = real  # type: ignore[assignment]
    return totals, engine_time


def main() -> None:
    print("players rounds  median round  slowest round  engine's share of the slowest")
    for players, rounds in SIZES:
        totals, engine = play(players, rounds)
        worst = max(range(len(totals)), key=totals.__getitem__)
        print(f"{players:7d} {rounds:6d}  {statistics.median(totals):10.2f} s  "
              f"{totals[worst]:11.2f} s  {engine[worst] / totals[worst]:10.0%}")


if __name__ == "__main__":
    main()
