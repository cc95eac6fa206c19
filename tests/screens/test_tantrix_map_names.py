"""The Tantrix maps name their rows and columns: a letter down the left edge for every row, a
number along the top for every column, so that the name of any cell on the screen (``c4`` in a
refusal, the forced-space line, a prompt) can be read off the map, and a cell read off the map
is the one the screen means."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from companion.screens.palette import blank
from companion.screens.text import CHAR_WIDTH, draw_text
from companion.tantrix.cellnames import CellNames
from companion.tantrix.screens import (
    MapFrame,
    _draw_board,
    board_frame,
    draw_local_map,
    local_frame,
)
from tests.tables.screen_views import tantrix_view

Cell = tuple[int, int]

#: Where the tall colour panel draws the whole table, and the 128x64 place screen its small map.
BOARD_BOX = (0, 12, 127, 70)
SMALL_BOX = (0, 12, 57, 63)

STAR = [(0, 0), (1, 0), (0, 1), (1, -1), (-1, 0), (0, -1), (-1, 1)]
LINE = [(q, 0) for q in range(-6, 7)]  # two-digit columns
TOWER = [(0, r) for r in range(-5, 6)] + [(1, r) for r in range(-5, 5)]


def midgame_cells() -> list[Cell]:
    view = tantrix_view("midgame")
    return [(t["q"], t["r"]) for t in view["tiles"]] + [(q, r) for q, r in view["forced"]]


LAYOUTS = {"star": STAR, "line": LINE, "tower": TOWER}


def _glyph_rows(image: Image.Image, box: tuple[int, int, int, int]) -> list[str]:
    return ["".join("#" if image.getpixel((x, y)) else "." for x in range(box[0], box[2]))
            for y in range(box[1], box[3])]


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_map_shows_row_letters_and_column_numbers(layout: str) -> None:
    cells = LAYOUTS[layout]
    names = CellNames.of(cells)
    frame = board_frame(cells, names, BOARD_BOX)
    assert [label.text for label in frame.rows] == [
        names.row(r) for r in range(min(r for _q, r in cells), max(r for _q, r in cells) + 1)
    ]
    for q, r in cells:
        assert frame.label_of(q, r) == names.name(q, r)


def test_the_map_of_a_game_names_every_tile_as_the_forced_space_line_does() -> None:
    view = tantrix_view("midgame")
    cells = midgame_cells()
    names = CellNames.of_view(view)
    frame = board_frame(cells, names, BOARD_BOX)
    assert all(frame.label_of(q, r) == names.name(q, r) for q, r in cells)
    q, r = view["forced"][0]
    assert frame.label_of(q, r) == names.names(view["forced"]).split()[0]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(-8, 8), st.integers(-8, 8)), min_size=1, max_size=40,
                unique=True))
def test_every_cell_of_any_table_reads_its_own_name_off_the_map(cells: list[Cell]) -> None:
    names = CellNames.of(cells)
    frame = board_frame(cells, names, BOARD_BOX)
    assert all(frame.label_of(q, r) == names.name(q, r) for q, r in cells)
    _names_do_not_crowd(frame)


def _names_do_not_crowd(frame: MapFrame) -> None:
    rows = [label.at for label in frame.rows if label.shown]
    columns = [label for label in frame.columns if label.shown]
    assert rows and columns
    assert all(b - a >= 8 for a, b in zip(rows, rows[1:], strict=False))
    for a, b in zip(columns, columns[1:], strict=False):
        assert b.at - a.at >= (len(a.text) + len(b.text)) / 2 * CHAR_WIDTH + 1


def test_crowded_names_are_written_every_other_row_and_column_or_sparser() -> None:
    big = [(q, r) for q in range(-12, 13) for r in range(-6, 7) if abs(q + r) <= 12]
    frame = board_frame(big, CellNames.of(big), BOARD_BOX)
    assert frame.radius < 4
    for labels in (frame.rows, frame.columns):
        shown = [i for i, label in enumerate(labels) if label.shown]
        steps = {b - a for a, b in zip(shown, shown[1:], strict=False)}
        assert len(steps) == 1 and steps.pop() >= 2  # every k-th, k >= 2, from the first
        assert shown[0] == 0
    _names_do_not_crowd(frame)


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_the_names_stand_clear_of_the_tiles(layout: str) -> None:
    cells = LAYOUTS[layout]
    frame = board_frame(cells, CellNames.of(cells), BOARD_BOX)
    half = math.sqrt(3) / 2 * frame.radius
    hexes = [(x - half, y - frame.radius, x + half, y + frame.radius)
             for x, y in (frame.centre(q, r) for q, r in cells)]
    letters = max(len(label.text) for label in frame.rows)
    assert frame.letters_x + letters * CHAR_WIDTH <= min(h[0] for h in hexes)
    assert frame.numbers_y + 7 <= min(h[1] for h in hexes)
    assert frame.letters_x >= BOARD_BOX[0] and frame.numbers_y >= BOARD_BOX[1]
    assert max(h[2] for h in hexes) <= BOARD_BOX[2] + 1
    assert max(h[3] for h in hexes) <= BOARD_BOX[3] + 1


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_the_small_map_names_its_rows_and_columns_as_the_whole_table(layout: str) -> None:
    """The place and forced-space screens show a corner of the table: its names are still the
    whole table's, so the spot reads the same on the small map as in every message."""
    cells = LAYOUTS[layout]
    names = CellNames.of(cells)
    ring = sorted({(q + dq, r + dr) for q, r in cells
                   for dq, dr in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))})
    for centre in ring:
        frame = local_frame(centre, names, SMALL_BOX, 6.0, cells)
        assert frame.label_of(*centre) == names.name(*centre)
        x, y = frame.centre(*centre)
        assert SMALL_BOX[0] + frame.margins[0] <= x <= SMALL_BOX[2]
        assert SMALL_BOX[1] + frame.margins[1] <= y <= SMALL_BOX[3]
        shown_rows = [label.text for label in frame.rows if label.shown]
        shown_columns = [label.text for label in frame.columns if label.shown]
        assert names.row(centre[1]) in shown_rows
        assert str(names.column(*centre)) in shown_columns


