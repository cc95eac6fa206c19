"""Named game situations and the screens drawn for them: the golden-image cases.

``make_references.py`` draws every case into ``tests/reference/screens/NAME.png``, and
``test_screen_references.py`` checks each frame still matches its reference pixel for pixel.
The views are shaped like ``companion simulate --json`` output plus the display extras.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypedDict

from PIL import Image

from companion import i18n
from companion.screens import error_screen, menu_screen, new_game_screen, with_prompt
from companion.tamsk.calibration_screen import calibration_screen
from companion.tamsk.result_screen import result_screen
from companion.tamsk.screens import table_screen
from companion.tamsk.words import refusal_in_words

REFERENCE_DIR = Path(__file__).resolve().parent.parent / "reference" / "screens"


class Panel(TypedDict):
    size: tuple[int, int]
    mode: str


OLED: Panel = {"size": (128, 64), "mode": "1"}
COLOUR: Panel = {"size": (128, 128), "mode": "RGB"}

STANDARD_START = {"r1": "a1", "r2": "d7", "r3": "g1", "b1": "d1", "b2": "g4", "b3": "a4"}


def glass(
    space: str | None,
    sand: float,
    *,
    dead: bool = False,
    died_at: float | None = None,
    running: bool | None = None,
) -> dict[str, Any]:
    return {
        "space": space,
        "sand": sand,
        "running": (sand > 0 and not dead) if running is None else running,
        "dead": dead,
        "died_at": died_at,
    }


def opening_view() -> dict[str, Any]:
    """A level-3 game at its first second: every glass on its corner, empty, red to move."""
    return {
        "game": "tamsk",
        "t": 0.0,
        "over": False,
        "winner": None,
        "reason": None,
        "rings_left": {"red": 32, "black": 32},
        "spaces": {},
        "glasses": {g: glass(s, 0.0) for g, s in STANDARD_START.items()},
        "turn": "red",
        "timer15": {"running": False, "remaining": 0.0},
        "penalties": [],
        "violations": [],
        "level": 3,
        "periods": {},
        "names": {"red": "Alice", "black": "Bob"},
        "warning": None,
        "show_sand_seconds": True,
        "bonus_ring": None,
        "in_hand": None,
    }


def midgame_view() -> dict[str, Any]:
    """Three and a half minutes in: black has lifted b3, red's r2 is nearly out."""
    view = opening_view()
    view.update(
        t=212.0,
        rings_left={"red": 20, "black": 23},
        spaces={"b2": 1, "c3": 2, "d4": 3},
        glasses={
            "r1": glass("b2", 63.2),
            "r2": glass("d6", 8.4),
            "r3": glass("f2", 121.0),
            "b1": glass("d2", 179.6),
            "b2": glass("e5", 120.0),
            "b3": glass("c3", 30.0),
        },
        turn="black",
        periods={"r1": 176.5, "b1": 182.0},
        warning="r2 < 10 s",
        in_hand="b3",
    )
    return view


def dead_glass_view() -> dict[str, Any]:
    """r3 ran dry at 2:30 and is crossed out; red, on turn, holds a second ring after a forfeit."""
    view = midgame_view()
    view["glasses"]["r3"] = glass("f2", 0.0, dead=True, died_at=150.2)
    view.update(
        turn="red",
        in_hand=None,
        warning="r3 died",
        bonus_ring="red",
        penalties=[{"t": 190.5, "player": "black", "kind": "forfeit"}],
    )
    return view


def countdown_view(remaining: float = 11.3) -> dict[str, Any]:
    """Red has turned the 15-second timer against black, who has not lifted a glass yet."""
    view = midgame_view()
    view.update(timer15={"running": True, "remaining": remaining}, in_hand=None, warning=None)
    return view


