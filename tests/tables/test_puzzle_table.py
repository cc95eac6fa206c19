"""A Discovery puzzle laid from the keypad on a fake clock, its journal replayed and resumed."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import registry
from companion.cli import main as cli_main
from companion.clock import FakeClock
from companion.config import defaults
from companion.hw.display import pick_screen
from companion.puzzle.simulate import simulate, summary
from companion.puzzle.table import PuzzleTable
from companion.scenario import MalformedInput
from companion.tantrix.game import Placement
from tests.tables.driving import Seat, replay, seat
from tests.tables.screen_views import DISCOVERY_4, lay_tile, puzzle_seat

#: Tile 3 on the far side of tile 4: every tile laid, but tile 3 touches a clashing side.
WRONG_3 = Placement(3, 1, 1, 0)


def started(tmp_path: Path, n: int = 4) -> Seat:
    s = puzzle_seat(tmp_path)
    s.table.start_game(n)
    return s


def layout(s: Seat) -> list[tuple[int, int, int, int]]:
    return [(t["tile"], t["q"], t["r"], t["rot"]) for t in s.view["laid"]]


def test_the_header_names_the_puzzle_and_its_size(tmp_path: Path) -> None:
    s = started(tmp_path)
    header = s.journal_lines()[0]
    assert s.journal.name.startswith("puzzle-t")
    assert (header["game"], header["puzzle"], header["n"]) == ("puzzle", "discovery", 4)
    assert s.view["colour"] == "red" and s.view["laid"] == [] and not s.view["solved"]


def test_the_known_solution_of_discovery_4_typed_on_the_keypad_is_solved(tmp_path: Path) -> None:
    s = started(tmp_path)
    for p in DISCOVERY_4:
        lay_tile(s, p)
    assert s.view["solved"] and s.view["loop"] == 4 and s.view["problems"] == []
    assert sorted(layout(s)) == sorted((p.tile, p.q, p.r, p.rot) for p in DISCOVERY_4)
    assert s.sounds == ["confirm"] * 4
    assert s.table.status_line() == "discovery 4 (red loop): SOLVED"


def test_a_layout_whose_sides_clash_is_not_solved(tmp_path: Path) -> None:
    s = started(tmp_path)
    for p in (*DISCOVERY_4[:3], WRONG_3):
        lay_tile(s, p)
    assert len(s.view["laid"]) == 4 and not s.view["solved"]
    assert any(p.startswith("golden rule") for p in s.view["problems"])
    assert "4/4 tiles laid" in s.table.status_line()


def test_a_layout_missing_a_tile_is_not_solved(tmp_path: Path) -> None:
    s = started(tmp_path)
    for p in DISCOVERY_4[:3]:
        lay_tile(s, p)
    assert not s.view["solved"] and "missing: tile 3" in s.view["problems"]


def test_the_first_tile_goes_in_the_middle(tmp_path: Path) -> None:
    s = started(tmp_path)
    s.press("2#")
    entry = s.view["entry"]
    assert (entry["mode"], entry["spot"], entry["spot_count"]) == ("place", [0, 0], 1)


def test_spots_where_the_tile_fits_are_offered_first_and_all_touch_the_layout(
    tmp_path: Path,
) -> None:
    s = started(tmp_path)
    lay_tile(s, DISCOVERY_4[0])
    s.press("2#")
    count = s.view["entry"]["spot_count"]
    fits = []
    for _ in range(count):
        entry = s.view["entry"]
        q, r = entry["spot"]
        assert max(abs(q), abs(r), abs(q + r)) == 1  # next to tile 1 at (0, 0)
        fits.append(entry["fits"])
        s.press("A")
    assert count == 6 and fits == sorted(fits, reverse=True) and fits[0]


def test_typing_a_laid_tile_offers_its_own_cell_so_c_turns_it(tmp_path: Path) -> None:
    s = started(tmp_path)
    lay_tile(s, Placement(1, 0, 0, 0))
    s.press("1#")
    assert s.view["entry"]["spot"] == [0, 0] and s.view["entry"]["rotation"] == 0
    s.press("C#")
    assert layout(s) == [(1, 0, 0, 1)]


def test_star_cancels_a_placement_and_nothing_is_journaled(tmp_path: Path) -> None:
    s = started(tmp_path)
    s.press("1#C*")
    assert s.view["entry"]["mode"] == "tile" and s.view["laid"] == []
    assert s.records == []


@pytest.mark.parametrize(
    ("keys", "reason"),
    [
        ("7#", "this puzzle uses tiles 1 to 4, not 7"),
        ("0#", "this puzzle uses tiles 1 to 4, not 0"),
        ("#", "type the number on the back of a tile, then #"),
        ("A", "type a tile number first (D: menu)"),
        ("123", "tile numbers have two digits at most: 123 cleared, type the number again"),
        ("1#5", "A/B: next spot, C: rotate, #: lay, *: back"),
        ("D1", "no tile lies on the table to lift"),
        ("D9", "1-3 or A/B and #: choose, *: back"),
    ],
)
def test_an_impossible_key_is_refused_with_its_reason_and_changes_nothing(
    tmp_path: Path, keys: str, reason: str
) -> None:
    s = started(tmp_path)
    s.press(keys)
    assert s.table.error == reason and s.sounds == ["error"]
    assert s.view["laid"] == [] and s.view["error"] == reason
    assert [r["ev"] for r in s.records] == ["note"] and reason in s.records[0]["text"]
    assert replay(s.journal)["laid"] == []


def test_a_third_digit_clears_the_number_so_hash_never_lays_another(tmp_path: Path) -> None:
    """``134#`` does not offer tile 13 (nor 1): the digits were cleared with the refusal."""
    s = started(tmp_path, n=14)
    s.press("134#")
    assert s.table.error == "type the number on the back of a tile, then #"
    assert s.view["entry"]["mode"] == "tile"


