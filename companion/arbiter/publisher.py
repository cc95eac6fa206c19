"""A table's MQTT publisher: the journal, streamed to the broker, with nothing lost or doubled.

The journal stays the source of truth. :meth:`TablePublisher.record` is the table's
``on_record`` hook: it only notes that the journal grew and wakes the publisher's thread (a
lock, a deque append and one byte on a socket pair), so the daemon's asyncio loop is never held
up by the network, a slow broker, DNS, a TLS handshake or a TCP connect timing out during a
Wi-Fi outage. The thread reads the new complete lines from the journal file itself (they are on
disk before ``on_record`` is called) and publishes each one, in ``seq`` order, at QoS 1, with
the event id ``tN/GAME/SEQ``.

What the broker has acknowledged (PUBACK) is tracked per journal, as the highest ``seq`` below
which every record was acknowledged, in ``JOURNAL.mqtt`` beside the journal (written atomically).
Every connection is a fresh client session: after an outage, or a restart of the table, the
thread publishes again exactly the records after that point, in order, once each; whatever was
sent but not acknowledged is sent once more with the same id (QoS 1 is "at least once": a
viewer applies each id once). Viewers that missed records the broker did acknowledge (they were
offline themselves, or the broker restarted without keeping their session) ask for them on the
``resend`` topic.

The retained ``status`` (online when connected; offline, the same signed message, as the last
will and when stopping) carries a ``seq``: each connection takes two numbers (online, then
offline) above every earlier one, kept across the table's restarts in ``status_file``, and never
below the wall clock in milliseconds (so a table whose file was lost still counts up). The
arbiter's page orders a table's statuses by it, so an old signed "offline" published again
(by anyone with the table's broker password) never shows a live table offline.

Why a thread and not the daemon's asyncio loop: paho's ``connect`` blocks (name lookup, TCP and
TLS handshakes), and reading the journal and writing the acknowledgement file are disk I/O; in
the loop either could delay the 15-second timer's ticks or a glass's run-out by seconds. The
thread drives paho through its external-loop calls (``loop_read``, ``loop_write``,
``loop_misc``) on a selector that also watches the wake-up socket, so it sleeps until there is
something to do.
"""

from __future__ import annotations

import json
import logging
import os
import selectors
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.arbiter import topics
from companion.arbiter.kinds import Mirror, arbiter_for
from companion.arbiter.mqtt import make_client, paho, success
from companion.arbiter.sealing import seal
from companion.arbiter.settings import MqttSettings
from companion.files import atomic_write
from companion.keys import SigningKey

log = logging.getLogger(__name__)

ACK_SUFFIX = ".mqtt"
RESEND_INTERVAL = 0.5


def ack_path(journal: Path) -> Path:
    return journal.with_name(journal.name + ACK_SUFFIX)


@dataclass
class _Outbox:
    """One journal being published."""

    path: Path
    records: list[dict[str, Any]] = field(default_factory=list)
    offset: int = 0  # bytes of the journal read so far
    acked: int = -1  # every seq up to here acknowledged by the broker
    acked_hash: str = ""
    saved: int = -1  # what the acknowledgement file says
    sent: int = -1  # published up to here on this connection
    high: int = -1  # the highest seq ever published (from this process)
    pending_acks: set[int] = field(default_factory=set)
    mirror: Mirror | None = None
    state_seq: int = -1  # the seq of the last state published
    result_key: Any = None
    resends: dict[int, float] = field(default_factory=dict)

    @property
    def game(self) -> str:
        return str(self.records[0].get("hash", ""))[:16] if self.records else ""

    @property
    def last(self) -> int:
        return len(self.records) - 1


