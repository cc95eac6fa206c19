"""Which game a table is playing: the ``current`` pointer in the journal folder.

A folder of journals holds a season of games, finished and abandoned. Guessing the game in play
("the newest unfinished one") brought a game abandoned two months ago back to the table, and
left the old game open after ``new-game`` and a reload. So the game in play is named, not
guessed: ``current-tN`` (N the table number) is a small JSON file in the folder::

    {"journal": "tantrix-t3-20261124-201500.jsonl", "previous": null}

It is replaced atomically (written beside, fsynced, ``os.replace``, the folder fsynced), so a
power cut leaves the old pointer or the new one, never half of one. ``previous`` names a game
``companion new-game`` switched away from while a daemon still had it open: the daemon, which
holds the journal's writer, ends it on ``systemctl reload`` (or at its next start) and clears it.

Who may write a table's journals is settled by a lock file (``.table-tN.lock``, ``flock``): the
daemon holds it while it runs; ``new-game`` ends the previous game itself only when it can take
the lock (no daemon is writing that journal), so two writers never append to one journal.

The pointer is a hostile file like any other: anything but a small JSON object naming a journal
file in the same folder is logged and ignored, and the table falls back to the newest journal
of its game and table, if that one is unfinished (folders from before the pointer existed).
Only that one journal is opened: an older abandoned game never comes back by itself.
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion import registry
from companion.files import atomic_write

log = logging.getLogger(__name__)

#: A journal name the pointer may hold: a plain file name in the same folder, nothing else.
JOURNAL_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,200}\.jsonl")
#: The pointer is a few dozen bytes; anything much larger is not ours.
MAX_POINTER_BYTES = 4096


@dataclass(frozen=True)
class Pointer:
    """What ``current-tN`` says: the game in play, and a game still to be ended (or None)."""

    journal: str
    previous: str | None = None


def pointer_path(folder: str | Path, table: int) -> Path:
    return Path(folder) / f"current-t{int(table)}"


def _name(value: Any) -> str | None:
    if isinstance(value, str) and JOURNAL_NAME.fullmatch(value):
        return value
    return None


def read_pointer(folder: str | Path, table: int) -> Pointer | None:
    """The table's pointer, or None when there is none or it is not one (logged)."""
    path = pointer_path(folder, table)
    try:
        with open(path, "rb") as stream:
            data = stream.read(MAX_POINTER_BYTES + 1)
    except FileNotFoundError:
        return None
    except OSError as exc:
        log.warning("%s: cannot read the current-game pointer: %s", path, exc.strerror)
        return None
    try:
        if len(data) > MAX_POINTER_BYTES:
            raise ValueError("too long")
        obj = json.loads(data.decode("utf-8"))
        if not isinstance(obj, dict):
            raise ValueError("not a JSON object")
        journal = _name(obj.get("journal"))
        if journal is None:
            raise ValueError("no journal file name in it")
        previous = obj.get("previous")
        return Pointer(journal, _name(previous) if previous is not None else None)
    except (UnicodeDecodeError, ValueError) as exc:
        log.warning("%s: not a current-game pointer (%s): ignored", path, exc)
        return None


def write_pointer(
    folder: str | Path, table: int, journal: str | Path, previous: str | Path | None = None
) -> None:
    """Point the table at ``journal`` (a file in ``folder``), atomically and durably."""
    folder = Path(folder)
    obj = {
        "journal": Path(journal).name,
        "previous": None if previous is None else Path(previous).name,
    }
    if _name(obj["journal"]) is None:
        raise ValueError(f"{journal}: not a journal file name")
    atomic_write(pointer_path(folder, table), json.dumps(obj) + "\n")


class TableLock:
    """The right to write a table's journals: held by the daemon for as long as it runs."""

    def __init__(self, folder: str | Path, table: int) -> None:
        self.path = Path(folder) / f".table-t{int(table)}.lock"
        self._fd = -1

    def acquire(self) -> bool:
        """Take the lock if nobody holds it; False when another process does."""
        if self._fd >= 0:
            return True
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return False
        self._fd = fd
        return True

    def release(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)  # closing the descriptor drops the flock
            self._fd = -1

    def __enter__(self) -> TableLock:
        if not self.acquire():
            raise BlockingIOError(f"{self.path}: the table is open in another process")
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


# ---------------------------------------------------------------------- the games themselves


def fold_journal(path: str | Path) -> tuple[Any, dict[str, Any], dict[str, Any], list[Any]] | None:
    """``(kind, header, state, events)`` for a journal, or None when it cannot be read (logged)."""
    from companion.simulate import load

    try:
        loaded = load(path)
        kind = registry.for_header(loaded.scenario.header)
        state = kind.simulate(loaded.scenario.header, loaded.scenario.events)
    except Exception as exc:  # a damaged journal is reported, never fatal
        log.warning("%s: cannot be folded: %s", path, exc)
        return None
    return kind, dict(loaded.scenario.header), state, list(loaded.scenario.events)


