"""Journal fold throughput: how fast a game's state is rebuilt from its events.

Prints events per second for three paths, on one core:
  fold     events already parsed, folded through the Tamsk engine (the target: >= 200,000/s)
(CPU time of this process, best of several runs, so other load on the machine counts less.)
  parse    contract objects -> events -> fold (what `companion simulate` does per line)
  journal  bytes of a journal -> hash chain checked -> events -> fold (crash recovery, verify)
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.journal import JournalWriter, read_bytes  # noqa: E402
from companion.tamsk import events as ev  # noqa: E402
from companion.tamsk.events import Event, parse_event  # noqa: E402
from companion.tamsk.game import Game, Rules  # noqa: E402


def play_game(rng: random.Random, rules: Rules, moves: int = 400) -> list[Event]:
    """A long believable level-3 game: lifts, releases, rings, claims, timers, some refusals."""
    game = Game(rules)
    out: list[Event] = []
    t = 0.0

    def do(e: Event) -> None:
        out.append(e)
        game.apply(e)

    for _ in range(moves):
        if game.over:
            break
        t += rng.choice((0.6, 1.5, 3.0, 6.0))
        game.advance(t)
        if game.over:
            break
        player = game.turn
        if rng.random() < 0.15 and rules.level == 3 and not game.timer.running:
            do(ev.timer15(t, "black" if player == "red" else "red"))
        movable = [
            g for g in game.movable(player) if game.sand(g) > 2 or not game.glasses[g].running
        ]
        if not movable:
            do(ev.pass_turn(t, player))
            continue
        glass = rng.choice(movable)
        do(ev.lift(t + 0.1, glass))
        do(ev.release(t + 0.4, glass, rng.choice(game.destinations(glass))))
        if rng.random() < 0.8:
            do(ev.ring(t + 0.6, player))
        elif rng.random() < 0.5:
            do(ev.ring(t + 0.7, "black" if player == "red" else "red"))
        if rng.random() < 0.05:
            do(ev.ring(t + 0.9, player))  # too late or twice: refused
        t += 0.9
    out.append(ev.end(t + 1))
    return out


def rate(n: int, seconds: float) -> str:
    return f"{n / seconds:>12,.0f} events/s  ({n} events in {seconds * 1000:.1f} ms)"


def main() -> None:
    rng = random.Random(7)
    rules = Rules(level=3, periods={"r1": 176.5, "b2": 183.0})
    games = [play_game(rng, rules) for _ in range(60)]
    n = sum(len(g) for g in games)
    dicts = [[e.to_dict() for e in g] for g in games]

    best = float("inf")
    for _ in range(9):
        start = time.process_time()
        for g in games:
            game = Game(rules)
            for e in g:
                game.apply(e)
        best = min(best, time.process_time() - start)
    print("fold    ", rate(n, best))

    best = float("inf")
    for _ in range(9):
        start = time.process_time()
        for g in dicts:
            game = Game(rules)
            for d in g:
                game.apply(parse_event(d, d["t"]))
        best = min(best, time.process_time() - start)
    print("parse   ", rate(n, best))

    with tempfile.TemporaryDirectory() as tmp:
        blobs = []
        for i, g in enumerate(dicts):
            path = Path(tmp) / f"g{i}.jsonl"
            with JournalWriter.create(path, {"game": "tamsk", "level": 3}) as w:
                for d in g:
                    w.append(d)
            blobs.append(path.read_bytes())
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        for blob in blobs:
            j = read_bytes(blob)
            assert j.intact
            game = Game(rules)
            for _line, d in j.events:
                game.apply(parse_event(d, d["t"]))
        best = min(best, time.process_time() - start)
    print("journal ", rate(n, best))


if __name__ == "__main__":
    main()
