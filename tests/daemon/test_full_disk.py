"""A full disk: warned before, refused inputs during (nothing acknowledged that is not on disk),
and play on by itself after; the daemon never exits over it."""

from __future__ import annotations

import errno
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import companion.journal
from companion.clock import FakeClock
from companion.config import defaults
from companion.daemon import Daemon, NullNotifier
from companion.diskspace import BACK_TEXT, FULL_TEXT, DiskWatch, Usage, low_text
from companion.inputs import RawInput
from companion.journal import JournalWriter, read_path
from companion.keys import SigningKey
from companion.simulate import simulate_file
from companion.tables import make_table, start_configured_game
from companion.tantrix.table import TantrixTable
from companion.verify import verify_path
from tests.daemon.harness import make_rig

MB = 1024 * 1024


class Disk:
    """The journal's view of the disk: ``full`` makes every write fail with ENOSPC; ``room``
    bytes are written first (a line cut short by the disk filling up)."""

    def __init__(self) -> None:
        self.full = False
        self.room = 0
        self.free = 500 * MB

    def __getattr__(self, name: str) -> Any:
        return getattr(os, name)

    def write(self, fd: int, data: Any) -> int:
        if self.full:
            if self.room > 0:
                n, self.room = min(self.room, len(data)), 0
                return os.write(fd, bytes(data[:n]))
            raise OSError(errno.ENOSPC, "No space left on device")
        return os.write(fd, data)

    def usage(self, folder: Path) -> Usage:
        return Usage(0 if self.full else self.free, 1000 * MB)

    def probe(self, folder: Path) -> bool:
        return not self.full

    def fill(self) -> None:
        self.full = True

    def free_space(self) -> None:
        self.full = False


@pytest.fixture
def disk(monkeypatch: pytest.MonkeyPatch) -> Disk:
    d = Disk()
    monkeypatch.setattr(companion.journal, "os", d)
    return d


def watch(folder: Path, disk: Disk) -> DiskWatch:
    return DiskWatch(folder, usage=disk.usage, probe=disk.probe)


def test_a_line_cut_short_by_a_full_disk_is_taken_back(tmp_path: Path, disk: Disk) -> None:
    header = {"game": "tantrix", "players": ["red", "blue"]}
    key = SigningKey.generate()
    writer = JournalWriter.create(tmp_path / "j.jsonl", header, key)
    size = (tmp_path / "j.jsonl").stat().st_size
    disk.fill()
    disk.room = 10  # ten bytes of the line get in, then the disk is full
    with pytest.raises(OSError):
        writer.append({"t": 1.0, "ev": "note", "text": "lost"})
    assert (tmp_path / "j.jsonl").stat().st_size == size
    disk.free_space()
    writer.append({"t": 2.0, "ev": "note", "text": "kept"})
    writer.close()
    assert verify_path(tmp_path / "j.jsonl", key=key.public).ok
    assert [b["text"] for _, b in read_path(tmp_path / "j.jsonl").events] == ["kept"]


def test_a_full_disk_refuses_a_move_shows_why_and_plays_on_when_space_is_freed(
    tmp_path: Path, disk: Disk
) -> None:
    rig = make_rig(tmp_path)
    rig.daemon.disk = watch(tmp_path, disk)
    rig.flip(1.0, "r1")  # red moves: on disk
    rig.time.at(3.0, disk.fill)
    rig.press(4.0, "ring.red")  # refused: the disk is full
    rig.sample(5.0, "full")
    rig.time.at(8.0, disk.free_space)
    rig.sample(10.0, "back")
    rig.press(16.0, "ring.red")  # after space is freed: played
    rig.run(until=18.0)
    assert rig.samples["full"]["view"]["warning"] == FULL_TEXT
    assert rig.samples["back"]["view"]["warning"] == BACK_TEXT
    assert rig.daemon.writes_failed >= 1
    events = [e["ev"] for e in rig.game_events()]
    assert events == ["lift", "release", "ring"]  # the refused ring is not in the journal...
    path = rig.table.journal_path
    assert path is not None and verify_path(path).ok
    folded = simulate_file(path)
    game = rig.table.game
    assert game is not None
    assert folded["rings_left"] == game.rings_left  # ...nor in the game the table shows
    assert game.rings_left["red"] == 31