def is_unfinished(path: str | Path, kind: str) -> bool:
    """Whether ``path`` holds a game of ``kind`` that is not over."""
    folded = fold_journal(path)
    if folded is None:
        return False
    game, _, state, _ = folded
    return bool(game.name == kind and not game.is_over(state))


def end_game(path: str | Path, *, src: str = "new-game") -> str:
    """End an unfinished game in its own journal with an ``end`` event at its last time, if its
    rules have one; the fold then gives the result (or none). Returns what was done, for the
    user. The caller must be the only writer of the journal (see :class:`TableLock`)."""
    from companion.journal import JournalWriter

    folded = fold_journal(path)
    if folded is None:
        return f"{path}: left as it is (it cannot be read)"
    game, header, state, events = folded
    if game.is_over(state):
        return f"{path}: already over"
    times = [float(e["t"]) for _, e in events if isinstance(e.get("t"), (int, float))]
    body: dict[str, Any] = {"t": max(times, default=0.0), "ev": "end"}
    last_line = events[-1][0] if events else 1
    try:
        after = game.simulate(header, [*events, (last_line + 1, body)])
    except Exception:  # this game's rules have no end event (a solo puzzle)
        after = state
    if not game.is_over(after):
        return f"{path}: left unfinished ({game.title} has no end event)"
    from companion.tablekey import key_for_journal
    from companion.verify import header_signer

    named = header_signer(header)
    signer = key_for_journal(path, named) if named is not None else None
    try:
        writer, _ = JournalWriter.resume(path, signer)
    except ValueError as exc:  # signed, and this table's key is not the one that signed it
        return f"{path}: left as it is ({exc})"
    try:
        writer.append({**body, "wall": round(time.time(), 3), "src": src})
    finally:
        writer.close()
    return f"{path}: ended (a new game replaced it)"


def newest_journal(folder: str | Path, kind: str, table: int) -> Path | None:
    """The journal of ``kind`` at ``table`` written last (names only; nothing is opened)."""
    candidates = []
    for path in Path(folder).glob(f"{kind}-t{int(table)}-*.jsonl"):
        try:
            candidates.append((path.stat().st_mtime, path.name, path))
        except OSError:
            continue
    return max(candidates)[2] if candidates else None


def game_to_resume(folder: str | Path, kind: str | None, table: int) -> Path | None:
    """The game the table takes up at start: the one the pointer names, if it is an unfinished
    game (of ``kind``, when one is given); with no pointer, the newest journal of this game and
    table if unfinished (never an older one); else None (a new game)."""
    folder = Path(folder)
    pointer = read_pointer(folder, table)
    if pointer is not None:
        path = folder / pointer.journal
        if path.is_file():
            folded = fold_journal(path)
            if folded is not None and not folded[0].is_over(folded[2]):
                if kind is None or folded[0].name == kind:
                    return path
        return None
    if kind is None:
        return None
    newest = newest_journal(folder, kind, table)
    if newest is not None and is_unfinished(newest, kind):
        return newest
    return None


def settle_previous(folder: str | Path, table: int, *, src: str = "daemon") -> str | None:
    """End the game the pointer says ``new-game`` switched away from, and clear it (the caller
    holds the :class:`TableLock`). Returns what was done, or None if nothing was pending."""
    folder = Path(folder)
    pointer = read_pointer(folder, table)
    if pointer is None or pointer.previous is None:
        return None
    previous = folder / pointer.previous
    try:
        done = end_game(previous, src=src) if previous.is_file() else None
        write_pointer(folder, table, pointer.journal)
    except OSError as exc:  # a full disk: the pointer keeps it, to be ended next time
        log.warning("%s: cannot be ended now: %s", previous, exc)
        return f"{previous}: not ended yet ({exc.strerror or exc})"
    return done


def kind_of(path: str | Path) -> str | None:
    """The game a journal's header names (only its first line is read)."""
    try:
        with open(path, "rb") as stream:
            first = stream.readline(1 << 16)
        header = json.loads(first.decode("utf-8"))
        return str(header["game"]) if isinstance(header, dict) and "game" in header else None
    except (OSError, UnicodeDecodeError, ValueError):
        return None


