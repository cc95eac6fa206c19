"""The table screen shows what a player must see: whose turn, the sand, dead glasses, the glass
in hand, the 15-second countdown and the latest warning. Regions are those of the 128x64 panel
listed in ``screen_cases``."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import ImageChops

from companion.screens import palette_for
from companion.tamsk.screens import table_screen
from companion.tamsk.view import clock_text, countdown_number, seconds_text
from tests.screens.screen_cases import (
    BLACK_COLUMN,
    BLACK_HEADER,
    COLOUR,
    GLASS_ROWS,
    RED_COLUMN,
    RED_HEADER,
    WARNING_BAR,
    colours_in,
    countdown_view,
    dead_glass_view,
    fresh,
    is_lit,
    level1_view,
    lit_fraction,
    longest_vertical_run,
    midgame_view,
    opening_view,
)

RGB = palette_for("RGB")


def same(a: Any, b: Any) -> bool:
    return ImageChops.difference(a.convert("L"), b.convert("L")).getbbox() is None


@pytest.mark.parametrize(
    ("turn", "lit_box", "dark_box"),
    [("red", RED_HEADER, BLACK_HEADER), ("black", BLACK_HEADER, RED_HEADER)],
)
def test_the_player_on_turn_has_his_half_of_the_header_filled(
    turn: str, lit_box: tuple[int, int, int, int], dark_box: tuple[int, int, int, int]
) -> None:
    view = fresh(midgame_view)
    view["turn"] = turn
    image = table_screen(view)
    assert lit_fraction(image, lit_box) > 0.6
    assert lit_fraction(image, dark_box) < 0.35


def test_no_one_is_on_turn_once_the_game_is_over() -> None:
    view = fresh(midgame_view)
    view.update(over=True, winner="red", reason="rings")
    image = table_screen(view)
    assert lit_fraction(image, RED_HEADER) < 0.35
    assert lit_fraction(image, BLACK_HEADER) < 0.35


def test_a_dead_glass_is_struck_through() -> None:
    image = table_screen(dead_glass_view())
    strike = GLASS_ROWS[2] + 3  # r3 is the third red row
    assert all(is_lit(image, x, strike) for x in range(RED_COLUMN[0], RED_COLUMN[1] + 1))
    living = GLASS_ROWS[0] + 3
    assert not all(is_lit(image, x, living) for x in range(RED_COLUMN[0], RED_COLUMN[1] + 1))


def test_the_glass_in_hand_has_its_name_filled() -> None:
    label = (BLACK_COLUMN[0], GLASS_ROWS[2] - 1, BLACK_COLUMN[0] + 13, GLASS_ROWS[2] + 7)  # b3
    held = table_screen(midgame_view())
    view = fresh(midgame_view)
    view["in_hand"] = None
    set_down = table_screen(view)
    assert lit_fraction(held, label) > 0.5
    assert lit_fraction(set_down, label) < 0.5


def test_the_15_second_countdown_is_large_under_the_glasses_when_it_runs() -> None:
    under = (40, 39, 127, 63)
    running = table_screen(countdown_view(8.0))
    assert longest_vertical_run(running, under) >= 20
    idle = table_screen(midgame_view())
    assert longest_vertical_run(idle, under) <= 10  # a line of text, or a filled label box


@pytest.mark.parametrize("glass", ["r1", "r2", "r3", "b1", "b2", "b3"])
def test_the_countdown_hides_no_glass(glass: str) -> None:
    """Each of the six glasses stays drawn while the countdown runs: a change to any shows."""
    changed = fresh(countdown_view)
    changed["glasses"][glass]["sand"] = 20.0
    assert not same(table_screen(countdown_view()), table_screen(changed))


def test_a_warning_under_the_countdown_leaves_both_readable() -> None:
    view = fresh(countdown_view)
    view["warning"] = "hub link lost"
    warned = table_screen(view)
    assert lit_fraction(warned, WARNING_BAR) > 0.6
    assert longest_vertical_run(warned, (40, 39, 127, 53)) >= 11


def test_on_a_tall_panel_the_countdown_hides_no_glass() -> None:
    changed = fresh(countdown_view)
    changed["glasses"]["r1"]["sand"] = 20.0
    tall = COLOUR
    assert not same(table_screen(countdown_view(), **tall), table_screen(changed, **tall))
    assert longest_vertical_run(table_screen(countdown_view(8.0), **tall), (0, 72, 127, 117)) >= 30


def test_the_countdown_shows_whole_seconds_rounded_up() -> None:
    assert countdown_number(15.0) == 15
    assert countdown_number(14.01) == 15
    assert countdown_number(0.2) == 1
    assert countdown_number(0.0) == 0
    assert not same(table_screen(countdown_view(9.0)), table_screen(countdown_view(10.0)))
    assert same(table_screen(countdown_view(9.2)), table_screen(countdown_view(9.9)))


def test_the_last_five_seconds_of_the_countdown_are_amber_on_a_colour_panel() -> None:
    middle = (0, 72, 127, 117)
    colour = COLOUR
    assert RGB.warning in colours_in(table_screen(countdown_view(4.2), **colour), middle)
    assert RGB.warning not in colours_in(table_screen(countdown_view(11.3), **colour), middle)


def test_the_latest_warning_fills_the_bottom_bar() -> None:
    warned = table_screen(midgame_view())
    assert lit_fraction(warned, WARNING_BAR) > 0.6
    view = fresh(midgame_view)
    view["warning"] = "hub link lost"
    assert not same(warned, table_screen(view))
    view["warning"] = None
    assert lit_fraction(table_screen(view), WARNING_BAR) < 0.05


def test_warnings_are_amber_on_a_colour_panel() -> None:
    image = table_screen(midgame_view(), size=(128, 128), mode="RGB")
    assert RGB.warning in colours_in(image, (0, 118, 127, 127))


def test_a_glass_low_on_sand_is_drawn_in_the_warning_colour() -> None:
    image = table_screen(midgame_view(), size=(128, 128), mode="RGB")
    r2_block = (0, 36, 62, 54)  # 8.4 s left
    r1_block = (0, 16, 62, 34)  # 63.2 s left
    assert RGB.warning in colours_in(image, r2_block)
    assert RGB.warning not in colours_in(image, r1_block)


def test_red_and_black_are_told_apart_by_colour() -> None:
    image = table_screen(midgame_view(), size=(128, 128), mode="RGB")
    assert RGB.red in colours_in(image, (0, 0, 62, 11))
    assert RGB.black in colours_in(image, (65, 0, 127, 11))


def _bar_fill(image: Any, row: int) -> int:
    """Lit pixels inside the r1 bar's outline (compact layout, seconds shown)."""
    y = GLASS_ROWS[row]
    return sum(is_lit(image, x, y + 3) for x in range(17, 42))


