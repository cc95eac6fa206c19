"""Tantrix and Tokami tables in named situations, and the screens drawn for them.

Every view comes from a real table controller driven by keys on a fake clock (never a view
written by hand), so the golden images show what players would really see. The golden images
live in ``tests/reference/screens/`` as ``tantrix_*.png``, ``tokami_*.png`` and
``puzzle_*.png``; after an intended change to a screen, redraw them and look at every one:

    .venv/bin/python tests/tables/screen_views.py [--preview DIR] [NAME ...]
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root

from PIL import Image

from companion.clock import FakeClock
from companion.config import defaults
from companion.puzzle.screens import puzzle_screen
from companion.puzzle.table import PuzzleTable
from companion.screens import upscale
from companion.tantrix.autoplay import random_game
from companion.tantrix.game import Placement
from companion.tantrix.screens import tantrix_screen
from companion.tokami.screens import tokami_screen
from tests.tables.driving import (
    Seat,
    hands_up_to_a_fill,
    lay_solo,
    play_events,
    play_solo_events,
    seat,
)

REFERENCE_DIR = Path(__file__).resolve().parent.parent / "reference" / "screens"
OLED = ((128, 64), "1")
COLOUR = ((128, 128), "RGB")
PREVIEW_FACTOR = 4


@contextmanager
def table(kind: str) -> Iterator[Seat]:
    with tempfile.TemporaryDirectory() as folder:
        s = seat(kind, Path(folder))
        try:
            yield s
        finally:
            s.table.close()


# -- Tantrix ---------------------------------------------------------------------------------------

THREE = ("red", "yellow", "green")
FOUR = ("red", "yellow", "green", "blue")


def _tantrix_game(s: Seat, players: tuple[str, ...], tiles: int, seed: int = 3) -> None:
    s.table.start_game(list(players), names={"red": "Ada"})
    play_events(s, random_game(random.Random(seed), players, stop_after=tiles).events)


def _tile_for_forced_space(s: Seat) -> int:
    """The lowest tile off the table that fits an open forced space (or anywhere)."""
    game = s.table.game
    spare = [t for t in range(1, 57) if game.where_is(t) is None and game.legal_cells(t)]
    forced = [t for t in spare if any(game.is_forced_space(c) for c in game.legal_cells(t))]
    return (forced or spare)[0]


def tantrix_view(situation: str) -> dict[str, Any]:
    """The view of a Tantrix table in ``situation``."""
    with table("tantrix") as s:
        if situation == "opening":
            s.table.start_game(["red", "yellow"], names={"red": "Ada", "yellow": "Ben"})
            s.press("1")
        elif situation in ("midgame", "menu", "undo"):
            _tantrix_game(s, THREE, 20)
            s.press({"midgame": "", "menu": "DA", "undo": "D2"}[situation])
        elif situation in ("four_players", "scores"):
            _tantrix_game(s, FOUR, 30, seed=5)
            s.press("D3" if situation == "scores" else "4")
        elif situation == "forced":
            _tantrix_game(s, THREE, 20)
            s.press("D4")
        elif situation in ("place", "clash", "refused"):
            _tantrix_game(s, THREE, 20)
            s.press(f"{_tile_for_forced_space(s)}#")
            s.press({"place": "", "clash": "C", "refused": "C#"}[situation])
        elif situation == "over":
            _tantrix_game(s, ("red", "blue"), 56, seed=2)
        elif situation == "warning":
            _tantrix_game(s, THREE, 12)
            s.table.notice("sensor hub link lost")
        elif situation == "hands_start":
            s.table.start_game(["red", "yellow"], names={"red": "Ada"}, hands=True)
            s.press("12#4")
        elif situation == "hands_draw":
            s.table.start_game(["red", "yellow"], names={"red": "Ada"}, hands=True)
            s.press("12#40#1#2#3")
        elif situation in ("hands_must_fill", "hands_not_a_fill"):
            hands_up_to_a_fill(s, step3=False)
            if situation == "hands_not_a_fill":
                fillers = {f[0] for f in s.view["must_fill"]}
                s.press(f"{next(t for t in s.view['hand'] if t not in fillers)}#")
        elif situation.startswith(("solitaire", "rainbow", "gobble")):
            _solo_situation(s, situation)
        elif situation == "hands_cannot_end":
            hands_up_to_a_fill(s, step3=True)
            s.press("D1")
        else:
            raise ValueError(f"no Tantrix situation {situation!r}")
        return s.view


def _solo_situation(s: Seat, situation: str) -> None:
    """Solo-mode tables (Solitaire, Rainbow, Gobble) in the named situation."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tantrix"))
    from solo_play import random_gobble, random_solitaire
    from tantrix_pyramid import find_line

    from companion.tantrix.solo import rainbow_tiles

    if situation.startswith("solitaire"):
        _, events = random_solitaire(random.Random(4), stop_after=20)
        s.table.start_solo("solitaire")
        play_solo_events(s, events)
        if situation == "solitaire_place":
            s.press(f"{next(t for t in range(1, 57) if all(e.get('tile') != t for e in events))}#")
    elif situation.startswith("rainbow"):
        found = find_line(rainbow_tiles("blue"), 4, "B")
        layout = sorted(Placement(t, q, r, rot) for (q, r), (t, rot) in found.items())
        s.table.start_solo("rainbow", puzzle="blue")
        laid: list[Placement] = []
        left = layout if situation == "rainbow_solved" else layout[:5]
        while left:
            p = next(p for p in left if not laid or any(
                abs(p.q - o.q) + abs(p.r - o.r) + abs(p.q + p.r - o.q - o.r) == 2 for o in laid))
            lay_solo(s, p)
            left = [x for x in left if x != p]
            laid.append(p)
        if situation == "rainbow_menu":
            s.press("D")
    elif situation == "gobble_opening":  # rule 1: the first of two tiles drawn, the second asked
        s.table.start_solo("gobble")
        s.press("55#2")
    elif situation == "gobble_race":
        s.table.start_solo("gobble", players=["Ada", "Ben", "Chloé", "Dan"])
        s.clock.advance(75)
        s.press("21" "2#" "4")
    else:
        _, events = random_gobble(random.Random(1), stop_after=30)
        s.table.start_solo("gobble")
        play_solo_events(s, events)
        if situation == "gobble_menu":
            s.press("D")


