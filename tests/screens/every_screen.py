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


# -- Tantrix ---------------------------------------------------------------------------------------

#: Tile numbers typed most (some of them are on the table, some not), then ``#`` and the keys of
#: a placement (A/B spot, C turn), the menu's D and ``*``.
TANTRIX_WEIGHTS = {"1": 3, "2": 3, "3": 2, "4": 2, "5": 2, "#": 5, "A": 2, "B": 1, "C": 2,
                   "D": 1.5, "*": 1.5, "0": 1}


def _tantrix_start(s: Seat, start: str) -> None:
    """A Tantrix table brought to the starting point named ``start``."""
    from companion.tantrix.autoplay import random_game, random_hands_game

    if start.startswith("strategy"):
        _, players, tiles = start.split(":")
        colours = ("red", "yellow", "green", "blue")[: int(players)]
        s.table.start_game(list(colours), names={"red": "Ada", "yellow": "Benedikt"})
        play_events(s, random_game(random.Random(int(tiles)), colours,
                                   stop_after=int(tiles)).events)
    elif start.startswith("hands"):
        tiles = int(start.split(":")[1])
        game = random_hands_game(random.Random(tiles), ("red", "yellow"))
        s.table.start_game(["red", "yellow"], names={"red": "Ada"}, hands=True)
        events = game.events[: tiles]
        play_events(s, events)
    elif start.startswith("solitaire"):
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tantrix"))
        from solo_play import random_solitaire

        _, events = random_solitaire(random.Random(4), stop_after=int(start.split(":")[1]))
        s.table.start_solo("solitaire")
        play_solo_events(s, events)
    elif start.startswith("rainbow"):
        s.table.start_solo("rainbow", puzzle=start.split(":")[1])
    elif start.startswith("gobble_race"):
        players = int(start.split(":")[1])
        s.table.start_solo("gobble", players=["Ada", "Benedikt", "Chloé", "Dominique", "Eve",
                                              "Fé"][:players])
    elif start.startswith("gobble"):
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tantrix"))
        from solo_play import random_gobble

        _, events = random_gobble(random.Random(1), stop_after=int(start.split(":")[1]))
        s.table.start_solo("gobble")
        play_solo_events(s, events)
    else:
        raise ValueError(start)


#: Where the walks start: Strategy with 2 to 4 players at the opening, midgame and end, the game
#: with hands, Solitaire, every Rainbow puzzle, Gobble alone and the Gobble race.
TANTRIX_STARTS = (
    "strategy:2:0", "strategy:3:20", "strategy:4:30", "strategy:2:56", "hands:0", "hands:40",
    "solitaire:0", "solitaire:20", "rainbow:green", "rainbow:yellow", "rainbow:white",
    "rainbow:blue", "rainbow:red", "gobble:0", "gobble:30", "gobble_race:2", "gobble_race:6",
)


def tantrix_screens(walk: int = 70) -> Iterator[Shown]:
    """Every Tantrix mode from its starting points: tile numbers typed, placed, refused, the
    D menu and its pages, undo, the end of a game."""
    for number, start in enumerate(TANTRIX_STARTS):
        table = _open("tantrix")
        try:
            s = table.seat
            _tantrix_start(s, start)
            yield Shown(f"tantrix {start}", s.view, tantrix_screen)
            for pressed in _walk(s, random.Random(number), walk, TANTRIX_WEIGHTS):
                s.clock.advance(7)  # a Gobble race's clock runs
                yield Shown(f"tantrix {start} after ...{pressed[-12:]}", s.view, tantrix_screen)
        finally:
            table.close()


# -- the Discovery puzzle --------------------------------------------------------------------------


def puzzle_screens(walk: int = 60) -> Iterator[Shown]:
    """Discovery puzzles of 3 to 10 tiles from their start: tiles typed and laid, refused,
    the D menu, lifting a tile, starting again, a solved puzzle."""
    from companion.puzzle.screens import puzzle_screen
    from tests.tables.screen_views import DISCOVERY_4, lay_tile, puzzle_seat

    for n in (3, 4, 7, 10):
        folder = tempfile.TemporaryDirectory()
        s = puzzle_seat(Path(folder.name))
        try:
            s.table.start_game(n)
            if n == 4:
                for p in DISCOVERY_4:
                    lay_tile(s, p)
            yield Shown(f"discovery {n}", s.view, puzzle_screen)
            for pressed in _walk(s, random.Random(n), walk, TANTRIX_WEIGHTS):
                yield Shown(f"discovery {n} after ...{pressed[-12:]}", s.view, puzzle_screen)
        finally:
            s.table.close()
            folder.cleanup()


