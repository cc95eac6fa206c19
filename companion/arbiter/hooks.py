"""Arbiter mode and MQTT in the table daemon: one object for the daemon to create and call.

The daemon's asyncio loop owns the table; MQTT runs in the publisher's thread. Commands that
arrive over MQTT are handed to the loop with ``loop.call_soon_threadsafe``, carried out there
by the :class:`~companion.arbiter.station.ArbiterStation` (so the table is only ever touched by
the loop), and the answer goes back to the publisher's thread. Wiring, in
``companion.daemon.serve``::

    hooks = ArbiterHooks(config, clock, loop=asyncio.get_running_loop())
    table = make_table(config, clock, journal_dir, sound=..., on_record=hooks.on_record)
    ... start or resume the game ...
    hooks.attach(table)   # the publisher starts (if [mqtt] enabled); and arbiter mode at the
                          # table when the game has it (the table's key and view filters)
    ... finally: hooks.close()

A game without arbiter mode at the table (no station from its arbiter facet) is still published.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.arbiter.commands import CommandGate, Refused, is_pairing
from companion.arbiter.pairing_desk import PairingDesk
from companion.arbiter.publisher import TablePublisher
from companion.arbiter.settings import arbiter_settings, mqtt_settings, table_number
from companion.arbiter.station import (
    ArbiterStation,
    ClockLike,
    OpenTable,
    Outcome,
    station_for,
)
from companion.keys import KeyFileError, SigningKey

log = logging.getLogger(__name__)


def _table_key(config: Mapping[str, Any]) -> SigningKey | None:
    """The table's own key from ``[table] key_file`` when the configuration names one."""
    section = config.get("table")
    path = section.get("key_file") if isinstance(section, Mapping) else None
    if not isinstance(path, str) or not path:
        return None
    try:
        return SigningKey.load(path)
    except KeyFileError as exc:
        log.warning("table key: %s; publishing unsigned", exc)
        return None


def _gate(config: Mapping[str, Any]) -> CommandGate:
    """The table's command gate, trusting the arbiter's key from ``[arbiter] arbiter_key``."""
    settings = arbiter_settings(config)
    try:
        arbiter_key = settings.arbiter_public()
    except ValueError as exc:
        log.warning("arbiter: [arbiter] arbiter_key: %s; this table takes no commands", exc)
        arbiter_key = None
    return CommandGate(arbiter_key, table_number(config), max_age_s=settings.command_max_age_s)