def level1_view() -> dict[str, Any]:
    """Level 1: glasses are plain pieces, no sand; positions, turn and rings only."""
    view = opening_view()
    view.update(
        t=95.0,
        level=1,
        names={},
        rings_left={"red": 28, "black": 29},
        glasses={
            "r1": glass("b2", 0.0),
            "r2": glass("d6", 0.0),
            "r3": glass("g1", 0.0),
            "b1": glass("d2", 0.0),
            "b2": glass(None, 0.0),
            "b3": glass("b4", 0.0),
        },
        turn="black",
        in_hand="b2",
    )
    return view


def bars_only_view() -> dict[str, Any]:
    view = midgame_view()
    view.update(show_sand_seconds=False, warning=None)
    return view


def over_view(reason: str, winner: str | None) -> dict[str, Any]:
    view = midgame_view()
    view.update(over=True, winner=winner, reason=reason, warning=None, in_hand=None)
    return view


def time_tiebreak_view() -> dict[str, Any]:
    """Equal rings; every glass ran out; red's r2 outlasted black's b2 by 30 ms."""
    view = over_view("time-tiebreak", "red")
    died = {"r1": 205.4, "r2": 212.04, "r3": 150.2, "b1": 190.0, "b2": 212.01, "b3": 99.5}
    view.update(
        t=212.04,
        rings_left={"red": 29, "black": 29},
        glasses={
            g: glass(view["glasses"][g]["space"], 0.0, dead=True, died_at=d)
            for g, d in died.items()
        },
    )
    return view


def level1_tie_view() -> dict[str, Any]:
    view = level1_view()
    view.update(
        over=True, winner="tie", reason="rings", in_hand=None, rings_left={"red": 27, "black": 27}
    )
    return view


MENU_ITEMS = ["New game", "Calibrate", "Pause", "Replay", "Settings", "Shut down"]
ERROR_TEXT = "c9 is not a space on the board: columns a-g, rows 1-7"
MEASURED = {"r1": [169.6, 170.0], "r2": [180.2]}


def _cases() -> dict[str, Callable[[], Image.Image]]:
    cases: dict[str, Callable[[], Image.Image]] = {
        "table_opening": lambda: table_screen(opening_view(), **OLED),
        "table_midgame": lambda: table_screen(midgame_view(), **OLED),
        "table_dead_glass": lambda: table_screen(dead_glass_view(), **OLED),
        "table_countdown": lambda: table_screen(countdown_view(), **OLED),
        "table_countdown_last_seconds": lambda: table_screen(countdown_view(4.2), **OLED),
        "table_level1": lambda: table_screen(level1_view(), **OLED),
        "table_bars_only": lambda: table_screen(bars_only_view(), **OLED),
        "table_over": lambda: table_screen(over_view("rings", "red"), **OLED),
        "table_prompt": lambda: with_prompt(table_screen(level1_view(), **OLED), "b2 to:", "c3"),
        "menu_main": lambda: menu_screen("Menu", MENU_ITEMS, 0, footer="OK: choose", **OLED),
        "menu_scrolled": lambda: menu_screen("Menu", MENU_ITEMS, 4, footer="OK: choose", **OLED),
        "new_game_typing_name": lambda: new_game_screen(
            level=2,
            ruleset="original",
            start="free",
            names={"red": "Alice"},
            table=4,
            editing="black",
            entry="Bo",
            **OLED,
        ),
        "new_game_level": lambda: new_game_screen(editing="level", table=1, **OLED),
        "result_time_tiebreak": lambda: result_screen(time_tiebreak_view(), **OLED),
        "result_fewer_rings": lambda: result_screen(over_view("rings", "red"), **OLED),
        "result_full_space": lambda: result_screen(over_view("full-space", "red"), **OLED),
        "result_level1_tie": lambda: result_screen(level1_tie_view(), **OLED),
        "error_wrapped": lambda: error_screen(ERROR_TEXT, hint="any key: back", **OLED),
        "calibration_second_pass": lambda: calibration_screen("r2", 2, 123.4, MEASURED, **OLED),
        "calibration_first_glass": lambda: calibration_screen("r1", 1, 7.0, {}, **OLED),
        "colour_table_midgame": lambda: table_screen(midgame_view(), **COLOUR),
        "colour_table_dead_glass": lambda: table_screen(dead_glass_view(), **COLOUR),
        "colour_table_countdown": lambda: table_screen(countdown_view(4.2), **COLOUR),
        "colour_table_level1": lambda: table_screen(level1_view(), **COLOUR),
        "colour_menu": lambda: menu_screen("Menu", MENU_ITEMS, 1, footer="OK: choose", **COLOUR),
        "colour_new_game": lambda: new_game_screen(editing="table", entry="1", **COLOUR),
        "colour_result_time_tiebreak": lambda: result_screen(time_tiebreak_view(), **COLOUR),
        "colour_error": lambda: error_screen(ERROR_TEXT, hint="any key: back", **COLOUR),
        "colour_calibration": lambda: calibration_screen("r2", 2, 123.4, MEASURED, **COLOUR),
    }
    return cases


