"""The desktop table in a real terminal (a pseudo-terminal of its own), as a new user meets it:
the journal goes where ``--journal-dir`` says, Esc in a dialog closes it and never quits, a
terminal too small for the OLED is told so, and a keypad game shows its own keys."""

from __future__ import annotations

import fcntl
import os
import struct
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path

from companion import keymap
from tests.daemon.test_leaving import _controlling_tty, ends


class Terminal:
    """``companion ARGS`` on a pseudo-terminal of ``columns`` x ``lines``; what it wrote."""

    def __init__(self, tmp_path: Path, *args: str, columns: int = 200, lines: int = 60) -> None:
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))
        env = dict(os.environ, HOME=str(tmp_path), COMPANION_WINDOW="0")
        env.pop("COLUMNS", None)
        env.pop("LINES", None)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "companion.cli", *args],
            stdin=slave, stdout=slave, stderr=slave, env=env,
            preexec_fn=lambda: _controlling_tty(slave), close_fds=True,
        )
        os.close(slave)
        self.seen = b""
        self.lock = threading.Lock()
        self.reader = threading.Thread(target=self._drain, daemon=True)
        self.reader.start()

    def _drain(self) -> None:
        """Read everything the program writes, so that it never blocks on a full terminal."""
        while True:
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                return
            if not chunk:
                return
            with self.lock:
                self.seen += chunk

    def read_until(self, text: bytes, timeout: float = 30.0) -> bool:
        """Wait until ``text`` has been written (False if it never is)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if text in self.seen:
                    return True
            time.sleep(0.1)
        return False

    def type(self, keys: bytes, settle: float = 0.4) -> None:
        os.write(self.master, keys)
        time.sleep(settle)

    def quit(self) -> int | None:
        os.write(self.master, b"\x11")  # Ctrl-Q
        rc = ends(self.proc)
        os.close(self.master)
        self.reader.join(5)
        return rc


def config(tmp_path: Path, extra: str = "") -> str:
    path = tmp_path / "config.toml"
    path.write_text(f'[table]\njournal_dir = "{tmp_path / "configured"}"\n{extra}')
    return str(path)


def test_demo_interactive_writes_its_journal_in_the_journal_dir_given(tmp_path: Path) -> None:
    chosen = tmp_path / "chosen"
    term = Terminal(tmp_path, "demo", "--interactive", "--config", config(tmp_path),
                    "--journal-dir", str(chosen))
    assert term.read_until(b"quit"), term.seen[-500:]
    assert term.quit() == 0
    assert list(chosen.glob("tamsk-*.jsonl"))
    assert not list((tmp_path / "configured").glob("*.jsonl"))


def test_escape_in_a_dialog_closes_it_and_the_game_goes_on(tmp_path: Path) -> None:
    term = Terminal(tmp_path, "demo", "--interactive", "--config", config(tmp_path))
    assert term.read_until(b"quit"), term.seen[-500:]
    term.type(b"d")  # the keypad's D: the menu
    term.type(b"\x1b")  # Esc: back, as * is
    term.type(b"\x1b[A")  # an arrow key's escape sequence: no key of the table, no quit
    assert term.proc.poll() is None, term.seen[-500:]
    term.type(b"33#")  # out of the menu: where red's next move goes (c3), not a new game
    term.type(b"q", settle=1.5)  # red turns r1 over; it settles and is joined to c3
    assert term.quit() == 0
    journal = next((tmp_path / "configured").glob("tamsk-*.jsonl")).read_text()
    assert '"to":"c3"' in journal.replace(" ", ""), journal


def test_a_terminal_too_small_for_the_oled_says_what_it_needs(tmp_path: Path) -> None:
    term = Terminal(tmp_path, "demo", "--interactive", "--config", config(tmp_path),
                    columns=100, lines=30)
    assert term.read_until(b"quit"), term.seen[-500:]
    said = term.seen.decode("utf-8", "replace")
    assert "needs 128x35 characters" in said and "is 100x30" in said
    assert term.quit() == 0


def test_a_terminal_big_enough_is_not_told_anything(tmp_path: Path) -> None:
    term = Terminal(tmp_path, "demo", "--interactive", "--config", config(tmp_path))
    assert term.read_until(b"quit"), term.seen[-500:]
    assert b"needs 128x35" not in term.seen
    assert term.quit() == 0


def test_a_keypad_game_shows_its_own_keys_not_the_hourglasses(tmp_path: Path) -> None:
    for kind, title in (("tantrix", "Tantrix"), ("tokami", "Tokami")):
        folder = tmp_path / kind
        folder.mkdir()
        term = Terminal(folder, "run", "--backend", "desktop", "--config",
                        config(folder, f'[game]\nkind = "{kind}"\n'))
        assert term.read_until(b"quit"), term.seen[-500:]
        said = term.seen.decode("utf-8", "replace")
        assert keymap.keypad_hint_line() in said and f"{title}:" in said, kind
        assert keymap.hint_line() not in said, kind
        assert term.quit() == 0