class ArbiterHooks:
    """The arbiter station and the MQTT publisher of one table daemon."""

    def __init__(
        self,
        config: Mapping[str, Any],
        clock: ClockLike,
        *,
        loop: asyncio.AbstractEventLoop | None = None,
        table_key: SigningKey | None = None,
    ) -> None:
        self.clock = clock
        self.loop = loop
        self.station: ArbiterStation | None = None
        self.desk: PairingDesk | None = None
        self._table: Any = None  # the table attached (its screen is redrawn for a count-down)
        self._redraw_due: float | None = None
        self.config = config
        self._summary_due = False
        #: One gate for every command this table hears, pairings and corrections alike: one
        #: rate limit, one set of used nonces, and the kind of a command read from its decoded,
        #: signed form (a key spelt another way, ``"pa\\u0069ring"``, is the same key), so
        #: no re-encoding of a command can take it past the gate a second time.
        self.gate = _gate(config)
        settings = mqtt_settings(config)
        self.publisher: TablePublisher | None = None
        if settings.enabled:
            self.publisher = TablePublisher(
                settings,
                table_number(config),
                on_command=self._command_arrived,
                result_key=arbiter_settings(config).key(),
                key=table_key if table_key is not None else _table_key(config),
            )

    def on_record(self, sealed: dict[str, Any]) -> None:
        """The table's ``on_record``: every journaled record goes to the publisher."""
        if self.publisher is not None:
            self.publisher.record(sealed)

    def attach(self, table: OpenTable) -> ArbiterStation | None:
        """Bind to the table once its game is open; starts publishing. When the game has arbiter
        mode at the table, its station takes the keypad's keys and rewrites the view first
        (the table's ``key_filter`` and ``view_filter``, when it has them)."""
        self.station = self._shared(station_for(table, self.clock))
        self._table = table
        filtered: Any = table  # companion.tables.Table has both filters
        if hasattr(filtered, "next_header"):  # pairings from the arbiter, for every kind
            from companion.tables import start_configured_game

            self.desk = PairingDesk(
                table, self.config, self.clock,
                start=lambda: self._start_paired(filtered, start_configured_game),
                answer=self._reply,
                gate=self.gate,
            )
        if (self.station is not None or self.desk is not None) and hasattr(
            filtered, "key_filter"
        ):
            filtered.key_filter = self.key
            filtered.view_filter = self.view
        if self.publisher is not None:
            folder = getattr(table, "journal_dir", None)
            if folder is not None and self.publisher.status_file is None:
                # the status seq, kept beside the table's journals (one file per table)
                self.publisher.status_file = (
                    Path(folder) / f"mqtt-status-t{self.publisher.table}.json")
            self.publisher.bind(lambda: table.journal_path)
            self.publisher.start()
        return self.station

    def _start_paired(self, table: Any, start: Any) -> Any:
        """Start the paired game, then take up its arbiter mode (the station belongs to the
        open game: a table that had none, or another kind's, gets the new game's)."""
        path = start(table, self.config)
        self.station = self._shared(station_for(table, self.clock))
        if self.publisher is not None and path is not None:
            self.publisher.follow(path)  # the new game's header goes out before its first move
        return path

    def key(self, key: str, t_mono: float) -> bool:
        """Offer a keypad key to arbiter mode; False: the table takes it as usual."""
        if self.desk is not None and self.desk.key(key):
            return True
        return self.station is not None and self.station.key(key, t_mono)

    # ------------------------------------------------------------------ the daemon's ticker

    def next_wakeup(self) -> float | None:
        """When the table's screen must be drawn again with no input (the keypad's PIN
        lock-out counting down); the daemon's ticker protocol."""
        if self._redraw_due is None and self.station is not None:
            self._redraw_due = self.station.redraw_at()
        return self._redraw_due

    def poll(self, now: float) -> None:
        """Mark the table's screen changed when the count-down's next second is due (so the
        daemon draws it), and note when the one after is."""
        due = self._redraw_due
        if due is not None and now >= due and self._table is not None:
            self._table.changed = True
        self._redraw_due = self.station.redraw_at() if self.station is not None else None

    def view(self, state: dict[str, Any]) -> dict[str, Any]:
        """The table's view with the arbiter's options and menu (and a pairing to confirm)."""
        if self.station is not None:
            state = self.station.view(state)
        return self.desk.view(state) if self.desk is not None else state

    def _shared(self, station: ArbiterStation | None) -> ArbiterStation | None:
        """A game's station, checking commands with this table's one gate."""
        if station is not None:
            station.use_gate(self.gate)
        return station

    def _command_arrived(self, payload: bytes) -> None:
        """In the publisher's thread: screen the command there (size, rate, signature...), so
        a flood of refused ones never reaches the daemon's loop; hand the rest to the loop."""
        try:
            command = self.gate.screen(payload, self.clock.wall(), self.clock.now())
        except Refused:
            if self.loop is None:
                self._summarise()
            elif not self._summary_due:
                self._summary_due = True  # one wake-up of the loop per summary, not per message
                self.loop.call_soon_threadsafe(self._summarise)
            return
        if self.loop is None:
            self.run_screened(command)
        else:
            self.loop.call_soon_threadsafe(self.run_screened, command)

    def run_command(self, payload: bytes) -> None:
        """In the daemon's loop: screen, then carry the command out (or refuse it)."""
        try:
            command = self.gate.screen(payload, self.clock.wall(), self.clock.now())
        except Refused:
            self._summarise()
            return
        self.run_screened(command)

    def run_screened(self, command: dict[str, Any]) -> None:
        """In the daemon's loop: a command that passed the screen goes where its decoded
        form says: a pairing to the pairing desk, a correction to the game's station."""
        if is_pairing(command) and self.desk is not None:
            self.desk.offer(command)
        elif self.station is not None:
            self._answer(self.station.screened(command))
        else:
            self._answer(Outcome(False, "this table's game takes no arbiter commands",
                                 str(command.get("nonce"))))

    def _reply(self, answer: dict[str, Any]) -> None:
        if self.publisher is not None:
            self.publisher.reply(answer)

    def _answer(self, outcome: Outcome) -> None:
        if self.publisher is not None:
            self.publisher.reply(outcome.to_dict())

    def _summarise(self) -> None:
        """In the loop: journal the refusals' summary now, or when the minute is up."""
        if self.station is None:
            self._summary_due = False
            return
        wait = self.station.summarise()
        if wait > 0 and self.loop is not None:
            self.loop.call_later(wait, self._summarise)
        else:
            self._summary_due = False

    def close(self) -> None:
        if self.publisher is not None:
            self.publisher.stop()
