"""`companion archive --before DATE`: old finished journals into a tarball, checked before any
file is removed; a game not over stays."""

from __future__ import annotations

import os
import tarfile
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from companion import archive
from companion.cli import main
from companion.journal import JournalWriter

HEADER = {"game": "tamsk", "level": 3}
OLD = datetime(2026, 3, 1, tzinfo=UTC).timestamp()
NOW = datetime(2026, 11, 24, tzinfo=UTC)


def game(folder: Path, name: str, *, over: bool, when: float = OLD) -> Path:
    path = folder / name
    with JournalWriter.create(path, HEADER) as w:
        w.append({"t": 1.0, "ev": "lift", "glass": "r1"})
        w.append({"t": 1.0, "ev": "release", "glass": "r1"})
        if over:
            w.append({"t": 2.0, "ev": "end"})
    os.utime(path, (when, when))
    return path


def test_finished_journals_before_the_date_go_into_the_tarball_byte_for_byte(
    tmp_path: Path,
) -> None:
    done = game(tmp_path, "tamsk-t1-20260301-100000.jsonl", over=True)
    torn = done.with_name(done.name + ".torn")
    torn.write_bytes(b'{"t":3,"ev":"li')
    os.utime(torn, (OLD, OLD))
    kept = {p.name: p.read_bytes() for p in (done, torn)}
    target, found = archive.archive(tmp_path, date(2026, 6, 1), NOW)
    assert target is not None and target.name.endswith(".tar.xz")
    assert not done.exists() and not torn.exists()
    with tarfile.open(target, "r:xz") as tar:
        held = {m.name: tar.extractfile(m).read() for m in tar}  # type: ignore[union-attr]
    assert held == kept


def test_a_game_not_over_is_never_archived(tmp_path: Path) -> None:
    open_game = game(tmp_path, "tamsk-t1-20260301-110000.jsonl", over=False)
    target, found = archive.archive(tmp_path, date(2026, 6, 1), NOW)
    assert target is None and open_game.exists()
    assert found.left == [(open_game, "the game is not over")]


def test_journals_written_on_or_after_the_date_stay(tmp_path: Path) -> None:
    recent = game(tmp_path, "tamsk-t1-20260701-100000.jsonl", over=True, when=NOW.timestamp())
    target, _ = archive.archive(tmp_path, date(2026, 6, 1), NOW)
    assert target is None and recent.exists()


def test_nothing_is_removed_when_the_tarball_does_not_read_back_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    done = game(tmp_path, "tamsk-t1-20260301-100000.jsonl", over=True)

    def corrupt(target: Path, expected: dict[str, str]) -> None:
        raise archive.ArchiveError("the archive does not read back the same")

    monkeypatch.setattr(archive, "_check", corrupt)
    with pytest.raises(archive.ArchiveError):
        archive.archive(tmp_path, date(2026, 6, 1), NOW)
    assert done.exists()
    assert not list(tmp_path.glob("*.tar.xz"))


def test_the_command_archives_and_refuses_a_bad_date(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game(tmp_path, "tamsk-t1-20260301-100000.jsonl", over=True)
    assert main(["archive", "--before", "June", "--journal-dir", str(tmp_path)]) == 2
    assert "not a date" in capsys.readouterr().err
    assert main(["archive", "--before", "2026-06-01", "--journal-dir", str(tmp_path)]) == 0
    assert "archived 1 journal(s)" in capsys.readouterr().out
