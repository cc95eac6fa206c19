"""The page's last verified state of each table survives its own restart and replays.

Anyone with a table's broker password can overwrite that table's retained messages (status,
state, result) with unsigned ones, or publish the table's own old signed ones again. The page
keeps what it last verified on the laptop, orders a table's signed messages (a status by its
``seq`` and time, a state by its game and record, a result by the records it covers), and never
lets an unsigned or older message undo a verified one.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.arbiter import topics
from companion.arbiter.brokerconfig import ARBITER_USER
from companion.arbiter.client import ArbiterClient
from companion.arbiter.mqtt import make_client
from companion.arbiter.publisher import TablePublisher
from companion.arbiter.retained import STATE_EVERY_S, RetainedStore, store_path
from companion.arbiter.sealing import seal
from companion.arbiter.settings import MqttSettings
from companion.arbiter.view import ArbiterView
from companion.journal import JournalWriter
from companion.keys import Keyring, SigningKey
from companion.tamsk.simtable import SimulatedTable
from tests.arbiter.broker import Broker
from tests.arbiter.clubbroker import ClubBroker
from tests.arbiter.conftest import wait_until
from tests.arbiter.keys import TABLES, enrolled, keyring
from tests.arbiter.test_signed_state import finished_table
from tests.arbiter.test_web_games import TOKAMI_HEADER, TOKAMI_MOVES, TOKAMI_STATE

PREFIX = "companion"


def signed(table: int, kind: str, message: dict[str, Any]) -> bytes:
    return json.dumps(seal(message, kind, TABLES[table])).encode()


def status(table: int, word: str, seq: int | None, wall: float = 1000.0) -> bytes:
    message: dict[str, Any] = {"table": table, "status": word, "wall": wall}
    if seq is not None:
        message["seq"] = seq
    return signed(table, "status", message)


def state(table: int, game: str, seq: int, created: str = "2026-11-27T20:00:00") -> bytes:
    return signed(table, "state", {"table": table, "game": game, "seq": seq, "wall": 1000.0,
                                   "header": {"game": "tamsk", "created": created},
                                   "state": None})


def result(table: int, game: str, records: int, winner: str) -> bytes:
    return signed(table, "result", {"kind": "companion-result", "table": table,
                                    "winner": winner,
                                    "journal": {"game_id": game, "records": records}})


def topic(table: int, kind: str) -> str:
    return topics.topic(PREFIX, table, kind)


# ---------------------------------------------------------------------- the view's order


def test_an_older_signed_status_does_not_replace_a_newer_one() -> None:
    view = ArbiterView(PREFIX, enrolled())
    view.handle(topic(1, "status"), status(1, "online", 10), 0.0)
    view.handle(topic(1, "status"), status(1, "offline", 9, wall=2000.0), 1.0)  # a replay
    shown = view.table_json(1, 1.0)
    assert shown["status"] == "online"
    assert any(a["kind"] == "stale" for a in shown["alerts"])
    view.handle(topic(1, "status"), status(1, "offline", 11), 2.0)  # the table's own, later
    assert view.table_json(1, 2.0)["status"] == "offline"


def test_a_status_without_a_seq_comes_before_every_status_with_one() -> None:
    """An older table version's status (no seq) never undoes a numbered one; among unnumbered
    ones the table's wall time orders them."""
    view = ArbiterView(PREFIX, enrolled())
    view.handle(topic(1, "status"), status(1, "online", None, wall=100.0), 0.0)
    view.handle(topic(1, "status"), status(1, "offline", None, wall=50.0), 0.0)
    assert view.tables[1].status == "online"
    view.handle(topic(1, "status"), status(1, "online", 5, wall=10.0), 0.0)
    view.handle(topic(1, "status"), status(1, "offline", None, wall=9999.0), 0.0)
    assert view.tables[1].status == "online" and view.tables[1].stale == 2


def test_an_older_signed_state_or_result_does_not_replace_a_newer_one() -> None:
    view = ArbiterView(PREFIX, enrolled())
    view.handle(topic(1, "state"), state(1, "g" * 16, 12), 0.0)
    view.handle(topic(1, "state"), state(1, "g" * 16, 7), 0.0)
    view.handle(topic(1, "state"), state(1, "f" * 16, 30, created="2026-11-27T19:00:00"), 0.0)
    assert view.tables[1].state is not None and view.tables[1].state["seq"] == 12
    view.handle(topic(1, "result"), result(1, "g" * 16, 40, "black"), 0.0)  # after a correction
    view.handle(topic(1, "result"), result(1, "g" * 16, 35, "red"), 0.0)
    assert view.results["g" * 16]["winner"] == "black"
    assert view.tables[1].stale == 3


