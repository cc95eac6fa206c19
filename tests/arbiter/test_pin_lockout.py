"""The keypad's PIN entry at a Tamsk table: while it is open or locked, what is typed is the
PIN entry's, never the players' and never the journal's.

The attack it answers: a player locks the PIN entry with three wrong PINs; the arbiter then
types ``* * *`` and the PIN, which went to the players' keypad (the journal recorded "no such
space: column 5 row 8" for PIN 2580, and a mistyped ``2222#`` became a real move). Now a
lock-out shows its time left on the screen and holds the keypad until it is left alone.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion import i18n
from companion.arbiter.hooks import ArbiterHooks
from companion.arbiter.pin import hash_pin
from companion.clock import FakeClock
from companion.tables import make_table, start_configured_game
from companion.tamsk.arbiter_menu import LOCKED_IDLE_S
from companion.tamsk.simtable import SimulatedTable, table_config
from tests.arbiter.keys import table_arbiter

PIN = "2580"
#: The digits the arbiter types while the entry is locked, and every part of them a players'
#: entry (at most three digits) could have kept.
TYPED = ("2580", "258", "580", "2222", "222")
#: A record's fields that are not what was typed: hashes, signature, times, its number.
MACHINE_FIELDS = ("hash", "prev", "sig", "t", "wall", "seq")


@pytest.fixture
def table(tmp_path: Path) -> SimulatedTable:
    config = table_config(4, {"arbiter": table_arbiter(pin_hash=hash_pin(PIN), pin_attempts=3,
                                                       pin_lockout_s=60.0)})
    clock = FakeClock()
    sim = SimulatedTable(4, tmp_path, clock, config=config, seed=3,
                         names={"red": "Ann", "black": "Bob"})
    for _ in range(6):
        clock.advance(2.5)
        sim.step()
    return sim


def journal_bytes(sim: SimulatedTable) -> bytes:
    path = sim.table.journal_path
    assert path is not None
    return path.read_bytes()


def typed_parts(new: bytes) -> list[dict[str, Any]]:
    """The records in ``new`` journal bytes, without the fields no key press can reach."""
    records = [json.loads(line) for line in new.splitlines()]
    return [{k: v for k, v in r.items() if k not in MACHINE_FIELDS} for r in records]


def shown(sim: SimulatedTable) -> list[str] | None:
    """The arbiter's lines on the table's screen now (None: the game's screen)."""
    lines = sim.station.view({}).get("arbiter")
    return list(lines) if lines is not None else None


def lock_out(sim: SimulatedTable) -> None:
    """A player tries three PINs: the PIN entry locks for 60 s."""
    sim.keys("***1111#")
    sim.keys("3333#")
    sim.keys("4444#")
    assert sim.station.lock.locked_for(sim.clock.now()) == 60.0


def test_the_arbiter_s_pin_typed_during_a_lockout_never_reaches_the_game_or_the_journal(
    table: SimulatedTable,
) -> None:
    lock_out(table)
    table.clock.advance(LOCKED_IDLE_S + 1)  # the player walks away: the keypad is the players'
    assert not table.station.active
    before = journal_bytes(table)
    game = table.table.game
    assert game is not None
    turn = game.turn
    table.clock.advance(3.0)  # the arbiter comes
    table.keys("***" + PIN + "#")
    table.keys("2222#")  # and mistypes, then types it again
    table.keys(PIN + "#")
    new = journal_bytes(table)[len(before):]
    parts = typed_parts(new)
    assert [(r["ev"], r.get("arbiter")) for r in parts] == [("note", "locked")]
    assert not any(digits in json.dumps(r) for r in parts for digits in TYPED)
    assert table.table.entry == "" and game.turn == turn
    lines = shown(table)
    assert lines[1:3] == ["PIN entry locked", "try again in 51 s"]  # 60 s, less 6 and 3


def test_a_lockout_mid_entry_keeps_the_keypad(table: SimulatedTable) -> None:
    """The arbiter's own third wrong PIN starts the lock-out: what he types on at once is
    swallowed, not handed to the players; after the lock-out his PIN works."""
    table.keys("***1111#3333#")  # two wrong PINs left behind by a player
    before = journal_bytes(table)
    table.keys("2222#")  # the arbiter mistypes: the third, the lock-out
    table.keys(PIN + "#" + "2222#")
    assert table.station.active and table.table.entry == ""
    table.clock.advance(61.0)
    table.keys("***" + PIN + "#")
    assert table.station.menu.state == "menu"
    parts = typed_parts(journal_bytes(table)[len(before):])
    assert [r.get("arbiter") for r in parts] == ["wrong-pin", "enter"]
    assert not any(digits in json.dumps(r) for r in parts for digits in TYPED)


def test_the_open_pin_entry_keeps_the_digits_to_itself(table: SimulatedTable) -> None:
    before = journal_bytes(table)
    table.keys("***258")
    assert table.table.entry == "" and "258" not in " ".join(shown(table) or [])
    table.keys("*")  # left without #: nothing journaled at all
    assert journal_bytes(table) == before


def test_the_lockout_screen_counts_down_then_gives_the_keypad_back(
    table: SimulatedTable,
) -> None:
    lock_out(table)
    assert shown(table) == [
        "ARBITER", "PIN entry locked", "try again in 60 s", "keypad back in 5 s"]
    table.clock.advance(2.5)
    assert shown(table)[2:] == ["try again in 58 s", "keypad back in 3 s"]
    table.clock.advance(1.5)
    table.key("7")  # swallowed; the keypad stays held a while longer
    table.clock.advance(4.0)
    assert shown(table)[2:] == ["try again in 52 s", "keypad back in 1 s"]
    table.clock.advance(1.0)
    assert shown(table) is None
    table.key("1")
    assert table.table.entry == "1"  # the players' keypad again


def test_the_lockout_screen_is_said_in_french_and_czech(table: SimulatedTable) -> None:
    lock_out(table)
    i18n.use("fr")
    assert shown(table)[1:] == [
        "saisie du PIN bloquée", "réessayez dans 60 s", "clavier rendu dans 5 s"]
    i18n.use("cs")
    assert shown(table)[1:] == [
        "zadávání PIN zablokováno", "zkuste znovu za 60 s", "klávesnice zpět za 5 s"]


def test_the_daemon_redraws_the_count_down_each_second(tmp_path: Path) -> None:
    """The hooks are one of the daemon's tickers: the screen changes each second of the
    lock-out with no key pressed."""
    clock = FakeClock()
    config = table_config(5, {"arbiter": table_arbiter(pin_hash=hash_pin(PIN),
                                                       pin_attempts=1)})
    hooks = ArbiterHooks(config, clock)
    table: Any = make_table(config, clock, tmp_path, on_record=hooks.on_record)
    start_configured_game(table, config)
    hooks.attach(table)
    for key in "***1111#":
        hooks.key(key, clock.now())
    hooks.poll(clock.now())
    due = hooks.next_wakeup()
    assert due == clock.now() + 1.0
    table.changed = False
    clock.advance(0.5)
    hooks.poll(clock.now())
    assert not table.changed
    clock.advance(0.5)
    hooks.poll(clock.now())
    assert table.changed
    clock.advance(LOCKED_IDLE_S)
    hooks.poll(clock.now())
    assert hooks.next_wakeup() is None  # the keypad went back; nothing counts down
    table.close()
