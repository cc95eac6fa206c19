"""Every cell a player reads in the Tantrix keypad dialogue (the note after a placement, the
spot being offered, the undo question, the forced spaces, the solo modes' "laid at") is named as
the screen's map names it at that moment, in the players' language; the journal keeps the
engine's exact coordinates."""

from __future__ import annotations

import json
import random
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion import i18n
from companion.tantrix.cellnames import CellNames
from companion.tantrix.entry import KeypadEntry
from companion.tantrix.game import Game, Placement
from companion.tantrix.screens import refusal_title
from tests.tables.driving import Seat, end_turn, lay_solo, play_events, seat
from tests.tantrix.test_tantrix_entry import C_SHAPE, table, type_keys

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tantrix"))
from solo_play import random_solitaire  # noqa: E402

#: An engine cell as a player must never read it: ``2,-1`` or ``2, -1``.
RAW = re.compile(r"-?\d+, ?-?\d+")


@pytest.fixture
def s(tmp_path: Path) -> Iterator[Seat]:
    one = seat("tantrix", tmp_path)
    yield one
    one.table.close()


def _journal(s: Seat) -> list[dict[str, object]]:
    return [json.loads(line) for line in s.journal.read_text().splitlines()]


def test_placement_note_names_the_cell_as_the_map_does(s: Seat) -> None:
    s.table.start_game(["red", "yellow"])
    play_events(s, [{"ev": "place", "tile": 1, "q": 0, "r": 0, "rot": 0}, {"ev": "done"}])
    s.press("7#")
    spot = tuple(s.view["entry"]["spot"])
    s.press("#")
    view = s.view
    placed = [t for t in view["tiles"] if t["tile"] == 7][0]
    assert (placed["q"], placed["r"]) == spot
    cell = CellNames.of_view(view).name(*spot)
    assert view["entry"]["prompt"].startswith(f"tile 7 placed at {cell}. ")
    assert not RAW.search(view["entry"]["prompt"])
    laid = [r for r in _journal(s) if r.get("ev") == "place" and r.get("tile") == 7][0]
    assert (laid["q"], laid["r"]) == spot  # the journal keeps the coordinates


def test_the_offered_spot_and_the_undo_question_name_the_cell_as_the_map_does(s: Seat) -> None:
    s.table.start_game(["red", "yellow"])
    play_events(s, [{"ev": "place", "tile": 1, "q": 0, "r": 0, "rot": 0}])
    end_turn(s)
    s.press("7#A")
    view = s.view
    names = CellNames.of_view(view)
    spot = view["entry"]["spot"]
    assert f" at {names.name(*spot)} rotation " in view["entry"]["prompt"]
    assert not RAW.search(view["entry"]["prompt"])
    s.press("#D2")
    view = s.view
    assert view["entry"]["prompt"] == (
        f"undo tile 7 at {CellNames.of_view(view).name(*spot)}? #: yes, *: no")


def test_forced_spaces_are_listed_by_their_map_names() -> None:
    game = table(C_SHAPE)
    entry = KeypadEntry(game)
    names = CellNames.of([p.cell for p in game.placements] + game.forced_spaces())
    assert names.name(0, 0) == "c2"
    assert entry.screen.status[1] == "forced: 1 c2"
    assert type_keys(entry, "D4")[-1].lines == ("c2: RRB---",)


def test_a_tile_laid_above_the_top_row_renames_the_rows_in_the_note() -> None:
    """The note names the cell on the map as it is drawn once the tile lies: the spot offered
    as ``a1`` (the free row above the first tile) is ``b2`` once a tile is on it: a new
    row above, and a new column on the left (its row is offset half a hexagon)."""
    game = Game(["red", "yellow"])
    game.play(Placement(1, 0, 0, 0))
    game.end_turn()
    tile = next(t for t in range(2, 57) if any(game.is_legal(Placement(t, 0, -1, rot))
                                               for rot in range(6)))
    entry = KeypadEntry(game)
    screen = type_keys(entry, f"{tile}#")[-1]
    while screen.spot != (0, -1):
        screen = entry.press("A")
    assert " at a1 " in screen.prompt
    while not screen.legal:
        screen = entry.press("C")
    assert entry.press("#").prompt.startswith(f"tile {tile} placed at b2. ")


@pytest.mark.parametrize(
    ("lang", "words"), [("fr", "tuile 7 posée en "), ("cs", "destička 7 položena na ")]
)
def test_the_placement_note_is_said_in_the_players_language(lang: str, words: str) -> None:
    i18n.use(lang)
    game = Game(["red", "yellow"])
    game.play(Placement(1, 0, 0, 0))
    game.end_turn()
    screen = type_keys(KeypadEntry(game), "7##")[-1]
    assert screen.prompt.startswith(words)
    assert not RAW.search(screen.prompt)


def test_the_solo_laid_note_names_the_cell_as_the_map_does(s: Seat) -> None:
    _game, events = random_solitaire(random.Random(4), stop_after=6)
    s.table.start_solo("solitaire")
    from tests.tables.driving import play_solo_events

    play_solo_events(s, events)
    view = s.view
    last = [e for e in events if e["ev"] == "place"][-1]
    cell = CellNames.of_view(view).name(int(last["q"]), int(last["r"]))
    assert view["entry"]["prompt"].startswith(f"tile {last['tile']} laid at {cell}. ")
    assert not RAW.search(view["entry"]["prompt"])


def test_a_rainbow_tile_laid_is_named_as_the_map_does(s: Seat) -> None:
    s.table.start_solo("rainbow", puzzle="blue")
    tile = int(s.view["puzzle_tiles"][0])
    lay_solo(s, Placement(tile, 0, 0, 0))
    view = s.view
    assert CellNames.of_view(view).name(0, 0) == "b2"
    assert view["entry"]["prompt"].startswith(f"tile {tile} laid at b2. ")


def test_the_solo_note_and_prompt_are_said_in_french(s: Seat) -> None:
    """The solo screen draws the prompt's last sentence: it, and the note before it, are the
    catalog's, not English left behind."""
    i18n.use("fr")
    s.table.start_solo("rainbow", puzzle="blue")
    tile = int(s.view["puzzle_tiles"][0])
    lay_solo(s, Placement(tile, 0, 0, 0))
    assert s.view["entry"]["prompt"] == f"tuile {tile} posée en b2. tuile ? _  D : menu"


def test_a_tile_already_on_the_table_is_refused_naming_its_cell_as_the_map_does(
    s: Seat,
) -> None:
    s.table.start_game(["red", "yellow"])
    play_events(s, [{"ev": "place", "tile": 1, "q": 0, "r": 0, "rot": 0}, {"ev": "done"}])
    s.press("1#")
    view = s.view
    assert view["error"] == "tile 1 already lies at (0, 0)"  # as journaled
    _title, words = refusal_title(CellNames.of_view(view).in_text(view["error"]))
    assert words == "tile 1 already lies at b2"
    i18n.use("fr")
    assert refusal_title(CellNames.of_view(view).in_text(view["error"]))[1].endswith(" b2")
