"""The arbiter laptop's MQTT side: subscribes to every table, feeds the view, sends commands.

paho-mqtt runs its network loop in its own thread (``loop_start``) and reconnects by itself; the
session is persistent (a fixed client id, ``clean_session`` off) so the broker keeps the QoS 1
events for us while the laptop is away; with a user name that id is the user name, which on the
club's broker nobody else's connection can take over (``use_username_as_clientid``). Whatever
is missed anyway (a broker restarted without persistence) the view asks the tables for again.
All access to the view goes through one lock; the web server waits on
:attr:`ArbiterClient.changed` to push updates.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from companion.arbiter import topics
from companion.arbiter.commands import make_command, make_pairing_command
from companion.arbiter.mqtt import make_client, success
from companion.arbiter.retained import RetainedStore
from companion.arbiter.settings import MqttSettings
from companion.arbiter.view import ArbiterView, Request
from companion.keys import Keyring, SigningKey

log = logging.getLogger(__name__)

TICK_S = 0.5


class ArbiterClient:
    """Keeps an :class:`ArbiterView` up to date from the broker."""

    def __init__(
        self,
        settings: MqttSettings,
        *,
        client_id: str = "companion-arbiter",
        persistent: bool = True,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
        keyring: Keyring | None = None,
        retained: str | Path | None = None,
    ) -> None:
        self.settings = settings
        self.view = ArbiterView(settings.topic_prefix, keyring)
        #: What the page last verified of each table, kept in the folder ``retained`` across
        #: its restarts: taken back now (checked against the keyring again), kept up to date.
        self.retained = RetainedStore(retained) if retained is not None else None
        if self.retained is not None:
            now = clock()
            for table, kind, payload in self.retained.load():
                self.view.restore(table, kind, payload, now)
            self.view.on_retained = self._keep
        self.clock = clock
        self.wall = wall
        self.lock = threading.Lock()
        self.changed = threading.Condition(self.lock)
        self.connected = threading.Event()
        #: Connections made so far, and whether the broker still had our stored session at the
        #: last one (a session another client took over or wiped would be gone).
        self.connections = 0
        self.session_present = False
        self._stop = threading.Event()
        # The page's stored session lives under the client id its user owns (its user name on
        # the club's broker, where nobody else's connection can take it over).
        self.client_id = settings.client_id(client_id)
        self._client = make_client(settings, self.client_id, clean_session=not persistent)
        self._client.reconnect_delay_set(min_delay=1, max_delay=2)
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._client.on_message = self._on_message
        self._ticker = threading.Thread(target=self._tick, name="arbiter-tick", daemon=True)

    def start(self) -> ArbiterClient:
        self._client.connect_async(self.settings.host, self.settings.port,
                                   self.settings.keepalive_s)
        self._client.loop_start()
        self._ticker.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._client.disconnect()
        self._client.loop_stop()
        self._ticker.join(2.0)
        if self.retained is not None:
            with self.lock:
                self.retained.flush(self.clock())

    def _keep(self, table: int, kind: str, payload: bytes, game: str) -> None:
        """The view took a signed status, state or result (under the lock): keep it."""
        if self.retained is not None:
            self.retained.keep(table, kind, payload, self.clock(), game)

    # ------------------------------------------------------------------ paho callbacks

    def _on_connect(self, client: Any, userdata: Any, flags: Any, rc: Any, props: Any) -> None:
        if not success(rc):
            log.warning("arbiter: the broker refused the connection: %s", rc)
            return
        self.connections += 1
        self.session_present = bool(getattr(flags, "session_present", False))
        client.subscribe(topics.all_tables(self.settings.topic_prefix), qos=1)
        with self.lock:
            requests = self.view.reconnected(self.clock())
        self._send(requests)
        self.connected.set()

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, rc: Any, props: Any) -> None:
        self.connected.clear()

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        with self.changed:
            requests = self.view.handle(message.topic, bytes(message.payload), self.clock())
            self.changed.notify_all()
        self._send(requests)

    def _send(self, requests: list[Request]) -> None:
        for name, body in requests:
            self._client.publish(name, body, qos=1)

    def _tick(self) -> None:
        while not self._stop.wait(TICK_S):
            with self.changed:
                requests = self.view.tick(self.clock())
                self.changed.notify_all()  # timers and sand run on: redraw
            if self.connected.is_set():
                self._send(requests)

    # ------------------------------------------------------------------ commands

    def send_command(
        self, table: int, correction: Mapping[str, Any], key: SigningKey
    ) -> dict[str, Any]:
        """Sign (with the arbiter's key) and send one correction to a table's current game;
        returns the command."""
        with self.lock:
            tv = self.view.tables.get(table)
            game = tv.game if tv is not None else None
        if game is None:
            raise LookupError(f"table {table} has no game the arbiter has seen")
        command = make_command(correction, table=table, game=game, key=key, issued=self.wall())
        self._client.publish(
            topics.topic(self.settings.topic_prefix, table, "cmd"), json.dumps(command), qos=1
        )
        return command

    def send_pairing(
        self, table: int, pairing: Mapping[str, Any], key: SigningKey
    ) -> dict[str, Any]:
        """Sign and send the next game's pairing to a table (the page's manual assignment)."""
        command = make_pairing_command(pairing, table=table, key=key, issued=self.wall())
        self._client.publish(
            topics.topic(self.settings.topic_prefix, table, "cmd"), json.dumps(command), qos=1
        )
        return command

    def publish_raw(self, table: int, payload: bytes) -> None:
        """Publish bytes on a table's command topic as they are (tests replay commands so)."""
        self._client.publish(topics.topic(self.settings.topic_prefix, table, "cmd"), payload,
                             qos=1)

    def snapshot(self) -> dict[str, Any]:
        with self.lock:
            return self.view.snapshot(self.clock())

    def changed_since(self, seen: Mapping[int, int], full: bool = False,
                      also: frozenset[int] | set[int] = frozenset()) -> list[dict[str, Any]]:
        """Only the cards the page's stream is to push (see :meth:`ArbiterView.changed_since`)."""
        with self.lock:
            return self.view.changed_since(seen, self.clock(), full=full, also=also)

    def version(self) -> int:
        """Goes up whenever a table changed (the page's stream waits on it)."""
        return self.view.version

    def results(self) -> list[dict[str, Any]]:
        with self.lock:
            return list(self.view.results.values())
