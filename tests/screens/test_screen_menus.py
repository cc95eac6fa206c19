"""Menus, the new-game form and the key-entry prompt: the selected line is the filled one, the
list scrolls to keep it in view, and bad arguments are refused with a message."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import ImageChops

from companion.screens import NEW_GAME_FIELDS, menu_screen, new_game_screen, with_prompt
from companion.screens.layout import visible_window
from companion.tamsk.screens import table_screen
from tests.screens.screen_cases import MENU_ITEMS, level1_view, lit_fraction

#: List lines on a 128x64 menu: the title bar takes rows 0-9, then one line every 10 rows.
LIST_TOP = 12


def line_box(row: int) -> tuple[int, int, int, int]:
    y = LIST_TOP + 1 + row * 10
    return (0, y - 1, 110, y + 7)


def filled_rows(image: object, rows: int) -> list[int]:
    return [row for row in range(rows) if lit_fraction(image, line_box(row)) > 0.6]  # type: ignore[arg-type]


@pytest.mark.parametrize("selected", range(4))
def test_the_selected_menu_item_is_the_filled_line(selected: int) -> None:
    image = menu_screen("Menu", MENU_ITEMS, selected)
    assert filled_rows(image, 5) == [selected]


def test_the_menu_scrolls_to_keep_the_selection_in_view() -> None:
    items = [f"Item {i}" for i in range(12)]
    image = menu_screen("Menu", items, 11)
    assert filled_rows(image, 5) == [4]  # the last line on screen


def test_a_footer_hint_takes_the_bottom_line() -> None:
    plain = menu_screen("Menu", MENU_ITEMS, 0)
    hinted = menu_screen("Menu", MENU_ITEMS, 0, footer="OK: choose")
    bbox = ImageChops.difference(plain, hinted).getbbox()
    assert bbox is not None and bbox[3] > 44


@pytest.mark.parametrize(
    ("items", "selected", "message"),
    [
        ([], 0, "at least one item"),
        (MENU_ITEMS, 6, "selected item must be 0 to 5"),
        (MENU_ITEMS, -1, "selected item must be 0 to 5"),
    ],
)
def test_a_menu_refuses_a_selection_outside_its_items(
    items: list[str], selected: int, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        menu_screen("Menu", items, selected)


@given(st.integers(1, 50), st.integers(0, 49), st.integers(1, 12))
def test_the_visible_window_always_holds_the_selection(
    count: int, selected: int, rows: int
) -> None:
    selected = selected % count
    window = visible_window(count, selected, rows)
    assert selected in window
    assert len(window) <= rows
    assert 0 <= window.start and window.stop <= count


@pytest.mark.parametrize("field", NEW_GAME_FIELDS[:5])
def test_the_field_being_edited_is_the_filled_line(field: str) -> None:
    image = new_game_screen(editing=field)
    assert filled_rows(image, 5) == [NEW_GAME_FIELDS.index(field)]


def test_the_last_field_scrolls_into_view_when_edited() -> None:
    image = new_game_screen(editing="table")
    assert filled_rows(image, 5) == [4]


def test_no_field_is_filled_when_none_is_edited() -> None:
    assert filled_rows(new_game_screen(), 5) == []


def test_text_being_typed_replaces_the_value() -> None:
    typed_bo = new_game_screen(editing="black", entry="Bo")
    typed_bob = new_game_screen(editing="black", entry="Bob")
    named_bob = new_game_screen(names={"black": "Bob"}, editing="black")
    assert ImageChops.difference(typed_bo, typed_bob).getbbox() is not None
    assert ImageChops.difference(typed_bob, named_bob).getbbox() is not None  # the cursor


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"level": 4}, "level must be one of 1, 2, 3"),
        ({"ruleset": "house"}, "ruleset must be one of 'adjusted', 'original'"),
        ({"start": "random"}, "start must be one of 'standard', 'free'"),
        ({"editing": "colour"}, "editing must be one of"),
    ],
)
def test_the_new_game_form_refuses_settings_that_do_not_exist(
    kwargs: dict[str, object], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        new_game_screen(**kwargs)  # type: ignore[arg-type]


def test_the_prompt_replaces_only_the_bottom_line() -> None:
    table = table_screen(level1_view())
    before = table.copy()
    prompted = with_prompt(table, "b2 to:", "c3")
    assert ImageChops.difference(table, before).getbbox() is None  # original untouched
    bbox = ImageChops.difference(table, prompted).getbbox()
    assert bbox is not None and bbox[1] >= 64 - 11


def test_the_prompt_shows_each_key_typed() -> None:
    table = table_screen(level1_view())
    assert (
        ImageChops.difference(
            with_prompt(table, "b2 to:", "c"), with_prompt(table, "b2 to:", "c3")
        ).getbbox()
        is not None
    )


def test_a_long_entry_keeps_its_last_keys_in_view() -> None:
    table = table_screen(level1_view())
    long_a = with_prompt(table, "name:", "x" * 40 + "a")
    long_b = with_prompt(table, "name:", "x" * 40 + "b")
    assert ImageChops.difference(long_a, long_b).getbbox() is not None
