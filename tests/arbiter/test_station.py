"""Arbiter mode at a real table: keypad corrections and MQTT commands, all journaled there."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.arbiter.commands import make_command
from companion.arbiter.pin import hash_pin
from companion.clock import FakeClock
from companion.simulate import simulate_file
from companion.tamsk.simtable import SimulatedTable, table_config
from companion.verify import verify_path

PIN = "2468"
KEY = b"the club's sixteen-plus key"


def records(path: Path) -> list[dict[str, object]]:
    """The journal's event records (the header left out)."""
    return [json.loads(line) for line in path.read_text().splitlines()][1:]


@pytest.fixture
def table(tmp_path: Path) -> SimulatedTable:
    config = table_config(4, {"arbiter": {"pin_sha256": hash_pin(PIN), "club_key": KEY.decode(),
                                          "pin_attempts": 2, "pin_lockout_s": 30.0}})
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
                                 "key": KEY, "issued": sim.clock.wall()}
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
    assert not table.station.active
    table.keys("***")
    assert not table.station.active
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


def test_a_replayed_command_is_refused_and_journaled(table: SimulatedTable) -> None:
    cmd = command(table, {"what": "add-ring", "player": "black", "space": "d4", "reason": "x"})
    payload = json.dumps(cmd).encode()
    assert table.station.command(payload).ok is True
    again = table.station.command(payload)
    assert again.ok is False and "replayed" in again.detail
    last = records(journal(table))[-1]
    assert last["ev"] == "note" and last["arbiter"] == "command-refused"
    game = table.table.game
    assert game is not None and game.rings_on.get("d4") == 1  # applied once


def test_a_replay_stays_refused_after_the_table_restarts(table: SimulatedTable,
                                                         tmp_path: Path) -> None:
    cmd = command(table, {"what": "turn", "player": "black", "reason": "x"})
    table.station.command(json.dumps(cmd))
    from companion.tamsk.arbiter import TamskStation as ArbiterStation
    from companion.tamsk.table import Table

    again = Table(table.clock, tmp_path, config=table.config)
    again.resume(journal(table))
    station = ArbiterStation(again, table.clock)
    outcome = station.command(json.dumps(cmd))
    assert outcome.ok is False and "replayed" in outcome.detail


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
        ({"key": b"another club's key, long enough"}, "signature"),
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
