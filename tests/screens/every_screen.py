"""Every screen of every game and mode, as players reach them, for the fitting sweep.

The golden cases (``screen_cases.py``, ``tests/tables/screen_views.py``) are a few chosen
moments; here the tables are *played*: real table controllers on a fake clock get seeded random
walks over the whole keypad (menus, refusals, undo, stop, every question) from several starting
positions, and each screen is drawn after each key on both panels. The Tamsk screens, which
its table draws from sensors rather than keys, come from views built for every level, result,
refusal and menu, and from the arbiter's keypad menu walked the same way.

Each game family is a function of the language (the tables word their prompts in the players'
language as they make them) that yields :class:`Shown` screens.
"""

from __future__ import annotations

import random
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

from companion.screens import error_screen
from companion.tamsk.calibration_screen import calibration_screen
from companion.tamsk.result_screen import result_screen
from companion.tamsk.screens import screen as tamsk_screen
from companion.tantrix.screens import tantrix_screen
from companion.tokami.screens import tokami_screen
from tests.tables.driving import Seat, play_events, play_solo_events, seat

#: The two panels: the SSD1306 (one bit) and the SSD1351 (colour).
PANELS = (((128, 64), "1"), ((128, 128), "RGB"))
#: The keypad's sixteen keys.
KEYS = "0123456789ABCD*#"


@dataclass
class Shown:
    """One screen: where it was met, the view, and the screen function that draws it
    (``draw(view, size=..., mode=...)``)."""

    where: str
    view: dict[str, Any]
    draw: Callable[..., Image.Image]

    def image(self, size: tuple[int, int], mode: str) -> Image.Image:
        return self.draw(self.view, size=size, mode=mode)


def _walk(s: Seat, rng: random.Random, keys: int, weights: dict[str, float]) -> Iterator[str]:
    """Press ``keys`` random keys (more often the heavier ones), yielding after each the keys
    pressed so far."""
    pool = list(KEYS)
    chances = [weights.get(k, 1.0) for k in pool]
    pressed = ""
    for _ in range(keys):
        key = rng.choices(pool, chances)[0]
        s.press(key)
        pressed += key
        yield pressed


@dataclass
class _Table:
    seat: Seat
    folder: tempfile.TemporaryDirectory[str]

    def close(self) -> None:
        self.seat.table.close()
        self.folder.cleanup()


def _open(kind: str) -> _Table:
    folder = tempfile.TemporaryDirectory()
    return _Table(seat(kind, Path(folder.name)), folder)


# -- Tokami ----------------------------------------------------------------------------------------

#: (players, block set, rounds): two to five players, the default box, a small box, many colours.
TOKAMI_GAMES: tuple[tuple[tuple[str, ...], dict[str, int] | None, int], ...] = (
    (("Anna", "Ben"), None, 1),
    (("Anna", "Ben", "Chloé"), {"red": 1, "yellow": 4, "blue": 4}, 1),
    (("Anna", "Ben", "Chloé", "Dan"), {"red": 3, "yellow": 3, "blue": 3}, 2),
    (("Anna", "Benedikt", "Chloé", "Dominique", "Eve"), None, 3),
    (("Ada", "Bo"), {c: 2 for c in ("red", "yellow", "green", "blue", "orange", "purple",
                                    "white", "black", "natural")}, 1),
)
#: The outcome keys and colours most, so that turns get saved and questions change.
TOKAMI_WEIGHTS = {"1": 4, "2": 4, "3": 4, "4": 3, "5": 2, "#": 5, "*": 1.5, "A": 0.7, "D": 0.4,
                  "0": 1.5, "B": 0.2, "C": 0.2}


def tokami_screens(walk: int = 90) -> Iterator[Shown]:
    """Tokami games of two to five players: the question of every stage, with and without a
    forbidden colour, refusals, undo, stop, the end of a round and of the game."""
    for number, (players, blocks, rounds) in enumerate(TOKAMI_GAMES):
        table = _open("tokami")
        try:
            s = table.seat
            s.table.start_game(list(players), blocks=blocks, rounds=rounds)
            yield Shown(f"tokami {number} start", s.view, tokami_screen)
            for pressed in _walk(s, random.Random(number), walk, TOKAMI_WEIGHTS):
                yield Shown(f"tokami {number} after ...{pressed[-12:]}", s.view, tokami_screen)
        finally:
            table.close()
