"""A refused Tantrix correction in the table's language, its cells named as the screen's map
names them (``b2``), never by the engine's axial coordinates (in English too, as the Tamsk
refusals name their correction in words). The refusals come from the rules themselves (the
scenarios of ``test_tantrix_corrections.py``)."""

from __future__ import annotations

from pathlib import Path

from companion import i18n
from companion.clock import FakeClock
from companion.config import defaults
from companion.inputs import RawInput
from companion.tables import make_table, start_configured_game
from companion.tantrix.arbiter import station
from companion.tantrix.cellnames import CellNames
from companion.tantrix.correction_words import PROBLEMS, correction_refusal_in_words
from tests.tantrix.test_tantrix_corrections import DONE, T1, T2, T3, fix, run

LAYOUT = CellNames.of([(0, 0), (-1, 0), (-2, 0)])


def refusal(*events: dict[str, object]) -> str:
    return str(run(*events)["violations"][-1]["detail"])


def test_a_take_back_that_strands_a_tile_names_the_cell_as_the_map_does() -> None:
    detail = refusal(T1, DONE, T2, DONE, T3, fix("take-back", tile=2))
    assert detail == ("take-back: the corrected game breaks the rules "
                      "(not touching: (-2, 0) touches no tile)")
    assert correction_refusal_in_words(detail, LAYOUT) == (
        "take a tile back: the corrected game breaks the rules (not touching: b2 touches no tile)")
    i18n.use("fr")
    french = correction_refusal_in_words(detail, LAYOUT)
    assert french.startswith("reprendre une tuile : la partie corrigée enfreint les règles")
    assert "b2" in french and "(-2, 0)" not in french
    i18n.use("cs")
    czech = correction_refusal_in_words(detail, LAYOUT)
    assert czech.startswith("vzít destičku zpět: opravená hra porušuje pravidla")
    assert "b2" in czech and "(-2, 0)" not in czech


def test_a_tile_not_on_the_table_and_a_turn_already_given_are_said_in_words() -> None:
    missing = refusal(T1, DONE, T2, fix("take-back", tile=9))
    already = refusal(T1, DONE, fix("turn", player="yellow"))
    i18n.use("fr")
    assert correction_refusal_in_words(missing) == ("reprendre une tuile : la tuile 9 "
                                                    "n'est pas posée")
    assert correction_refusal_in_words(already) == "c'est déjà au tour de jaune"
    i18n.use("cs")
    assert correction_refusal_in_words(already) == "žlutá už je na tahu"


def test_only_the_arbiter_corrects_in_every_language() -> None:
    detail = str(run(T1, {**fix("take-back"), "by": "red"})["violations"][-1]["detail"])
    i18n.use("cs")
    assert correction_refusal_in_words(detail).startswith("opravy dělá jen rozhodčí")


def test_every_problem_has_a_translation() -> None:
    for lang in ("fr", "cs"):
        i18n.use(lang)
        assert all(i18n._(problem) != problem for problem in PROBLEMS), lang


def test_the_station_answers_a_refused_correction_in_the_tables_language(
        tmp_path: Path) -> None:
    clock = FakeClock()
    config = defaults()
    config["game"]["kind"] = "tantrix"
    config["tantrix"] = {"players": ["red", "yellow"]}
    table = make_table(config, clock, tmp_path)
    start_configured_game(table, config)
    for key in "12##":
        clock.advance(1.0)
        table.feed(RawInput("key", key, True, clock.now()))
    i18n.use("fr")
    answer = station(table, clock).carry_out(fix("take-back", tile=9), clock.now(), "n1")
    assert answer.ok is False
    assert answer.detail == "reprendre une tuile : la tuile 9 n'est pas posée"
    table.close()