# -- Tamsk -----------------------------------------------------------------------------------------

#: Players with short names, long ones (cut in a header, as a name may be) and none.
TAMSK_NAMES = ({"red": "Alice", "black": "Bob"}, {"red": "Maximilian", "black": "Bartholomäus"},
               {})


def tamsk_views() -> Iterator[dict[str, Any]]:
    """Tamsk tables at every level, in play, with a glass in hand, a second ring, a glass
    out of sand, the 15-second timer, a key entry, a refusal, a warning, and over for every
    reason."""
    from tests.screens import screen_cases as cases

    makers = (cases.opening_view, cases.midgame_view, cases.dead_glass_view,
              cases.countdown_view, cases.level1_view, cases.bars_only_view,
              cases.time_tiebreak_view, cases.level1_tie_view)
    for names in TAMSK_NAMES:
        for make in makers:
            for level in (1, 2, 3):
                view = make()
                view.update(names=dict(names), level=level)
                yield view
                yield {**view, "entry": "33"}
                yield {**view, "warning": "sensor hub link lost: inputs are not seen"}
                yield {**view, "error": cases.refused_view()["error"], "error_page": 1}
        for reason, winner in (("rings", "red"), ("full-space", "black"), ("tie", "tie"),
                               ("time-tiebreak", "black"), ("end", None),
                               ("resignation", "red"), ("forfeit", "black")):
            view = cases.over_view(reason, winner)
            view["names"] = dict(names)
            yield view


def tamsk_screens() -> Iterator[Shown]:
    """The Tamsk table, its result and refusal screens, the new-game menu, the arbiter's
    keypad menu walked key by key, the calibration of each glass, a pairing, no game yet."""
    from companion.arbiter.pairing_desk import Pairing
    from companion.tamsk.arbiter_menu import ArbiterMenu
    from companion.tamsk.screens import screen as tamsk_screen
    from tests.arbiter.test_pin import PIN, lock

    for number, view in enumerate(tamsk_views()):
        yield Shown(f"tamsk view {number}", view, tamsk_screen)
    for entry in ("", "3", "31", "312"):
        for game in (None, "tamsk"):
            yield Shown(f"new game {entry!r}", {"game": game, "paused": True, "entry": entry},
                        tamsk_screen)
    menu = ArbiterMenu(lock())
    rng = random.Random(7)
    for key in "***" + PIN + "#" + "".join(
        rng.choices(KEYS, [4 if k.isdigit() else 2 if k == "#" else 1 for k in KEYS], k=160)
    ):
        menu.press(key, 100.0)
        lines = menu.screen()
        if lines:
            view = {**cases_midgame(), "arbiter": lines}
            yield Shown(f"arbiter menu after {key}", view, tamsk_screen)
    for glass in ("r1", "r2", "r3", "b1", "b2", "b3"):
        for measured in ({}, {"r1": [169.6, 170.0], "b2": [188.4]}):
            for elapsed in (0.0, 7.0, 123.4, 999.9):
                view = {"glass": glass, "elapsed": elapsed, "measured": measured}
                yield Shown(f"calibrate {glass} {elapsed}", view, _calibration)
    for first, second, tournament in (("Ada", "Ben", "Club open"),
                                      ("Maximilian Bartholomäus", "Jean-Christophe Dupont",
                                       "Championnat de France de Tamsk 2025")):
        pairing = Pairing(tournament, 3, 12, first, second, "tamsk")
        names = {"first": first, "second": second, "tournament": tournament}
        yield Shown(f"pairing {first}", {"pairing": pairing.screen(), "names": names}, _picked)
    yield Shown("no game", {"game": None, "kind": None}, _picked)


def cases_midgame() -> dict[str, Any]:
    from tests.screens.screen_cases import midgame_view

    return midgame_view()


def _calibration(view: dict[str, Any], *, size: tuple[int, int], mode: str) -> Image.Image:
    from companion.tamsk.calibration_screen import calibration_screen

    return calibration_screen(view["glass"], 2 if view["measured"] else 1, view["elapsed"],
                              view["measured"], size=size, mode=mode)


def _picked(view: dict[str, Any], *, size: tuple[int, int], mode: str) -> Image.Image:
    from companion.hw.display import pick_screen

    return pick_screen(view, size, mode)
