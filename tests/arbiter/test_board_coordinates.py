"""The arbiter's boards carry their coordinates, as corrections and the notation name cells."""

from __future__ import annotations

from typing import Any

from companion.arbiter.kinds import arbiter_for
from companion.arbiter.web import page


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
