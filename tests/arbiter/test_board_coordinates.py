"""The arbiter's boards carry their coordinates, as corrections and the notation name cells; a
Tantrix cell is shown by the name the table's map gives it (``c3``), never by axial coordinates."""

from __future__ import annotations

import re
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from companion.arbiter.kinds import arbiter_for
from companion.arbiter.web import page
from companion.tantrix.arbiter import cell_names
from companion.tantrix.cellnames import CellNames


def test_a_tantrix_board_names_each_laid_tile_s_cell() -> None:
    facet = arbiter_for("tantrix")
    assert facet is not None
    mirror = facet.mirror({"game": "tantrix", "players": ["red", "blue"]})
    assert mirror is not None
    for record in ({"t": 0.0, "ev": "place", "tile": 1, "q": 0, "r": 0, "rot": 5},
                   {"t": 1.0, "ev": "done"},
                   {"t": 2.0, "ev": "place", "tile": 2, "q": 1, "r": 0, "rot": 4}):
        mirror.apply(record)
    card: dict[str, Any] = {"alerts": []}
    mirror.card(card, elapsed=0.0, online=True, board="")
    svg = facet.board_svg(card, label="table 3")
    assert svg is not None
    assert 'data-coord="0,0"' in svg and 'data-coord="1,0"' in svg


def test_a_tantrix_board_names_each_cell_as_the_table_s_map_does() -> None:
    facet = arbiter_for("tantrix")
    assert facet is not None
    mirror = facet.mirror({"game": "tantrix", "players": ["red", "blue"]})
    assert mirror is not None
    for record in ({"t": 0.0, "ev": "place", "tile": 1, "q": 0, "r": 0, "rot": 5},
                   {"t": 1.0, "ev": "done"},
                   {"t": 2.0, "ev": "place", "tile": 2, "q": 1, "r": 0, "rot": 4}):
        mirror.apply(record)
    card: dict[str, Any] = {"alerts": []}
    mirror.card(card, elapsed=0.0, online=True, board="")
    svg = facet.board_svg(card, label="table 3")
    assert svg is not None
    names = CellNames.of_view(card["tantrix"])
    labels = re.findall(r'data-coord="[-\d,]+"[^>]*>\s*<text[^>]*>([^<]+)</text>', svg)
    assert sorted(labels) == sorted([names.name(0, 0), names.name(1, 0)]) == ["b2", "b3"]
    assert not re.search(r">\(-?\d+,-?\d+\)<", svg)  # no (q,r) under any cell


def test_a_tantrix_card_gives_the_correction_form_each_cell_by_its_map_name() -> None:
    facet = arbiter_for("tantrix")
    assert facet is not None
    mirror = facet.mirror({"game": "tantrix", "players": ["red", "blue"]})
    assert mirror is not None
    mirror.apply({"t": 0.0, "ev": "place", "tile": 1, "q": 0, "r": 0, "rot": 5})
    card: dict[str, Any] = {"alerts": []}
    mirror.card(card, elapsed=0.0, online=True, board="")
    cells = card["tantrix"]["cells"]
    assert cells["b2"] == [0, 0]  # the tile
    assert len(cells) == 7  # and the ring of free cells it may be moved to


cell = st.tuples(st.integers(-20, 20), st.integers(-20, 20))


@given(st.lists(cell, min_size=1, max_size=30, unique=True), st.lists(cell, max_size=3))
def test_every_cell_a_correction_may_name_has_one_name_and_the_map_s(
    tiles: list[tuple[int, int]], forced: list[tuple[int, int]],
) -> None:
    state = {"tiles": [{"q": q, "r": r} for q, r in tiles], "forced": [list(c) for c in forced]}
    names = CellNames.of_view(state)
    cells = cell_names(state)
    assert {tuple(c) for c in cells.values()} >= set(tiles) | set(forced)
    assert len({tuple(c) for c in cells.values()}) == len(cells)  # no name for two cells
    assert all(names.name(q, r) == name for name, (q, r) in cells.items())


def test_the_tamsk_board_on_the_page_labels_every_space() -> None:
    html = page(arbiter=False)
    assert 'class: "coord"' in html and "space));" in html


def test_a_tokami_board_numbers_the_latest_turns_as_a_turn_correction_names_them() -> None:
    facet = arbiter_for("tokami")
    assert facet is not None
    mirror = facet.mirror({"game": "tokami", "players": ["Ada", "Bob"]})
    assert mirror is not None
    for record in ({"t": 0.0, "ev": "higher", "block": "blue"},
                   {"t": 1.0, "ev": "not_higher", "block": "red"}):
        mirror.apply(record)
    card: dict[str, Any] = {"alerts": []}
    mirror.card(card, elapsed=0.0, online=True, board="")
    svg = facet.board_svg(card, label="table 2")
    assert svg is not None
    assert 'data-coord="turn 1"' in svg and 'data-coord="turn 2"' in svg
