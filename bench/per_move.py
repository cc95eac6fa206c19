"""Work per move: a state update and a screen refresh at move 5 and at move 500 of one game.

A long level-3 Tamsk game (few rings, so it lasts; timers turned, claims, a refused input every
5 moves and a 15-second penalty every 10) is played into a real table. At move 5 and at move 500:
  update   the rules applying the next input (on copies of the game, best of many)
  view     Table.view(): the state the screen is drawn from
  screen   the OLED picture of that view (Pillow), as Display.refresh draws it
Goal: the same cost at move 500 as at move 5 (ratio ~1.0).

Run: .venv/bin/python bench/per_move.py
"""

from __future__ import annotations

import copy
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from render import tamsk_game  # noqa: E402

from companion.clock import FakeClock  # noqa: E402
from companion.config import defaults  # noqa: E402
from companion.hw.display import pick_screen  # noqa: E402
from companion.tamsk import events as ev  # noqa: E402
from companion.tamsk.game import Rules  # noqa: E402
from companion.tamsk.table import Table  # noqa: E402


def best(runs: int, work: Callable[[], object], inner: int = 20) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        for _ in range(inner):
            work()
        times.append((time.perf_counter() - start) / inner)
    return min(times)


def with_refusals(events: list[dict[str, object]]) -> list[dict[str, object]]:
    """The game's inputs with a refused one every five moves (a pass by the player who just
    moved, off turn), so that the record of refusals grows as the game goes on."""
    out: list[dict[str, object]] = []
    moves = 0
    for e in events:
        out.append(e)
        if e["ev"] == "release":
            moves += 1
            if moves % 5 == 0:
                player = "red" if str(e["glass"]).startswith("r") else "black"
                out.append({"t": e["t"], "ev": "pass", "player": player})
    return out


def measure() -> None:
    events = with_refusals(tamsk_game(1, 520, rings=0.03, forfeits=10))
    config = defaults()
    with tempfile.TemporaryDirectory() as tmp:
        table = Table(FakeClock(), Path(tmp), config=config, sound=lambda p: None)
        table.start_game(Rules(level=3))
        game = table.game
        assert game is not None
        moves = 0
        marks = {5: None, 500: None}
        results: dict[int, dict[str, float]] = {}
        for k, obj in enumerate(events):
            event = ev.parse_event(obj, float(obj["t"]))  # type: ignore[arg-type]
            if obj["ev"] == "release":
                moves += 1
            if moves in marks and k + 1 < len(events) and moves not in results:
                after = events[k + 1]
                nxt = ev.parse_event(after, float(after["t"]))  # type: ignore[arg-type]
                copies = [copy.deepcopy(game) for _ in range(60)]
                it = iter(copies)
                update = best(3, lambda it=it, e=nxt: next(it).apply(e), inner=20)
                view = best(5, table.view)
                state = table.view()
                screen = best(5, lambda s=state: pick_screen(s, (128, 64), "1"))
                results[moves] = {"update": update, "view": view, "screen": screen,
                                  "penalties": len(game.penalties),
                                  "violations": len(game.violations)}
            game.apply(event)
            if game.over:
                break
    a, b = results[5], results[500]
    print(f"one game, {moves} moves; at move 500: {b['penalties']} penalties, "
          f"{b['violations']} refused inputs")
    print(f"{'':8} {'move 5':>10} {'move 500':>10} {'500 / 5':>8}")
    for key in ("update", "view", "screen"):
        print(f"{key:8} {a[key] * 1e6:>7.1f} µs {b[key] * 1e6:>7.1f} µs {b[key] / a[key]:>7.2f}x")
    total_a = a["update"] + a["view"] + a["screen"]
    total_b = b["update"] + b["view"] + b["screen"]
    print(f"{'total':8} {total_a * 1e6:>7.1f} µs {total_b * 1e6:>7.1f} µs "
          f"{total_b / total_a:>7.2f}x   (goal ~1.0x)")


if __name__ == "__main__":
    measure()
