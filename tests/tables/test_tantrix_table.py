"""The Tantrix table, played from the keypad on a fake clock, journal checked line by line."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.clock import FakeClock
from companion.config import defaults
from companion.journal import read_path
from companion.tamsk.table import RawInput
from companion.tantrix.autoplay import random_game
from companion.tantrix.game import Game, Placement
from companion.tantrix.table import TantrixTable, fold
from tests.tables.driving import (
    Seat,
    end_turn,
    lay,
    play_events,
    replay,
    seat,
    tantrix_state,
    without_run_fields,
)

#: Three tiles around (-1, 1): it becomes a forced space, and tile 2 turned once fills it.
#: (The opening of the keypad dialogue's own tests, moved so the first tile lies on (0, 0).)
C_SHAPE = [Placement(1, 0, 0, 1), Placement(7, 0, 1, 0), Placement(4, -1, 2, 1)]
FORCED = (-1, 1)


def opened(tmp_path: Path, players: tuple[str, ...] = ("red", "yellow")) -> Seat:
    s = seat("tantrix", tmp_path)
    s.table.start_game(list(players))
    for p in C_SHAPE:
        lay(s, p)
        end_turn(s)
    return s


def test_a_new_game_writes_the_header_with_players_names_and_table(tmp_path: Path) -> None:
    s = seat("tantrix", tmp_path)
    path = s.table.start_game(["blue", "red", "green"], names={"blue": "Ada"}, table=4)
    header = s.journal_lines()[0]
    assert path.name.startswith("tantrix-t4-") and path.suffix == ".jsonl"
    assert header["game"] == "tantrix" and header["players"] == ["blue", "red", "green"]
    assert header["names"] == {"blue": "Ada"} and header["table"] == 4
    assert header["software"].startswith("companion ") and "created" in header and "wall0" in header
    assert s.view["turn"] == "blue" and s.view["bag"] == 56 - 18


def test_bad_colours_are_refused_and_no_journal_is_written(tmp_path: Path) -> None:
    s = seat("tantrix", tmp_path)
    five = ["red", "yellow", "green", "blue", "red"]
    for players in (["red"], ["red", "red"], ["red", "pink"], five):
        with pytest.raises(ValueError):
            s.table.start_game(players)
    with pytest.raises(ValueError, match="not playing"):
        s.table.start_game(["red", "yellow"], names={"blue": "Ada"})
    assert list(tmp_path.iterdir()) == []
    assert s.table.game is None and s.view == {"game": None}


def test_a_placement_is_journaled_before_it_is_played_and_acknowledged(tmp_path: Path) -> None:
    s = seat("tantrix", tmp_path)
    s.table.start_game(["red", "yellow"])
    seen_when_written: list[object] = []
    s.table._on_record = lambda record: (
        seen_when_written.append(s.table.game.tile_at((0, 0))),
        s.trail.append(("record", record)),
    )
    s.press("12#")
    assert s.view["entry"]["mode"] == "place" and s.trail == []  # nothing played yet
    s.press("#")
    assert seen_when_written == [None]  # on disk while the game did not have it yet
    assert s.trail[0][0] == "record" and s.trail[-1] == ("sound", "confirm")
    assert s.table.game.tile_at((0, 0)) == (12, 0)
    last = s.journal_lines()[-1]
    assert {k: last[k] for k in ("ev", "tile", "q", "r", "rot", "src")} == {
        "ev": "place", "tile": 12, "q": 0, "r": 0, "rot": 0, "src": "keypad"
    }


def test_the_forced_space_is_offered_first_and_filled_with_one_key(tmp_path: Path) -> None:
    s = opened(tmp_path)
    assert s.view["forced"] == [list(FORCED)]
    s.press("2#")
    entry = s.view["entry"]
    assert entry["spot"] == list(FORCED) and entry["spot_is_forced"] and entry["spot_index"] == 0
    assert entry["legal"] and entry["spot_count"] > 1
    s.press("#")
    assert s.table.game.tile_at(FORCED) == (2, 1)
    assert s.view["forced"] == []


def test_an_illegal_placement_is_refused_with_its_reason_and_an_error_beep(tmp_path: Path) -> None:
    s = opened(tmp_path)
    before = s.journal.read_bytes()
    placements = s.table.game.placements
    s.press("2#C")
    assert not s.view["entry"]["legal"]
    s.press("#")
    assert s.sounds[-1] == "error"
    assert s.table.error is not None and s.table.error.startswith("golden rule: side NE of tile 2")
    assert s.view["error"] == s.table.error
    assert s.table.game.placements == placements  # the game is unchanged
    after = s.journal.read_bytes()
    assert after.startswith(before)  # only appended to
    added = after[len(before) :].decode().splitlines()
    assert len(added) == 1 and '"ev":"place","tile":2,"q":-1,"r":1,"rot":2' in added[0]
    replayed = s.replayed()
    assert [v["kind"] for v in replayed["violations"]] == ["golden rule"]
    assert replayed["violations"][0]["detail"] in s.table.error


def test_after_a_refusal_the_player_turns_the_tile_back_and_lays_it(tmp_path: Path) -> None:
    s = opened(tmp_path)
    s.press("2#C#")
    s.press("CCCCC#")  # five more sixths: back to the turn that fits
    assert s.table.game.tile_at(FORCED) == (2, 1) and s.table.error is None


def test_undo_is_journaled_as_a_correction_and_nothing_is_erased(tmp_path: Path) -> None:
    s = opened(tmp_path)
    s.press("2##")
    before = s.journal.read_bytes()
    s.press("D2")
    assert s.view["entry"]["mode"] == "undo" and s.view["entry"]["tile"] == 2
    s.press("#")
    after = s.journal.read_bytes()
    assert after.startswith(before)
    assert s.journal_lines()[-1]["ev"] == "undo"
    assert s.table.game.tile_at(FORCED) is None and s.view["forced"] == [list(FORCED)]
    assert s.sounds[-1] == "confirm"
    assert without_run_fields(s.replayed()) == tantrix_state(s)


def test_a_keypad_mistake_is_shown_buzzed_and_noted(tmp_path: Path) -> None:
    s = seat("tantrix", tmp_path)
    s.table.start_game(["red", "yellow"])
    s.press("57#")
    assert s.table.error == "there is no tile 57: tiles are 1 to 56"
    assert s.sounds == ["error"]
    note = s.journal_lines()[-1]
    assert note["ev"] == "note" and note["text"] == "keypad: there is no tile 57: tiles are 1 to 56"
    assert s.replayed()["violations"] == [] and s.table.game.placed == 0


def test_a_refusal_stays_until_the_next_key_however_long_it_waits(tmp_path: Path) -> None:
    s = seat("tantrix", tmp_path)
    s.table.start_game(["red", "yellow"])
    s.press("#")
    assert s.table.error is not None
    s.clock.set(s.table.next_wakeup() or 0.0)  # a wake-up turns its page, never ends it
    s.table.poll()
    assert s.table.error is not None
    s.clock.set(s.clock.now() + 600.0)
    s.table.poll()
    assert s.table.error is not None  # ten minutes on: still there for who looked away
    s.press("*")  # any key clears it
    assert s.table.error is None


def test_scores_and_forced_spaces_are_in_the_d_menu(tmp_path: Path) -> None:
    s = opened(tmp_path)
    s.press("D3")
    assert s.view["entry"]["mode"] == "scores"
    s.press("*D4")
    entry = s.view["entry"]
    assert entry["mode"] == "forced" and entry["spot"] == list(FORCED)
    assert entry["facing"] == ["red", "red", "blue", None, None, None]
    s.press("*")
    assert s.view["entry"]["mode"] == "tile"


def test_inputs_other_than_keys_change_nothing(tmp_path: Path) -> None:
    s = seat("tantrix", tmp_path)
    s.table.start_game(["red", "yellow"])
    lines = s.journal_lines()
    s.table.feed(RawInput("tilt", "r1", True, s.clock.now()))
    s.table.feed(RawInput("button", "menu", True, s.clock.now()))
    s.table.feed(RawInput("key", "X", True, s.clock.now()))
    assert s.journal_lines() == lines and s.sounds == []


@pytest.mark.parametrize(
    "players", [("red", "yellow"), ("green", "blue", "red"), ("red", "yellow", "green", "blue")]
)
def test_a_whole_game_typed_on_the_keypad_ends_full_and_replays_the_same(
    tmp_path: Path, players: tuple[str, ...]
) -> None:
    s = seat("tantrix", tmp_path)
    s.table.start_game(list(players))
    game = random_game(random.Random(2), players)
    play_events(s, game.events)
    assert s.table.game.placed == 56 and s.view["over"] and s.view["winner"] == game.game.winner
    assert forced_fills(game.events, players) > 0
    assert s.sounds.count("error") == 0
    replayed = s.replayed()
    assert replayed["violations"] == [] and replayed["over"]
    assert without_run_fields(replayed) == tantrix_state(s)
    assert s.table.status_line().startswith("tantrix over:")
    s.press("5#")  # the game is over: nothing more goes on the table
    assert s.table.error is not None and s.table.game.placed == 56


def forced_fills(events: list[dict[str, object]], players: tuple[str, ...]) -> int:
    """How many of a game's placements filled a forced space."""
    game = Game(players)
    count = 0
    for e in events:
        if e["ev"] == "done":
            game.end_turn()
            continue
        p = Placement(int(e["tile"]), int(e["q"]), int(e["r"]), int(e["rot"]))  # type: ignore[call-overload]
        count += game.is_forced_space(p.cell)
        game.play(p)
    return count