def _in(lang: str, draw: Callable[[], Image.Image]) -> Callable[[], Image.Image]:
    """``draw`` with the screens speaking ``lang``; English again afterwards."""

    def drawn() -> Image.Image:
        i18n.use(lang)
        try:
            return draw()
        finally:
            i18n.reset()

    return drawn


def refused_view() -> dict[str, Any]:
    """Black tried to move b1 onto a full space; the refusal shows in the players' language."""
    view = midgame_view()
    view["warning"] = view["error"] = refusal_in_words(
        "each player's first three moves use his three glasses: move r2 or r3, not r1 again")
    return view


def arbiter_view() -> dict[str, Any]:
    """The arbiter has the keypad of a game in play: his menu, in the table's language."""
    from tests.arbiter.test_pin import entered

    return {**midgame_view(), "arbiter": entered().screen(), "arbiter_page": 0}


def _language_cases() -> dict[str, Callable[[], Image.Image]]:
    """The main Tamsk, Tokami and Tantrix screens in French and Czech (English: the cases above)."""
    from companion.puzzle.screens import puzzle_screen
    from companion.tamsk.screens import screen
    from companion.tantrix.screens import tantrix_screen
    from companion.tokami.screens import tokami_screen
    from tests.tables.screen_views import puzzle_view, tantrix_view, tokami_view

    main: dict[str, Callable[[], Image.Image]] = {
        "table_midgame": lambda: table_screen(midgame_view(), **OLED),
        "table_dead_glass": lambda: table_screen(dead_glass_view(), **OLED),
        "table_countdown": lambda: table_screen(countdown_view(), **OLED),
        "table_over": lambda: table_screen(over_view("rings", "red"), **OLED),
        "table_refused": lambda: screen(refused_view(), **OLED),
        "result_time_tiebreak": lambda: result_screen(time_tiebreak_view(), **OLED),
        "result_full_space": lambda: result_screen(over_view("full-space", "red"), **OLED),
        "new_game_menu": lambda: screen({"game": None, "entry": "3"}, **OLED),
        "colour_table_dead_glass": lambda: table_screen(dead_glass_view(), **COLOUR),
        "tokami_start": lambda: tokami_screen(tokami_view("start"), **OLED),
        "tokami_fallen": lambda: tokami_screen(tokami_view("fallen"), **OLED),
        "tokami_confirm": lambda: tokami_screen(tokami_view("confirm"), **OLED),
        "tokami_colour_bonus": lambda: tokami_screen(tokami_view("bonus"), **COLOUR),
        "tantrix_midgame": lambda: tantrix_screen(tantrix_view("midgame"), **OLED),
        "tantrix_menu": lambda: tantrix_screen(tantrix_view("menu"), **OLED),
        "tantrix_refused": lambda: tantrix_screen(tantrix_view("refused"), **OLED),
        "tantrix_colour_place": lambda: tantrix_screen(tantrix_view("place"), **COLOUR),
        "tantrix_colour_midgame": lambda: tantrix_screen(tantrix_view("midgame"), **COLOUR),
        "puzzle_progress": lambda: puzzle_screen(puzzle_view("progress"), **OLED),
        "puzzle_place": lambda: puzzle_screen(puzzle_view("place"), **OLED),
        "puzzle_menu": lambda: puzzle_screen(puzzle_view("menu"), **OLED),
        "puzzle_lift": lambda: puzzle_screen(puzzle_view("lift"), **OLED),
        "puzzle_solved": lambda: puzzle_screen(puzzle_view("solved"), **OLED),
        "puzzle_colour_place": lambda: puzzle_screen(puzzle_view("place"), **COLOUR),
        # the screens issue 29 found cut in French or Czech
        "tokami_warning": lambda: tokami_screen(tokami_view("warning"), **OLED),
        "tokami_five_players": lambda: tokami_screen(tokami_view("five_players"), **OLED),
        "tantrix_four_players": lambda: tantrix_screen(tantrix_view("four_players"), **OLED),
        "tantrix_solitaire_place": lambda: tantrix_screen(tantrix_view("solitaire_place"),
                                                          **OLED),
        "tantrix_gobble_menu": lambda: tantrix_screen(tantrix_view("gobble_menu"), **OLED),
        "tantrix_hands_start": lambda: tantrix_screen(tantrix_view("hands_start"), **OLED),
        "tantrix_opening": lambda: tantrix_screen(tantrix_view("opening"), **OLED),
        "calibration_first_glass": lambda: calibration_screen("r1", 1, 7.0, {}, **OLED),
        "arbiter_menu": lambda: screen(arbiter_view(), **OLED),
    }
    return {f"{lang}_{name}": _in(lang, draw) for lang in ("fr", "cs")
            for name, draw in main.items()}


