"""Tantrix cells named as the screen's map shows them (row letter from the top, hexagon number
from the left), never the engine's axial coordinates; a rotation is called a rotation."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from companion import i18n
from companion.tantrix.cellnames import CellNames
from companion.tantrix.screens import refusal_title
from companion.tantrix.words import refusal_in_words

LAYOUT = [(0, 0), (1, 0), (0, 1), (1, -1)]


def test_the_row_above_the_top_tile_is_a_and_the_column_left_of_the_leftmost_is_1() -> None:
    names = CellNames.of(LAYOUT)
    # a row is offset half a hexagon from the next: a cell counts the whole hexagons to its left
    assert names.name(1, -2) == "a2"  # above the top tile (1, -1)
    assert names.name(1, -1) == "b2"
    assert names.name(0, 0) == "c2"
    assert names.name(1, 0) == "c3"  # the next hexagon to the right in the same row
    assert names.name(-1, 1) == "d1"  # left of the leftmost tile


@given(st.lists(st.tuples(st.integers(-20, 20), st.integers(-20, 20)), min_size=1, max_size=30))
def test_every_cell_of_the_layout_and_its_ring_has_its_own_name(
    cells: list[tuple[int, int]],
) -> None:
    names = CellNames.of(cells)
    ring = {(q + dq, r + dr) for q, r in cells
            for dq, dr in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1), (0, 0))}
    named = [names.name(q, r) for q, r in ring]
    assert len(set(named)) == len(ring)
    assert all(n[0].isalpha() and n[-1].isdigit() and "-" not in n for n in named)


def test_an_engine_refusal_names_the_cells_as_the_map_does() -> None:
    names = CellNames.of(LAYOUT)
    detail = names.in_text("(0, 0) touches the forced space at (1, -2), which must be filled first")
    assert detail == "c2 touches the forced space at a2, which must be filled first"
    assert "(" not in refusal_title("restriction 2: " + detail)[1]


def test_a_discard_refusal_says_rotation_in_three_languages() -> None:
    detail = ("tile 7 fits at c2 at rotation 3: only a tile that cannot be laid is discarded")
    assert "rotation 3" in refusal_in_words(detail)
    i18n.use("fr")
    assert "rotation 3" in refusal_in_words(detail)
    i18n.use("cs")
    assert "otočení 3" in refusal_in_words(detail)


def test_a_golden_rule_refusal_names_the_side_as_a_compass_point_of_the_language() -> None:
    detail = "side SW of tile 3 is red but tile 5 there shows blue"
    assert refusal_in_words(detail) == detail
    i18n.use("cs")
    czech = refusal_in_words(detail)
    assert " JZ " in czech and " SW " not in czech
    i18n.use("fr")
    assert " SO " in refusal_in_words(detail)
