"""`companion arbiter ...` and `companion dispute`, run through their argument parser."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from companion import config
from companion.arbiter.cli import add_commands
from companion.arbiter.pin import PinLock, hash_pin
from companion.arbiter.results import write_signed
from companion.arbiter.settings import CONFIG_TOML
from companion.keys import SigningKey
from tests.arbiter.test_results import WALL0, overrun, tamsk_game, write

KEY = b"the club's sixteen-plus key"


@pytest.fixture(autouse=True)
def arbiter_config_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    """The configuration with the [arbiter] and [mqtt] keys this feature adds."""
    head = config.DEFAULT_TOML.split("[arbiter]")[0]
    monkeypatch.setattr(config, "DEFAULT_TOML", head + CONFIG_TOML)


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="companion")
    add_commands(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    return int(args.func(args))


@pytest.fixture
def club_config(tmp_path: Path) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(f'[arbiter]\nclub_key = "{KEY.decode()}"\n'
                    f'pin_hash = "{hash_pin("2468")}"\n'
                    f'key_file = "{tmp_path / "arbiter" / "arbiter.key"}"\n')
    return path


def test_the_new_configuration_keys_load_with_their_defaults(club_config: Path) -> None:
    loaded = config.load(club_config)
    assert loaded["mqtt"]["enabled"] is False and loaded["arbiter"]["pin_attempts"] == 3


def test_hash_pin_prints_the_config_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["arbiter", "hash-pin", "2468"]) == 0
    line = capsys.readouterr().out.splitlines()[1]
    assert line.startswith('pin_hash = "scrypt$32768$8$1$')
    assert PinLock(line.split('"')[1]).check("2468", now=0.0).ok


def test_hash_pin_refuses_a_pin_the_keypad_cannot_type(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["arbiter", "hash-pin", "12ab"]) == 2
    assert "4 to 32 digits" in capsys.readouterr().err


def test_sign_then_verify(tmp_path: Path, club_config: Path,
                          capsys: pytest.CaptureFixture[str]) -> None:
    journal = tamsk_game(tmp_path)
    assert run(["arbiter", "sign", str(journal), "--config", str(club_config)]) == 0
    out = Path(capsys.readouterr().out.strip())
    assert run(["arbiter", "verify-result", str(out), "--config", str(club_config)]) == 0
    assert "OK" in capsys.readouterr().out


def test_verify_refuses_an_edited_result_file(tmp_path: Path, club_config: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    journal = tamsk_game(tmp_path)
    run(["arbiter", "sign", str(journal), "--config", str(club_config)])
    out = Path(capsys.readouterr().out.strip())
    record = json.loads(out.read_text())
    record["score"]["black"] = 20
    out.write_text(json.dumps(record))
    assert run(["arbiter", "verify-result", str(out), "--config", str(club_config)]) == 1
    assert "REFUSED" in capsys.readouterr().out


def test_a_result_signed_without_the_arbiters_key_is_refused(
    tmp_path: Path, club_config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = tamsk_game(tmp_path)
    assert run(["arbiter", "sign", str(journal), "--config", str(club_config)]) == 0
    genuine = Path(capsys.readouterr().out.strip())
    write_signed(journal, SigningKey.generate())  # someone with a key pair of his own
    assert run(["arbiter", "verify-result", str(genuine), "--config", str(club_config)]) == 1
    assert "signed by another key" in capsys.readouterr().out


def test_standings_from_journals(tmp_path: Path, club_config: Path,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    journal = tamsk_game(tmp_path)
    html = tmp_path / "round1.html"
    assert run(["arbiter", "standings", str(journal), "--round", "1", "--html", str(html),
                "--config", str(club_config)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("1,Ann,1,1,")
    assert "round 1" in html.read_text()


def test_standings_from_journals_need_no_club_key(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """Reading journals checks their hash chains; only signed result files need the key."""
    bare = tmp_path / "bare.toml"
    bare.write_text("")
    assert run(["arbiter", "standings", str(tamsk_game(tmp_path)), "--config", str(bare)]) == 0
    assert capsys.readouterr().out.splitlines()[1].startswith("1,Ann,1,1,")


def test_standings_count_a_game_started_without_a_round(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    header = {"game": "tamsk", "level": 3, "table": 2, "wall0": WALL0,
              "names": {"red": "Ann", "black": "Bob"}}
    journal = write(tmp_path / "noround.jsonl", header,
                    [{"t": 3.0, "ev": "release", "glass": "r1", "to": "a2"},
                     {"t": 3.5, "ev": "ring", "player": "red"}, {"t": 30.0, "ev": "end"}])
    trf = tmp_path / "out.trf"
    assert run(["arbiter", "standings", str(journal), "--trf", str(trf)]) == 0
    assert capsys.readouterr().out.splitlines()[1].startswith("1,Ann,1,1,")
    assert "    2 w 1" in trf.read_text()  # Ann's round 1: Bob (number 2), moved first, won


def test_dispute_prints_the_moment(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["dispute", str(overrun(tmp_path)), "--at", "0:19", "--window", "3"]) == 0
    assert "the 15 s timer ran out: black forfeit" in capsys.readouterr().out


def test_dispute_with_a_bad_time_says_how_to_write_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["dispute", str(overrun(tmp_path)), "--at", "noon"]) == 2
    assert "game clock" in capsys.readouterr().err
