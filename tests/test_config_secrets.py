"""The configuration's secrets: written atomically 0600, never silently reset to the defaults."""

from __future__ import annotations

import stat
import tomllib
from pathlib import Path

import pytest

from companion import config
from companion.arbiter.pin import hash_pin
from companion.arbiter.settings import SettingsError, arbiter_settings
from companion.tamsk.calibrate import write_periods

PIN_HASH = hash_pin("246810")


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_hash_pin_writes_the_config_atomically_and_private(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from companion.cli import main

    path = tmp_path / "config.toml"
    path.write_text('[mqtt]\npassword = "broker secret"\n')
    path.chmod(0o644)
    assert main(["arbiter", "hash-pin", "246810", "--write", str(path)]) == 0
    assert mode(path) == 0o600
    saved = tomllib.loads(path.read_text())
    assert saved["mqtt"]["password"] == "broker secret"  # the rest kept
    assert saved["arbiter"]["pin_hash"].startswith("scrypt$")
    assert [p.name for p in tmp_path.iterdir()] == ["config.toml"]  # no temporary left


def test_calibration_write_back_keeps_the_secrets_and_is_private(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(f'[arbiter]\npin_hash = "{PIN_HASH}"\n\n[calibration]\nr1 = 180.0\n')
    write_periods(path, {"r1": 176.5})
    saved = config.load(path)
    assert saved["arbiter"]["pin_hash"] == PIN_HASH and saved["calibration"]["r1"] == 176.5
    assert mode(path) == 0o600


def test_a_config_that_does_not_parse_is_never_rewritten_from_the_defaults(
    tmp_path: Path,
) -> None:
    path = tmp_path / "config.toml"
    broken = f'[arbiter]\npin_hash = "{PIN_HASH}"\n[calibration\n'
    path.write_text(broken)
    with pytest.raises(config.ConfigError, match="not valid TOML.*left as it is"):
        write_periods(path, {"r1": 176.5})
    assert path.read_text() == broken


def test_a_malformed_section_is_refused_naming_it(tmp_path: Path) -> None:
    with pytest.raises(config.ConfigError, match="'arbiter' must be a table"):
        config.load(text='arbiter = "off"\n')
    with pytest.raises(SettingsError, match=r"\[arbiter\]"):
        arbiter_settings({"arbiter": "off"})
    path = tmp_path / "config.toml"
    path.write_text("calibration = 3\n")
    with pytest.raises(config.ConfigError, match=r"\[calibration\] is not a table"):
        write_periods(path, {"r1": 176.5})
    assert path.read_text() == "calibration = 3\n"


def test_a_config_missing_its_arbiter_section_keeps_the_stored_pin(tmp_path: Path) -> None:
    store = tmp_path / "keys" / "settings.json"
    path = tmp_path / "config.toml"
    path.write_text(f'[arbiter]\npin_hash = "{PIN_HASH}"\n\n[mqtt]\nenabled = true\n')
    first = config.load(path)
    assert config.keep_stored_sections(first, path, store) == []
    assert mode(store) == 0o600
    path.write_text('[game]\nlevel = 2\n')  # the sections lost in an edit
    later = config.load(path)
    assert later["arbiter"]["pin_hash"] == ""  # what the defaults alone would give
    notes = config.keep_stored_sections(later, path, store)
    assert later["arbiter"]["pin_hash"] == PIN_HASH and later["mqtt"]["enabled"] is True
    assert any("no [arbiter] section" in n for n in notes)
    assert any("no [mqtt] section" in n for n in notes)


def test_writing_the_section_changes_the_stored_secrets(tmp_path: Path) -> None:
    store = tmp_path / "settings.json"
    path = tmp_path / "config.toml"
    path.write_text(f'[arbiter]\npin_hash = "{PIN_HASH}"\n')
    config.keep_stored_sections(config.load(path), path, store)
    path.write_text('[arbiter]\npin_hash = ""\n')  # arbiter mode off, deliberately
    off = config.load(path)
    assert config.keep_stored_sections(off, path, store) == []
    assert off["arbiter"]["pin_hash"] == ""
