"""Picking a table controller by game kind, starting the configured game, finding one to resume."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from companion import registry
from companion.clock import FakeClock
from companion.config import defaults
from companion.hw.display import pick_screen
from companion.tables import Table as TableProtocol
from companion.tables import find_unfinished, make_table, start_configured_game
from companion.tamsk.table import RawInput, Table
from companion.tantrix.table import TantrixTable
from companion.tokami.table import TokamiTable
from tests.tables.driving import seat


def table_class(kind: str) -> type:
    """The controller class the registry's kind builds."""
    with tempfile.TemporaryDirectory() as folder:
        table = registry.get(kind).make_table(FakeClock(), folder, config=defaults())
        return type(table)


def config_for(kind: str, **sections: dict[str, object]) -> dict[str, object]:
    config = defaults()
    config["game"]["kind"] = kind
    config.update(sections)
    return config


def test_each_game_kind_has_its_controller() -> None:
    assert table_class("tamsk") is Table
    assert table_class("tantrix") is TantrixTable
    assert table_class("tokami") is TokamiTable
    with pytest.raises(ValueError, match="tamsk, tantrix, tokami"):
        table_class("chess")


def test_a_config_without_a_game_kind_is_a_tamsk_table() -> None:
    config = defaults()
    del config["game"]["kind"]
    assert registry.configured(config).name == "tamsk"


@pytest.mark.parametrize("kind", ["tamsk", "tantrix", "tokami", "puzzle"])
def test_every_controller_satisfies_the_table_protocol(tmp_path: Path, kind: str) -> None:
    table = registry.get(kind).make_table(FakeClock(), tmp_path, config=config_for(kind))
    assert isinstance(table, TableProtocol)


@pytest.mark.parametrize("kind", ["tamsk", "tantrix", "tokami"])
def test_make_table_builds_the_configured_controller_and_starts_its_game(
    tmp_path: Path, kind: str
) -> None:
    table = make_table(config_for(kind), FakeClock(), tmp_path)
    assert isinstance(table, table_class(kind))
    path = start_configured_game(table, config_for(kind))
    assert path.name.startswith(f"{kind}-t1-") and table.journal_path == path
    assert table.view()["game"] == kind
    assert isinstance(table.status_line(), str)
    table.close()


def test_the_config_gives_the_tantrix_seats_and_the_tokami_players_and_box(tmp_path: Path) -> None:
    tantrix = make_table(config_for("tantrix"), FakeClock(), tmp_path)
    start_configured_game(
        tantrix, config_for("tantrix", tantrix={"players": ["blue", "green", "red"]})
    )
    assert tantrix.game.players == ("blue", "green", "red")
    tokami = make_table(config_for("tokami"), FakeClock(), tmp_path / "k")
    options = {"players": ["Anna", "Ben"], "rounds": 3, "colours": ["red", "natural"],
               "counts": [6, 30]}
    start_configured_game(tokami, config_for("tokami", tokami=options))
    assert tokami.game.players == ("Anna", "Ben") and tokami.game.setup.rounds == 3
    assert dict(tokami.game.setup.blocks) == {"red": 6, "natural": 30}


def test_find_unfinished_picks_the_newest_game_not_over(tmp_path: Path) -> None:
    older = seat("tokami", tmp_path)
    old_path = older.table.start_game(["Anna", "Ben"], name="tokami-t1-a.jsonl")
    older.table.close()
    over = seat("tokami", tmp_path)
    over_path = over.table.start_game(["Anna", "Ben"], name="tokami-t1-b.jsonl")
    over.press("112#D#")  # stopped: over
    over.table.close()
    os.utime(old_path, (1, 1))
    assert find_unfinished(tmp_path, "tokami") == old_path
    assert over_path.exists() and find_unfinished(tmp_path, "tantrix") is None
    (tmp_path / "tokami-t1-c.jsonl").write_text("not a journal\n")
    assert find_unfinished(tmp_path, "tokami") == old_path


@pytest.mark.parametrize("kind", ["tantrix", "tokami"])
@pytest.mark.parametrize("size, mode", [((128, 64), "1"), ((128, 128), "RGB")])
def test_the_display_draws_each_table_with_its_own_screen(
    tmp_path: Path, kind: str, size: tuple[int, int], mode: str
) -> None:
    table = make_table(config_for(kind), FakeClock(), tmp_path)
    start_configured_game(table, config_for(kind))
    table.feed(RawInput("key", "1", True, 1000.0))
    image = pick_screen(table.view(), size, mode)
    assert image.size == size and image.mode == mode
    assert image.getbbox() is not None  # something is drawn
