"""Arbiter mode at a real table: keypad corrections and MQTT commands, all journaled there."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.arbiter.commands import make_command
from companion.arbiter.pin import hash_pin
from companion.clock import FakeClock
from companion.keys import SigningKey
from companion.simulate import simulate_file
from companion.tamsk.simtable import SimulatedTable, table_config
from companion.verify import verify_path
from tests.arbiter.keys import ARBITER, table_arbiter

PIN = "2468"
KEY = b"the club's sixteen-plus key"


def records(path: Path) -> list[dict[str, object]]:
    """The journal's event records (the header left out)."""
    return [json.loads(line) for line in path.read_text().splitlines()][1:]


@pytest.fixture
def table(tmp_path: Path) -> SimulatedTable:
    config = table_config(4, {"arbiter": table_arbiter(
        pin_hash=hash_pin(PIN), club_key=KEY.decode(), pin_attempts=2, pin_lockout_s=30.0)})
    clock = FakeClock()
    sim = SimulatedTable(4, tmp_path, clock, config=config, seed=3,
                         names={"red": "Ann", "black": "Bob"})
    for _ in range(6):
        clock.advance(2.5)
        sim.step()
    return sim


def journal(sim: SimulatedTable) -> Path:
    path = sim.table.journal_path
    assert path is not None
    return path


def command(sim: SimulatedTable, correction: dict[str, object], **kw: object) -> dict[str, object]:
    fields: dict[str, object] = {"table": 4, "game": sim.station.game_id,
                                 "key": ARBITER, "issued": sim.clock.wall()}
    fields.update(kw)
    return make_command(correction, **fields)  # type: ignore[arg-type]


def test_a_keypad_correction_is_journaled_with_its_reason_and_folded(table: SimulatedTable) -> None:
    table.keys("***" + PIN + "#" + "1" + "1" + "90#" + "4" + "#" + "*")
    game = table.table.game
    assert game is not None and game.sand("r1") == 90.0
    last = [r for r in records(journal(table)) if r["ev"] == "correct"][-1]
    assert last["what"] == "sand" and last["by"] == "arbiter" and last["auth"] == "pin"
    assert last["reason"] == "the arbiter's ruling"
    assert verify_path(journal(table)).ok
    assert simulate_file(journal(table))["corrections"][-1]["what"] == "sand"


def test_a_wrong_pin_is_refused_and_journaled_without_the_pin(table: SimulatedTable) -> None:
    table.keys("***1357#")
    notes = [r for r in records(journal(table)) if r.get("arbiter") == "wrong-pin"]
    assert len(notes) == 1 and "1357" not in json.dumps(notes)
    assert not any(r["ev"] == "correct" for r in records(journal(table)))


def test_too_many_wrong_pins_lock_the_keypad_out(table: SimulatedTable) -> None:
    table.keys("***1111#2222#")
    assert table.station.active  # the lock-out screen holds the keypad
    table.clock.advance(6.0)  # no key for a while: the keypad is the players' again
    table.keys("***")
    assert table.station.active
    table.clock.advance(31.0)
    table.keys("***" + PIN + "#")
    assert table.station.active
    kinds = [r.get("arbiter") for r in records(journal(table)) if r.get("arbiter")]
    assert kinds == ["wrong-pin", "wrong-pin", "locked", "enter"]


def test_players_keys_reach_the_table_when_arbiter_mode_is_closed(table: SimulatedTable) -> None:
    table.key("1")
    assert table.table.entry == "1"


def test_a_signed_command_is_carried_out_and_journaled(table: SimulatedTable) -> None:
    cmd = command(table, {"what": "add-ring", "player": "black", "space": "d4",
                          "reason": "seen on the page"})
    outcome = table.station.command(json.dumps(cmd).encode())
    assert outcome.ok is True
    last = records(journal(table))[-1]
    assert last["ev"] == "correct" and last["auth"] == "command" and last["nonce"] == cmd["nonce"]


def test_a_replayed_command_is_refused_and_summarised(table: SimulatedTable) -> None:
    cmd = command(table, {"what": "add-ring", "player": "black", "space": "d4", "reason": "x"})
    payload = json.dumps(cmd).encode()
    assert table.station.command(payload).ok is True
    again = table.station.command(payload)
    assert again.ok is False and "replayed" in again.detail
    last = records(journal(table))[-1]
    assert last["ev"] == "note" and last["arbiter"] == "commands-refused"
    assert "replayed 1" in str(last["text"])
    game = table.table.game
    assert game is not None and game.rings_on.get("d4") == 1  # applied once


def test_refused_commands_are_summarised_at_most_once_a_minute(table: SimulatedTable) -> None:
    before = len(records(journal(table)))
    for _ in range(200):
        cmd = command(table, {"what": "turn", "player": "black", "reason": "x"},
                      key=SigningKey.generate())
        assert table.station.command(json.dumps(cmd)).ok is False
        table.clock.advance(0.25)  # 50 s: four a second, within the rate limit
    notes = [r for r in records(journal(table))[before:] if r.get("arbiter")]
    assert len(notes) == 1 and "signature 1" in str(notes[0]["text"])  # the first, at once
    table.clock.advance(11.0)
    table.station.command(b"not even json")
    notes = [r for r in records(journal(table))[before:] if r.get("arbiter")]
    assert len(notes) == 2 and "signature 199" in str(notes[1]["text"])
    assert len(records(journal(table))) == before + 2


