"""A simulated table: the real :class:`~companion.tamsk.table.Table`, played by a script.

Used by the tests, ``bench/tables.py`` and demonstrations of the arbiter's page: each
:meth:`SimulatedTable.step` makes one input on the table's keypad (a whole move typed as glass,
column, row, ``#``, or a ring key), so every step writes one journal record through the same
code as a real table. The arbiter's keypad entry goes through
:class:`~companion.tamsk.arbiter.TamskStation` first, as it will in the daemon, and MQTT
commands are carried out on the caller's thread (the daemon's loop, in the real thing) from
:meth:`SimulatedTable.step`/:meth:`SimulatedTable.service`.
"""

from __future__ import annotations

import copy
import queue
import random
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from companion.arbiter.publisher import TablePublisher
from companion.arbiter.settings import MqttSettings, arbiter_settings
from companion.arbiter.station import Outcome
from companion.clock import Clock
from companion.config import defaults
from companion.inputs import RawInput
from companion.keys import SigningKey
from companion.tamsk.arbiter import TamskStation
from companion.tamsk.board import COLUMNS
from companion.tamsk.game import Rules
from companion.tamsk.table import Table


def table_config(number: int, overrides: Mapping[str, Mapping[str, Any]] | None = None) -> dict[
    str, Any
]:
    """The default configuration for table ``number``, with sections overridden."""
    config = defaults()
    config["table"]["number"] = number
    for section, values in (overrides or {}).items():
        config.setdefault(section, {})
        config[section] = {**config[section], **dict(values)}
    return config


class SimulatedTable:
    """One table playing a legal game on its own, optionally publishing to a broker."""

    def __init__(
        self,
        number: int,
        journal_dir: Path,
        clock: Clock,
        *,
        mqtt: MqttSettings | None = None,
        config: Mapping[str, Any] | None = None,
        seed: int = 0,
        rules: Rules | None = None,
        names: Mapping[str, str] | None = None,
        on_record: Callable[[dict[str, Any]], None] | None = None,
        key: SigningKey | None = None,
    ) -> None:
        self.number = number
        self.clock = clock
        self.config = copy.deepcopy(dict(config)) if config else table_config(number)
        self.config["table"]["number"] = number
        self.random = random.Random(seed)
        self.commands: queue.Queue[bytes] = queue.Queue()
        self.publisher: TablePublisher | None = None
        self._extra = on_record
        if mqtt is not None and mqtt.enabled:
            self.publisher = TablePublisher(
                mqtt,
                number,
                on_command=self.commands.put,
                result_key=arbiter_settings(self.config).key(),
                client_id=f"companion-table-{number}-{journal_dir.name}",
                key=key,
            )
        self.table = Table(clock, journal_dir, config=self.config, on_record=self._record)
        self.table.start_game(rules or Rules(level=3), names=names or {}, table=number)
        self.station = TamskStation(self.table, clock)
        self.answers: list[Outcome] = []
        if self.publisher is not None:
            self.publisher.bind(lambda: self.table.journal_path)
            self.publisher.start()

    def _record(self, sealed: dict[str, Any]) -> None:
        if self.publisher is not None:
            self.publisher.record(sealed)
        if self._extra is not None:
            self._extra(sealed)

    def close(self) -> None:
        if self.publisher is not None:
            self.publisher.stop()
        self.table.close()

    # ------------------------------------------------------------------ inputs

    def key(self, key: str) -> None:
        """One keypad key, offered to arbiter mode first (as the daemon does)."""
        now = self.clock.now()
        if not self.station.key(key, now):
            self.table.feed(RawInput("key", key, True, now))

    def keys(self, text: str) -> None:
        for k in text:
            self.key(k)

    def service(self) -> None:
        """Carry out the arbiter commands that arrived (on this thread, like the daemon loop)."""
        while True:
            try:
                payload = self.commands.get_nowait()
            except queue.Empty:
                return
            outcome = self.station.command(payload)
            self.answers.append(outcome)
            if self.publisher is not None:
                self.publisher.reply(outcome.to_dict())

    def step(self) -> bool:
        """Make the next input of a legal game; False once the game is over."""
        self.service()
        game = self.table.game
        if game is None or game.over:
            return False
        player = game.turn
        window = next((w for w in game.windows if not w.dropped), None)
        if window is not None and window.move.player != player and self.random.random() < 0.7:
            self.key("A" if window.move.player == "red" else "B")  # the mover drops his ring
            return True
        glasses = game.movable(player)
        if not glasses:
            self.keys("0#")  # cannot move: pass
            return True
        glass = self.random.choice(glasses)
        to = self.random.choice(game.destinations(glass))
        column = COLUMNS.index(to[0]) + 1
        self.keys(f"{glass[1]}{column}{to[1:]}#")
        return True
