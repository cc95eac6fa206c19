"""The real daemon process on the mock backend: systemd notification, SIGTERM, and a SIGKILL
in the middle of a game followed by a restart that resumes it exactly."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from companion.journal import read_path
from companion.keys import PublicKey
from companion.simulate import simulate_file
from companion.verify import verify_path


class Systemd:
    """A datagram socket standing in for systemd's notify socket."""

    def __init__(self, path: Path) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(path))
        self.sock.settimeout(0.2)
        self.path = path
        self.messages: list[str] = []

    def wait_for(self, prefix: str, timeout: float = 20.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for m in self.messages:
                for line in m.splitlines():
                    if line.startswith(prefix):
                        self.messages.remove(m)
                        return line
            try:
                self.messages.append(self.sock.recv(4096).decode("utf-8"))
            except TimeoutError:
                pass
        raise AssertionError(f"no {prefix!r} from the daemon; got {self.messages}")

    def last(self, prefix: str) -> str:
        line = ""
        while True:
            try:
                self.messages.append(self.sock.recv(4096).decode("utf-8"))
            except TimeoutError:
                break
        for m in self.messages:
            for ln in m.splitlines():
                if ln.startswith(prefix):
                    line = ln
        return line


def start(journals: Path, notify: Path, wall_clock: str = "trusted") -> subprocess.Popen[str]:
    """The daemon on mock pins; ``wall_clock`` as in the config (this test machine's own
    clock may or may not be NTP-synchronised: each test says which table it means)."""
    config = journals.parent / f"wall-{wall_clock}.toml"
    config.write_text(f'[table]\nwall_clock = "{wall_clock}"\n')
    env = dict(os.environ, NOTIFY_SOCKET=str(notify), WATCHDOG_USEC="2000000")
    env.pop("WATCHDOG_PID", None)  # no PID: the watchdog is for whoever reads it
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "companion.cli",
            "run",
            "--config",
            str(config),
            "--backend",
            "mock",
            "--journal-dir",
            str(journals),
            "--pins-from-stdin",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def send(proc: subprocess.Popen[str], **cmd: object) -> None:
    assert proc.stdin is not None
    proc.stdin.write(json.dumps(cmd) + "\n")
    proc.stdin.flush()


def journal_of(journals: Path) -> Path:
    found = sorted(journals.glob("tamsk-*.jsonl"))
    assert len(found) == 1, found
    return found[0]


def wait_records(journals: Path, n: int, timeout: float = 20.0) -> list[dict[str, object]]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        files = list(journals.glob("tamsk-*.jsonl"))
        if files:
            events = [b for _, b in read_path(files[0]).events]
            if len(events) >= n:
                return events
        time.sleep(0.05)
    raise AssertionError(f"fewer than {n} journal records after {timeout} s")


def test_sigkill_mid_game_then_restart_resumes_the_game_exactly(tmp_path: Path) -> None:
    journals = tmp_path / "journals"
    systemd = Systemd(tmp_path / "notify.sock")
    first = start(journals, systemd.path)
    try:
        systemd.wait_for("READY=1")
        send(first, tilt="r1", level=1)  # red turns r1 over
        wait_records(journals, 2)
        send(first, button="ring.red", pressed=True)
        send(first, button="ring.red", pressed=False)
        before = wait_records(journals, 3)
        assert [e["ev"] for e in before] == ["lift", "release", "ring"]
        assert systemd.wait_for("WATCHDOG=1")
        time.sleep(0.3)
        status = systemd.last("STATUS=")
        assert "turn black" in status and "rings red 31 black 32" in status
    finally:
        first.kill()  # SIGKILL: no clean-up at all
        first.wait()
    state_at_kill = simulate_file(journal_of(journals))
    time.sleep(1.0)  # the table is dark for a second

    systemd.last("")  # drain what the first daemon said
    systemd.messages.clear()
    second = start(journals, systemd.path)
    try:
        systemd.wait_for("READY=1")
        resumed = wait_records(journals, 4)
        note = resumed[3]
        assert note["ev"] == "note" and str(note["text"]).startswith("resumed after")
        off = float(str(note["text"]).split()[2])
        assert off >= 1.0  # the time the power was off counts: the glasses ran on
        assert float(note["t"]) >= float(before[-1]["t"]) + 1.0  # type: ignore[arg-type]
        status = systemd.wait_for("STATUS=")
        assert "turn black" in status and "rings red 31 black 32" in status
        send(second, tilt="b1", level=1)  # black moves after the restart
        after = wait_records(journals, 6)
        assert [e["ev"] for e in after[4:]] == ["lift", "release"]
        second.send_signal(signal.SIGTERM)
        assert second.wait(timeout=10) == 0
        assert "STOPPING=1" in systemd.wait_for("STOPPING=1")
    finally:
        if second.poll() is None:
            second.kill()
            second.wait()
    path = journal_of(journals)
    assert verify_path(path).ok
    final = simulate_file(path)
    assert final["violations"] == []
    assert final["rings_left"] == state_at_kill["rings_left"]
    assert final["turn"] == "red"
    # r1 was turned at the start: its sand has run on through the power cut
    r1 = final["glasses"]["r1"]
    assert abs(r1["sand"] - (180.0 - (final["t"] - float(before[1]["t"])))) < 0.01  # type: ignore[arg-type]


def test_a_tantrix_table_is_played_from_the_keypad_through_the_daemon(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[game]\nkind = "tantrix"\n\n[tantrix]\nplayers = ["red", "blue"]\n')
    journals = tmp_path / "journals"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "companion.cli",
            "run",
            "--config",
            str(config),
            "--backend",
            "mock",
            "--journal-dir",
            str(journals),
            "--pins-from-stdin",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        for key in "1##":  # tile 1, its first legal spot, lay it
            send(proc, key=key)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            found = sorted(journals.glob("tantrix-*.jsonl"))
            if found and len(read_path(found[0]).events) >= 1:
                break
            time.sleep(0.05)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    path = sorted(journals.glob("tantrix-*.jsonl"))[0]
    state = simulate_file(path)
    assert (
        state["game"] == "tantrix" and state["placed"] == 1 and state["players"] == ["red", "blue"]
    )
    # Made on first start, beside the journals: its fingerprint is shown and logged at start-up.
    key = PublicKey.from_file_or_line(str(journals / "keys" / "table.key.pub"))
    assert verify_path(path, key=key).ok
    logged = proc.stderr.read() if proc.stderr else ""
    assert f"table key fingerprint {key.short_fingerprint}" in logged