def test_an_unsigned_message_never_unverifies_a_verified_table() -> None:
    view = ArbiterView(PREFIX, enrolled())
    view.handle(topic(1, "status"), status(1, "online", 10), 0.0)
    for kind in ("status", "state", "result"):
        view.handle(topic(1, kind), json.dumps({"table": 1, "status": "offline"}).encode(), 1.0)
    shown = view.table_json(1, 1.0)
    assert shown["verified"] and shown["status"] == "online" and shown["unverified"] == 3


# ---------------------------------------------------------------------- kept on the laptop


def kept_view(folder: Path, ring: Keyring) -> ArbiterView:
    """A page's view started from what it kept in ``folder``."""
    view = ArbiterView(PREFIX, ring)
    for table, kind, payload in RetainedStore(folder).load():
        view.restore(table, kind, payload, 0.0)
    return view


def test_what_the_page_kept_is_taken_back_after_its_restart(tmp_path: Path) -> None:
    store = RetainedStore(tmp_path)
    view = ArbiterView(PREFIX, enrolled())
    view.on_retained = lambda n, kind, payload, game: store.keep(n, kind, payload, 0.0, game)
    view.handle(topic(3, "status"), status(3, "online", 10), 0.0)
    view.handle(topic(3, "state"), state(3, "a" * 16, 4), 0.0)
    view.handle(topic(3, "result"), result(3, "b" * 16, 20, "red"), 0.0)
    again = kept_view(tmp_path, enrolled())
    shown = again.table_json(3, 0.0)
    assert shown["verified"] and shown["status"] == "online" and shown["unverified"] == 0
    assert list(again.results) == ["b" * 16]
    assert again.tables[3].state is not None and again.tables[3].state["seq"] == 4


def test_a_kept_file_edited_on_the_laptop_is_not_taken_back(tmp_path: Path) -> None:
    store = RetainedStore(tmp_path)
    store.keep(3, "result", result(3, "b" * 16, 20, "red"), 0.0, "b" * 16)
    path = store_path(tmp_path, 3)
    path.write_text(path.read_text().replace('\\"red\\"', '\\"black\\"'))
    again = kept_view(tmp_path, enrolled())
    assert again.results == {} and 3 not in again.tables  # nothing, not even "unverified"


def test_a_table_enrolled_since_with_another_key_starts_afresh(tmp_path: Path) -> None:
    RetainedStore(tmp_path).keep(3, "status", status(3, "online", 10), 0.0)
    ring = Keyring(Path("/nonexistent/keyring.json"))
    ring.enroll("3", SigningKey.generate().public, "2026-11-27T20:00:00")
    assert 3 not in kept_view(tmp_path, ring).tables


def test_a_table_s_state_is_written_when_its_game_changes_and_every_few_seconds(
    tmp_path: Path,
) -> None:
    store = RetainedStore(tmp_path)

    def on_disk() -> int:
        return int(json.loads(json.loads(store_path(tmp_path, 1).read_text())["state"])["seq"])

    store.keep(1, "state", state(1, "a" * 16, 1), 0.0)
    store.keep(1, "state", state(1, "a" * 16, 2), 1.0)
    assert on_disk() == 1
    store.keep(1, "state", state(1, "a" * 16, 3), STATE_EVERY_S)
    assert on_disk() == 3
    store.keep(1, "state", state(1, "b" * 16, 0), STATE_EVERY_S + 1)  # a new game: at once
    store.keep(1, "state", state(1, "b" * 16, 1), STATE_EVERY_S + 2)
    assert on_disk() == 0
    store.flush(STATE_EVERY_S + 3)  # the page stops
    assert on_disk() == 1


# ---------------------------------------------------------------------- the table's status seq


def test_a_table_s_status_seq_goes_up_with_every_connection_and_across_restarts(
    tmp_path: Path,
) -> None:
    kept = tmp_path / "mqtt-status-t1.json"
    kept.write_text(json.dumps({"seq": 10**15}))  # a clock that was ahead: the file wins
    seen = []
    for _ in range(2):  # two processes, one after the other
        publisher = TablePublisher(MqttSettings(enabled=True), 1, key=TABLES[1],
                                   status_file=kept)
        for _ in range(2):  # two connections each
            publisher._next_status_seq()
            online = json.loads(publisher._status(True))
            offline = json.loads(publisher._status(False))
            assert offline["seq"] == online["seq"] + 1
            seen += [online["seq"], offline["seq"]]
    assert seen == sorted(set(seen)) and seen[0] == 10**15 + 1


