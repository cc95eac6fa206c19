"""Tantrix with hands: what the forced-space obligation costs (no assertion, no test).

1. ``must_fill`` (every tile in hand tried on every forced space) on the positions of seeded
   random games with hands, mean and worst CPU time per call;
2. ``companion simulate`` of a whole 56-tile game with hands (start draw, every draw, the
   obligation checked at each free move and end of turn), CPU time per game and per event.

Times are CPU time (``time.process_time``); a Pi Zero 2 is about ten times slower.

Usage: python bench/tantrix_hands.py [--games N]
"""

from __future__ import annotations

import argparse
import random
import time

from companion.tantrix.autoplay import random_hands_game
from companion.tantrix.hands import HandsGame
from companion.tantrix.simulate import apply_event, simulate

clock = time.process_time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    args = parser.parse_args()
    calls: list[float] = []
    per_game: list[float] = []
    events = 0
    for seed in range(args.games):
        players = ("red", "yellow") if seed % 2 else ("red", "yellow", "red", "yellow")
        rg = random_hands_game(random.Random(seed), players)
        game = HandsGame(players)
        for e in rg.events:
            apply_event(game, e)
            start = clock()
            game.must_fill()
            calls.append(clock() - start)
        numbered = [(i + 2, e) for i, e in enumerate(rg.events)]
        start = clock()
        out = simulate({"game": "tantrix", "players": list(players), "hands": True}, numbered)
        per_game.append(clock() - start)
        events += len(rg.events)
        assert out["violations"] == []
    mean = sum(calls) / len(calls)
    print(f"must_fill: mean {mean * 1e6:.0f} us, worst {max(calls) * 1e6:.0f} us "
          f"over {len(calls)} positions")
    total = sum(per_game)
    print(f"simulate a 56-tile game with hands: mean {total / len(per_game) * 1e3:.0f} ms, "
          f"{total / events * 1e6:.0f} us per event ({events} events, {len(per_game)} games)")


if __name__ == "__main__":
    main()