def test_a_refusal_leaves_the_layout_and_the_next_key_clears_it(tmp_path: Path) -> None:
    s = started(tmp_path)
    lay_tile(s, DISCOVERY_4[0])
    before = layout(s)
    s.press("9#")
    assert s.table.error and layout(s) == before
    s.press("*")
    assert s.table.error is None and layout(s) == before


def test_lift_from_the_menu_takes_the_picked_tile_off(tmp_path: Path) -> None:
    s = started(tmp_path)
    for p in DISCOVERY_4[:2]:
        lay_tile(s, p)
    s.press("D1")
    assert s.view["entry"] == {"mode": "lift", "typed": "", "tile": 1, "spot": [0, 0], "cursor": 0}
    s.press("A#")
    assert [t[0] for t in layout(s)] == [1]
    assert s.records[-1]["ev"] == "lift" and s.records[-1]["tile"] == 2


def test_restart_lifts_every_tile_after_a_confirmation(tmp_path: Path) -> None:
    s = started(tmp_path)
    for p in DISCOVERY_4:
        lay_tile(s, p)
    s.press("D2*")  # back to the menu: nothing happens
    assert len(s.view["laid"]) == 4 and s.view["entry"]["mode"] == "menu"
    s.press("2#")
    assert s.view["laid"] == [] and s.records[-1]["ev"] == "restart"


def test_next_puzzle_starts_a_new_journal_with_one_more_tile(tmp_path: Path) -> None:
    s = started(tmp_path)
    for p in DISCOVERY_4:
        lay_tile(s, p)
    first = s.journal
    s.press("D3")
    assert s.journal != first and s.journal_lines()[0]["n"] == 5
    assert s.view["n"] == 5 and s.view["colour"] == "red" and s.view["laid"] == []


def test_every_lay_is_journaled_before_its_sound(tmp_path: Path) -> None:
    s = started(tmp_path)
    lay_tile(s, DISCOVERY_4[0])
    kinds = [kind for kind, _ in s.trail]
    assert kinds == ["record", "sound"]
    sealed = {"t": 0, "wall": 0, "hash": "", "seq": 0, "prev": "", "sig": ""}
    assert s.records[0] | sealed == {
        "t": 0, "wall": 0, "hash": "", "seq": 0, "prev": "", "sig": "",
        "ev": "lay", "tile": 1, "q": 0, "r": 0, "rot": 5, "src": "keypad",
    }  # fmt: skip


def test_resuming_the_journal_gives_the_same_layout(tmp_path: Path) -> None:
    s = started(tmp_path)
    for p in DISCOVERY_4[:3]:
        lay_tile(s, p)
    s.press("9#")  # a slip in the journal too
    path, before = s.journal, layout(s)
    s.table.close()
    again = puzzle_seat(tmp_path)
    notes = again.table.resume(path)
    assert notes == [] and layout(again) == before and again.view["n"] == 4
    lay_tile(again, DISCOVERY_4[3])
    assert again.view["solved"]


