"""What every keypad-only table shares: the journal, game time, refusal messages, the wake-ups.

A Tantrix or Tokami table has no switches to debounce and no sand running: the only inputs are
keys, and the only thing that changes without one is a notice timing out (a refusal stays until
the next key, so a player who looked away still reads why). So the
controllers are much simpler than the Tamsk :class:`companion.tamsk.table.Table`, but they keep its
interface (``start_game``, ``resume``, ``feed``, ``poll``, ``next_wakeup``, ``view``,
``status_line``, ``close``, ``changed``, ``journal_path``, ``game``) so the daemon and the
desktop backend drive any of the three the same way.

The order that matters: a key that changes the game is *journaled first* (the journal returns
only once the line is on disk), then applied to the game the table reports, then acknowledged
with a sound. A power cut between the two leaves a journal that a restart folds into exactly
the state the players were about to see.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion import __version__
from companion.clock import Clock
from companion.inputs import RawInput
from companion.journal import Journal, JournalWriter
from companion.keys import SigningKey
from companion.pages import Paging, lasting
from companion.tablekey import table_key
from companion.tables import KeyFilter, ViewFilter, header_extras, merge_next_header
from companion.wallclock import TrustProbe, always_trusted

log = logging.getLogger(__name__)

#: The keys of the 4x4 keypad; anything else from a backend is ignored with a log line.
KEYS = frozenset("0123456789ABCD*#")


class KeypadTable:
    """The shared plumbing of a table played from the keypad alone.

    Subclasses set :attr:`GAME` and implement ``start_game``, ``resume``, :meth:`_key`,
    ``view`` and ``status_line``.
    """

    GAME = ""
    #: Whether this game's journal takes ``note`` events (its rules list them).
    NOTES = True
    #: Arbiter mode at the table (PIN menu, corrections) is Tamsk's so far; every kind publishes.
    arbiter_at_table = False

    def __init__(
        self,
        clock: Clock,
        journal_dir: str | Path,
        *,
        config: Mapping[str, Any],
        sound: Callable[[str], None] | None = None,
        on_record: Callable[[dict[str, Any]], None] | None = None,
    ) -> None:
        self.clock = clock
        self.journal_dir = Path(journal_dir)
        self.config = config
        self._sound = sound or (lambda pattern: None)
        self._on_record = on_record
        self.writer: JournalWriter | None = None
        self.header: dict[str, Any] = {}
        self.mono0 = 0.0  # monotonic time of game time 0
        self.last_t = 0.0  # game time of the last record: the journal's times never go back
        self.error: str | None = None  # a refusal, shown until the next key
        self.warning: str | None = None  # a message from outside the game (see notice)
        self.warning_until = 0.0
        # A message longer than the screen is shown a page at a time, never cut (see pages).
        self.error_pages = Paging()
        self.warning_pages = Paging()
        #: A question and the keys that answer it, when more than the screen holds, are shown
        #: a page at a time from the last key on (``view["prompt_page"]``): pages_prompt.
        self.prompt_pages = Paging()
        self.changed = True  # something to redraw
        self._final_written = False  # the journal's last record is the game's final record
        self.key_filter: KeyFilter | None = None  # the Table protocol's arbiter hooks
        self.view_filter: ViewFilter | None = None
        #: Header fields for the next game only (a pairing's tournament, round, board, seats).
        self.next_header: dict[str, Any] = {}
        #: Whether the wall clock can be believed at a resume (the daemon asks the machine).
        self.wall_trust: TrustProbe = always_trusted
        #: The resume's note for the journal ("resumed after 12.0 s", or why not counted).
        self.resumed_text = ""

    # ------------------------------------------------------------------ journal

    @property
    def signer(self) -> SigningKey:
        """The table's key, which signs every record (made on first use: ``tablekey``)."""
        return table_key(self.config, self.journal_dir)

    @property
    def journal_path(self) -> Path | None:
        return self.writer.path if self.writer else None

    def game_time(self, mono: float | None = None) -> float:
        return (self.clock.now() if mono is None else mono) - self.mono0

    def _new_journal(self, fields: Mapping[str, Any], table: int | None, name: str | None) -> Path:
        """Open a new journal whose header holds the game's ``fields`` and the usual facts; if
        it cannot be written (a full disk), the table is left as it was."""
        now, wall = self.clock.now(), self.clock.wall()
        stamp = datetime.fromtimestamp(wall, UTC)
        table_no = int(table if table is not None else self.config["table"]["number"])
        stem = f"{self.GAME}-t{table_no}-{stamp:%Y%m%d-%H%M%S}"
        header: dict[str, Any] = {
            "game": self.GAME,
            **fields,
            "table": table_no,
            **header_extras(self.config),
            "software": f"companion {__version__}",
            "created": stamp.isoformat(timespec="seconds"),
            "wall0": round(wall, 3),
        }
        merge_next_header(header, self.next_header,
                          list(fields["players"]) if "names" in fields else None)
        if name:
            writer = JournalWriter.create(self.journal_dir / name, header, self.signer)
        else:  # two games in one second get distinct names
            writer = JournalWriter.create_unique(self.journal_dir, stem, header, self.signer)
        self.close()
        self.writer = writer
        self.header = header
        self.mono0 = now
        self.last_t = 0.0
        self._clear_error()
        self.changed = True
        return self.writer.path

    def _refold(
        self, path: str | Path, fold: Callable[[dict[str, Any], Any], Any]
    ) -> tuple[Any, list[str]]:
        """Reopen a journal and fold it again from its first line, refusals included: what
        ``fold(header, events)`` returns, and notes for the log. A journal that is not of this
        game, or does not fold, raises :class:`ValueError` and leaves the table waiting."""
        journal, notes = self._reopen(path)
        assert journal.header is not None
        try:
            folded = fold(journal.header, journal.events)
        except ValueError as exc:
            self.close()
            raise ValueError(f"{path}: {exc}") from None
        return folded, notes

    def _reopen(self, path: str | Path) -> tuple[Journal, list[str]]:
        """Reopen a journal of this game for appending (a torn last line is cut off and kept
        beside it); return what it holds and notes for the log."""
        self.close()
        writer, journal = JournalWriter.resume(path, self.signer)
        if journal.header is None or journal.header.get("game") != self.GAME:
            writer.close()
            raise ValueError(f"{path}: not a {self.GAME.capitalize()} journal")
        notes = journal.notes()  # a torn tail cut off, damaged records set aside
        last_t, last_wall = 0.0, float(journal.header.get("wall0", self.clock.wall()))
        for _, body in journal.events:
            t, wall = body.get("t"), body.get("wall")
            if isinstance(t, (int, float)) and not isinstance(t, bool) and t >= last_t:
                last_t = float(t)
            if isinstance(wall, (int, float)) and not isinstance(wall, bool):
                last_wall = float(wall)
        from companion.current import read_alive

        alive = read_alive(Path(path), int(journal.header.get("table", 0) or 0))
        if alive is not None and alive[0] >= last_t:
            last_t, last_wall = alive
        # Game time goes on from the last record, plus the time the table was dark when the
        # wall clock can say how long that was (nothing at this table runs on time, so an
        # untrusted clock only leaves the outage out).
        trust = self.wall_trust()
        off = max(0.0, self.clock.wall() - last_wall) if trust else 0.0
        self.resumed_text = (
            f"resumed after {off:.1f} s"
            if trust
            else f"resumed; the time off is not counted: {trust.why}"
        )
        self.writer = writer
        self.header = dict(journal.header)
        self._final_written = bool(journal.events) and isinstance(
            journal.events[-1][1].get("final"), dict
        )
        self.last_t = last_t
        self.mono0 = self.clock.now() - (last_t + off)
        self._clear_error()
        self.changed = True
        return journal, notes

    def _record(self, body: Mapping[str, Any], *, src: str = "keypad") -> dict[str, Any]:
        """Journal one event at the current game time; on disk when this returns."""
        assert self.writer is not None
        t = max(self.last_t, round(self.game_time(), 3))
        sealed = self.writer.append(
            {"t": t, **body, "wall": round(self.clock.wall(), 3), "src": src}
        )
        self.last_t = t
        self._final_written = isinstance(body.get("final"), dict)
        if self._on_record is not None:
            self._on_record(sealed)
        return sealed

    def _outcome(self) -> dict[str, Any] | None:
        """The finished game's result for its final record; None while it is not over (a
        game that can finish says so)."""
        return None

    def _final_if_over(self) -> None:
        """Once the game is over, journal its final record (signed like every record): a
        journal that ends without one is unfinished or was cut off (``companion verify``)."""
        if self.writer is None or self._final_written:
            return
        outcome = self._outcome()
        if outcome is not None:
            final = {**outcome, "records": self.writer.next_seq + 1}
            self._record(
                {"ev": "note", "text": "game over: the journal is complete", "final": final},
                src="table",
            )

    def note(self, text: str) -> None:
        """Journal a note from the shell (a wall-clock jump seen while running, ...)."""
        if self.writer is not None and self.NOTES:
            self._record({"ev": "note", "text": text}, src="daemon")

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.writer = None

    # ------------------------------------------------------------------ inputs

    def feed(self, raw: RawInput) -> None:
        """Take one raw input; only keys matter at this table (switch and button edges are
        ignored: a Tantrix or Tokami table has none)."""
        if raw.kind != "key":
            return
        if raw.name not in KEYS:
            log.warning("unknown key %r", raw.name)
            return
        if self.key_filter is not None and self.key_filter(raw.name, raw.t):
            self.changed = True  # arbiter mode or a pairing took the key
            return
        if self.writer is None:
            return
        self._clear_error()
        self.changed = True
        self.prompt_pages.start(self.clock.now())
        self._key(raw.name)
        self._final_if_over()

    def _key(self, key: str) -> None:
        raise NotImplementedError

    def view(self) -> dict[str, Any]:
        """What the screen shows now: the game's view, through arbiter mode's filter (its
        menu, or a pairing waiting for the players) when it has one."""
        state = self._game_view()
        now = self.clock.now()
        if state.get("error"):
            state["error_page"] = self.error_pages.page(now)
        if state.get("warning"):
            state["warning_page"] = self.warning_pages.page(now)
        if self.pages_prompt():
            state["prompt_page"] = self.prompt_pages.page(now)
        return self.view_filter(state) if self.view_filter is not None else state

    def _game_view(self) -> dict[str, Any]:
        raise NotImplementedError

    def pages_prompt(self) -> bool:
        """Whether the screen asks a question (Tokami's choices, a solo Tantrix prompt) whose
        pages turn while no key comes, when it is more than the screen holds."""
        return False

    # ------------------------------------------------------------------ feedback

    def _refuse(self, reason: str) -> None:
        """Show why an input was refused, until the next key, and buzz "no"; a reason longer
        than the screen turns its pages (``error_page`` in the view) until then."""
        self.error = reason
        self.error_pages.start(self.clock.now())
        self._sound("error")
        self.changed = True

    def notice(self, text: str, seconds: float = 5.0) -> None:
        """Show a warning from outside the game (e.g. the sensor hub's link went down), as
        :meth:`companion.tamsk.table.Table.notice` does; no sound, it times out by itself,
        once each of its pages has shown (:func:`companion.pages.lasting`)."""
        now = self.clock.now()
        self.warning = text
        self.warning_until = now + lasting(text, seconds)
        self.warning_pages.start(now)
        self.changed = True

    def _clear_error(self) -> None:
        if self.error is not None:
            self.error = None
            self.changed = True

    def poll(self) -> None:
        """Do whatever has become due by now: a notice timing out (a refusal waits for the next
        key), a long message's page turning."""
        now = self.clock.now()
        if self.warning is not None and now >= self.warning_until:
            self.warning = None
            self.changed = True
        if self.error is not None and self.error_pages.turned(now):
            self.changed = True
        if self.warning is not None and self.warning_pages.turned(now):
            self.changed = True
        if self.pages_prompt() and self.prompt_pages.turned(now):
            self.changed = True

    def next_wakeup(self) -> float | None:
        """The monotonic time :meth:`poll` is next needed (None: only on a key): a notice's end,
        the next page turn of a message on the screen."""
        now = self.clock.now()
        times = []
        if self.warning is not None:
            times += [self.warning_until, self.warning_pages.next_turn(now)]
        if self.error is not None:
            times.append(self.error_pages.next_turn(now))
        if self.pages_prompt():
            times.append(self.prompt_pages.next_turn(now))
        return min(times) if times else None

    def settle_inputs(self, levels: Mapping[str, bool]) -> None:
        """No switches to settle: the keypad games have none."""

    def animating(self) -> bool:
        """Whether the screen changes without an input (never here: no sand, no timer)."""
        return False
