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
from companion.keys import Keyring, SigningKey
from tests.arbiter.keys import TABLES
from tests.arbiter.test_results import overrun, tamsk_game

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
    """The arbiter's config: his key file, and a keyring that enrols table 2."""
    path = tmp_path / "config.toml"
    ring = Keyring(tmp_path / "arbiter" / "keyring.json")
    ring.enroll("2", TABLES[2].public, "2026-11-24T20:00:00")
    ring.save()
    path.write_text(f'[arbiter]\nclub_key = "{KEY.decode()}"\n'
                    f'pin_hash = "{hash_pin("2468")}"\n'
                    f'key_file = "{tmp_path / "arbiter" / "arbiter.key"}"\n'
                    f'keyring = "{ring.path}"\n')
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
    journal = tamsk_game(tmp_path, key=TABLES[2])
    assert run(["arbiter", "sign", str(journal), "--config", str(club_config)]) == 0
    out = Path(capsys.readouterr().out.strip())
    assert run(["arbiter", "verify-result", str(out), "--config", str(club_config)]) == 0
    assert "OK" in capsys.readouterr().out


def test_sign_refuses_a_journal_its_table_did_not_sign(
    tmp_path: Path, club_config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = tamsk_game(tmp_path)  # unsigned
    assert run(["arbiter", "sign", str(journal), "--config", str(club_config)]) == 1
    assert "the journal is not signed" in capsys.readouterr().err
    assert not journal.with_name(journal.name + ".result.json").exists()


def test_verify_result_refuses_a_result_whose_journal_was_forged_since(
    tmp_path: Path, club_config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = tamsk_game(tmp_path, key=TABLES[2])
    assert run(["arbiter", "sign", str(journal), "--config", str(club_config)]) == 0
    out = Path(capsys.readouterr().out.strip())
    from tests.tournament.helpers import rechain

    rechain(journal, lambda b: {**b, "wall0": b["wall0"] + 1} if "wall0" in b else None)
    assert run(["arbiter", "verify-result", str(out), "--config", str(club_config)]) == 1
    assert "its journal is refused" in capsys.readouterr().out


def test_verify_refuses_an_edited_result_file(tmp_path: Path, club_config: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    journal = tamsk_game(tmp_path, key=TABLES[2])
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
    journal = tamsk_game(tmp_path, key=TABLES[2])
    assert run(["arbiter", "sign", str(journal), "--config", str(club_config)]) == 0
    genuine = Path(capsys.readouterr().out.strip())
    write_signed(journal, SigningKey.generate())  # someone with a key pair of his own
    assert run(["arbiter", "verify-result", str(genuine), "--config", str(club_config)]) == 1
    assert "signed by another key" in capsys.readouterr().out


def test_arbiter_standings_is_tournament_standings_from_the_journals(
    tmp_path: Path, club_config: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str]
) -> None:
    """One ranking: `arbiter standings JOURNAL...` runs the same code as `tournament standings
    --journals`, for the tournament the journals name, kept in --dir."""
    from tests.tournament import helpers

    helpers.laptop(monkeypatch, tmp_path)
    helpers.club(tmp_path, names=("Ann", "Bob"), rounds=1)
    assert helpers.run(["tournament", "pair", "Club Cup", "--dir", str(tmp_path)]) == 0
    journal = helpers.tamsk(tmp_path / "t1.jsonl", "Ann", "Bob", table=1,
                            tournament="Club Cup", key=TABLES[1])
    capsys.readouterr()
    assert helpers.run(["arbiter", "standings", str(journal), "--dir", str(tmp_path)]) == 0
    arbiter = capsys.readouterr().out
    assert helpers.run(["tournament", "standings", "--journals", str(journal), "--dir",
                        str(tmp_path)]) == 0
    assert capsys.readouterr().out == arbiter and "Ann" in arbiter.splitlines()[2]
    assert helpers.run(["arbiter", "standings", str(journal) + ".result.json"]) == 2
    assert "a signed result is not a journal" in capsys.readouterr().err


def test_dispute_prints_the_moment(tmp_path: Path, club_config: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = overrun(tmp_path, TABLES[2])
    assert run(["dispute", str(path), "--at", "0:19", "--window", "3", "--config",
                str(club_config)]) == 0
    out = capsys.readouterr().out
    assert "the 15 s timer ran out: black forfeit" in out
    assert "journal intact" in out and "table 2's enrolled key" in out


def test_dispute_over_an_unsigned_journal_warns_and_exits_1(
    tmp_path: Path, club_config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["dispute", str(overrun(tmp_path)), "--at", "0:19", "--config",
                str(club_config)]) == 1
    out = capsys.readouterr().out
    assert "THE JOURNAL IS NOT TRUSTED" in out and "journal intact" not in out
    assert "the 15 s timer ran out: black forfeit" in out  # the account is still told


def test_dispute_with_a_bad_time_says_how_to_write_it(
    tmp_path: Path, club_config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["dispute", str(overrun(tmp_path)), "--at", "noon", "--config",
                str(club_config)]) == 2
    assert "game clock" in capsys.readouterr().err
