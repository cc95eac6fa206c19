"""Swiss pairing time for club-sized and big tournaments, every round played out.

Each tournament is played to its last round with results drawn from a fixed seed (first mover
wins, ties, second mover wins, in the proportions 45/10/45); the time to pair each round is
measured (CPU time, best of 3) and the slowest round of each tournament printed with the search
steps it took. A Pi Zero 2 W is roughly 10x slower than the machine these figures come from.
Goal: a round of a 100-player, 9-round Swiss in well under a second on the Pi.
"""

from __future__ import annotations

import random
import time

from companion.tournament.swiss import FIRST, SECOND, SwissPlayer, _Search, rank, swiss_round

SIZES = ((8, 5), (16, 5), (30, 7), (60, 8), (100, 9))


def play(players: int, rounds: int, seed: int = 7) -> tuple[float, int]:
    """The slowest round's pairing time (s) and the most search steps in one round."""
    rng = random.Random(seed)
    score = {i: 0.0 for i in range(1, players + 1)}
    opp: dict[int, set[int]] = {i: set() for i in score}
    col: dict[int, list[str]] = {i: [] for i in score}
    bye: set[int] = set()
    worst, steps = 0.0, 0
    for _ in range(rounds):
        field = [SwissPlayer(i, score[i], 2500 - i, frozenset(opp[i]), tuple(col[i]), i in bye)
                 for i in score]
        best = float("inf")
        for _ in range(3):
            t0 = time.process_time()
            pairs = swiss_round(field)
            best = min(best, time.process_time() - t0)
        worst = max(worst, best)
        search = _Search(True)
        ranked = [p for p in rank(field) if p.number not in {a for a, b in pairs if b is None}]
        search.run(ranked)
        steps = max(steps, search.steps)
        for a, b in pairs:
            if b is None:
                bye.add(a)
                score[a] += 1
                continue
            r = rng.random()
            pa = 1.0 if r < 0.45 else 0.5 if r < 0.55 else 0.0
            score[a] += pa
            score[b] += 1 - pa
            opp[a].add(b)
            opp[b].add(a)
            col[a].append(FIRST)
            col[b].append(SECOND)
    return worst, steps


def main() -> None:
    print("| players | rounds | slowest round to pair | search steps (most in a round) |")
    print("| ---: | ---: | ---: | ---: |")
    for players, rounds in SIZES:
        worst, steps = play(players, rounds)
        print(f"| {players} | {rounds} | {worst * 1000:.1f} ms | {steps} |")


if __name__ == "__main__":
    main()
