"""The arbiter's PIN lock and keypad menu, as pure state machines on a clock passed in."""

from __future__ import annotations

import pytest

from companion.arbiter.pin import PinLock, hash_pin, valid_pin
from companion.tamsk.arbiter_menu import ArbiterMenu, Correct, Note, SetOption

PIN = "2468"


def lock(**kw: float) -> PinLock:
    return PinLock(hash_pin(PIN), attempts=int(kw.get("attempts", 3)),
                   lockout_s=kw.get("lockout_s", 60.0))


def test_the_config_holds_only_the_pins_sha256() -> None:
    digest = hash_pin(PIN)
    assert len(digest) == 64 and all(c in "0123456789abcdef" for c in digest)
    assert digest != hash_pin("2469")
    assert PinLock(digest.upper()).check(PIN, now=0.0).ok  # hex case does not matter


def test_a_pin_is_four_to_twelve_digits() -> None:
    assert valid_pin("0000") and valid_pin("123456789012")
    assert not valid_pin("123") and not valid_pin("12a4") and not valid_pin("1" * 13)


def test_a_malformed_hash_in_the_config_is_refused_clearly() -> None:
    with pytest.raises(ValueError, match="64 hex"):
        PinLock("not-a-hash")


def test_no_hash_means_arbiter_mode_is_off() -> None:
    check = PinLock("").check(PIN, now=0.0)
    assert check.status == "disabled" and not check.ok


def test_wrong_pins_count_down_then_lock() -> None:
    pins = lock()
    assert pins.check("1111", now=0.0).attempts_left == 2
    assert pins.check("2222", now=1.0).attempts_left == 1
    third = pins.check("3333", now=2.0)
    assert third.status == "locked" and third.wrong and third.locked_for == 60.0


def test_while_locked_even_the_right_pin_is_refused() -> None:
    pins = lock(attempts=1)
    pins.check("1111", now=0.0)
    assert pins.check(PIN, now=59.0).status == "locked"
    assert pins.check(PIN, now=60.0).ok


def test_each_further_lockout_lasts_twice_as_long() -> None:
    pins = lock(attempts=1, lockout_s=10.0)
    assert pins.check("1", now=0.0).locked_for == 10.0
    assert pins.check("1", now=10.0).locked_for == 20.0
    assert pins.check("1", now=30.0).locked_for == 40.0


def test_the_right_pin_resets_the_count() -> None:
    pins = lock()
    pins.check("1111", now=0.0)
    pins.check("2222", now=1.0)
    assert pins.check(PIN, now=2.0).ok
    assert pins.check("1111", now=3.0).attempts_left == 2


# ---------------------------------------------------------------------- the menu


def press(menu: ArbiterMenu, keys: str, now: float = 100.0) -> list[object]:
    actions: list[object] = []
    for k in keys:
        _, more = menu.press(k, now)
        actions += more
    return actions


def entered(**kw: object) -> ArbiterMenu:
    menu = ArbiterMenu(lock(), **kw)  # type: ignore[arg-type]
    press(menu, "***" + PIN + "#")
    assert menu.state == "menu"
    return menu


def test_three_stars_open_the_pin_entry_and_the_first_two_reach_the_table() -> None:
    menu = ArbiterMenu(lock())
    assert menu.press("*", 0.0)[0] is False
    assert menu.press("*", 0.5)[0] is False
    assert menu.press("*", 1.0)[0] is True and menu.state == "pin"


def test_stars_too_far_apart_do_not_open_it() -> None:
    menu = ArbiterMenu(lock())
    for t in (0.0, 3.0, 6.0):
        menu.press("*", t)
    assert menu.state == "idle"


def test_a_wrong_pin_is_refused_and_noted() -> None:
    menu = ArbiterMenu(lock())
    actions = press(menu, "***1111#")
    assert menu.state == "pin"
    assert actions == [Note("arbiter: wrong PIN (2 more attempt(s) before a lock-out)",
                            {"arbiter": "wrong-pin"})]


def test_the_pin_is_never_shown_or_noted() -> None:
    menu = ArbiterMenu(lock())
    press(menu, "***" + "1357")
    assert "1357" not in " ".join(menu.screen())
    actions = press(menu, "#")
    assert all("1357" not in str(a) for a in actions)