def test_resume_after_a_crash_mid_line_gives_the_same_state(tmp_path: Path) -> None:
    s = opened(tmp_path)
    s.press("2##")
    s.press("D2#")  # an undo, then the tile again
    s.press("2##")
    state_before = tantrix_state(s)
    path = s.journal
    s.table.close()
    data = path.read_bytes()
    path.write_bytes(data + b'{"t":99.0,"ev":"place","tile":30,"q":')  # the power failed here
    clock = FakeClock(start=5.0, wall_start=s.clock.wall() + 60.0)
    back = seat("tantrix", tmp_path, clock)
    notes = back.table.resume(path)
    assert any("incomplete" in n for n in notes)
    assert tantrix_state(back) == state_before
    assert back.view["entry"]["mode"] == "tile"
    assert path.with_name(path.name + ".torn").exists()
    journal = read_path(path)
    assert journal.intact and journal.events[-1][1]["text"] == "resumed after 60.0 s"
    assert journal.events[-1][1]["t"] >= journal.events[-2][1]["t"] + 60.0
    assert without_run_fields(replay(path)) == state_before
    end_turn(back)
    game = back.table.game
    lay(back, next(p for t in range(1, 57) for p in game.legal_placements(t)))
    assert back.table.game.placed == state_before["placed"] + 1
    assert without_run_fields(back.replayed()) == tantrix_state(back)