def _tantrix_case(situation: str, panel: tuple[tuple[int, int], str]) -> Callable[[], Image.Image]:
    size, mode = panel
    return lambda: tantrix_screen(tantrix_view(situation), size=size, mode=mode)


TANTRIX_SITUATIONS = (
    "opening",
    "midgame",
    "four_players",
    "place",
    "clash",
    "refused",
    "menu",
    "scores",
    "forced",
    "undo",
    "over",
    "warning",
    "hands_start",
    "hands_draw",
    "hands_must_fill",
    "hands_not_a_fill",
    "hands_cannot_end",
    "solitaire",
    "solitaire_place",
    "rainbow",
    "rainbow_solved",
    "rainbow_menu",
    "gobble",
    "gobble_menu",
    "gobble_race",
    "gobble_opening",
)
TANTRIX_COLOUR_SITUATIONS = (
    "opening",
    "midgame",
    "four_players",
    "place",
    "clash",
    "refused",
    "scores",
    "forced",
    "over",
    "hands_must_fill",
    "solitaire",
    "rainbow_solved",
    "gobble",
    "gobble_opening",
)
TANTRIX_CASES: dict[str, Callable[[], Image.Image]] = {
    **{f"tantrix_{name}": _tantrix_case(name, OLED) for name in TANTRIX_SITUATIONS},
    **{f"tantrix_colour_{name}": _tantrix_case(name, COLOUR) for name in TANTRIX_COLOUR_SITUATIONS},
}


# -- Tokami ----------------------------------------------------------------------------------------

#: A round of the small box ends after five blocks come off the cross.
SMALL_BOX = {"red": 3, "yellow": 3, "blue": 3}


def tokami_view(situation: str) -> dict[str, Any]:
    """The view of a Tokami table in ``situation``."""
    with table("tokami") as s:
        if situation == "start":
            s.table.start_game(["Anna", "Ben", "Chloé"])
        elif situation in ("bonus", "confirm", "refused", "fallen"):
            s.table.start_game(["Anna", "Ben", "Chloé"], blocks={"red": 1, "yellow": 4, "blue": 4})
            s.press("21#")  # Anna: the only red block went higher, forbidden to Ben
            s.press({"bonus": "13", "confirm": "132", "refused": "21", "fallen": "332"}[situation])
        elif situation == "five_players":
            s.table.start_game(["Anna", "Benedikt", "Chloé", "Dominique", "Eve"], rounds=3)
            s.press("112#3432#0#41#243#")
        elif situation == "round_two":
            s.table.start_game(["Anna", "Ben", "Chloé"], blocks=SMALL_BOX, rounds=2)
            s.press("112#331#0#42#23#5#")
        elif situation == "over":
            s.table.start_game(["Anna", "Ben", "Chloé"], blocks=SMALL_BOX, rounds=2)
            s.press("112#331#0#42#23#5#113#32#3#121#132#")
        elif situation == "warning":
            s.table.start_game(["Anna", "Ben"])
            s.press("112#")
            s.table.notice("sensor hub link lost")
        else:
            raise ValueError(f"no Tokami situation {situation!r}")
        return s.view


def _tokami_case(situation: str, panel: tuple[tuple[int, int], str]) -> Callable[[], Image.Image]:
    size, mode = panel
    return lambda: tokami_screen(tokami_view(situation), size=size, mode=mode)