def test_entering_and_leaving_are_noted() -> None:
    menu = ArbiterMenu(lock())
    assert press(menu, "***" + PIN + "#")[-1] == Note(
        "arbiter mode entered (PIN accepted)", {"arbiter": "enter"})
    assert press(menu, "*") == [Note("arbiter mode left", {"arbiter": "leave"})]
    assert not menu.active


def test_sand_correction_from_the_keypad() -> None:
    menu = entered()
    actions = press(menu, "1" + "4" + "62C5#" + "1" + "#")
    assert actions == [Correct({"what": "sand", "glass": "b1", "sand": 62.5,
                                "reason": "a sensor missed an input"})]


def test_space_correction_with_unknown_space() -> None:
    menu = entered()
    actions = press(menu, "2" + "1" + "00#" + "2" + "#")
    assert actions == [Correct({"what": "space", "glass": "r1", "space": None,
                                "reason": "a sensor saw an input that did not happen"})]


def test_a_space_that_is_not_on_the_board_is_refused() -> None:
    menu = entered()
    press(menu, "3" + "1" + "19#")
    assert menu.state == "step" and "no space a9" in menu.message


def test_undo_shows_what_it_takes_back_and_guards_it() -> None:
    menu = entered(last_input=lambda: (12.5, "release", "release b1 c1 at 12.5"))
    press(menu, "5")
    assert "undo release b1 c1 at 12.5" in menu.screen()
    actions = press(menu, "4#")
    assert actions == [Correct({"what": "undo", "target_t": 12.5, "target_ev": "release",
                                "reason": "the arbiter's ruling"})]


def test_undo_with_nothing_to_undo_stays_in_the_menu() -> None:
    menu = entered()
    assert press(menu, "5") == [] and menu.state == "menu" and menu.message == "nothing to undo"


def test_penalty_and_its_cancellation() -> None:
    menu = entered(penalties=lambda: ["red forfeit at 20.0"])
    assert press(menu, "6" + "1" + "2" + "5#") == [
        Correct({"what": "penalty", "player": "red", "kind": "forfeit",
                 "reason": "a dispute settled"})]
    press(menu, "7")
    assert "1: red forfeit at 20.0" in menu.screen()
    assert press(menu, "1#" + "4#") == [
        Correct({"what": "cancel-penalty", "index": 0, "reason": "the arbiter's ruling"})]


def test_result_by_forfeit_and_confirmation() -> None:
    menu = entered()
    assert press(menu, "8" + "5" + "4#") == [
        Correct({"what": "result", "winner": "black", "forfeit": True,
                 "reason": "the arbiter's ruling"})]
    assert press(menu, "8" + "0" + "4#") == [
        Correct({"what": "confirm", "reason": "the arbiter's ruling"})]


def test_next_round_and_turn() -> None:
    menu = entered()
    assert press(menu, "9" + "3#" + "4#") == [
        Correct({"what": "next-round", "round": 3, "reason": "the arbiter's ruling"})]
    assert press(menu, "A" + "2" + "3#") == [
        Correct({"what": "turn", "player": "black", "reason": "the players' mistake"})]


def test_star_inside_an_item_goes_back_without_a_correction() -> None:
    menu = entered()
    assert press(menu, "1" + "4" + "*") == [] and menu.state == "menu"


def test_tournament_options() -> None:
    menu = entered()
    assert press(menu, "B10") == [SetOption("show_sand_seconds", False)]
    assert press(menu, "B22") == [SetOption("level", 2)]
    assert press(menu, "B32") == [SetOption("ruleset", "original")]
    assert press(menu, "B4" + "2" + "176C5#") == [SetOption("calibration", {"r2": 176.5})]


def test_a_locked_pin_entry_is_refused_at_the_stars() -> None:
    menu = ArbiterMenu(lock(attempts=1))
    press(menu, "***1111#", now=0.0)
    assert menu.state == "idle"
    actions = press(menu, "***", now=10.0)
    assert menu.state == "idle" and isinstance(actions[0], Note)
    assert actions[0].fields == {"arbiter": "locked"}
