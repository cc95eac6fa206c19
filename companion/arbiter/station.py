"""Arbiter mode at a table: the keypad menu and the arbiter's commands, journaled at the table.

:class:`ArbiterStation` sits beside a table in the daemon's loop. It takes the keypad's keys
first (:meth:`ArbiterStation.key`; a key it does not take goes on to the table as before), checks
the PIN, and turns the menu's choices into ``correct`` records that go through the table's own
input queue, so they are journaled in time order, folded by the same engine, published, and
shown like any input. Arbiter commands from MQTT (:meth:`ArbiterStation.command`) are checked by
a :class:`~companion.arbiter.commands.CommandGate` (signature, table, game, nonce, age) and
carried out the same way. Every refusal (a wrong PIN, a locked PIN entry, a bad or replayed
command) is journaled as a note.

This class is the game-independent part; a game with arbiter mode at its table subclasses it in
its arbiter facet (:meth:`companion.arbiter.kinds.ArbiterGame.station`) with its keypad menu,
what a correction is and does, and its tournament options. :func:`station_for` finds the game's.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from companion.arbiter.actions import Correct, Note, SetOption
from companion.arbiter.commands import CommandGate, Refused, is_pairing
from companion.arbiter.kinds import KeypadMenu, arbiter_for
from companion.arbiter.pin import PinLock
from companion.arbiter.settings import arbiter_settings, table_number
from companion.pages import Paging
from companion.scenario import MalformedInput

log = logging.getLogger(__name__)

#: Who makes a correction (the ``by`` of every ``correct`` record the station writes).
ARBITER = "arbiter"


class TableLike(Protocol):
    """What the station needs of a table."""

    journal_dir: Path
    config: Mapping[str, Any]
    header: dict[str, Any]

    @property
    def journal_path(self) -> Path | None: ...

    def submit(self, t_mono: float, body: dict[str, Any]) -> None: ...


class OpenTable(Protocol):
    """What finding a table's arbiter mode needs (any :class:`companion.tables.Table`)."""

    header: dict[str, Any]

    @property
    def journal_path(self) -> Path | None: ...


class ClockLike(Protocol):
    def now(self) -> float: ...

    def wall(self) -> float: ...


@dataclass(frozen=True)
class Outcome:
    """What became of a correction or command: ``ok`` True, False, or None while queued."""

    ok: bool | None
    detail: str
    nonce: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "detail": self.detail, "nonce": self.nonce}


def game_id_of(path: Path | None) -> str | None:
    """A game's identity: the first 16 hex of its journal header's hash."""
    if path is None:
        return None
    try:
        with open(path, "rb") as f:
            value = json.loads(f.readline()).get("hash")
    except (OSError, ValueError, AttributeError):
        return None
    return value[:16] if isinstance(value, str) else None


def station_for(table: OpenTable, clock: ClockLike) -> ArbiterStation | None:
    """Arbiter mode for the game open on ``table`` (its header names it), or None when that
    game has no arbiter mode at the table."""
    game = arbiter_for(table.header.get("game"))
    return game.station(table, clock) if game is not None else None


