"""The arbiter's PIN lock and keypad menu, as pure state machines on a clock passed in."""

from __future__ import annotations

import hashlib

import pytest

from companion import config
from companion.arbiter.pin import (
    MIN_CONFIG_N,
    PinHashError,
    PinLock,
    hash_pin,
    parse_pin_hash,
    valid_pin,
)
from companion.tamsk.arbiter_menu import ArbiterMenu, Correct, Note, SetOption

PIN = "2468"


#: A cheap scrypt cost for the state-machine tests (a configuration refuses it, see below).
CHEAP = 16


def lock(**kw: float) -> PinLock:
    return PinLock(hash_pin(PIN, n=CHEAP), attempts=int(kw.get("attempts", 3)),
                   lockout_s=kw.get("lockout_s", 60.0))


def test_the_pin_is_stored_as_a_salted_scrypt_hash() -> None:
    stored = hash_pin(PIN)
    parsed = parse_pin_hash(stored)
    assert stored.startswith("scrypt$32768$8$1$") and len(parsed.salt) == 16
    assert parsed.n * parsed.r >= MIN_CONFIG_N * 8
    assert PinLock(stored).check(PIN, now=0.0).ok
    assert not PinLock(stored).check("2469", now=0.0).ok


def test_the_same_pin_hashes_differently_on_every_table() -> None:
    assert hash_pin(PIN, n=CHEAP) != hash_pin(PIN, n=CHEAP)  # a fresh salt each time


def test_the_old_unsalted_sha256_hash_is_refused_with_how_to_rehash() -> None:
    old = hashlib.sha256(PIN.encode()).hexdigest()
    with pytest.raises(PinHashError, match="old unsalted SHA-256.*companion arbiter hash-pin"):
        PinLock(old)
    with pytest.raises(config.ConfigError, match="pin_sha256.*companion arbiter hash-pin"):
        config.load(text=f'[arbiter]\npin_sha256 = "{old}"\n')


def test_a_cheap_pin_hash_is_refused_in_the_configuration() -> None:
    with pytest.raises(config.ConfigError, match="too cheap"):
        config.load(text=f'[arbiter]\npin_hash = "{hash_pin(PIN, n=CHEAP)}"\n')
    assert config.load(text=f'[arbiter]\npin_hash = "{hash_pin(PIN)}"\n')


def test_a_pin_is_four_to_thirty_two_digits() -> None:
    assert valid_pin("0000") and valid_pin("123456789012") and valid_pin("1" * 32)
    assert not valid_pin("123") and not valid_pin("12a4") and not valid_pin("1" * 33)


def test_a_longer_pin_works_too() -> None:
    long_pin = "31415926535897932384"
    pins = PinLock(hash_pin(long_pin, n=CHEAP))
    assert pins.check(long_pin, now=0.0).ok and not pins.check(long_pin[:-1], now=0.0).ok


def test_a_malformed_hash_in_the_config_is_refused_clearly() -> None:
    with pytest.raises(ValueError, match="not a scrypt hash.*hash-pin"):
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
    assert menu.state == "locked"
    menu.settle(10.0)
    assert menu.state == "idle"  # left alone: the keypad went back to the players
    actions = press(menu, "***", now=10.0)
    assert menu.state == "locked" and isinstance(actions[0], Note)
    assert actions[0].fields == {"arbiter": "locked"}


def test_ending_a_game_without_a_result_needs_the_arbiters_pin() -> None:
    """The players' keypad cannot end a game (only resign); the arbiter's result item does, and
    only after the right PIN."""
    menu = ArbiterMenu(lock())
    actions = press(menu, "***" + "1357" + "#" + "8" + "3" + "4#")
    assert not any(isinstance(a, Correct) for a in actions)
    assert menu.state != "menu"
    menu = entered()
    assert press(menu, "8" + "3" + "4#") == [
        Correct({"what": "result", "winner": "tie", "reason": "the arbiter's ruling"})]
