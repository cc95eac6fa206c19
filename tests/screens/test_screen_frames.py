"""Frames outside the OLED: as half-block text for the terminal demo, enlarged for a GIF."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops

from companion.screens import frame_to_text, upscale
from companion.screens.digits import draw_digits
from companion.tamsk.screens import table_screen
from tests.screens.screen_cases import midgame_view

UPPER, LOWER, FULL = "\u2580", "\u2584", "\u2588"


def image_from_rows(rows: list[str], mode: str = "1") -> Image.Image:
    """A one-bit image from rows of '#' (lit) and '.' (dark)."""
    image = Image.new(mode, (len(rows[0]), len(rows)))
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch == "#":
                image.putpixel((x, y), 255 if mode != "RGB" else (255, 255, 255))
    return image


def text_to_pixels(text: str) -> list[list[bool]]:
    """Read half blocks back into pixel rows (the inverse of frame_to_text)."""
    upper = {" ": False, UPPER: True, LOWER: False, FULL: True}
    lower = {" ": False, UPPER: False, LOWER: True, FULL: True}
    rows: list[list[bool]] = []
    for line in text.split("\n"):
        rows.append([upper[c] for c in line])
        rows.append([lower[c] for c in line])
    return rows


def test_two_pixel_rows_make_one_line_of_half_blocks() -> None:
    image = image_from_rows([".##.", "..##"])
    # columns: (dark, dark), (upper), (both), (lower)
    assert frame_to_text(image) == f" {UPPER}{FULL}{LOWER}"


def test_an_odd_last_row_is_paired_with_a_dark_one() -> None:
    assert frame_to_text(image_from_rows(["#", "#", "#"])) == f"{FULL}\n{UPPER}"


def test_an_oled_frame_is_32_lines_of_128_characters() -> None:
    lines = frame_to_text(table_screen(midgame_view())).split("\n")
    assert len(lines) == 32
    assert {len(line) for line in lines} == {128}


def test_any_light_on_a_colour_frame_counts_as_lit() -> None:
    image = Image.new("RGB", (2, 2))
    image.putpixel((0, 0), (40, 0, 0))
    image.putpixel((1, 1), (0, 0, 1))
    assert frame_to_text(image) == f"{UPPER}{LOWER}"


@settings(max_examples=40, deadline=None)
@given(
    st.integers(1, 20).flatmap(
        lambda w: st.lists(st.lists(st.booleans(), min_size=w, max_size=w), min_size=1, max_size=12)
    )
)
def test_the_text_holds_every_pixel_of_the_frame(rows: list[list[bool]]) -> None:
    image = image_from_rows(["".join("#" if p else "." for p in row) for row in rows])
    back = text_to_pixels(frame_to_text(image))
    assert back[: len(rows)] == rows
    assert not any(any(padding) for padding in back[len(rows) :])  # an odd last row's partner


@settings(max_examples=30, deadline=None)
@given(
    st.integers(1, 8),
    st.lists(st.lists(st.booleans(), min_size=5, max_size=5), min_size=1, max_size=5),
)
def test_upscaling_turns_each_pixel_into_a_square_block(
    factor: int, rows: list[list[bool]]
) -> None:
    image = image_from_rows(["".join("#" if p else "." for p in row) for row in rows])
    big = upscale(image, factor)
    assert big.size == (image.width * factor, image.height * factor)
    assert big.mode == image.mode
    for y in range(big.height):
        for x in range(big.width):
            assert big.getpixel((x, y)) == image.getpixel((x // factor, y // factor))


def test_upscaling_keeps_a_colour_frame_in_colour() -> None:
    frame = table_screen(midgame_view(), size=(128, 128), mode="RGB")
    big = upscale(frame, 3)
    assert big.mode == "RGB"
    back = big.resize(frame.size, Image.Resampling.NEAREST)
    assert ImageChops.difference(back, frame).getbbox() is None


@pytest.mark.parametrize("factor", [0, -2, 17, 2.5, True])
def test_upscaling_refuses_a_factor_that_is_not_a_small_whole_number(factor: object) -> None:
    with pytest.raises(ValueError, match="upscale factor must be a whole number 1 to 16"):
        upscale(Image.new("1", (4, 4)), factor)  # type: ignore[arg-type]


def test_seven_segment_digits_refuse_letters() -> None:
    from PIL import ImageDraw

    draw = ImageDraw.Draw(Image.new("1", (40, 20)))
    with pytest.raises(ValueError, match="cannot show 'x'"):
        draw_digits(draw, 0, 0, "1x", 16, 255)