class ArbiterStation:
    """The arbiter's keypad menu and command gate for one table (a game's subclass supplies
    :meth:`make_menu`, :meth:`game_open`, :meth:`check_correction`, :meth:`carry_out` and
    :meth:`apply_option`)."""

    def __init__(self, table: TableLike, clock: ClockLike) -> None:
        self.table = table
        self.clock = clock
        settings = arbiter_settings(table.config)
        self.settings = settings
        self.table_no = table_number(table.config)
        self.lock = PinLock(
            settings.pin_hash, attempts=settings.pin_attempts, lockout_s=settings.pin_lockout_s
        )
        self.menu: KeypadMenu = self.make_menu()
        #: The menu's lines, when more than the screen holds, a page at a time (see pages).
        self.pages = Paging()
        try:
            arbiter_key = settings.arbiter_public()
        except ValueError as exc:
            log.warning("arbiter: [arbiter] arbiter_key: %s; this table takes no commands", exc)
            arbiter_key = None
        self.gate = CommandGate(arbiter_key, self.table_no, max_age_s=settings.command_max_age_s)
        self._remembered: Path | None = None
        self.remember_nonces()

    # ------------------------------------------------------------------ the game's part

    def make_menu(self) -> KeypadMenu:
        """The game's keypad menu (checking PINs with :attr:`lock`)."""
        raise NotImplementedError

    def game_open(self) -> bool:
        """Whether a game is open to journal into."""
        raise NotImplementedError

    def check_correction(self, body: dict[str, Any]) -> None:
        """Refuse a malformed correction (:class:`~companion.scenario.MalformedInput`)."""
        raise NotImplementedError

    def carry_out(self, body: dict[str, Any], t_mono: float, nonce: str | None) -> Outcome:
        """Journal a checked correction (:meth:`submit`) and tell what became of it."""
        raise NotImplementedError

    def apply_option(self, name: str, value: Any) -> str:
        """Change a tournament option; returns when it applies ("now", "from the next game");
        ValueError for an unknown one."""
        raise ValueError(f"unknown tournament option {name!r}")

    # ------------------------------------------------------------------ keypad

    def key(self, key: str, t_mono: float) -> bool:
        """Offer one key to arbiter mode first; False: the table handles it as usual."""
        taken, actions = self.menu.press(key, t_mono)
        if taken:
            self.pages.start(t_mono)  # a new screen: its first page
        for action in actions:
            if isinstance(action, Correct):
                self.correct(action.body, auth="pin", t_mono=t_mono)
            elif isinstance(action, Note):
                self.note(action.text, t_mono=t_mono, fields=action.fields)
            elif isinstance(action, SetOption):
                self.set_option(action.name, action.value, t_mono=t_mono)
        return taken

    def screen(self) -> list[str]:
        """What the table's screen shows while the arbiter has the keypad."""
        return self.menu.screen(self.clock.now())

    def redraw_at(self) -> float | None:
        """When the table's screen next changes with no key pressed (the PIN lock-out's
        count-down, the next page of a menu longer than the screen), on the table's clock;
        None: not before the next input."""
        now = self.clock.now()
        due = self.menu.redraw_at(now)
        if self.menu.active:
            turn = self.pages.next_turn(now)
            due = turn if due is None else min(due, turn)
        return due

    @property
    def active(self) -> bool:
        """Whether the arbiter's menu (or its PIN entry, or a lock-out) holds the keypad now."""
        self.menu.settle(self.clock.now())
        return self.menu.active

    def view(self, state: dict[str, Any]) -> dict[str, Any]:
        """The table's view with the arbiter's menu on it while he has the keypad."""
        lines = self.screen()  # first: a lock-out screen left idle gives the keypad back
        if self.menu.active:
            state["arbiter"] = lines
            state["arbiter_page"] = self.pages.page(self.clock.now())
        return state

    # ------------------------------------------------------------------ records

    def submit(self, t_mono: float, body: dict[str, Any]) -> None:
        """Journal and play one record through the table's own input queue."""
        self.table.submit(t_mono, body)

    def note(
        self, text: str, *, t_mono: float | None = None, fields: Mapping[str, Any] | None = None
    ) -> None:
        """Journal a note (if a game is open; otherwise log it)."""
        if not self.game_open():
            log.warning("arbiter: %s", text)
            return
        body: dict[str, Any] = {"ev": "note", "text": text, **(fields or {})}
        self.submit(self.clock.now() if t_mono is None else t_mono, body)

    def correct(
        self,
        correction: Mapping[str, Any],
        *,
        auth: str,
        t_mono: float | None = None,
        nonce: str | None = None,
    ) -> Outcome:
        """Journal one correction made by the arbiter (already authenticated as ``auth``)."""
        if not self.game_open():
            return Outcome(False, "no game on this table", nonce)
        body: dict[str, Any] = {
            k: v for k, v in correction.items() if k not in ("t", "ev", "by", "auth", "nonce")
        }
        body.setdefault("reason", "")
        body = {"ev": "correct", **body, "by": ARBITER, "auth": auth}
        if nonce is not None:
            body["nonce"] = nonce
        try:
            self.check_correction(body)
        except MalformedInput as exc:
            self.note(
                f"arbiter correction refused: {exc.message}",
                t_mono=t_mono,
                fields={"arbiter": "correction-refused"},
            )
            return Outcome(False, exc.message, nonce)
        return self.carry_out(body, self.clock.now() if t_mono is None else t_mono, nonce)

    def set_option(self, name: str, value: Any, *, t_mono: float | None = None) -> None:
        when = self.apply_option(name, value)
        self.note(
            f"arbiter: tournament option {name} = {value} ({when})",
            t_mono=t_mono,
            fields={"option": {name: value}},
        )

    # ------------------------------------------------------------------ commands

    @property
    def game_id(self) -> str | None:
        return game_id_of(self.table.journal_path)

    def use_gate(self, gate: CommandGate) -> None:
        """Check commands with ``gate`` (the table's one gate, shared with its pairing desk:
        one rate limit and one set of used nonces), remembering this journal's nonces in it."""
        self.gate = gate
        self._remembered = None
        self.remember_nonces()

    def remember_nonces(self) -> None:
        """Read the nonces already used from the current journal (after a restart).

        The journal is read as bytes, line by line: a damaged line (cut, not UTF-8, not JSON)
        is skipped, never fatal, and memory stays one line whatever the journal's length.
        """
        path = self.table.journal_path
        if path is None or path == self._remembered:
            return
        self._remembered = path
        try:
            with open(path, "rb") as f:
                for line in f:
                    # the table wrote this file itself: its keys are spelt as json.dumps does
                    if b'"nonce"' not in line and b'"pairing_nonce"' not in line:
                        continue
                    try:
                        record = json.loads(line)
                    except ValueError:  # UnicodeDecodeError is a ValueError too
                        continue
                    if not isinstance(record, dict):
                        continue
                    for key in ("nonce", "pairing_nonce"):  # a correction's, a pairing's
                        nonce = record.get(key)
                        if isinstance(nonce, str) and nonce:
                            self.gate.remember(nonce)
        except OSError as exc:
            log.warning("arbiter: cannot read the used nonces from %s: %s", path, exc)

    def command(self, payload: bytes | str | Mapping[str, Any]) -> Outcome:
        """Carry out one arbiter command, or refuse it (counted, summarised in the journal at
        most once a minute by :meth:`summarise`)."""
        if isinstance(payload, Mapping):
            payload = json.dumps(payload)
        try:
            cmd = self.gate.screen(payload, self.clock.wall(), self.clock.now())
        except Refused as refused:
            self.summarise()
            return Outcome(False, str(refused), None)
        return self.screened(cmd)

    def screened(self, cmd: Mapping[str, Any]) -> Outcome:
        """In the loop: a command that passed :meth:`screen`: check game and nonce, carry out."""
        self.remember_nonces()
        nonce = str(cmd.get("nonce"))
        correction = cmd.get("correction")
        if is_pairing(cmd) or not isinstance(correction, Mapping):
            # What the station carries out is a correction, told from the decoded command;
            # a pairing is the pairing desk's (a table without one takes none).
            refused = Refused("malformed", "the command carries no correction for this table")
            self.gate.count(refused)
            self.summarise()
            return Outcome(False, str(refused), nonce)
        try:
            self.gate.admit(cmd, self.game_id)
        except Refused as refused:
            self.summarise()
            return Outcome(False, str(refused), nonce)
        return self.correct(correction, auth="command", nonce=nonce)

    def summarise(self) -> float:
        """Journal the refused commands' summary when one is due; returns the seconds until
        the next one may be written (0: nothing waiting)."""
        text, wait = self.gate.summary(self.clock.now())
        if text is not None:
            self.note(text, fields={"arbiter": "commands-refused"})
        return wait
