"""The Tokami screen: golden images of real table situations, and how it fits words in."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops

from companion import i18n
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


def test_outcome_choices_are_shortened_and_a_label_too_long_is_cut_visibly() -> None:
    assert short_choice("1 higher + bonus", 7, {"higher + bonus": "bonus"}) == "1 bonus"
    assert short_choice("2 yellow", 7, {}) == "2 yell~"  # the screens' cut mark, never silent
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


def drawn_texts(view: dict[str, object], size: tuple[int, int] = OLED[0],
                mode: str = OLED[1]) -> list[str]:
    from tests.screens.fitting import drawn

    return drawn(lambda: tokami_screen(view, size=size, mode=mode)).texts()


def test_the_forbidden_colour_is_named_beside_the_question_when_both_fit() -> None:
    view = tokami_view("bonus")  # "bonus block?" and "forbidden: red": 12 + 1 + 14 characters
    view["entry"]["stage"] = "block"  # "which block?" ...
    texts = drawn_texts(view)
    assert "which block?" in texts and "forbidden: red" in texts
    view["forbidden"] = None
    assert not any("forbidden" in text for text in drawn_texts(view))


def test_a_forbidden_colour_too_long_for_the_question_line_takes_the_title_bars_count() -> None:
    i18n.use("fr")
    try:
        view = tokami_view("bonus")  # Ben, "bloc bonus ?" and "interdit : rouge"
        texts = drawn_texts(view)
    finally:
        i18n.reset()
    assert set(texts[:2]) == {"Ben", "interdit : rouge"}  # the title bar: the count gives way
    assert "bloc bonus ?" in texts


def test_choices_more_than_the_rows_hold_are_shown_a_page_at_a_time() -> None:
    i18n.use("fr")
    try:
        view = tokami_view("start")  # seven choices; French words: more than two rows
        view["forbidden"] = "red"
        view["entry"]["choices"] = [*view["entry"]["choices"][:4], "5 renonce", "A annuler",
                                    "D abandonner"]
        first = drawn_texts({**view, "prompt_page": 0})
        second = drawn_texts({**view, "prompt_page": 1})
        again = drawn_texts({**view, "prompt_page": 2})
    finally:
        i18n.reset()
    assert "1/2" in first and "2/2" in second and again == first
    keys = {text.split(" ")[0] for text in first + second if text[:2] in
            {f"{k} " for k in "12345AD"}}
    assert keys == set("12345AD")


def test_the_table_turns_the_pages_of_choices_while_no_key_comes() -> None:
    from companion.pages import PAGE_S
    from tests.tables.screen_views import table

    with table("tokami") as s:
        s.table.start_game(["Anna", "Ben"])
        s.press("1")
        assert s.view["prompt_page"] == 0
        assert s.table.next_wakeup() == pytest.approx(s.clock.now() + PAGE_S)
        s.clock.advance(PAGE_S)
        s.table.poll()
        assert s.table.changed and s.view["prompt_page"] == 1
        s.press("*")  # a key: the first page again
        assert s.view["prompt_page"] == 0


def test_a_refusal_takes_the_place_of_the_question() -> None:
    size, mode = COLOUR
    refused = tokami_screen(tokami_view("refused"), size=size, mode=mode)
    warning = palette_for(mode).warning
    colours = dict((c, n) for n, c in refused.crop((0, 52, 128, 64)).getcolors(1 << 16) or [])
    assert colours.get(warning, 0) > 0