#: Every golden case by name; each call draws a fresh image.
CASES = _cases()
CASES.update(_language_cases())

from tests.tables.screen_views import CASES as KEYPAD_TABLE_CASES  # noqa: E402

CASES.update(KEYPAD_TABLE_CASES)


def fresh(view_factory: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """A deep copy, so a test can change a view without touching the shared case."""
    return copy.deepcopy(view_factory())


# -- probes for the pixel-region tests --------------------------------------------------------

#: Where things sit on the 128x64 table screen (boxes are left, top, right, bottom, inclusive).
RED_HEADER = (0, 0, 62, 9)
BLACK_HEADER = (65, 0, 127, 9)
WARNING_BAR = (0, 54, 127, 63)
#: Top row of the capitals of each glass row (r1/b1, r2/b2, r3/b3).
GLASS_ROWS = (12, 22, 32)
RED_COLUMN = (0, 62)
BLACK_COLUMN = (65, 127)


def lit_fraction(image: Image.Image, box: tuple[int, int, int, int]) -> float:
    """Share of the pixels in ``box`` (inclusive) that give any light."""
    left, top, right, bottom = box
    region = image.convert("L").crop((left, top, right + 1, bottom + 1))
    histogram = region.histogram()
    return 1 - histogram[0] / sum(histogram)


def is_lit(image: Image.Image, x: int, y: int) -> bool:
    return bool(image.convert("L").getpixel((x, y)))


def longest_vertical_run(image: Image.Image, box: tuple[int, int, int, int]) -> int:
    """The tallest unbroken column of lit pixels inside ``box``: text is at most 9 rows tall,
    so a longer run means large digits."""
    grey = image.convert("L")
    left, top, right, bottom = box
    best = 0
    for x in range(left, right + 1):
        run = 0
        for y in range(top, bottom + 1):
            run = run + 1 if grey.getpixel((x, y)) else 0
            best = max(best, run)
    return best


def colours_in(image: Image.Image, box: tuple[int, int, int, int]) -> set[object]:
    left, top, right, bottom = box
    region = image.convert("RGB").crop((left, top, right + 1, bottom + 1))
    colours = region.getcolors(maxcolors=region.width * region.height) or []
    return {colour for _, colour in colours}
