"""Stepping through a game with the keys of a terminal.

:func:`step` is the whole behaviour (a key and a position in, the next position out) and
:func:`run` drives it from any iterable of keys, so the tests press keys without a terminal.
:func:`keys` reads real key presses from a TTY in raw mode and always restores the terminal.
"""

from __future__ import annotations

import os
import select
import sys
from collections.abc import Callable, Generator, Iterable

from companion.i18n import N_, _
from companion.replay.model import Replay
from companion.replay.text import frame_text

FORWARD = {"\x1b[C", "\x1bOC", "n", "l", " ", "\r", "\n", "j"}
BACK = {"\x1b[D", "\x1bOD", "p", "h", "\x7f", "\x08", "k"}
HOME = {"\x1b[H", "\x1bOH", "\x1b[1~", "\x1b[7~", "g", "0"}
END = {"\x1b[F", "\x1bOF", "\x1b[4~", "\x1b[8~", "G", "$"}
QUIT = {"q", "Q", "\x03", "\x04", "\x1b"}
HELP = N_("<-/p back   ->/n forward   Home/g start   End/G end   q quit")
CLEAR = "\x1b[H\x1b[2J"


def step(position: int, key: str, last: int) -> int | None:
    """The frame to show after ``key`` (None: quit). Unknown keys change nothing."""
    if key in QUIT:
        return None
    if key in FORWARD:
        return min(last, position + 1)
    if key in BACK:
        return max(0, position - 1)
    if key in HOME:
        return 0
    if key in END:
        return last
    return position


def screen(replay: Replay, position: int) -> str:
    return f"{CLEAR}{frame_text(replay, replay.frames[position])}\n\n{_(HELP)}\n"


def run(replay: Replay, keys: Iterable[str], write: Callable[[str], object], start: int = 0
        ) -> int:
    """Show ``start``, then one screen per key until ``q`` or the keys run out; returns the
    last position shown."""
    last = len(replay.frames) - 1
    position = max(0, min(last, start))
    write(screen(replay, position))
    for key in keys:
        moved = step(position, key, last)
        if moved is None:
            break
        if moved != position:
            position = moved
            write(screen(replay, position))
    return position


def keys(fd: int | None = None) -> Generator[str, None, None]:  # pragma: no cover - tty
    """Key presses from a terminal in raw mode (escape sequences kept whole)."""
    import termios
    import tty

    fd = sys.stdin.fileno() if fd is None else fd
    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        while True:
            data = os.read(fd, 1)
            if not data:
                return
            if data == b"\x1b":
                while select.select([fd], [], [], 0.03)[0]:
                    more = os.read(fd, 1)
                    data += more
                    if more.isalpha() or more == b"~":
                        break
            yield data.decode("latin-1")
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
