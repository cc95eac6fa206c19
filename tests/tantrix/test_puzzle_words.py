"""The Discovery puzzle in the players' language: its summary (``companion simulate``), and the
rules' refusals on the puzzle screen with each cell named as the screen's map names it. The
JSON contract and the English summary stay as they were."""

from __future__ import annotations

from typing import Any

from companion import i18n, registry
from companion.puzzle.screens import puzzle_screen
from companion.puzzle.simulate import simulate
from companion.puzzle.words import in_words
from companion.tantrix.cellnames import CellNames

EVENTS = [
    {"ev": "lay", "tile": 1, "q": 0, "r": 0, "rot": 0},
    {"ev": "lay", "tile": 2, "q": 1, "r": 0, "rot": 0},
    {"ev": "lay", "tile": 3, "q": 1, "r": 0},  # the cell tile 2 holds: refused
    {"ev": "lift", "tile": 3},  # not on the table: refused
]


def result() -> dict[str, Any]:
    return simulate({"game": "puzzle", "n": 3}, list(enumerate(EVENTS, start=2)))


def summary() -> str:
    return registry.get("puzzle").summary(result())


def test_the_json_keeps_the_rules_english_and_the_engine_s_cells() -> None:
    out = result()
    assert out["problems"] == ["missing: tile 3",
                               "the yellow bands make no loop through all 3 tiles"]
    assert out["violations"][0]["detail"] == "tile 2 already lies at (1, 0)"


def test_the_english_summary_is_unchanged() -> None:
    assert summary().splitlines() == [
        "Discovery 3: one yellow loop through tiles 1 to 3",
        "not solved: 2/3 tiles laid",
        "  missing: tile 3",
        "  the yellow bands make no loop through all 3 tiles",
        "Tiles:",
        "   1 at (0, 0) turn 0  YBRBRY",
        "   2 at (1, 0) turn 0  RBYYBR",
        "Refused:",
        "  line 4: lay: tile 2 already lies at (1, 0)",
        "  line 5: lift: tile 3 is not on the table",
    ]


def test_the_summary_is_said_in_french() -> None:
    i18n.use("fr")
    lines = summary().splitlines()
    assert lines[0] == "Discovery 3 : une boucle (jaune) par les tuiles 1 à 3"
    assert lines[1:4] == ["non résolu : 2/3 tuiles posées", "  manquante : tuile 3",
                          "  les bandes (jaune) ne font pas de boucle par les 3 tuiles"]
    assert "  ligne 5 : lift : la tuile 3 n'est pas posée" in lines


def test_the_summary_is_said_in_czech() -> None:
    i18n.use("cs")
    lines = summary().splitlines()
    assert lines[0] == "Discovery 3: jedna smyčka (žlutá) přes destičky 1 až 3"
    assert "  chybí destička 3" in lines and "Destičky:" in lines
    assert "  řádek 5: lift: destička 3 neleží na stole" in lines


def test_a_golden_rule_problem_names_its_cell_as_the_map_does() -> None:
    problem = "golden rule: side E of tile 1 at (0, 0) is red but tile 2 shows blue"
    names = CellNames.of([(0, 0), (1, 0)])
    assert in_words(problem, names) == (
        "golden rule: side E of tile 1 at b2 is red but tile 2 shows blue")
    i18n.use("fr")
    assert in_words(problem, names) == (
        "règle d'or : le côté E de la tuile 1 en b2 est rouge mais la tuile 2 montre bleu")
    i18n.use("cs")
    assert in_words(problem, names).startswith("zlaté pravidlo: strana E destičky 1 na b2 je ")


def _view(error: str | None) -> dict[str, Any]:
    tiles = [{"tile": 1, "q": 0, "r": 0, "rot": 0, "sides": ["yellow"] * 6},
             {"tile": 2, "q": 1, "r": 0, "rot": 0, "sides": ["yellow"] * 6}]
    return {"n": 3, "colour": "yellow", "laid": tiles, "tiles": tiles, "problems": [],
            "solved": False, "entry": {"mode": "tile", "typed": ""}, "error": error,
            "warning": None}


def test_the_puzzle_screen_shows_a_refused_cell_by_its_map_name() -> None:
    refused = puzzle_screen(_view("tile 3 already lies at (1, 0)")).tobytes()
    named = CellNames.of_view(_view(None)).name(1, 0)
    assert named == "b3"
    assert refused == puzzle_screen(_view(f"tile 3 already lies at {named}")).tobytes()
    assert refused != puzzle_screen(_view("tile 3 already lies at (1,0)")).tobytes()


def test_the_puzzle_screen_says_a_refusal_in_french() -> None:
    i18n.use("fr")
    refused = puzzle_screen(_view("tile 3 is not on the table")).tobytes()
    assert refused == puzzle_screen(_view("la tuile 3 n'est pas posée")).tobytes()
