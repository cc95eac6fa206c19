"""The result, error and calibration screens say why in words and show the numbers that
decide: the tie-break order, a glass more than 5 % off 180 s."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import ImageChops

from companion.screens import error_screen
from companion.screens.text import wrap
from companion.tamsk.calibration_screen import (
    calibration_screen,
    calibration_warning,
    mean_periods,
    off_nominal,
)
from companion.tamsk.result_screen import _decimals, reason_in_words, result_screen, run_out_order
from tests.screens.screen_cases import (
    MEASURED,
    fresh,
    level1_tie_view,
    lit_fraction,
    over_view,
    time_tiebreak_view,
)

WARNING_BAR = (0, 54, 127, 63)


def test_reasons_are_given_in_words() -> None:
    assert reason_in_words("rings") == "fewer rings"
    assert reason_in_words("time-tiebreak") == "time tie-break"
    assert reason_in_words("full-space") == "moved onto a full space"
    assert reason_in_words("no-moves-left") == "no moves left"
    assert reason_in_words(None) == "no result yet"


def test_the_tie_break_order_puts_the_last_glass_to_run_out_first() -> None:
    order = run_out_order(time_tiebreak_view())
    assert [g for g, _ in order] == ["r2", "b2", "r1", "b1", "r3", "b3"]
    assert order[0] == ("r2", 212.04)


def test_a_living_glass_runs_out_when_its_sand_does_and_an_unturned_one_never() -> None:
    view = fresh(time_tiebreak_view)
    view["t"] = 200.0
    view["glasses"]["b3"].update(dead=False, died_at=None, sand=30.0, running=True)
    view["glasses"]["r3"].update(dead=False, died_at=None, sand=0.0, running=False)
    order = dict(run_out_order(view))
    assert order["b3"] == 230.0
    assert order["r3"] is None
    assert run_out_order(view)[-1] == ("r3", None)


def test_run_out_times_get_as_many_decimals_as_it_takes_to_tell_them_apart() -> None:
    assert _decimals([212.0, 190.5]) == 1
    assert _decimals([212.04, 212.01]) == 2
    assert _decimals([212.0405, 212.0401]) == 3


def test_the_tie_break_list_appears_only_after_a_time_tie_break() -> None:
    by_time = result_screen(time_tiebreak_view())
    by_rings = fresh(time_tiebreak_view)
    by_rings.update(reason="rings")
    # the list takes the three lines below the heading; rings left take two
    assert lit_fraction(by_time, (0, 52, 127, 60)) > 0.05
    assert lit_fraction(result_screen(by_rings), (0, 52, 127, 60)) == 0


def test_the_winner_heads_the_result_screen() -> None:
    red = result_screen(over_view("rings", "red"))
    black = result_screen(over_view("rings", "black"))
    assert lit_fraction(red, (0, 0, 127, 9)) > 0.6
    assert ImageChops.difference(red, black).getbbox() is not None


def test_a_full_space_names_the_player_who_moved_onto_it() -> None:
    red_won = result_screen(over_view("full-space", "red"))
    black_won = result_screen(over_view("full-space", "black"))
    bbox = ImageChops.difference(red_won, black_won).getbbox()
    assert bbox is not None and bbox[3] > 12  # the reason line differs, not only the title


def test_a_level_1_tie_says_equal_rings() -> None:
    image = result_screen(level1_tie_view())
    tie_without_reason = fresh(level1_tie_view)
    tie_without_reason["reason"] = None
    assert ImageChops.difference(image, result_screen(tie_without_reason)).getbbox() is None


def test_an_error_screen_wraps_its_reason_to_the_panel() -> None:
    image = error_screen("c9 is not a space on the board: columns a-g, rows 1-7")
    assert lit_fraction(image, (0, 32, 127, 40)) > 0  # a third line was needed


def test_an_error_screen_needs_a_reason() -> None:
    with pytest.raises(ValueError, match="needs a reason"):
        error_screen("  ")


@given(st.text(max_size=300), st.integers(1, 40), st.integers(1, 6))
def test_wrapped_lines_never_exceed_the_width(text: str, width: int, lines: int) -> None:
    wrapped = wrap(text, width, max_lines=lines)
    assert 1 <= len(wrapped) <= lines
    assert all(len(line) <= width for line in wrapped)


def test_text_cut_short_ends_with_a_tilde() -> None:
    assert wrap("one two three four five six", 9, max_lines=2) == ["one two", "three~"]


def test_a_glass_more_than_5_percent_off_180_seconds_is_flagged() -> None:
    assert off_nominal({"r1": [171.0]}) == {}  # exactly 5 % is still fine
    assert list(off_nominal({"r1": [170.9]})) == ["r1"]
    assert list(off_nominal({"b2": [189.1]})) == ["b2"]
    assert mean_periods({"r1": [169.6, 170.0]}) == {"r1": pytest.approx(169.8)}


def test_the_calibration_warning_names_the_glass_and_how_far_off_it_is() -> None:
    assert calibration_warning(MEASURED) == "r1 -5.7% (169.8 s)"
    both = {"r1": [169.0], "r2": [191.0]}
    assert calibration_warning(both, "r2") == "r2 +6.1% (191.0 s)"
    assert calibration_warning({"r2": [180.2]}) is None


def test_the_calibration_screen_warns_in_the_bottom_bar() -> None:
    assert lit_fraction(calibration_screen("r2", 2, 12.0, MEASURED), WARNING_BAR) > 0.6
    fine = calibration_screen("r2", 2, 12.0, {"r1": [179.0, 180.5]})
    assert lit_fraction(fine, WARNING_BAR) < 0.05


def test_the_glass_being_calibrated_is_filled_in_the_table() -> None:
    r1 = calibration_screen("r1", 1, 0.0, {})
    b3 = calibration_screen("b3", 1, 0.0, {})
    first_cell = (0, 32, 40, 40)
    assert lit_fraction(r1, first_cell) > 0.5
    assert lit_fraction(b3, first_cell) < 0.5


def test_the_elapsed_seconds_are_shown_in_large_digits() -> None:
    a = calibration_screen("r1", 1, 12.3, {})
    b = calibration_screen("r1", 1, 12.4, {})
    bbox = ImageChops.difference(a, b).getbbox()
    assert bbox is not None and bbox[3] - bbox[1] >= 8


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("x1", 1, 0.0, {}), "glass must be one of"),
        (("r1", 3, 0.0, {}), "pass must be 1 to 2"),
        (("r1", 1, -1.0, {}), "elapsed must be seconds"),
        (("r1", 1, 0.0, {"q1": [180.0]}), "unknown glass 'q1'"),
        (("r1", 1, 0.0, {"r1": [0.0]}), "r1 must be positive seconds"),
    ],
)
def test_calibration_refuses_impossible_values(args: tuple[object, ...], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        calibration_screen(*args)  # type: ignore[arg-type]

