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
from typing import Any

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
        self._summary_due = False
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
        self.station = station_for(table, self.clock)
        filtered: Any = table  # companion.tables.Table has both filters
        if self.station is not None and hasattr(filtered, "key_filter"):
            filtered.key_filter = self.key
            filtered.view_filter = self.view
        if self.publisher is not None:
            self.publisher.bind(lambda: table.journal_path)
            self.publisher.start()
        return self.station

    def key(self, key: str, t_mono: float) -> bool:
        """Offer a keypad key to arbiter mode; False: the table takes it as usual."""
        return self.station is not None and self.station.key(key, t_mono)

    def view(self, state: dict[str, Any]) -> dict[str, Any]:
        """The table's view with the arbiter's options and menu."""
        return self.station.view(state) if self.station is not None else state

    def _command_arrived(self, payload: bytes) -> None:
        """In the publisher's thread: screen the command there (size, rate, signature...), so
        a flood of refused ones never reaches the daemon's loop; hand the rest to the loop."""
        station = self.station
        if station is None:
            return
        if self.loop is None:
            self.run_command(payload)
            return
        command = station.screen_command(payload)
        if command is not None:
            self.loop.call_soon_threadsafe(self.run_screened, command)
        elif not self._summary_due:
            self._summary_due = True  # one wake-up of the loop per summary, not per message
            self.loop.call_soon_threadsafe(self._summarise)

    def run_command(self, payload: bytes) -> None:
        """In the daemon's loop: carry the command out (or refuse it) and answer."""
        if self.station is None:
            return
        self._answer(self.station.command(payload))

    def run_screened(self, command: dict[str, Any]) -> None:
        """In the daemon's loop: a command that passed the screen."""
        if self.station is not None:
            self._answer(self.station.screened(command))

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