class TablePublisher:
    """Publishes one table's journals, status and state, and hears the arbiter's commands."""

    def __init__(
        self,
        settings: MqttSettings,
        table: int,
        *,
        journal_path: Callable[[], Path | None] | None = None,
        on_command: Callable[[bytes], None] | None = None,
        result_key: bytes | None = None,
        client_id: str | None = None,
        key: SigningKey | None = None,
        status_file: Path | None = None,
    ) -> None:
        paho()  # fail now, with a clear message, if paho-mqtt is missing
        self.settings = settings
        self.table = table
        #: The client id its credentials own: its user name (see MqttSettings.client_id).
        self.client_id = settings.client_id(client_id or f"companion-table-{table}")
        self._journal_path = journal_path
        self.on_command = on_command
        self.result_key = result_key
        #: The table's own key: every message it publishes is signed with it (without one the
        #: arbiter's page shows the table as unverified).
        self.key = key
        if key is None:
            log.warning("table %s: no table key: its messages go out unsigned", table)
        self.prefix = settings.topic_prefix
        #: Where the last status ``seq`` used is kept (None: in memory, from the wall clock).
        self.status_file = status_file
        self._status_seq = -1  # this connection's online seq (its offline is one more)
        self._lock = threading.Lock()
        self._inbox: deque[Path] = deque()
        self._replies: deque[dict[str, Any]] = deque()
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"mqtt-table-{table}", daemon=True)
        self._outboxes: list[_Outbox] = []
        self._mids: dict[int, tuple[_Outbox, int]] = {}
        self._alive = False
        self._ready = False
        self.connected = threading.Event()
        self.published = 0  # events published (first time and again)
        self.republished = 0  # events published again after an outage or on request
        self.connections = 0

    # ------------------------------------------------------------------ from the daemon

    def bind(self, journal_path: Callable[[], Path | None]) -> None:
        """Where the table's current journal is (``lambda: table.journal_path``)."""
        self._journal_path = journal_path

    def record(self, sealed: Mapping[str, Any]) -> None:
        """The table's ``on_record`` hook: the journal grew. Never blocks."""
        path = self._journal_path() if self._journal_path is not None else None
        if path is not None:
            self.follow(path)

    def follow(self, path: Path) -> None:
        """Publish this journal (and whatever it gains)."""
        with self._lock:
            self._inbox.append(Path(path))
        self._wake()

    def reply(self, answer: Mapping[str, Any]) -> None:
        """Answer an arbiter command (published on the table's ``reply`` topic)."""
        with self._lock:
            self._replies.append(dict(answer))
        self._wake()

    def start(self) -> TablePublisher:
        if self._journal_path is not None:
            path = self._journal_path()
            if path is not None:
                self.follow(path)
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        """Say offline, disconnect, and end the thread."""
        self._stop.set()
        self._wake()
        if self._thread.ident is not None:  # never started (a daemon stopped before attach)
            self._thread.join(timeout)
        self._wake_r.close()
        self._wake_w.close()

    def _wake(self) -> None:
        try:
            self._wake_w.send(b"x")
        except (BlockingIOError, OSError):
            pass

    # ------------------------------------------------------------------ the thread

    def _topic(self, kind: str) -> str:
        return topics.topic(self.prefix, self.table, kind)

    def _sealed(self, kind: str, message: Mapping[str, Any]) -> bytes:
        """The message signed with the table's key, as JSON bytes."""
        return json.dumps(seal(message, kind, self.key), separators=(",", ":")).encode()

    def _status(self, online: bool) -> bytes:
        return self._sealed("status", {"table": self.table,
                                       "status": "online" if online else "offline",
                                       "seq": self._status_seq + (0 if online else 1),
                                       "wall": time.time()})

    def _next_status_seq(self) -> None:
        """A new connection's status numbers: above every one used before (this process's,
        the status file's) and not below the wall clock in milliseconds; kept before use."""
        stored = -1
        if self.status_file is not None:
            try:
                saved = json.loads(self.status_file.read_text(encoding="utf-8")).get("seq")
                stored = saved if isinstance(saved, int) and not isinstance(saved, bool) else -1
            except (OSError, ValueError, AttributeError):
                stored = -1
        self._status_seq = max(self._status_seq + 2, stored + 1, int(time.time() * 1000))
        if self.status_file is not None:
            try:
                atomic_write(self.status_file, json.dumps({"seq": self._status_seq + 1}) + "\n")
            except OSError as exc:
                log.warning("table %s: cannot keep the status seq in %s: %s", self.table,
                            self.status_file, exc)

    def _run(self) -> None:
        backoff = 0.2
        while not self._stop.is_set():
            self._take_inbox()
            self._next_status_seq()
            client = make_client(self.settings, self.client_id, clean_session=True)
            client.will_set(self._topic("status"), self._status(False), qos=1, retain=True)
            client.on_connect = self._on_connect
            client.on_disconnect = self._on_disconnect
            client.on_publish = self._on_publish
            client.on_message = self._on_message
            try:
                client.connect(self.settings.host, self.settings.port, self.settings.keepalive_s)
            except (OSError, ValueError) as exc:
                log.info("table %s: broker not reachable (%s); retrying", self.table, exc)
                self._sleep(backoff)
                backoff = min(backoff * 2, 5.0)
                continue
            backoff = 0.2
            self.connections += 1
            try:
                self._session(client)
            finally:
                self._ready = False
                self.connected.clear()
                self._mids.clear()
                for box in self._outboxes:
                    box.sent = box.acked
                    box.pending_acks.clear()
                    box.resends.clear()
                self._save_acks()
            if not self._stop.is_set():
                self._sleep(0.2)

    def _sleep(self, seconds: float) -> None:
        """Wait, but wake at once for a stop."""
        self._stop.wait(seconds)

    def _session(self, client: Any) -> None:
        mqtt = paho()
        self._alive = True
        self._ready = False
        sock = client.socket()
        if sock is None:
            return
        selector = selectors.DefaultSelector()
        selector.register(self._wake_r, selectors.EVENT_READ)
        selector.register(sock, selectors.EVENT_READ)
        try:
            while self._alive and not self._stop.is_set():
                want = selectors.EVENT_READ | (selectors.EVENT_WRITE if client.want_write() else 0)
                selector.modify(sock, want)
                for key, mask in selector.select(timeout=1.0):
                    if key.fileobj is self._wake_r:
                        try:
                            while self._wake_r.recv(4096):
                                pass
                        except (BlockingIOError, OSError):
                            pass
                        continue
                    if mask & selectors.EVENT_READ:
                        if client.loop_read() != mqtt.MQTT_ERR_SUCCESS:
                            self._alive = False
                    if mask & selectors.EVENT_WRITE and self._alive:
                        if client.loop_write() != mqtt.MQTT_ERR_SUCCESS:
                            self._alive = False
                if not self._alive:
                    break
                if client.loop_misc() != mqtt.MQTT_ERR_SUCCESS:
                    break
                self._take_inbox()
                if self._ready:
                    self._pump(client)
                    self._send_replies(client)
                self._save_acks()
            if self._stop.is_set() and self._ready:
                info = client.publish(self._topic("status"), self._status(False), qos=1,
                                      retain=True)
                deadline = time.monotonic() + 1.0
                while not info.is_published() and time.monotonic() < deadline and self._alive:
                    client.loop(0.05)
                client.disconnect()
                client.loop(0.05)
        finally:
            selector.close()
            try:
                sock.close()
            except OSError:
                pass

    # ------------------------------------------------------------------ paho callbacks

    def _on_connect(self, client: Any, userdata: Any, flags: Any, rc: Any, props: Any) -> None:
        if not success(rc):
            log.warning("table %s: the broker refused the connection: %s", self.table, rc)
            self._alive = False
            return
        client.publish(self._topic("status"), self._status(True), qos=1, retain=True)
        client.subscribe([(self._topic("cmd"), 1), (self._topic("resend"), 1)])
        self._ready = True
        self.connected.set()
        resent = sum(max(0, box.last - box.acked) for box in self._outboxes)
        if self.connections > 1 and resent:
            log.info("table %s: back online, republishing %d record(s)", self.table, resent)

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, rc: Any, props: Any) -> None:
        self._alive = False

    def _on_publish(self, client: Any, userdata: Any, mid: int, rc: Any, props: Any) -> None:
        entry = self._mids.pop(mid, None)
        if entry is None:
            return
        box, seq = entry
        if seq <= box.acked:
            return
        box.pending_acks.add(seq)
        while box.acked + 1 in box.pending_acks:
            box.pending_acks.discard(box.acked + 1)
            box.acked += 1
        if 0 <= box.acked < len(box.records):
            box.acked_hash = str(box.records[box.acked].get("hash", ""))

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        parsed = topics.parse(self.prefix, message.topic)
        if parsed is None or parsed[0] != self.table:
            return
        if parsed[1] == "cmd":
            if self.on_command is not None:
                self.on_command(bytes(message.payload))
        elif parsed[1] == "resend":
            self._resend(client, bytes(message.payload))

    # ------------------------------------------------------------------ journals

    def _take_inbox(self) -> None:
        with self._lock:
            paths = list(self._inbox)
            self._inbox.clear()
        for path in paths:
            box = next((b for b in self._outboxes if b.path == path), None)
            if box is None:
                box = self._open(path)
                if box is None:
                    continue
                self._outboxes.append(box)
            self._read_tail(box)
        # keep only the journals still owing records, and the current one
        self._outboxes = [
            b for i, b in enumerate(self._outboxes)
            if i == len(self._outboxes) - 1 or b.acked < b.last
        ]

    def _open(self, path: Path) -> _Outbox | None:
        box = _Outbox(path)
        try:
            saved = json.loads(ack_path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            saved = None
        self._read_tail(box)
        if not box.records:
            return None
        if isinstance(saved, dict) and isinstance(saved.get("acked"), int):
            seq = saved["acked"]
            if 0 <= seq < len(box.records) and box.records[seq].get("hash") == saved.get("hash"):
                box.acked = box.saved = box.sent = seq
                box.acked_hash = str(saved.get("hash"))
        return box

    def _read_tail(self, box: _Outbox) -> None:
        try:
            with open(box.path, "rb") as f:
                f.seek(box.offset)
                data = f.read()
        except OSError as exc:
            log.warning("table %s: cannot read %s: %s", self.table, box.path, exc)
            return
        end = data.rfind(b"\n")
        if end < 0:
            return
        for raw in data[: end + 1].splitlines():
            try:
                record = json.loads(raw)
            except ValueError:
                continue
            if not isinstance(record, dict) or record.get("seq") != len(box.records):
                continue
            box.records.append(record)
            self._fold(box, record)
        box.offset += end + 1

    def _fold(self, box: _Outbox, record: dict[str, Any]) -> None:
        """Keep a mirror of the game, for the retained state snapshot."""
        if record.get("seq") == 0:
            game = arbiter_for(record.get("game"))
            box.mirror = game.mirror(record) if game is not None else None
            return
        if box.mirror is not None:
            box.mirror.apply(record)

    def _save_acks(self) -> None:
        for box in self._outboxes:
            if box.acked == box.saved or box.acked < 0:
                continue
            target = ack_path(box.path)
            tmp = target.with_name(target.name + ".tmp")
            try:
                tmp.write_text(json.dumps({"acked": box.acked, "hash": box.acked_hash}) + "\n")
                os.replace(tmp, target)
            except OSError as exc:
                log.warning("table %s: cannot write %s: %s", self.table, target, exc)
                continue
            box.saved = box.acked

    # ------------------------------------------------------------------ publishing

    def _event(self, box: _Outbox, seq: int) -> bytes:
        record = box.records[seq]
        return self._sealed("events", {
            "id": topics.event_id(self.table, box.game, seq),
            "table": self.table,
            "game": box.game,
            "seq": seq,
            "record": record,
        })

    def _publish_event(self, client: Any, box: _Outbox, seq: int) -> None:
        info = client.publish(self._topic("events"), self._event(box, seq), qos=1)
        self._mids[info.mid] = (box, seq)
        self.published += 1
        if seq <= box.high:
            self.republished += 1
        box.high = max(box.high, seq)

    def _pump(self, client: Any) -> None:
        for box in self._outboxes:
            first = box.sent + 1
            for seq in range(first, len(box.records)):
                if seq <= box.acked:
                    continue
                self._publish_event(client, box, seq)
            box.sent = max(box.sent, box.last)
        if self._outboxes:
            current = self._outboxes[-1]
            if current.state_seq != current.last:
                self._publish_state(client, current)

    def _publish_state(self, client: Any, box: _Outbox) -> None:
        last = box.records[box.last]
        header = box.records[0]
        state = box.mirror.snapshot() if box.mirror is not None else None
        payload = {
            "table": self.table,
            "game": box.game,
            "seq": box.last,
            "id": topics.event_id(self.table, box.game, box.last),
            "wall": last.get("wall"),
            "header": {k: header.get(k) for k in ("game", "level", "ruleset", "start", "names",
                                                   "table", "created", "round", "players")},
            "state": state,
        }
        client.publish(self._topic("state"), self._sealed("state", payload), qos=1, retain=True)
        box.state_seq = box.last
        if state is not None and state.get("over") and self.result_key is not None:
            key = (state.get("winner"), state.get("reason"), state.get("confirmed"))
            if key != box.result_key:
                self._publish_result(client, box)
                box.result_key = key

    def _publish_result(self, client: Any, box: _Outbox) -> None:
        from companion.arbiter.results import ResultError, signed_result

        assert self.result_key is not None
        try:
            record = signed_result(box.path, self.result_key)
        except (ResultError, OSError) as exc:
            log.warning("table %s: no result to publish: %s", self.table, exc)
            return
        client.publish(self._topic("result"), self._sealed("result", record), qos=1, retain=True)

    def _send_replies(self, client: Any) -> None:
        with self._lock:
            replies = list(self._replies)
            self._replies.clear()
        for answer in replies:
            payload = {"table": self.table, **answer}
            client.publish(self._topic("reply"), self._sealed("reply", payload), qos=1)

    def _resend(self, client: Any, payload: bytes) -> None:
        """A viewer missed records: publish them again (same ids), at most twice a second."""
        try:
            ask = json.loads(payload)
            game, start = str(ask["game"]), int(ask["from"])
        except (ValueError, KeyError, TypeError):
            return
        box = next((b for b in self._outboxes if b.game == game), None)
        if box is None and game == "":
            box = self._outboxes[-1] if self._outboxes else None
        if box is None or not self._ready:
            return
        now = time.monotonic()
        if now - box.resends.get(start, -1e9) < RESEND_INTERVAL:
            return
        box.resends[start] = now
        for seq in range(max(0, start), box.sent + 1):
            self._publish_event(client, box, seq)
        box.state_seq = -1