def test_the_letter_and_the_number_are_drawn_where_the_frame_says() -> None:
    """Pixels, not only geometry: the board drawn on a one-bit panel carries each shown row
    letter beside its row and each column number above its column."""
    image, palette = blank((128, 80), "1")
    view = {"tiles": [{"tile": 1, "q": q, "r": r, "sides": ["red"] * 6} for q, r in STAR]}
    _draw_board(ImageDraw.Draw(image), palette, view, BOARD_BOX)
    frame = board_frame(STAR, CellNames.of(STAR), BOARD_BOX)
    for label in frame.rows + frame.columns:
        if label in frame.rows:
            x, y = frame.letters_x, round(label.at) - 4
        else:
            x, y = round(label.at - len(label.text) * CHAR_WIDTH / 2), frame.numbers_y
        alone, _palette = blank((128, 80), "1")
        draw_text(ImageDraw.Draw(alone), x, y, label.text, 255)
        box = (x, y - 2, x + len(label.text) * CHAR_WIDTH, y + 9)
        assert _glyph_rows(image, box) == _glyph_rows(alone, box), label.text


def test_the_small_map_clears_what_it_cuts_so_the_names_stay_legible() -> None:
    image, palette = blank((128, 64), "1")
    cells = [{"q": q, "r": r, "tile": 1, "sides": ["red"] * 6} for q, r in LINE]
    frame = draw_local_map(ImageDraw.Draw(image), palette, cells, (6, 0), CellNames.of(LINE),
                           SMALL_BOX, 6.0)
    assert frame.label_of(6, 0) == CellNames.of(LINE).name(6, 0)
    margin_x, margin_y = frame.margins
    strip = image.crop((SMALL_BOX[2] + 1, 0, 128, 64))
    assert strip.getbbox() is None  # nothing spilled right of the map
    letters = image.crop((0, SMALL_BOX[1], frame.letters_x, 64))
    assert letters.getbbox() is None
