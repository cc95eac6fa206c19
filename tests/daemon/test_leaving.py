"""Leaving: a game at a terminal ends when the terminal does; SIGTERM stops every daemon."""

from __future__ import annotations

import fcntl
import os
import select
import signal
import subprocess
import sys
import termios
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.arbiter.broker import Broker, mosquitto_path

READY_TEXT = b"quit"  # the last word of the desktop backend's key help, under every frame


def _controlling_tty(slave: int) -> None:  # in the child, before exec
    os.setsid()
    fcntl.ioctl(slave, termios.TIOCSCTTY, 0)


def start_desktop(tmp_path: Path, *args: str) -> tuple[subprocess.Popen[bytes], int]:
    """``companion ARGS`` on a pseudo-terminal of its own (its controlling terminal)."""
    master, slave = os.openpty()
    env = dict(os.environ, HOME=str(tmp_path), COMPANION_WINDOW="0")
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", *args],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        preexec_fn=lambda: _controlling_tty(slave),
        close_fds=True,
    )
    os.close(slave)
    seen = b""
    deadline = time.monotonic() + 30
    while READY_TEXT not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.5)
        if ready:
            try:
                seen += os.read(master, 65536)
            except OSError:
                break
    assert READY_TEXT in seen, seen[-500:]
    return proc, master


def ends(proc: subprocess.Popen[bytes], timeout: float = 10.0) -> int | None:
    try:
        return proc.wait(timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        return None


@pytest.fixture(params=[["demo", "--interactive"], ["run", "--backend", "desktop"]],
                ids=["demo-interactive", "run-desktop"])
def command(request: pytest.FixtureRequest, tmp_path: Path) -> list[str]:
    config = tmp_path / "config.toml"
    config.write_text(f'[table]\njournal_dir = "{tmp_path / "journals"}"\n')
    return [*request.param, "--config", str(config)]


def test_closing_the_terminal_ends_the_game_without_spinning(
    tmp_path: Path, command: list[str]
) -> None:
    proc, master = start_desktop(tmp_path, *command)
    os.close(master)  # the terminal window is closed: SIGHUP, then EIO on every read
    assert ends(proc) == 0


def test_a_hang_up_signal_ends_the_game(tmp_path: Path, command: list[str]) -> None:
    proc, master = start_desktop(tmp_path, *command)
    proc.send_signal(signal.SIGHUP)
    assert ends(proc) == 0
    os.close(master)


def test_end_of_input_ends_the_game(tmp_path: Path, command: list[str]) -> None:
    proc, master = start_desktop(tmp_path, *command)
    os.write(master, b"\x04")  # Ctrl-D: the terminal's end of input
    assert ends(proc) == 0
    os.close(master)


def test_end_of_input_on_a_terminal_that_ignores_hangups_does_not_spin(tmp_path: Path) -> None:
    """The 100 % CPU case: SIGHUP ignored (nohup), the terminal gone; reads return EIO."""
    config = tmp_path / "config.toml"
    config.write_text(f'[table]\njournal_dir = "{tmp_path / "journals"}"\n')
    master, slave = os.openpty()
    env = dict(os.environ, HOME=str(tmp_path))
    code = (
        "import signal, sys; signal.signal(signal.SIGHUP, signal.SIG_IGN); "
        "from companion.cli import main; sys.exit(main(sys.argv[1:]))"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code, "demo", "--interactive", "--config", str(config)],
        stdin=slave, stdout=slave, stderr=slave, env=env,
        preexec_fn=lambda: _controlling_tty(slave),
    )
    os.close(slave)
    deadline = time.monotonic() + 30
    seen = b""
    while READY_TEXT not in seen and time.monotonic() < deadline:
        if select.select([master], [], [], 0.5)[0]:
            seen += os.read(master, 65536)
    os.close(master)
    assert ends(proc) == 0


# ---------------------------------------------------------------------- SIGTERM with MQTT


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    pytest.importorskip("paho.mqtt.client", reason="paho-mqtt is not installed")
    if mosquitto_path() is None:
        pytest.skip("mosquitto is not installed: apt-get install mosquitto (the CI installs it)")
    folder = tmp_path / "broker"
    folder.mkdir()
    b = Broker(folder).start()
    try:
        yield b
    finally:
        b.stop()


@pytest.mark.parametrize("kind", ["tamsk", "tantrix", "tokami", "puzzle"])
def test_sigterm_with_mqtt_enabled_stops_every_game_kind_cleanly(
    tmp_path: Path, broker: Broker, kind: str
) -> None:
    config = tmp_path / "config.toml"
    config.write_text(
        f'[game]\nkind = "{kind}"\n[mqtt]\nenabled = true\nhost = "127.0.0.1"\n'
        f"port = {broker.port}\n"
    )
    journals = tmp_path / "journals"
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "run", "--backend", "mock", "--config",
         str(config), "--journal-dir", str(journals)],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 30
    while not list(journals.glob("*.jsonl")) and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.3)
    proc.send_signal(signal.SIGTERM)
    try:
        _, err = proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise
    assert proc.returncode == 0, err.decode()
    assert b"Traceback" not in err
