"""`companion tournament correct`: the arbiter's correction to a finished game's journal, after
his PIN, tried on the game first; refused ones leave the journal as it was."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from companion.arbiter.pin import hash_pin
from companion.simulate import simulate_file
from tests.tournament import helpers
from tests.tournament.helpers import run


@pytest.fixture
def config(tmp_path: Path) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(f'[arbiter]\npin_hash = "{hash_pin("2468")}"\n'
                    f'key_file = "{tmp_path / "arbiter" / "arbiter.key"}"\n')
    return path


def correct(monkeypatch: pytest.MonkeyPatch, config: Path, journal: Path, pin: str,
            *args: str) -> int:
    monkeypatch.setattr("sys.stdin", io.StringIO(pin + "\n"))
    return run(["tournament", "correct", str(journal), "--config", str(config), "--pin-stdin",
                *args])


def test_the_arbiter_adjusts_a_tantrix_result(tmp_path: Path, config: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    journal = helpers.tantrix(tmp_path / "g.jsonl", "Ann", "Bob")
    assert correct(monkeypatch, config, journal, "2468", "--what", "result", "--reason",
                   "Ann's flag fell", "--set", "winner=yellow", "--set", "forfeit=true") == 0
    record = helpers.record_of(journal)
    assert record.winner == "Bob" and record.forfeit


def test_a_tokami_score_adjustment_reaches_the_standings(
    tmp_path: Path, config: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    journal = helpers.tokami(tmp_path / "g.jsonl", ["Ann", "Ben"],
                             [{"ev": "bonus", "block": "blue", "bonus": "green"}])
    assert correct(monkeypatch, config, journal, "2468", "--what", "score", "--reason",
                   "a block counted twice", "--set", "player=Ann", "--set", "points=-2") == 0
    assert simulate_file(journal)["scores"]["Ann"]["total"] == -1


def test_a_wrong_pin_appends_nothing(tmp_path: Path, config: Path,
                                     monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    journal = helpers.tantrix(tmp_path / "g.jsonl", "Ann", "Bob")
    before = journal.read_bytes()
    assert correct(monkeypatch, config, journal, "1111", "--what", "result", "--reason", "x",
                   "--set", "winner=red") == 2
    assert "wrong PIN" in capsys.readouterr().err and journal.read_bytes() == before


def test_a_correction_the_rules_refuse_appends_nothing(
    tmp_path: Path, config: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str]
) -> None:
    journal = helpers.tantrix(tmp_path / "g.jsonl", "Ann", "Bob")
    before = journal.read_bytes()
    assert correct(monkeypatch, config, journal, "2468", "--what", "take-back", "--reason",
                   "x", "--set", "tile=9") == 2
    assert "tile 9 is not on the table" in capsys.readouterr().err
    assert correct(monkeypatch, config, journal, "2468", "--what", "erase", "--reason",
                   "x") == 2
    assert "unknown Tantrix correction" in capsys.readouterr().err
    assert journal.read_bytes() == before


def test_without_a_pin_in_the_configuration_nobody_corrects(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bare = tmp_path / "bare.toml"
    bare.write_text("")
    journal = helpers.tantrix(tmp_path / "g.jsonl", "Ann", "Bob")
    assert correct(monkeypatch, bare, journal, "2468", "--what", "result", "--reason", "x",
                   "--set", "winner=red") == 2
    assert "pin_hash" in capsys.readouterr().err
