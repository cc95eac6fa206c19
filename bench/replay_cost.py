"""Replays at Pi scale: peak memory of a GIF by game length, and an HTML page against its floor.

GIF: `companion replay GAME --gif OUT` for a 50-move and an 800-move Tamsk game, each in a
fresh process, prints the peak RSS (ru_maxrss). Goal: 800 / 50 <= 1.2, both < 120 MiB. The
same games drawn the way the GIF was written before streaming (every picture in a list, then
Pillow's save_all) are run too, for the ratio to what it replaced (``--no-before`` skips them).

HTML: `page(replay)` against the replay's JSON floor: its frames' states as compact JSON (what
any replay must carry). Goal: within 3x. Both bytes and CPU time are printed, best of 3.

Run: .venv/bin/python bench/replay_cost.py [--no-before]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from render import tamsk_game  # noqa: E402

HEADER = {"game": "tamsk", "level": 3, "names": {"red": "Ada", "black": "Ben"}}
MIB = 1024 * 1024

NEW = (
    "import resource, sys; from companion.cli import main; rc = main(sys.argv[1:]); "
    "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr); sys.exit(rc)"
)
#: The GIF as written before: every picture drawn into a list, then Pillow's save_all.
BEFORE = (
    "import resource, sys; from companion.replay import load; "
    "from companion.replay.gif import per_move, picture; "
    "r = load(sys.argv[1]); plan = per_move(r); ims = [picture(r, f) for f in plan.frames]; "
    "ims[0].save(sys.argv[2], format='GIF', save_all=True, append_images=ims[1:], "
    "duration=plan.durations, loop=0, optimize=False); "
    "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)"
)


def game_file(folder: Path, moves: int) -> Path:
    """A level-3 game of ``moves`` moves as a scenario file (few rings, so it lasts)."""
    events = tamsk_game(0, moves, rings=0.3 if moves <= 200 else 0.03)
    made = sum(1 for e in events if e["ev"] == "release")
    assert made == moves, f"the generated game has {made} moves, not {moves}"
    path = folder / f"tamsk-{moves}.jsonl"
    with open(path, "w", encoding="utf-8") as f:
        f.write(json.dumps(HEADER) + "\n")
        for e in events:
            f.write(json.dumps(e) + "\n")
    return path


def peak(code: str, *args: str) -> tuple[float, float]:
    """Peak RSS (MiB) and wall time of one fresh process."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True,
                          text=True, check=True)
    took = time.perf_counter() - start
    return int(done.stderr.strip().splitlines()[-1]) / 1024, took


def best(runs: int, work: object) -> float:
    """CPU seconds of the best of ``runs`` (CPU time: the machine may be shared)."""
    assert callable(work)
    times = []
    for _ in range(runs):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-before", action="store_true", help="skip the pre-streaming runs")
    args = parser.parse_args()
    from companion.replay import load
    from companion.replay.html import page

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        games = {m: game_file(folder, m) for m in (50, 800)}
        print("GIF, one picture per move: peak RSS of a fresh process")
        print(f"{'moves':>6} {'frames':>7} {'streamed':>10} {'time':>7} {'before':>10} {'time':>7}")
        rss: dict[int, float] = {}
        for moves, path in games.items():
            frames = len(load(path).frames)
            out = folder / f"{moves}.gif"
            rss[moves], took = peak(NEW, "replay", str(path), "--gif", str(out))
            line = f"{moves:>6} {frames:>7} {rss[moves]:>7.1f} MiB {took:>6.1f}s"
            if not args.no_before:
                old, old_took = peak(BEFORE, str(path), str(folder / f"{moves}-old.gif"))
                line += f" {old:>6.1f} MiB {old_took:>6.1f}s"
            print(line + f"   ({out.stat().st_size / 1e6:.2f} MB GIF)")
        ratio = rss[800] / rss[50]
        ok = ratio <= 1.2 and max(rss.values()) < 120
        print(f"800 / 50 moves: {ratio:.2f}x (goal <= 1.2x, both < 120 MiB: "
              f"{'met' if ok else 'NOT met'})")

        print("\nHTML page against its JSON floor (the frames' states as compact JSON), best of 3")
        head = ("moves", "page", "floor", "bytes", "page", "floor", "time")
        print("{:>6} {:>9} {:>9} {:>6} {:>9} {:>9} {:>6}".format(*head))
        for moves in (50, 200, 800):
            path = games.get(moves) or game_file(folder, moves)
            replay = load(path)
            states = [dict(f.state) for f in replay.frames]
            html = page(replay)
            floor = json.dumps(states, separators=(",", ":"))
            t_page = best(3, lambda r=replay: page(r))  # type: ignore[misc]
            t_floor = best(3, lambda s=states: json.dumps(s, separators=(",", ":")))  # type: ignore[misc]
            print(f"{moves:>6} {len(html.encode()) / 1e6:>6.2f} MB {len(floor) / 1e6:>6.2f} MB "
                  f"{len(html.encode()) / len(floor):>5.1f}x {t_page * 1000:>6.0f} ms "
                  f"{t_floor * 1000:>6.1f} ms {t_page / t_floor:>5.1f}x")


if __name__ == "__main__":
    main()