def test_a_low_disk_is_warned_before_it_is_full(tmp_path: Path, disk: Disk) -> None:
    rig = make_rig(tmp_path)
    disk.free = 10 * MB
    rig.daemon.disk = watch(tmp_path, disk)
    rig.sample(1.0, "low")
    rig.run(until=2.0)
    assert rig.samples["low"]["view"]["warning"] == low_text(10 * MB)


def test_a_keypad_game_refuses_a_key_on_a_full_disk_and_takes_it_again_after(
    tmp_path: Path, disk: Disk
) -> None:
    clock = FakeClock()
    config = defaults()
    table = TantrixTable(clock, tmp_path, config=config)
    table.start_game(["red", "blue"])
    said: list[str] = []
    notifier = NullNotifier()
    notifier.status = said.append  # type: ignore[method-assign]
    daemon = Daemon(table, clock, disk=watch(tmp_path, disk), notifier=notifier)
    disk.fill()
    for key in "1##":
        daemon.step(RawInput("key", key, True, clock.now()))
    assert table.game is not None and table.game.placed == 0
    assert table.view()["warning"] == FULL_TEXT
    assert said[-1].startswith("journal writes fail (No space left on device)")  # systemd
    disk.free_space()
    clock.advance(6.0)
    daemon.step(None)
    assert table.view()["warning"] == BACK_TEXT
    for key in "*1##":
        daemon.step(RawInput("key", key, True, clock.now()))
    assert table.game.placed == 1
    assert table.journal_path is not None and verify_path(table.journal_path).ok
    assert simulate_file(table.journal_path)["placed"] == 1


def test_a_game_that_cannot_be_opened_at_start_is_opened_once_there_is_space(
    tmp_path: Path, disk: Disk
) -> None:
    clock = FakeClock()
    config = defaults()
    table = make_table(config, clock, tmp_path)
    daemon = Daemon(table, clock, disk=watch(tmp_path, disk))
    disk.fill()
    with pytest.raises(OSError) as failed:
        start_configured_game(table, config)
    daemon.write_failed(failed.value, retry=lambda: start_configured_game(table, config) and None)
    daemon.step(None)
    assert table.journal_path is None and daemon.disk is not None and daemon.disk.failed
    assert daemon.screen_view()["warning"] == f"{FULL_TEXT}: no game yet"  # what the OLED shows
    disk.free_space()
    clock.advance(6.0)
    daemon.step(None)
    assert table.journal_path is not None and verify_path(table.journal_path).ok


# ---------------------------------------------------------------------- a real full disk


@pytest.fixture
def small_disk(tmp_path: Path) -> Any:
    """A 256 KiB tmpfs (needs root and a kernel that lets us mount; skipped otherwise)."""
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a small tmpfs needs root")
    folder = tmp_path / "small"
    folder.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(folder)],
                          capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def test_the_daemon_starts_on_a_full_disk_and_opens_the_game_when_space_is_freed(
    tmp_path: Path, small_disk: Path
) -> None:
    filler = small_disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:  # fill it up
        while os.write(fd, b"\0" * 4096):
            pass
    except OSError:
        pass
    finally:
        os.close(fd)
    config = tmp_path / "config.toml"
    config.write_text('[game]\nkind = "tantrix"\n')
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "run", "--backend", "mock", "--config",
         str(config), "--journal-dir", str(small_disk)],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    try:
        time.sleep(3.0)
        assert proc.poll() is None  # running, not in a restart loop
        assert list(small_disk.glob("*.jsonl")) == []
        filler.unlink()
        deadline = time.monotonic() + 20
        while not list(small_disk.glob("tantrix-*.jsonl")) and time.monotonic() < deadline:
            time.sleep(0.1)
        journals = list(small_disk.glob("tantrix-*.jsonl"))
        assert len(journals) == 1 and read_path(journals[0]).header is not None
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err.decode()
    assert b"Traceback" not in err