@settings(max_examples=25, deadline=None)
@given(st.floats(0, 180), st.floats(0, 180))
def test_more_sand_never_shows_a_shorter_bar(a: float, b: float) -> None:
    low, high = sorted((a, b))
    views = []
    for sand in (low, high):
        view = fresh(midgame_view)
        view["glasses"]["r2"]["sand"] = sand
        views.append(table_screen(view))
    assert _bar_fill(views[0], 1) <= _bar_fill(views[1], 1)


def test_an_empty_glass_shows_an_empty_bar_and_a_full_one_a_full_bar() -> None:
    view = fresh(opening_view)
    assert _bar_fill(table_screen(view), 1) == 0
    view["glasses"]["r2"].update(sand=180.0, running=True)
    assert _bar_fill(table_screen(view), 1) == 25


def test_a_calibrated_period_sets_what_a_full_bar_means() -> None:
    view = fresh(opening_view)
    view["glasses"]["r2"].update(sand=90.0, running=True)
    half = _bar_fill(table_screen(view), 1)
    view["periods"] = {"r2": 90.0}
    full = _bar_fill(table_screen(view), 1)
    assert full == 25
    assert 11 <= half <= 14


def test_without_sand_seconds_only_the_bars_show() -> None:
    """120 and 121 seconds fill the same bar; only the seconds tell them apart."""
    views = []
    for sand in (120.0, 121.0):
        view = fresh(midgame_view)
        view["glasses"]["b2"]["sand"] = sand
        views.append(view)
    assert not same(table_screen(views[0]), table_screen(views[1]))
    for view in views:
        view["show_sand_seconds"] = False
    assert same(table_screen(views[0]), table_screen(views[1]))