# ---------------------------------------------------------------------- the real broker


def forge(settings: MqttSettings, table: int, messages: dict[str, bytes]) -> None:
    """Publish retained messages on ``table``'s topics as ``settings``' user."""
    client = make_client(settings, "forger")
    client.connect(settings.host, settings.port)
    client.loop_start()
    try:
        for kind, payload in messages.items():
            client.publish(topic(table, kind), payload, qos=1, retain=True).wait_for_publish(5)
    finally:
        client.disconnect()
        client.loop_stop()


FORGED = {
    "status": json.dumps({"table": 1, "status": "offline"}).encode(),
    "state": json.dumps({"table": 1, "game": "0" * 16, "seq": 0, "header": {}}).encode(),
    "result": json.dumps({"kind": "companion-result", "table": 1, "winner": "black",
                          "journal": {"game_id": "0" * 16, "records": 99}}).encode(),
}


def shown(client: ArbiterClient) -> dict[int, dict[str, Any]]:
    return {t["table"]: t for t in client.snapshot()["tables"]}


def stale(client: ArbiterClient, table: int) -> bool:
    """Whether the page has counted an older signed message of ``table`` (a replay)."""
    tv = client.view.tables.get(table)
    return tv is not None and tv.stale > 0


@pytest.fixture
def page(tmp_path: Path) -> Iterator[Any]:
    """``page(settings)`` starts the arbiter's page (its client), keeping its state in one
    folder: called again, it is the page restarted."""
    started: list[ArbiterClient] = []

    def start(settings: MqttSettings) -> ArbiterClient:
        client = ArbiterClient(settings, client_id="arbiter-kept", keyring=keyring(tmp_path),
                               retained=tmp_path / "page-kept").start()
        started.append(client)
        return client

    yield start
    for client in started:
        client.stop()


def genuine(sim: SimulatedTable) -> int:
    path = sim.table.journal_path
    assert path is not None
    return len(path.read_bytes().splitlines())


def test_a_restarted_page_shows_the_genuine_table_after_its_retained_messages_are_overwritten(
    tmp_path: Path, club_broker: ClubBroker, page: Any,
) -> None:
    first = page(club_broker.mqtt_for(ARBITER_USER))
    sim = finished_table(tmp_path, club_broker.mqtt_for("table-1", tls=True))
    try:
        assert wait_until(lambda: len(first.results()) == 1
                          and len(first.view.records(1)) == genuine(sim))
        real = first.results()
        first.stop()
        forge(club_broker.mqtt_for("table-2"), 1, FORGED)  # refused by the broker's ACL
        forge(club_broker.mqtt_for("table-1"), 1, FORGED)  # the table's own password
        again = page(club_broker.mqtt_for(ARBITER_USER))
        assert wait_until(lambda: len(again.view.records(1)) == genuine(sim)
                          and shown(again)[1]["unverified"] >= 2)
        card = shown(again)[1]
        assert card["verified"] and card["status"] == "online"
        assert card["names"] == {"red": "Ann", "black": "Bob"}
        assert again.results() == real
    finally:
        sim.close()


def test_a_restarted_page_keeps_an_offline_table_with_its_game_and_result(
    tmp_path: Path, club_broker: ClubBroker, page: Any,
) -> None:
    first = page(club_broker.mqtt_for(ARBITER_USER))
    tamsk = finished_table(tmp_path, club_broker.mqtt_for("table-1"))
    path = tmp_path / "t2" / "tokami.jsonl"
    path.parent.mkdir()
    writer = JournalWriter.create(path, TOKAMI_HEADER)
    tokami = TablePublisher(club_broker.mqtt_for("table-2"), 2, key=TABLES[2],
                            journal_path=lambda: path).start()
    for body in TOKAMI_MOVES:
        tokami.record(writer.append(body))
    assert wait_until(lambda: len(first.results()) == 1
                      and shown(first).get(2, {}).get("seq") == len(TOKAMI_MOVES))
    real = first.results()
    tamsk.close()
    tokami.stop()
    writer.close()
    assert wait_until(lambda: shown(first)[1]["status"] == shown(first)[2]["status"] == "offline")
    first.stop()
    forge(club_broker.mqtt_for("table-1"), 1, {**FORGED, "result": b""})  # "" wipes it
    forge(club_broker.mqtt_for("table-2"), 2, {"state": FORGED["state"], "status": b""})
    again = page(club_broker.mqtt_for(ARBITER_USER))
    assert wait_until(lambda: shown(again).get(2, {}).get("unverified", 0) >= 1)
    cards = shown(again)
    assert cards[1]["verified"] and cards[1]["status"] == "offline"
    assert again.results() == real
    assert cards[2]["verified"] and cards[2]["status"] == "offline"
    assert cards[2]["from_snapshot"] and cards[2]["seq"] == len(TOKAMI_MOVES)
    assert cards[2]["kind"] == "tokami"
    assert cards[2]["tokami"]["standings"] == TOKAMI_STATE["standings"]


