"""The Tokami screen: golden images of real table situations, and how it fits words in."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops

from companion.screens.palette import palette_for
from companion.tokami.screens import flow, question, short_choice, tokami_screen, typed_so_far
from tests.tables.screen_views import COLOUR, OLED, REFERENCE_DIR, TOKAMI_CASES, tokami_view


def assert_identical_image(reference: Image.Image, drawn: Image.Image, name: str) -> None:
    assert drawn.mode == reference.mode and drawn.size == reference.size, name
    bbox = ImageChops.difference(reference.convert("RGB"), drawn.convert("RGB")).getbbox()
    assert bbox is None, f"{name}: differs from its reference inside {bbox}"


@pytest.mark.parametrize("name", sorted(TOKAMI_CASES))
def test_the_screen_matches_its_reference_image(name: str) -> None:
    path = REFERENCE_DIR / f"{name}.png"
    assert path.exists(), f"no reference for {name}: run tests/tables/screen_views.py"
    with Image.open(path) as reference:
        reference.load()
        assert_identical_image(reference, TOKAMI_CASES[name](), name)


def test_every_tokami_reference_image_has_a_case() -> None:
    stale = sorted(p.stem for p in REFERENCE_DIR.glob("tokami_*.png") if p.stem not in TOKAMI_CASES)
    assert stale == []


def test_the_question_drops_the_name_the_title_bar_already_shows() -> None:
    view = {"entry": {"prompt": "Anna: what happened?", "player": "Anna"}}
    assert question(view) == "what happened?"
    assert question({"entry": {"prompt": "stop the game here?", "player": "Anna"}}) == (
        "stop the game here?"
    )


def test_outcome_choices_are_shortened_and_colours_cut() -> None:
    assert short_choice("1 higher + bonus", 7, {"higher + bonus": "bonus"}) == "1 bonus"
    assert short_choice("2 yellow", 7, {}) == "2 yello"
    assert short_choice("* back", 7, {}) == "* back"


def test_the_blocks_typed_so_far_are_the_answers_after_the_outcome() -> None:
    assert typed_so_far({"entry": {"entered": "blocks fell: blue yellow"}}) == "blue yellow"
    assert typed_so_far({"entry": {"entered": "blocks fell"}}) == ""


@given(st.lists(st.text("abcdefghij", min_size=1, max_size=9), max_size=12), st.integers(1, 3))
@settings(max_examples=60)
def test_flowed_items_keep_their_order_and_never_overflow(items: list[str], lines: int) -> None:
    rows = flow(items, 21, lines)
    placed = [item for row in rows for item in row]
    assert placed == items[: len(placed)]  # in order; only the tail may be left out
    assert len(rows) <= lines
    assert all(len(" ".join(row)) <= 21 for row in rows)


def _accent_pixels(image: Image.Image, box: tuple[int, int, int, int]) -> int:
    accent = palette_for(image.mode).accent
    colours = image.crop(box).getcolors(maxcolors=1 << 16) or []
    return sum(count for count, colour in colours if colour == accent)


def test_the_player_on_turn_is_boxed_in_the_standings() -> None:
    size, mode = COLOUR
    view = tokami_view("start")  # Anna on turn, first of three equal scores
    image = tokami_screen(view, size=size, mode=mode)
    standings = (78, 54, 128, 128)
    first_row, second_row = (78, 53, 128, 62), (78, 63, 128, 72)
    assert _accent_pixels(image, standings) == _accent_pixels(image, first_row) > 0
    assert _accent_pixels(image, second_row) == 0


def test_the_forbidden_colour_is_named_on_a_short_panel() -> None:
    size, mode = OLED
    with_forbidden = tokami_screen(tokami_view("bonus"), size=size, mode=mode)
    view = tokami_view("bonus")
    view["forbidden"] = None
    without = tokami_screen(view, size=size, mode=mode)
    question_row_end = (86, 11, 128, 21)  # "bonus block?" ends before it
    assert with_forbidden.crop(question_row_end).getbbox() is not None
    assert without.crop(question_row_end).getbbox() is None


def test_a_refusal_takes_the_place_of_the_question() -> None:
    size, mode = COLOUR
    refused = tokami_screen(tokami_view("refused"), size=size, mode=mode)
    warning = palette_for(mode).warning
    colours = dict((c, n) for n, c in refused.crop((0, 52, 128, 64)).getcolors(1 << 16) or [])
    assert colours.get(warning, 0) > 0
