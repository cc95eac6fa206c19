"""Replay lines in the players' language: what the display form costs a replay.

A replay keeps every line of a game at once (to step back and forth). Each frame now holds its
line's parts (:class:`companion.remark.Words`: shared word remarks, one remark a Tantrix cell)
beside its English label. Printed: the memory a replay holds after :func:`build` (tracemalloc)
for a long Tamsk game (few rings: about 800 moves) and for the longest Tantrix scenario, and the
time to show every line of it in French (``Frame.shown``), best of 3.

Run: .venv/bin/python bench/replay_labels.py
"""

from __future__ import annotations

import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from render import tamsk_game  # noqa: E402

from companion import i18n  # noqa: E402
from companion.replay.model import Replay, build, load  # noqa: E402

HEADER = {"game": "tamsk", "level": 3, "names": {"red": "Ada", "black": "Ben"}}
TANTRIX = ROOT / "tests" / "scenarios" / "tantrix" / "h20_team_game_full.jsonl"


def held(make: object) -> tuple[Replay, int]:
    """The replay ``make()`` builds and the bytes it holds once built."""
    assert callable(make)
    make()  # caches (catalogs, shared words) out of the figure
    tracemalloc.start()
    replay = make()
    current, _peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return replay, current


def shown_ms(replay: Replay) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for frame in replay.frames:
            frame.shown  # noqa: B018 - the cost measured
        best = min(best, time.perf_counter() - start)
    return best * 1000


def main() -> None:
    i18n.use("fr")
    events = list(enumerate(tamsk_game(7, moves=800, rings=0.05), start=2))
    games = {
        "Tamsk level 3, long game": lambda: build(dict(HEADER), events),
        "Tantrix h20 team game": lambda: load(TANTRIX),
    }
    print(f"{'game':28} {'frames':>6} {'held KiB':>9} {'B/frame':>8} {'shown ms (fr)':>14}")
    for name, make in games.items():
        replay, size = held(make)
        n = len(replay.frames)
        print(f"{name:28} {n:6d} {size / 1024:9.0f} {size / n:8.0f} {shown_ms(replay):14.2f}")


if __name__ == "__main__":
    main()