TOKAMI_SITUATIONS = (
    "start",
    "bonus",
    "confirm",
    "refused",
    "fallen",
    "five_players",
    "round_two",
    "over",
    "warning",
)
TOKAMI_COLOUR_SITUATIONS = ("start", "bonus", "refused", "five_players", "round_two", "over")
TOKAMI_CASES: dict[str, Callable[[], Image.Image]] = {
    **{f"tokami_{name}": _tokami_case(name, OLED) for name in TOKAMI_SITUATIONS},
    **{f"tokami_colour_{name}": _tokami_case(name, COLOUR) for name in TOKAMI_COLOUR_SITUATIONS},
}

# -- Discovery puzzle ------------------------------------------------------------------------------

#: The known solution of Discovery 4: a red loop of tiles 1 to 4.
DISCOVERY_4 = (
    Placement(1, 0, 0, 5),
    Placement(2, 1, 0, 4),
    Placement(4, 0, 1, 4),
    Placement(3, -1, 1, 1),
)


def puzzle_seat(journal_dir: Path, clock: FakeClock | None = None) -> Seat:
    """A puzzle table waiting for a puzzle, its sounds and records in the seat's trail."""
    clock = clock or FakeClock()
    trail: list[tuple[str, Any]] = []
    table = PuzzleTable(
        clock,
        journal_dir,
        config=defaults(),
        sound=lambda pattern: trail.append(("sound", pattern)),
        on_record=lambda record: trail.append(("record", record)),
    )
    s = Seat(table, clock)
    s.trail = trail
    return s


def lay_tile(s: Seat, placement: Placement) -> None:
    """Lay a tile as a player does: its number and ``#``, ``A`` until the map shows the spot,
    ``C`` until the tile is turned right, then ``#``."""
    s.press(f"{placement.tile}#")
    entry = s.view["entry"]
    assert entry["mode"] == "place", f"tile {placement.tile} was not offered: {s.table.error}"
    for _ in range(entry["spot_count"]):
        if tuple(s.view["entry"]["spot"]) == placement.cell:
            break
        s.press("A")
    assert tuple(s.view["entry"]["spot"]) == placement.cell, f"{placement} is not offered"
    for _ in range(6):
        if s.view["entry"]["rotation"] == placement.rot:
            break
        s.press("C")
    s.press("#")


def puzzle_view(situation: str) -> dict[str, Any]:
    """The view of a Discovery 4 table in ``situation``."""
    with tempfile.TemporaryDirectory() as folder:
        s = puzzle_seat(Path(folder))
        try:
            s.table.start_game(4)
            if situation == "start":
                s.press("1")
            elif situation in ("progress", "place", "clash", "menu", "lift", "refused"):
                for p in DISCOVERY_4[:2]:
                    lay_tile(s, p)
                keys = {
                    "progress": "",
                    "place": "4#",
                    "clash": "4#C",
                    "menu": "D",
                    "lift": "D1A",
                    "refused": "7#",
                }[situation]
                s.press(keys)
            elif situation == "solved":
                for p in DISCOVERY_4:
                    lay_tile(s, p)
            elif situation == "wrong":
                for p in (*DISCOVERY_4[:3], Placement(3, 1, 1, 0)):
                    lay_tile(s, p)
            else:
                raise ValueError(f"no puzzle situation {situation!r}")
            return s.view
        finally:
            s.table.close()


def _puzzle_case(situation: str, panel: tuple[tuple[int, int], str]) -> Callable[[], Image.Image]:
    size, mode = panel
    return lambda: puzzle_screen(puzzle_view(situation), size=size, mode=mode)


PUZZLE_SITUATIONS = (
    "start",
    "progress",
    "place",
    "clash",
    "menu",
    "lift",
    "refused",
    "solved",
    "wrong",
)
PUZZLE_COLOUR_SITUATIONS = ("progress", "place", "solved")
PUZZLE_CASES: dict[str, Callable[[], Image.Image]] = {
    **{f"puzzle_{name}": _puzzle_case(name, OLED) for name in PUZZLE_SITUATIONS},
    **{f"puzzle_colour_{name}": _puzzle_case(name, COLOUR) for name in PUZZLE_COLOUR_SITUATIONS},
}

CASES = {**TANTRIX_CASES, **TOKAMI_CASES, **PUZZLE_CASES}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="cases to redraw (default: all)")
    parser.add_argument("--preview", type=Path, help=f"also write {PREVIEW_FACTOR}x copies here")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.names) - set(CASES))
    if unknown:
        parser.error(f"unknown case(s): {', '.join(unknown)}")
    if args.preview:
        args.preview.mkdir(parents=True, exist_ok=True)
    for name in args.names or CASES:
        image = CASES[name]()
        image.save(REFERENCE_DIR / f"{name}.png")
        if args.preview:
            upscale(image, PREVIEW_FACTOR).save(args.preview / f"{name}.png")
        print(f"{name}: {image.size[0]}x{image.size[1]} {image.mode}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