def test_a_journal_of_another_game_is_not_resumed(tmp_path: Path) -> None:
    tantrix = seat("tantrix", tmp_path)
    other = tantrix.table.start_game(["red", "yellow"])
    tantrix.table.close()
    with pytest.raises(ValueError, match="not a Puzzle journal"):
        puzzle_seat(tmp_path).table.resume(other)


def test_companion_simulate_replays_the_puzzle_journal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    s = started(tmp_path)
    for p in DISCOVERY_4:
        lay_tile(s, p)
    assert cli_main(["simulate", str(s.journal), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["solved"] and result["loop"] == 4 and result["violations"] == []
    assert result["laid"] == s.view["laid"]
    assert cli_main(["simulate", str(s.journal)]) == 0
    assert "SOLVED: a red loop of 4 tiles" in capsys.readouterr().out


def test_simulate_reports_what_cannot_happen_on_a_table_as_violations() -> None:
    events = [
        (2, {"ev": "lay", "tile": 1, "q": 0, "r": 0, "rot": 0}),
        (3, {"ev": "lay", "tile": 2, "q": 0, "r": 0, "rot": 0}),
        (4, {"ev": "lay", "tile": 9, "q": 1, "r": 0}),
        (5, {"ev": "lift", "tile": 3}),
    ]
    result = simulate({"game": "puzzle", "puzzle": "discovery", "n": 3}, events)
    assert [v["line"] for v in result["violations"]] == [3, 4, 5]
    assert result["violations"][0]["detail"] == "tile 1 already lies at (0, 0)"
    assert result["violations"][2]["detail"] == "tile 3 is not on the table"
    assert [t["tile"] for t in result["laid"]] == [1]
    assert "Refused:" in summary(result)


@pytest.mark.parametrize(
    ("header", "event", "message"),
    [
        ({"n": 2}, {"ev": "note"}, 'the header needs "n"'),
        ({"n": 4, "puzzle": "sunset"}, {"ev": "note"}, "unknown puzzle 'sunset'"),
        ({"n": 4}, {"ev": "place"}, "unknown event 'place'"),
        ({"n": 4}, {"ev": "lay", "tile": 1, "q": 0}, 'a lay event needs "r"'),
        ({"n": 4}, {"ev": "lay", "tile": 1, "q": 0, "r": 0, "rot": 6}, '"rot" must be between'),
        ({"n": 4}, {"ev": "lift", "tile": "1"}, '"tile" must be an integer'),
    ],
)
def test_simulate_names_a_malformed_line(
    header: dict[str, object], event: dict[str, object], message: str
) -> None:
    with pytest.raises(MalformedInput, match=message):
        simulate({"game": "puzzle", **header}, [(2, event)])


def test_the_puzzle_kind_is_registered_and_drawn() -> None:
    with tempfile.TemporaryDirectory() as folder:
        table = registry.get("puzzle").make_table(FakeClock(), folder, config=defaults())
        assert isinstance(table, PuzzleTable)
    with tempfile.TemporaryDirectory() as folder:
        s = started(Path(folder))
        image = pick_screen(s.view, (128, 64), "1")
        s.table.close()
    assert image.size == (128, 64) and image.getbbox() is not None


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet="0123456789ABCD*#", max_size=60))
def test_any_keys_leave_a_journal_that_replays_to_the_same_layout(keys: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        s = started(Path(folder))
        s.press(keys)
        view, replayed = s.view, replay(s.journal)
        s.table.close()
    assert replayed["n"] == view["n"] and replayed["laid"] == view["laid"]
    assert replayed["solved"] == view["solved"] and replayed["violations"] == []


def test_the_table_option_sets_up_a_keypad_puzzle_of_that_size(tmp_path: Path) -> None:
    from companion.clock import FakeClock
    from companion.puzzle.cli import table_config
    from companion.tables import make_table, start_configured_game

    table = make_table(table_config(6), FakeClock(), tmp_path)
    start_configured_game(table, table_config(6))
    assert isinstance(table, PuzzleTable) and table.view()["n"] == 6
    assert table.view()["colour"] == "blue"
    table.close()