def test_a_burst_of_commands_beyond_the_rate_limit_is_dropped_unchecked(
    table: SimulatedTable,
) -> None:
    forged = json.dumps(command(table, {"what": "turn", "player": "black", "reason": "x"},
                                key=SigningKey.generate()))
    details = [table.station.command(forged).detail for _ in range(50)]
    assert sum("rate limit" in d for d in details) >= 35
    good = command(table, {"what": "turn", "player": "black", "reason": "x"})
    assert table.station.command(json.dumps(good)).ok is False  # still within the burst's wait
    table.clock.advance(1.0)
    good = command(table, {"what": "add-ring", "player": "black", "space": "d4", "reason": "x"})
    assert table.station.command(json.dumps(good)).ok is True


def test_used_nonces_are_read_back_from_a_journal_with_a_damaged_line(
    table: SimulatedTable,
) -> None:
    cmd = command(table, {"what": "turn", "player": "black", "reason": "x"})
    table.station.command(json.dumps(cmd))
    with open(journal(table), "ab") as f:
        f.write(b"\xff\xfe not UTF-8 at all \x80 \"nonce\"\n")
    table.station.gate.seen.clear()
    table.station._remembered = None  # as after a restart
    table.station.remember_nonces()
    assert table.station.gate.seen == {cmd["nonce"]}


def test_a_non_utf8_line_in_the_journal_does_not_stop_the_station_after_a_restart(
    table: SimulatedTable, tmp_path: Path
) -> None:
    cmd = command(table, {"what": "turn", "player": "black", "reason": "x"})
    table.station.command(json.dumps(cmd))
    path = journal(table)
    lines = path.read_bytes().split(b"\n")
    lines.insert(2, b'{"t":1.0,"ev":"note","text":"\xff\xfe"}')  # the card garbled a line
    path.write_bytes(b"\n".join(lines))
    from companion.tamsk.arbiter import TamskStation as ArbiterStation
    from companion.tamsk.table import Table

    again = Table(table.clock, tmp_path, config=table.config)
    again.resume(path)
    station = ArbiterStation(again, table.clock)  # read the nonces: used to crash here
    outcome = station.command(json.dumps(cmd))
    assert outcome.ok is False and "replayed" in outcome.detail


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"key": SigningKey.generate()}, "signature"),
        ({"table": 5}, "table 5"),
        ({"game": "0123456789abcdef"}, "another game"),
        ({"issued": 0.0}, "stale"),
    ],
)
def test_forged_misdirected_or_stale_commands_are_refused(
    table: SimulatedTable, change: dict[str, object], why: str
) -> None:
    cmd = command(table, {"what": "result", "winner": "red", "reason": "x"}, **change)
    outcome = table.station.command(json.dumps(cmd))
    assert outcome.ok is False and why in outcome.detail
    game = table.table.game
    assert game is not None and not game.over


def test_an_edited_command_is_refused(table: SimulatedTable) -> None:
    cmd = command(table, {"what": "result", "winner": "red", "reason": "x"})
    cmd["correction"]["winner"] = "black"  # type: ignore[index]
    assert table.station.command(json.dumps(cmd)).ok is False


def test_a_malformed_correction_is_refused_with_its_reason(table: SimulatedTable) -> None:
    outcome = table.station.correct({"what": "sand", "glass": "r9", "reason": "x"}, auth="pin")
    assert outcome.ok is False and "glass" in outcome.detail


def test_next_round_opens_a_new_journal(table: SimulatedTable) -> None:
    first = journal(table)
    table.station.correct({"what": "result", "winner": "tie", "reason": "agreed draw"}, auth="pin")
    outcome = table.station.correct({"what": "next-round", "round": 2, "reason": "round over"},
                                    auth="pin")
    assert outcome.ok is True
    second = journal(table)
    assert second != first
    assert any(r.get("round") == 2 for r in records(second))
    assert simulate_file(first)["next_round"] == 2


def test_tournament_options_persist_and_apply_to_the_next_game(table: SimulatedTable) -> None:
    table.keys("***" + PIN + "#" + "B10" + "B22" + "B4" + "3" + "175#" + "*")
    assert table.station.options.show_sand_seconds is False
    view = table.station.view({"show_sand_seconds": True})
    assert view["show_sand_seconds"] is False
    saved = json.loads((table.table.journal_dir / "tournament.json").read_text())
    assert saved["level"] == 2 and saved["calibration"] == {"r3": 175.0}
    table.station.correct({"what": "result", "winner": "red", "reason": "x"}, auth="pin")
    table.station.correct({"what": "next-round", "round": 2, "reason": "x"}, auth="pin")
    game = table.table.game
    assert game is not None and game.rules.level == 2 and game.rules.period("r3") == 175.0


def test_a_table_refuses_a_config_whose_arbiter_key_is_not_a_key(tmp_path: Path) -> None:
    from companion import config

    path = tmp_path / "config.toml"
    path.write_text('[arbiter]\narbiter_key = "companion-ed25519 not-base64!"\n')
    with pytest.raises(config.ConfigError, match="arbiter_key"):
        config.load(path)
