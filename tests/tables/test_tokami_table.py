"""The Tokami table, scored from the keypad on a fake clock, journal checked line by line.

Keys: 1 higher + bonus, 2 higher, 3 fell, 4 not higher, 5 declined; then colours by their
number in the block set (here 1 red, 2 yellow, 3 blue); # saves, * goes back; A undo, D stop.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.clock import FakeClock
from companion.journal import read_path
from companion.tokami.table import NOTES, fold
from tests.tables.driving import Seat, replay, seat

#: A small box so a round is over after five blocks come off the cross (nine, down to four).
SMALL_BOX = {"red": 3, "yellow": 3, "blue": 3}


def started(tmp_path: Path, **options: Any) -> Seat:
    s = seat("tokami", tmp_path)
    options.setdefault("blocks", SMALL_BOX)
    s.table.start_game(options.pop("players", ["Anna", "Ben", "Chloé"]), **options)
    return s


def state(s: Seat) -> dict[str, Any]:
    game = s.table.game
    assert game is not None
    result: dict[str, Any] = game.as_dict()
    return result


def replayed_state(path: Path) -> dict[str, Any]:
    only_replay = ("t", "history", "corrections", "violations")
    return {k: v for k, v in replay(path).items() if k not in only_replay}


def test_a_new_game_writes_the_setup_in_the_header(tmp_path: Path) -> None:
    s = started(tmp_path, rounds=2, table=3)
    header = s.journal_lines()[0]
    assert s.journal.name.startswith("tokami-t3-")
    assert header["game"] == "tokami" and header["players"] == ["Anna", "Ben", "Chloé"]
    assert header["blocks"] == SMALL_BOX and header["rounds"] == 2
    assert header["worthless"] == "red" and header["round_ends_at"] == 4
    assert header["table"] == 3 and "software" in header and "wall0" in header
    view = s.view
    assert view["turn"] == "Anna" and view["blocks_left"] == 9 and view["forbidden"] is None
    assert view["entry"]["stage"] == "outcome"


def test_a_bad_setup_is_refused_and_no_journal_is_written(tmp_path: Path) -> None:
    s = seat("tokami", tmp_path)
    with pytest.raises(ValueError, match="2 to 5 players"):
        s.table.start_game(["Anna"])
    with pytest.raises(ValueError, match="same name"):
        s.table.start_game(["Anna", "Anna"])
    with pytest.raises(ValueError, match="colours 1-9"):
        s.table.start_game(["Anna", "Ben"], blocks={f"c{i}": 2 for i in range(10)})
    assert list(tmp_path.iterdir()) == [] and s.view == {"game": None}


def test_a_turn_is_journaled_before_it_is_scored_and_acknowledged(tmp_path: Path) -> None:
    s = started(tmp_path)
    turns_when_written: list[int] = []
    s.table._on_record = lambda record: (
        turns_when_written.append(len(s.table.game.history)),
        s.trail.append(("record", record)),
    )
    s.press("112")  # higher + bonus: red went higher, yellow taken
    assert s.trail == [] and s.view["entry"]["stage"] == "confirm"
    s.press("#")
    assert turns_when_written == [0]
    assert [kind for kind, _ in s.trail] == ["record", "sound"] and s.sounds == ["confirm"]
    last = s.journal_lines()[-1]
    assert {k: last[k] for k in ("ev", "block", "bonus", "player", "src")} == {
        "ev": "bonus", "block": "red", "bonus": "yellow", "player": "Anna", "src": "keypad"
    }
    view = s.view
    assert view["standings"][0] == ["Anna", 1] and view["turn"] == "Ben"
    assert view["forbidden"] == "red" and view["blocks_left"] == 8
    assert view["last_turn"] == "Anna: red higher, bonus yellow"


def test_two_rounds_typed_on_the_keypad_add_up_and_replay_the_same(tmp_path: Path) -> None:
    s = started(tmp_path, rounds=2)
    # Round 1: five blocks come off the cross.
    s.press("112#")  # Anna: red higher, bonus yellow: +1
    s.press("331#0#")  # Ben: blue and red fell (the forbidden red may fall), none in hand: -2
    s.press("42#")  # Chloé: yellow would not go higher: -1
    s.press("23#")  # Anna: blue higher, no bonus; blue is now forbidden
    s.press("5#")  # Ben declines and takes the forbidden blue: -1, and four blocks are left
    view = s.view
    assert view["round"] == 2 and view["blocks_left"] == 9 and view["turn"] == "Chloé"
    assert dict(view["standings"]) == {"Anna": 1, "Ben": -3, "Chloé": -1}
    # Round 2 starts with the player after Ben, every block back on the cross.
    s.press("113#")  # Chloé: red higher, bonus blue: +1
    s.press("32#3#")  # Anna: yellow fell with blue in hand: -2
    s.press("121#")  # Ben: yellow higher, bonus red, worth nothing: 0
    s.press("132#")  # Chloé: blue higher, bonus yellow: +1; four left, the game is over
    view = s.view
    assert view["over"] and view["reason"] == "rounds" and view["winner"] == "Chloé"
    assert view["standings"] == [["Chloé", 1], ["Anna", -1], ["Ben", -3]]
    assert view["entry"]["stage"] == "over"
    assert s.sounds == ["confirm"] * 9
    assert replayed_state(s.journal) == state(s)
    assert replay(s.journal)["violations"] == []
    assert s.table.status_line() == "tokami over: Chloé wins (Chloé 1 Anna -1 Ben -3)"


def test_the_forbidden_block_is_refused_and_the_attempt_journaled(tmp_path: Path) -> None:
    s = started(tmp_path, blocks={"red": 1, "yellow": 4, "blue": 4})
    s.press("21#")  # Anna puts the only red block higher: it is forbidden to Ben
    before = s.journal.read_bytes()
    s.press("21")  # Ben wants to move it
    assert s.sounds[-1] == "error"
    assert s.table.error is not None and "forbidden to Ben" in s.table.error
    assert s.view["entry"]["stage"] == "block"  # he chooses another block
    after = s.journal.read_bytes()
    assert after.startswith(before)
    attempt = s.journal_lines()[-1]
    assert {k: attempt[k] for k in ("ev", "block", "player")} == {
        "ev": "higher", "block": "red", "player": "Ben"
    }
    violations = replay(s.journal)["violations"]
    assert [v["kind"] for v in violations] == ["forbidden block"]
    assert violations[0]["detail"] == s.table.error
    s.press("2#")  # yellow instead
    assert s.view["forbidden"] == "yellow" and s.table.error is None
    assert replayed_state(s.journal) == state(s)


def test_declining_with_nothing_forbidden_is_refused_and_journaled(tmp_path: Path) -> None:
    s = started(tmp_path)
    s.press("5")
    assert s.table.error is not None and s.sounds == ["error"]
    assert s.journal_lines()[-1]["ev"] == "declined"
    assert [v["kind"] for v in replay(s.journal)["violations"]] == ["no forbidden block"]
    assert state(s)["turns"] == 0


def test_undo_is_journaled_as_a_correction_and_nothing_is_erased(tmp_path: Path) -> None:
    s = started(tmp_path)
    s.press("112#")
    before = s.journal.read_bytes()
    s.press("A")
    assert s.view["entry"]["stage"] == "confirm_undo"
    s.press("#")
    assert s.journal.read_bytes().startswith(before)
    assert s.journal_lines()[-1]["ev"] == "undo"
    assert s.view["turn"] == "Anna" and s.view["blocks_left"] == 9
    assert replayed_state(s.journal) == state(s)
    assert len(replay(s.journal)["corrections"]) == 1


def test_undo_with_nothing_to_undo_is_refused_and_journaled(tmp_path: Path) -> None:
    s = started(tmp_path)
    s.press("A")
    assert s.table.error is not None and "nothing to undo" in s.table.error
    assert s.journal_lines()[-1]["ev"] == "undo"
    assert [v["kind"] for v in replay(s.journal)["violations"]] == ["nothing to undo"]


def test_a_key_out_of_place_is_shown_and_buzzed_but_changes_nothing(tmp_path: Path) -> None:
    s = started(tmp_path)
    lines = s.journal_lines()
    s.press("9")
    assert s.table.error == "first say what happened: a key from 1 to 5"
    assert s.sounds == ["error"]
    added = s.journal_lines()[len(lines) :]
    # Only a note, and only once the Tokami replay reads notes: a journal stays replayable.
    assert [e["ev"] for e in added] == (["note"] if NOTES else [])
    assert state(s)["turns"] == 0


def test_ending_the_game_at_the_keypad_journals_the_resignation_and_who_resigned(
    tmp_path: Path,
) -> None:
    s = started(tmp_path)
    s.press("112#D")
    assert s.journal_lines()[-1]["ev"] != "resign"  # D only asks
    s.press("#")
    resign, final = s.journal_lines()[-2:]
    assert resign["ev"] == "resign" and resign["player"] == "Ben"
    assert final["final"] == {"winner": "Anna", "reason": "resigned", "resigned": "Ben",
                              "records": final["seq"] + 1}  # the journal's length
    assert s.view["over"] and s.view["reason"] == "resigned" and s.view["winner"] == "Anna"
    s.press("2")
    assert s.table.error is not None and "resigned" in s.table.error
    assert replayed_state(s.journal) == state(s)


def test_resume_after_a_crash_mid_line_gives_the_same_state(tmp_path: Path) -> None:
    s = started(tmp_path, rounds=2)
    s.press("112#331#0#42#")
    s.press("A#")
    s.press("43#")
    expected = state(s)
    path = s.journal
    s.table.close()
    path.write_bytes(path.read_bytes() + b'{"t":30.1,"ev":"bonus","blo')  # the power failed
    clock = FakeClock(start=2.0, wall_start=s.clock.wall() + 300.0)
    back = seat("tokami", tmp_path, clock)
    notes = back.table.resume(path)
    assert any("incomplete" in n for n in notes)
    assert state(back) == expected
    assert read_path(path).intact
    assert replayed_state(path) == expected
    back.press("22#")  # play goes on where it stopped
    assert back.journal_lines()[-1]["t"] >= 300.0
    assert replayed_state(path) == state(back)


def test_the_fold_skips_a_line_that_is_not_a_tokami_event_with_a_note() -> None:
    header = {"game": "tokami", "players": ["Anna", "Ben"]}
    events = [(2, {"ev": "higher", "block": "red"}), (3, {"ev": "jump"})]
    game, notes = fold(header, events)
    assert len(game.history) == 1
    assert len(notes) == 1 and notes[0].startswith("line 3: skipped")


def test_resume_refuses_a_journal_of_another_game(tmp_path: Path) -> None:
    tantrix = seat("tantrix", tmp_path)
    path = tantrix.table.start_game(["red", "yellow"])
    tantrix.table.close()
    s = seat("tokami", tmp_path)
    with pytest.raises(ValueError, match="not a Tokami journal"):
        s.table.resume(path)
    assert s.table.game is None


def test_a_turn_the_journal_cannot_take_is_not_scored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    s = started(tmp_path)
    before = state(s)

    def disk_full(body: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(s.table.writer, "append", disk_full)
    with pytest.raises(OSError):
        s.press("112#")
    assert state(s) == before and s.sounds == []
    assert s.table.entry.game.as_dict() == before  # the keypad forgot it too
    monkeypatch.undo()
    s.press("112#")
    assert s.view["standings"][0] == ["Anna", 1]
    assert replayed_state(s.journal) == state(s)