class CurrentGame:
    """The daemon's side of the pointer: it holds the table's lock while it runs, keeps the
    pointer on the journal it has open, and on reload takes up the game the pointer names."""

    def __init__(self, folder: str | Path, table: int) -> None:
        self.folder = Path(folder)
        self.table = int(table)
        self.lock = TableLock(self.folder, self.table)
        self._pointed: str | None = None

    def start(self, kind: str, *, new_game: bool = False) -> Path | None:
        """At start (the lock held): end a game new-game left to end, then the game to resume
        (the pointer's, whatever its kind; else the newest of ``kind``), or None. With
        ``new_game`` (``companion run --new-game``) that game is ended instead."""
        done = settle_previous(self.folder, self.table)
        if done:
            log.info("%s", done)
        pointer = read_pointer(self.folder, self.table)
        found = game_to_resume(self.folder, None if pointer is not None else kind, self.table)
        if new_game and found is not None:
            try:
                log.info("%s", end_game(found, src="daemon"))
            except OSError as exc:  # the new game's pointer still replaces it
                log.warning("%s: cannot be ended now: %s", found, exc)
            return None
        return found

    def opened(self, path: Path | None) -> None:
        """The table has ``path`` open: point at it (written only when it changed)."""
        if path is None or path.name == self._pointed:
            return
        if Path(path).parent.resolve() != self.folder.resolve():
            return
        pointer = read_pointer(self.folder, self.table)
        previous = pointer.previous if pointer is not None else None
        if pointer is None or pointer.journal != path.name or previous is not None:
            try:
                write_pointer(self.folder, self.table, path)
            except OSError as exc:  # a full disk: the table plays on; retried next change
                log.warning("%s: cannot point at %s: %s", self.folder, path.name, exc)
                return
        self._pointed = path.name

    def wanted(self, open_path: Path | None, kind: str) -> Path | None:
        """On reload: the journal the pointer names, when it is an unfinished game of ``kind``
        other than the one open; else None (logged when the pointer names something else)."""
        pointer = read_pointer(self.folder, self.table)
        if pointer is None:
            return None
        target = self.folder / pointer.journal
        if open_path is not None and target.name == open_path.name:
            return None
        if not target.is_file():
            log.warning("the current-game pointer names %s, which is not there", target)
            return None
        other = kind_of(target)
        if other != kind:
            log.warning(
                "the current-game pointer names a %s game; this table plays %s: restart "
                "the daemon (systemctl restart companion) to take it up",
                other,
                kind,
            )
            return None
        return target if is_unfinished(target, kind) else None

    def settle(self) -> str | None:
        """End the game the pointer says to end (the daemon's, now closed)."""
        self._pointed = None
        return settle_previous(self.folder, self.table)


class Heartbeat:
    """Where the game in play had got to: ``.alive-tN``, rewritten in place every few seconds
    while sand runs (one small block, synced), so that after a power cut the table knows the
    game time at the cut even when the wall clock cannot say how long it was dark. Journal
    records alone are not enough: sand runs for minutes between two inputs."""

    #: Seconds between two writes while something runs on time.
    EVERY_S = 5.0

    def __init__(self, folder: str | Path, table: int) -> None:
        self.path = alive_path(folder, table)
        self._fd = -1
        self.next_at = 0.0

    def beat(self, journal: Path, t: float, wall: float) -> None:
        """Record that ``journal``'s game had reached game time ``t`` at ``wall``."""
        data = json.dumps(
            {"journal": journal.name, "t": round(t, 3), "wall": round(wall, 3)}
        ).encode()
        try:
            if self._fd < 0:
                self._fd = os.open(self.path, os.O_WRONLY | os.O_CREAT, 0o644)
            os.pwrite(self._fd, data.ljust(MAX_ALIVE_BYTES // 2), 0)
            os.fdatasync(self._fd)
        except OSError as exc:  # a full disk: the journal's own records still anchor time
            log.debug("%s: %s", self.path, exc)

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1


#: The heartbeat file is one small JSON object, padded with spaces.
MAX_ALIVE_BYTES = 512


def alive_path(folder: str | Path, table: int) -> Path:
    return Path(folder) / f".alive-t{int(table)}"


def read_alive(journal: Path, table: int) -> tuple[float, float] | None:
    """``(game time, wall)`` the heartbeat last recorded for ``journal``, or None."""
    try:
        with open(alive_path(journal.parent, table), "rb") as stream:
            obj = json.loads(stream.read(MAX_ALIVE_BYTES).decode("utf-8"))
        if not isinstance(obj, dict) or obj.get("journal") != journal.name:
            return None
        t, wall = obj.get("t"), obj.get("wall")
        if isinstance(t, bool) or isinstance(wall, bool):
            return None
        if not (isinstance(t, (int, float)) and isinstance(wall, (int, float))):
            return None
        if not (0.0 <= t < 1e9 and 0.0 <= wall < 1e11):  # NaN fails both
            return None
        return float(t), float(wall)
    except (OSError, UnicodeDecodeError, ValueError):
        return None


__all__ = [
    "CurrentGame",
    "Heartbeat",
    "alive_path",
    "read_alive",
    "Pointer",
    "TableLock",
    "end_game",
    "game_to_resume",
    "is_unfinished",
    "kind_of",
    "newest_journal",
    "pointer_path",
    "read_pointer",
    "settle_previous",
    "write_pointer",
]
