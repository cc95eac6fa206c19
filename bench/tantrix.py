"""Tantrix engine speed: prints the figures the issue asks for (no assertion, no test).

1. legal spots for one tile on a board of 40 tiles (target under 2 ms);
2. the full state update after a placement: forced spaces and controlled cells (under 1 ms);
3. scoring a full 56-tile board for all four colours, from scratch (at most 100 us).

Boards come from seeded random legal games, so the figures are reproducible. Times are CPU time
of this process (``time.process_time``), best of five runs, so other programs sharing the
machine inflate them less than wall-clock time would. The Pi Zero 2 is about ten times slower
than a desktop machine.

Usage: python bench/tantrix.py [--boards N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from functools import partial

from companion.tantrix.autoplay import random_game
from companion.tantrix.game import Game
from companion.tantrix.geometry import key
from companion.tantrix.scoring import score_all

PLAYERS = ("red", "yellow", "green", "blue")


clock = time.process_time


def per_call(fn: Callable[[], object], seconds: float = 0.2) -> float:
    """Best-of-5 mean CPU time per call, in seconds."""
    n = 1
    while True:
        start = clock()
        for _ in range(n):
            fn()
        if clock() - start > seconds / 5:
            break
        n *= 2
    best = float("inf")
    for _ in range(5):
        start = clock()
        for _ in range(n):
            fn()
        best = min(best, (clock() - start) / n)
    return best


def board_of_40(seed: int) -> Game:
    """A 2-player game with 40 tiles down, at the start of a turn (free move still to play)."""
    game = random_game(random.Random(seed), PLAYERS[:2], stop_after=40).game
    if game.free_move_used:
        game.end_turn()
    return game


def bench_legal_spots(boards: int) -> list[float]:
    out = []
    for seed in range(boards):
        game = board_of_40(seed)
        tiles = [t for t in range(1, 57) if game.where_is(t) is None]
        out += [per_call(partial(game.legal_placements, t), 0.05) for t in tiles]
    return out


def bench_update(boards: int) -> list[float]:
    """Time play() plus reading the new forced spaces and controlled cells. Each round also
    takes the tile back with undo() (about as costly as play), so the figure is an upper bound."""
    out = []
    for seed in range(boards):
        game = board_of_40(seed)
        moves = [p for t in range(1, 57) for p in game.legal_placements(t)]
        rng = random.Random(seed)
        for p in rng.sample(moves, min(20, len(moves))):
            best = float("inf")
            for _ in range(5):
                start = clock()
                for _ in range(20):
                    game.play(p)
                    game.forced_spaces()
                    game.controlled_cells()
                    game.undo()
                best = min(best, (clock() - start) / 20)
            out.append(best)
    return out


def bench_scoring(boards: int) -> list[float]:
    out = []
    for seed in range(boards):
        game = random_game(random.Random(seed), PLAYERS).game
        board = {key(*p.cell): p.tile * 6 + p.rot for p in game.placements}
        assert len(board) == 56
        out.append(per_call(partial(score_all, board)))
    return out


def report(name: str, times: list[float], target_us: float) -> None:
    us = [t * 1e6 for t in times]
    median, worst = statistics.median(us), max(us)
    verdict = "meets" if worst <= target_us else "MISSES"
    print(
        f"{name:<58} median {median:8.1f} us  worst {worst:8.1f} us  "
        f"target {target_us:6.0f} us: {verdict}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=5, help="random boards per figure")
    args = parser.parse_args()
    print(f"Tantrix engine, {args.boards} random boards per figure")
    report("legal spots for one tile, 40-tile board", bench_legal_spots(args.boards), 2000)
    report("state update after a placement (forced + controlled)", bench_update(args.boards), 1000)
    report("score a full 56-tile board, 4 colours, from scratch", bench_scoring(args.boards), 100)


if __name__ == "__main__":
    main()
