"""The tables' journals on the arbiter's laptop, as they arrive over MQTT, and their results.

A table publishes every record of its journal on its ``events`` topic, signed, in order
(:mod:`companion.arbiter.publisher`); the arbiter's view applies them once each, in ``seq``
order, only from enrolled tables and only while the chain holds
(:attr:`companion.arbiter.view.ArbiterView.on_applied`). :class:`JournalInbox` writes each
record applied, exactly as the table wrote it (the canonical line), to
``DIR/journals/table-N-GAME.jsonl``: the laptop keeps a copy of every journal, signatures
included, that ``companion verify`` and every command read like the table's own.

When a table's final record arrives the game is over: the copy is read by the one verified
reader (:func:`companion.tournament.journals.check_journal`: the chain, every record signed by
the table's enrolled key, the final record, and the game the tournament file paired at that
table with these players), and its result goes into its tournament's file
(:func:`companion.tournament.intake.record_checked`, ``via`` ``mqtt``), signed with the
arbiter's key. That work is done on a thread of the inbox's own, never on the MQTT thread.
A game of another tournament, one not yet paired, or one the file pairs otherwise is only
noted (:attr:`notes`, shown on the page); a result already there is never replaced by it.
"""

from __future__ import annotations

import logging
import os
import queue
import threading
from collections import deque
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from companion import journal as journal_mod
from companion.i18n import say
from companion.keys import SigningKey
from companion.remark import N_, Remark
from companion.tournament.journals import OK, Keys, check_journal, is_final

log = logging.getLogger(__name__)

MAX_NOTES = 50


def journal_name(table: int, game: str) -> str:
    return f"table-{int(table)}-{game}.jsonl"


class JournalInbox:
    """Writes the journals arriving over MQTT into ``folder/journals`` and records the
    finished games' results into the tournament files of ``folder``."""

    def __init__(
        self,
        folder: str | Path,
        keys: Keys,
        key: SigningKey | None,
        *,
        say_line: Callable[[str], None] | None = None,
    ) -> None:
        self.folder = Path(folder)
        self.journals = self.folder / "journals"
        self.keys = keys
        self.key = key
        self._say = say_line
        self._next: dict[tuple[int, str], int] = {}
        self._queue: queue.Queue[Path | None] = queue.Queue()
        self._pending = 0
        self._idle = threading.Condition()
        self._thread = threading.Thread(target=self._work, name="journal-inbox", daemon=True)
        self.notes: deque[str] = deque(maxlen=MAX_NOTES)

    # ------------------------------------------------------------------ the MQTT thread

    def saw(self, table: int, game: str, record: Mapping[str, Any]) -> None:
        """One record applied in order (the view's ``on_applied``): onto the laptop's copy."""
        seq = record.get("seq")
        if not isinstance(seq, int) or isinstance(seq, bool) or not game.isalnum():
            return
        path = self.journals / journal_name(table, game)
        expected = self._next.get((table, game))
        if expected is None:
            expected = self._count(path)
        if seq != expected:
            self._next[(table, game)] = expected
            return  # had already (a resend after a restart), or not the next one
        try:
            self.journals.mkdir(parents=True, exist_ok=True)
            line = (journal_mod.canonical(record) + "\n").encode("utf-8")
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
            try:
                os.write(fd, line)
                os.fsync(fd)
            finally:
                os.close(fd)
        except (OSError, TypeError, ValueError) as exc:
            log.warning("inbox: cannot keep %s: %s", path, exc)
            return
        self._next[(table, game)] = seq + 1
        if is_final(record):
            with self._idle:
                self._pending += 1
            self._queue.put(path)

    @staticmethod
    def _count(path: Path) -> int:
        """Complete records already in the laptop's copy."""
        try:
            with open(path, "rb") as f:
                return sum(1 for raw in f if raw.endswith(b"\n"))
        except FileNotFoundError:
            return 0

    # ------------------------------------------------------------------ its own thread

    def start(self) -> JournalInbox:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._queue.put(None)
        if self._thread.ident is not None:
            self._thread.join(10)

    def wait(self, timeout: float = 30.0) -> bool:
        """Whether every finished game queued so far was taken within ``timeout`` seconds
        (the demo and the tests wait so before they look at the tournament files)."""
        with self._idle:
            return self._idle.wait_for(lambda: self._pending == 0, timeout)

    def _work(self) -> None:
        while True:
            path = self._queue.get()
            if path is None:
                return
            try:
                self.take(path)
            except Exception:  # one bad game must never stop the results of the others
                log.exception("inbox: %s", path)
            finally:
                with self._idle:
                    self._pending -= 1
                    self._idle.notify_all()

    def take(self, path: Path) -> str:
        """A finished game's journal into its tournament; the line that says what happened."""
        from companion.tournament import store
        from companion.tournament.intake import record_checked
        from companion.tournament.model import TournamentError, name_key

        if self.key is None:
            line = say(Remark(N_("{file}: kept, but no result is recorded: no arbiter key on "
                                 "this laptop (companion keys init --arbiter)"), file=path.name))
            self._note(line)
            return line
        tournaments = []
        for file in store.tournament_files(self.folder):
            try:
                tournaments.append((store.load(file, self.key.public), file))
            except TournamentError as exc:
                self._note(str(say(exc.message)))
        checked = check_journal(path, self.keys, [t for t, _ in tournaments], via_table=True)
        if checked.status != OK:
            line = say(checked.line)
            self._note(line)
            return line
        assert checked.tournament is not None
        file = next(f for t, f in tournaments if name_key(t.name) == name_key(
            checked.tournament.name))
        try:
            done = record_checked(file, self.key, checked, via="mqtt")
        except TournamentError as exc:
            line = f"{path.name}: {say(exc.message)}"
        else:
            line = f"{checked.tournament.name}: {say(done.line)}"
            if done.already:  # the same final seen again (a resend, a restart): nothing new
                log.debug("inbox: %s", line)
                return line
        self._note(line)
        return line

    def _note(self, line: str) -> None:
        self.notes.append(line)
        log.info("inbox: %s", line)
        if self._say is not None:
            self._say(line)