class Table1:
    """Table 1's publisher as the daemon runs it (its status seq kept beside its journals),
    started, stopped and started again like a table restarting."""

    def __init__(self, folder: Path, mqtt: MqttSettings) -> None:
        self.mqtt = mqtt
        self.kept = folder / "mqtt-status-t1.json"
        self.path = folder / "t1" / "tamsk.jsonl"
        self.path.parent.mkdir()
        JournalWriter.create(self.path, {"game": "tamsk", "table": 1}).close()
        self.publisher: TablePublisher | None = None

    def start(self) -> TablePublisher:
        self.publisher = TablePublisher(self.mqtt, 1, key=TABLES[1],
                                        journal_path=lambda: self.path,
                                        status_file=self.kept).start()
        return self.publisher

    def stop(self) -> None:
        if self.publisher is not None:
            self.publisher.stop()
        self.publisher = None


def old_offline(page: ArbiterClient, table: Table1) -> bytes:
    """The table's own signed "offline" of an earlier connection, as anyone who read the
    broker then has it: the table restarts (its "offline" goes out) and is back."""
    heard: list[bytes] = []
    handle = page.view.handle

    def listen(name: str, payload: bytes, now: float) -> Any:
        if name == topic(1, "status"):
            heard.append(payload)
        return handle(name, payload, now)

    page.view.handle = listen  # type: ignore[method-assign]
    table.start()
    assert wait_until(lambda: shown(page).get(1, {}).get("status") == "online")
    table.stop()
    assert wait_until(lambda: shown(page)[1]["status"] == "offline")
    page.view.handle = handle  # type: ignore[method-assign]
    table.start()
    assert wait_until(lambda: shown(page)[1]["status"] == "online")
    return next(p for p in reversed(heard) if json.loads(p)["status"] == "offline")


def test_a_replayed_old_offline_does_not_make_a_live_table_offline(
    tmp_path: Path, broker: Broker, page: Any,
) -> None:
    """On a broker that lets anyone publish (the signatures hold on their own), the table's
    own old "offline" replayed, retained, is stale for the page running and the page
    restarted."""
    open_broker = MqttSettings(enabled=True, port=broker.port)
    first = page(open_broker)
    table = Table1(tmp_path, open_broker)
    try:
        replay = old_offline(first, table)
        forge(open_broker, 1, {"status": replay})
        assert wait_until(lambda: stale(first, 1))
        assert shown(first)[1]["status"] == "online"
        first.stop()  # the broker now keeps the replayed "offline" for the next page
        again = page(open_broker)
        assert wait_until(lambda: stale(again, 1))
        assert shown(again)[1]["status"] == "online" and shown(again)[1]["verified"]
    finally:
        table.stop()


def test_a_replay_with_the_table_s_own_password_leaves_it_online_once_it_is_back(
    tmp_path: Path, club_broker: ClubBroker, page: Any,
) -> None:
    """On the club's broker only table 1's password writes its status, and connecting with it
    takes table 1's own session for a moment (its genuine last will says "offline"): once the
    table is back its newer "online" stands, and the replayed old "offline" never wins."""
    mqtt = club_broker.mqtt_for("table-1")
    first = page(club_broker.mqtt_for(ARBITER_USER))
    table = Table1(tmp_path, mqtt)
    try:
        replay = old_offline(first, table)
        forge(mqtt, 1, {"status": replay})
        assert wait_until(lambda: stale(first, 1))
        assert wait_until(lambda: shown(first)[1]["status"] == "online")
    finally:
        table.stop()
