"""Replay drawing speed: one board picture, and a whole 200-move game as GIF and HTML.

Targets: under 20 ms per picture, under 2 s for a 200-move game's GIF or HTML (one core).
Prints the best of a few runs for each:
  picture   shapes -> palette image (what a GIF frame costs), then + PNG encoding
  fold      the game's inputs folded into frames (the stepping model)
  gif/html  the whole file from a folded game, one frame per move
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.replay import build  # noqa: E402
from companion.replay.gif import picture, write_gif  # noqa: E402
from companion.replay.html import page  # noqa: E402
from companion.tamsk import events as ev  # noqa: E402
from companion.tamsk.events import opponent  # noqa: E402
from companion.tamsk.game import Game, Rules  # noqa: E402
from companion.tantrix.autoplay import random_game  # noqa: E402


def tamsk_game(seed: int, moves: int = 200, rings: float = 0.3,
               forfeits: int = 0) -> list[dict[str, object]]:
    """A believable level-3 game of ``moves`` moves: the glass with the least sand is moved
    (so none runs out), a ring ``rings`` of the time (three times in ten), a claim now and
    then, timers turned. Fewer rings make longer games (the rings running out ends one).
    ``forfeits``: every that many moves the 15-second timer runs out on the player on turn
    (a penalty)."""
    rng = random.Random(seed)
    game = Game(Rules(level=3))
    out: list[dict[str, object]] = []
    t = 0.0

    def do(e: ev.Event) -> None:
        out.append(e.to_dict())
        game.apply(e)

    made = 0
    while made < moves and not game.over:
        t += rng.choice((1.5, 2.0, 3.0, 4.5))
        player = game.turn
        if rng.random() < 0.1 and not game.timer.running:
            do(ev.timer15(t, opponent(player)))
        able = [g for g in game.movable(player) if game.sand(g, t + 0.5) > 1.0
                or not game.glasses[g].running]
        if not able:
            break
        glass = min(able, key=lambda g: game.sand(g, t))
        do(ev.lift(t + 0.1, glass))
        do(ev.release(t + 0.5, glass, rng.choice(game.destinations(glass))))
        made += 1
        if forfeits and made % forfeits == 0 and not game.timer.running:
            do(ev.timer15(t + 0.6, player))
            t += 16.0
            game.advance(t)
            continue
        roll = rng.random()
        if roll < rings * 0.9:
            do(ev.ring(t + 0.8, player))
        elif roll < rings:
            do(ev.ring(t + 0.9, opponent(player)))
        t += 1.0
    out.append({"t": t + 1.0, "ev": "end"})
    return out


def best(runs: int, work: object) -> float:
    assert callable(work)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    for seed in range(50):
        events = tamsk_game(seed)
        if sum(1 for e in events if e["ev"] == "release") >= 200:
            break
    header = {"game": "tamsk", "level": 3, "names": {"red": "Ada", "black": "Ben"}}
    numbered = [(i + 2, e) for i, e in enumerate(events)]
    replay = build(header, numbered)
    moves = sum(1 for e in events if e["ev"] == "release")
    print(f"Tamsk game: {moves} moves, {len(events)} inputs, {len(replay.frames)} frames, "
          f"{replay.duration / 60:.1f} min of play")

    frames = replay.frames[1::4]
    per = []
    for frame in frames:
        start = time.perf_counter()
        picture(replay, frame)
        per.append(time.perf_counter() - start)
    png = []
    for frame in frames:
        start = time.perf_counter()
        image = picture(replay, frame)
        with tempfile.TemporaryFile() as f:
            image.save(f, format="PNG")
        png.append(time.perf_counter() - start)
    print(f"picture  Tamsk   {statistics.median(per) * 1000:6.1f} ms median "
          f"({max(per) * 1000:.1f} ms worst), with PNG encoding "
          f"{statistics.median(png) * 1000:.1f} ms   (target < 20 ms)")

    fold = best(3, lambda: build(header, numbered))
    print(f"fold     Tamsk   {fold * 1000:6.0f} ms for the whole game")
    with tempfile.TemporaryDirectory() as tmp:
        gif = best(3, lambda: write_gif(replay, Path(tmp) / "g.gif"))
        size = (Path(tmp) / "g.gif").stat().st_size
    print(f"gif      Tamsk   {gif * 1000:6.0f} ms for {len(replay.frames)} frames "
          f"({size / 1e6:.1f} MB)   (target < 2000 ms)")
    html = best(3, lambda: page(replay))
    print(f"html     Tamsk   {html * 1000:6.0f} ms ({len(page(replay)) / 1e6:.1f} MB)   "
          f"(target < 2000 ms)")
    total = fold + gif
    print(f"total    Tamsk   {total * 1000:6.0f} ms journal-to-GIF, "
          f"{(fold + html) * 1000:.0f} ms journal-to-HTML")

    game = random_game(random.Random(3), ("red", "yellow", "green", "blue"))
    tantrix = build({"game": "tantrix", "players": ["red", "yellow", "green", "blue"]},
                    [(i + 2, e) for i, e in enumerate(game.events)])
    last = tantrix.frames[-1]
    one = best(5, lambda: picture(tantrix, last))
    print(f"picture  Tantrix {one * 1000:6.1f} ms (56 tiles)")
    with tempfile.TemporaryDirectory() as tmp:
        gif = best(3, lambda: write_gif(tantrix, Path(tmp) / "t.gif"))
    html = best(3, lambda: page(tantrix))
    print(f"gif      Tantrix {gif * 1000:6.0f} ms, html {html * 1000:.0f} ms "
          f"for {len(tantrix.frames)} frames")


if __name__ == "__main__":
    main()
