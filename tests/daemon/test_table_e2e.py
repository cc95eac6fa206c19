"""The table end to end on gpiozero's mock pins: what a player does, sees and hears."""

from __future__ import annotations

from pathlib import Path

from companion.tamsk.game import Rules
from companion.tamsk.screens import table_screen
from companion.verify import verify_path
from tests.daemon.harness import make_rig


def test_a_flip_is_journaled_as_lift_then_release_with_the_typed_destination(
    tmp_path: Path,
) -> None:
    rig = make_rig(tmp_path)
    rig.keys(1.0, "12#")  # a2
    rig.flip(3.0, "r1", chatter=[0.004, 0.011])
    rig.press(3.6, "ring.red")
    rig.run(until=5.0)
    events = rig.game_events()
    assert [e["ev"] for e in events] == ["lift", "release", "ring"]
    assert events[0]["t"] == 3.0  # the first edge is the lift
    assert events[1] == {"t": 3.03, "ev": "release", "glass": "r1", "to": "a2"}
    assert events[2]["player"] == "red"
    state = rig.table.game.snapshot()
    assert state["spaces"] == {"a2": 1} and state["turn"] == "black"
    assert verify_path(rig.table.journal_path).ok


def test_a_bouncing_ring_button_drops_one_ring(tmp_path: Path) -> None:
    rig = make_rig(tmp_path)
    rig.flip(3.0, "r1")
    rig.press(3.5, "ring.red", bounce=True)
    rig.run(until=5.0)
    assert [e["ev"] for e in rig.game_events()].count("ring") == 1
    assert rig.table.game.rings_left["red"] == 31


def test_a_glass_put_back_the_same_way_up_is_no_move(tmp_path: Path) -> None:
    rig = make_rig(tmp_path)
    rig.tilt(3.0, "r1", True)
    rig.tilt(3.1, "r1", False)  # settles back in the old orientation
    rig.run(until=5.0)
    assert [e["ev"] for e in rig.game_events()] == ["lift", "putback"]
    assert rig.table.game.turn == "red" and rig.table.game.moves == []


def test_a_glass_held_horizontally_is_warned_and_logged(tmp_path: Path) -> None:
    rig = make_rig(tmp_path)
    for i in range(40):  # the ball rolls to and fro for 2 s
        rig.tilt(3.0 + 0.05 * i, "r1", i % 2 == 0)
    rig.sample(4.6, "warned")
    rig.run(until=6.0)
    assert rig.samples["warned"]["view"]["warning"] == "r1 held horizontally"
    notes = [r["text"] for r in rig.records() if r["ev"] == "note"]
    assert "r1 held horizontally" in notes


def test_an_opponents_lift_during_the_settle_time_is_journaled_after_the_release(
    tmp_path: Path,
) -> None:
    rig = make_rig(tmp_path, rules=Rules(level=2))
    rig.flip(3.0, "r1")
    rig.flip(3.1, "b1")  # black starts 100 ms later, before red's switch has settled
    rig.run(until=5.0)
    events = rig.game_events()
    assert [(e["ev"], e["glass"]) for e in events] == [
        ("lift", "r1"),
        ("release", "r1"),
        ("lift", "b1"),
        ("release", "b1"),
    ]
    assert [e["t"] for e in events] == sorted(e["t"] for e in events)
    assert rig.table.game.violations == []


def test_a_refused_move_beeps_the_error_and_shows_why(tmp_path: Path) -> None:
    rig = make_rig(tmp_path, rules=Rules(level=2))
    rig.flip(3.0, "b1")  # black moves on red's turn
    rig.sample(3.3, "after")
    rig.run(until=4.0)
    assert "error" in [s for _, s in rig.sounds]
    after = rig.samples["after"]
    assert after["frequency"] is not None and after["frequency"] > 0  # the buzzer sounds
    assert "red's turn" in after["view"]["warning"]
    assert rig.table.game.violations[0].kind == "out-of-turn"