def test_level_1_shows_positions_and_no_sand() -> None:
    image = table_screen(level1_view())
    assert lit_fraction(image, (30, 11, 62, 40)) == 0  # no bars or seconds
    moved = fresh(level1_view)
    moved["glasses"]["r1"]["space"] = "c3"
    assert not same(image, table_screen(moved))
    drained = fresh(level1_view)
    drained["glasses"]["r1"]["sand"] = 100.0
    assert same(image, table_screen(drained))


def test_a_second_ring_is_announced() -> None:
    view = fresh(midgame_view)
    view.update(in_hand=None)
    plain = table_screen(view)
    view["bonus_ring"] = "red"
    assert not same(plain, table_screen(view))


def test_seconds_are_rounded_up_with_tenths_below_ten() -> None:
    assert seconds_text(180.0) == "180"
    assert seconds_text(179.01) == "180"
    assert seconds_text(63.2) == "64"
    assert seconds_text(10.0) == "10"
    assert seconds_text(9.95) == "10"
    assert seconds_text(9.41) == "9.5"
    assert seconds_text(0.01) == "0.1"
    assert seconds_text(0.0) == "0"


@given(st.floats(0, 999), st.floats(0, 999))
def test_seconds_shown_never_decrease_as_sand_grows(a: float, b: float) -> None:
    low, high = sorted((a, b))
    assert float(seconds_text(low)) <= float(seconds_text(high))
    assert len(seconds_text(low)) <= 3


def test_the_game_clock_reads_minutes_and_seconds() -> None:
    assert clock_text(0.0) == "0:00"
    assert clock_text(212.9) == "3:32"
    assert clock_text(3725.0) == "1:02:05"


names = st.text(max_size=40)


@settings(max_examples=40, deadline=None)
@given(red=names, black=names, warning=st.none() | st.text(max_size=80))
def test_any_names_and_warning_text_still_draw_a_frame(
    red: str, black: str, warning: str | None
) -> None:
    view = fresh(midgame_view)
    view.update(names={"red": red, "black": black}, warning=warning)
    image = table_screen(view)
    assert image.size == (128, 64)
    assert image.mode == "1"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda v: v.pop("glasses"), "'glasses' is missing"),
        (lambda v: v.update(turn="green"), "turn must be 'red' or 'black'"),
        (lambda v: v.update(level=4), "level must be 1, 2 or 3"),
        (lambda v: v.update(in_hand="x9"), "in_hand must be one of"),
        (lambda v: v["glasses"]["r1"].update(sand="lots"), "glasses.r1.sand must be a finite"),
        (lambda v: v.update(periods={"r1": 0}), "periods.r1 must be positive"),
        (lambda v: v["rings_left"].pop("black"), "rings_left.black must be a finite"),
    ],
)
def test_a_malformed_view_is_refused_with_the_field_named(change: Any, message: str) -> None:
    view = fresh(midgame_view)
    change(view)
    with pytest.raises(ValueError, match=message):
        table_screen(view)


def test_a_view_is_not_changed_by_drawing_it() -> None:
    view = fresh(dead_glass_view)
    table_screen(view)
    assert view == dead_glass_view()


@pytest.mark.parametrize(
    ("size", "mode", "message"),
    [
        ((128, 64), "P", "display mode must be one of '1', 'L', 'RGB'"),
        ((128, 32), "1", "display size must be from 128x64"),
        ((4096, 64), "1", "display size must be from 128x64"),
    ],
)
def test_a_panel_the_layouts_cannot_serve_is_refused(
    size: tuple[int, int], mode: str, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        table_screen(midgame_view(), size=size, mode=mode)


@pytest.mark.parametrize(
    ("size", "mode"), [((128, 64), "1"), ((128, 128), "RGB"), ((256, 64), "L"), ((128, 96), "RGB")]
)
@pytest.mark.parametrize("view", [opening_view, midgame_view, countdown_view, level1_view])
def test_the_frame_has_the_panel_size_and_mode(size: tuple[int, int], mode: str, view: Any) -> None:
    image = table_screen(view(), size=size, mode=mode)
    assert (image.size, image.mode) == (size, mode)
