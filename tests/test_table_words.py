"""What the table says outside a move (disk, pairing, resignation, damage) in the players'
language: each notice is the catalog's, not English left behind."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from companion import i18n
from companion.arbiter.pairing_desk import Pairing
from companion.clock import FakeClock
from companion.config import defaults
from companion.daemon import take_up
from companion.diskspace import failure_text, low_text
from companion.tables import make_table
from companion.tokami import Game, Setup
from companion.tokami.entry import KeypadEntry
from tests.daemon.harness import make_rig
from tests.journal.test_damage import NOT_JSON, damaged_journal

MB = 1024 * 1024


def test_a_full_disk_and_a_low_disk_are_said_in_czech() -> None:
    i18n.use("cs")
    assert failure_text(OSError(errno.ENOSPC, "full")) == "DISK PLNÝ: neuloženo"
    assert failure_text(OSError(errno.EIO, "dying")) == "ZÁPIS SELHAL: neuloženo"
    assert low_text(10 * MB) == "málo místa: zbývá 10 MB"


def test_the_pairing_desk_screen_is_in_french() -> None:
    i18n.use("fr")
    pairing = Pairing("Open", 2, 5, "Anna", "Ben", "tamsk")
    assert pairing.screen() == ["Ronde 2, table 5", "1er Anna", "2e Ben", "Open",
                                "# : début * : cacher"]


def test_the_tokami_resignation_is_asked_in_czech() -> None:
    i18n.use("cs")
    entry = KeypadEntry(Game(Setup(("Anna", "Ben"))))
    assert entry.press("D").screen.prompt == "Anna: vzdát hru?"


def test_the_tamsk_resignation_and_a_new_game_refused_are_said_in_french(
    tmp_path: Path,
) -> None:
    i18n.use("fr")
    rig = make_rig(tmp_path)
    rig.flip(3.0, "r1")
    rig.keys(5.0, "DA")  # red's resign key once: only asked
    rig.sample(5.3, "asked")
    rig.keys(6.0, "*D")
    rig.keys(7.0, "D111#")  # a new game typed while one is on
    rig.sample(8.0, "refused")
    rig.run(until=9.0)
    assert rig.samples["asked"]["view"]["warning"] == (
        "rouge abandonne ? A encore pour confirmer, * annule")
    assert rig.samples["refused"]["view"]["error"] == (
        "partie en cours : A A ou B B abandonne ; l'arbitre y met fin (***)")


def test_a_damaged_record_is_noticed_in_czech(tmp_path: Path) -> None:
    i18n.use("cs")
    path, _ = damaged_journal(tmp_path, NOT_JSON)
    table = make_table(defaults(), FakeClock(wall_start=1e9 + 10), tmp_path)
    assert take_up(table, path)
    assert table.view().get("warning") == "záznam poškozen: viz verify"
    table.close()


def test_the_demo_s_next_commands_keep_a_space_after_a_long_czech_label() -> None:
    from companion.tamsk.demo import next_steps

    i18n.use("cs")
    step, check = next_steps(Path("/j/game.jsonl"), Path("/j/table.key.pub"),
                             ".venv/bin/companion")
    assert step.startswith("  projít po krocích: .venv/bin/companion replay /j/game.jsonl")
    assert check.index(".venv/bin/companion verify") == step.index(".venv/bin/companion replay")
    assert check.endswith("--key /j/table.key.pub")


def test_the_demo_names_companion_as_it_was_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``make demo`` runs ``.venv/bin/companion``; from elsewhere that path would be wrong."""
    from companion.tamsk.demo import invoked_as

    script = tmp_path / ".venv" / "bin" / "companion"
    script.parent.mkdir(parents=True)
    script.write_text("#!/bin/sh\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", "/nonexistent")
    assert invoked_as(str(script)) == ".venv/bin/companion"
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    assert invoked_as(str(script)) == str(script)
    assert invoked_as("/somewhere/companion/__main__.py").endswith(" -m companion")
    script.chmod(0o755)
    monkeypatch.setenv("PATH", str(script.parent))
    assert invoked_as("companion") == "companion"
    assert invoked_as(str(script)) == "companion"