def test_the_15_second_timer_chirps_ticks_its_last_five_seconds_and_ends_with_a_long_tone(
    tmp_path: Path,
) -> None:
    rig = make_rig(tmp_path)
    rig.flip(3.0, "r1")
    rig.press(4.0, "timer15.red")  # red times black
    rig.sample(4.05, "chirp")
    rig.sample(12.0, "silent")
    rig.sample(19.2, "long tone")  # expiry at 19.0: a forfeit
    rig.run(until=22.0)
    kinds = [s for _, s in rig.sounds]
    assert kinds.count("tick") == 5
    ticks = [t - rig.t0 for t, s in rig.sounds if s == "tick"]
    assert [round(x) for x in ticks] == [14, 15, 16, 17, 18]
    assert "timer_start" in kinds and "timer_out" in kinds
    assert rig.samples["chirp"]["frequency"]
    assert not rig.samples["silent"]["frequency"]
    assert rig.samples["long tone"]["frequency"]
    assert [p.kind for p in rig.table.game.penalties] == ["forfeit"]


def test_the_oled_shows_what_the_game_state_says(tmp_path: Path) -> None:
    rig = make_rig(tmp_path)
    rig.flip(3.0, "r1")
    rig.press(3.5, "ring.red")
    rig.press(4.0, "timer15.red")
    rig.sample(9.0, "countdown")
    rig.run(until=9.5)
    sample = rig.samples["countdown"]
    view = sample["view"]
    assert view["timer15"]["running"] and view["rings_left"]["red"] == 31
    # what the luma device holds is exactly the table screen of that moment's state
    shown = sample["device"]
    assert shown.tobytes() == table_screen(view, size=(128, 64), mode="1").tobytes()
    lit = shown.crop((40, 39, 128, 64)).convert("L").tobytes().count(b"\xff")
    assert lit > 60  # the big countdown digits under the glasses


def test_running_sand_is_redrawn_at_most_ten_times_a_second(tmp_path: Path) -> None:
    rig = make_rig(tmp_path)
    rig.flip(3.0, "r1")
    rig.run(until=13.0)
    times = [t for t, _ in rig.frames if t - rig.t0 > 3.5]
    gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
    assert gaps and min(gaps) >= 0.1 - 1e-9
    assert len(times) >= 9  # the seconds shown change every second: a new frame each time


def test_an_input_is_on_the_screen_at_once(tmp_path: Path) -> None:
    rig = make_rig(tmp_path)
    rig.flip(3.0, "r1")
    rig.tilt(3.05 + 0.25, "b1", True)  # black lifts just after red's release settled
    rig.run(until=5.0)
    lift_frames = [t - rig.t0 for t, _ in rig.frames if abs(t - rig.t0 - 3.3) < 1e-6]
    assert len(lift_frames) == 1  # drawn at the instant of the lift, not at the next 10 fps tick


def test_a_glass_about_to_run_out_is_warned(tmp_path: Path) -> None:
    rig = make_rig(tmp_path, rules=Rules(level=2, periods={"r1": 30.0}))
    rig.flip(3.0, "r1")
    rig.sample(24.0, "low")
    rig.run(until=25.0)
    assert "low_sand" in [s for _, s in rig.sounds]
    assert rig.samples["low"]["view"]["warning"] == "r1 < 10 s"


def test_with_arbiter_mode_on_a_long_press_on_menu_does_not_end_the_game(tmp_path: Path) -> None:
    from companion.arbiter.pin import hash_pin
    from companion.config import defaults

    config = defaults()
    config["arbiter"]["pin_hash"] = hash_pin("2468", n=16)
    rig = make_rig(tmp_path, config=config)
    rig.flip(3.0, "r1")
    rig.press(5.0, "menu", hold=2.5)
    rig.run(until=9.0)
    assert "end" not in [e["ev"] for e in rig.game_events()]
    assert rig.table.game is not None and not rig.table.game.over
    assert "error" in [s for _, s in rig.sounds]