def test_resume_refuses_a_journal_of_another_game(tmp_path: Path) -> None:
    tokami = seat("tokami", tmp_path)
    path = tokami.table.start_game(["Anna", "Ben"])
    tokami.table.close()
    s = seat("tantrix", tmp_path)
    with pytest.raises(ValueError, match="not a Tantrix journal"):
        s.table.resume(path)
    assert s.table.game is None and s.table.writer is None


def test_the_fold_skips_a_line_that_is_not_a_tantrix_event_with_a_note() -> None:
    header = {"game": "tantrix", "players": ["red", "yellow"]}
    events = [(2, {"ev": "place", "tile": 12, "q": 0, "r": 0, "rot": 0}), (3, {"ev": "jump"})]
    game, ended, notes = fold(header, events)
    assert game.placed == 1 and not ended
    assert len(notes) == 1 and notes[0].startswith("line 3: skipped")


@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4), tiles=st.integers(1, 30))
def test_any_game_typed_on_the_keypad_replays_to_the_state_the_table_holds(
    seed: int, players: int, tiles: int
) -> None:
    colours = ("red", "yellow", "green", "blue")[:players]
    game = random_game(random.Random(seed), colours, stop_after=tiles)
    with tempfile.TemporaryDirectory() as folder:
        s = seat("tantrix", Path(folder))
        s.table.start_game(list(colours))
        play_events(s, game.events)
        if game.game.placements:
            s.press("D2#")  # and an undo, journaled as a correction
        replayed = s.replayed()
        assert replayed["violations"] == []
        assert without_run_fields(replayed) == tantrix_state(s)
        path = s.journal
        s.table.close()
        again = TantrixTable(FakeClock(), folder, config=defaults())
        again.resume(path)
        assert again.game is not None and again.game.placements == s.table.game.placements
        assert again.game.turn == s.table.game.turn
        again.close()


def test_a_placement_the_journal_cannot_take_is_not_played(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    s = opened(tmp_path)
    placements, sounds = s.table.game.placements, len(s.sounds)

    def disk_full(body: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(s.table.writer, "append", disk_full)
    with pytest.raises(OSError):
        s.press("2##")
    assert s.table.game.placements == placements and len(s.sounds) == sounds
    assert s.table.entry.game.placements == placements  # the keypad forgot it too
    monkeypatch.undo()
    s.press("2##")  # once the journal takes it again, the same keys lay the tile
    assert s.table.game.tile_at(FORCED) == (2, 1)
    assert without_run_fields(s.replayed()) == tantrix_state(s)