def test_a_long_press_on_menu_ends_the_game(tmp_path: Path) -> None:
    rig = make_rig(tmp_path)
    rig.flip(3.0, "r1")
    rig.press(3.5, "ring.red")
    rig.press(5.0, "menu", hold=2.5)
    rig.run(until=9.0)
    assert rig.game_events()[-1]["ev"] == "end"
    assert rig.table.game.over and rig.table.game.outcome.winner == "red"


def test_a_player_cannot_end_a_game_from_the_keypad_menu_by_starting_a_new_one(
    tmp_path: Path,
) -> None:
    rig = make_rig(tmp_path)
    first = rig.table.journal_path
    rig.flip(3.0, "r1")
    rig.keys(5.0, "D")
    rig.keys(5.5, "22#")  # level 2, original rules: refused while the game is on
    rig.run(until=7.0)
    assert rig.table.journal_path == first
    assert rig.table.game is not None and not rig.table.game.over
    assert "error" in [s for _, s in rig.sounds]
    assert "end" not in [e["ev"] for e in rig.game_events()]


def test_star_clears_the_menu_s_digits_then_closes_the_menu(tmp_path: Path) -> None:
    rig = make_rig(tmp_path)
    rig.flip(3.0, "r1")
    rig.keys(5.0, "D2*")  # the menu, a digit typed, cleared: still the menu
    rig.sample(5.5, "cleared")
    rig.keys(6.0, "*")  # nothing left to clear: back to the game (Esc and Backspace are *)
    rig.sample(6.5, "closed")
    rig.run(until=7.0)
    cleared, closed = rig.samples["cleared"]["view"], rig.samples["closed"]["view"]
    assert cleared["paused"] and cleared["entry"] == ""
    assert not closed["paused"]
    assert rig.table.game is not None and not rig.table.game.over


def test_resigning_needs_a_second_press_and_names_the_resigner(tmp_path: Path) -> None:
    rig = make_rig(tmp_path)
    rig.flip(3.0, "r1")
    rig.keys(5.0, "DA")  # red's resign key once: only asked
    rig.sample(5.3, "asked")
    rig.keys(6.0, "*")  # changed his mind
    rig.sample(7.0, "cancelled")
    rig.keys(8.0, "AA")  # still in the menu: asked, then confirmed
    rig.run(until=10.0)
    assert "red resigns?" in str(rig.samples["asked"]["view"]["warning"])
    assert rig.samples["cancelled"]["view"]["warning"] is None
    assert [e["ev"] for e in rig.game_events()].count("resign") == 1
    assert rig.game_events()[-1]["ev"] == "resign"
    assert rig.game_events()[-1]["player"] == "red"
    outcome = rig.table.game.outcome
    assert outcome is not None and (outcome.winner, outcome.reason) == ("black", "resignation")
    assert outcome.ended_by == "red"


def test_after_a_resignation_the_menu_starts_a_new_game(tmp_path: Path) -> None:
    rig = make_rig(tmp_path)
    first = rig.table.journal_path
    rig.keys(1.0, "DBB")
    rig.keys(2.0, "D22#")
    rig.run(until=4.0)
    assert first is not None and rig.table.journal_path != first
    from companion.journal import read_path

    old = read_path(first)
    assert old.events[-2][1]["ev"] == "resign"
    final = old.events[-1][1]  # a finished game's journal ends with its final record
    assert final["ev"] == "note" and final["final"]["winner"] == "red"
    assert final["final"]["reason"] == "resignation" and final["final"]["ended_by"] == "black"
    assert verify_path(first, key=rig.table.signer.public).final_seen
    new = read_path(rig.table.journal_path)
    assert new.header is not None
    assert (new.header["level"], new.header["ruleset"]) == (2, "original")


def test_an_impossible_menu_entry_is_refused_with_a_beep(tmp_path: Path) -> None:
    rig = make_rig(tmp_path)
    first = rig.table.journal_path
    rig.keys(1.0, "D")
    rig.keys(1.5, "49#")
    rig.run(until=3.0)
    assert rig.table.journal_path == first
    assert "error" in [s for _, s in rig.sounds]
