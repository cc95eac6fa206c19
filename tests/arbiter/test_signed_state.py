"""Only enrolled tables' signed messages reach the arbiter's page, its results and standings.

Through a real mosquitto left open (anonymous, no ACL: the signature must hold on its own) and
through the club's locked broker with TLS: a fake table, a table impersonated with another
key, and forged retained state and results are shown as unverified and change nothing.
"""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

from companion.arbiter.client import ArbiterClient
from companion.arbiter.mqtt import make_client
from companion.arbiter.publisher import TablePublisher
from companion.arbiter.sealing import seal
from companion.arbiter.settings import ArbiterSettings, MqttSettings
from companion.arbiter.web import ArbiterServer
from companion.clock import FakeClock
from companion.journal import JournalWriter
from companion.keys import SigningKey
from companion.tamsk.simtable import SimulatedTable, table_config
from tests.arbiter.broker import Broker
from tests.arbiter.clubbroker import ClubBroker
from tests.arbiter.conftest import wait_until
from tests.arbiter.keys import TABLES, keyring, table_arbiter

KEY = "the club's sixteen-plus key"


def shown(client: ArbiterClient) -> dict[int, dict[str, Any]]:
    return {t["table"]: t for t in client.snapshot()["tables"]}


def forge(settings: MqttSettings, topic: str, message: dict[str, Any], *,
          retain: bool = True) -> None:
    """Publish as someone on the club's network would (retained, like the real ones)."""
    c = make_client(settings, "forger")
    c.connect(settings.host, settings.port)
    c.loop_start()
    c.publish(topic, json.dumps(message), qos=1, retain=retain).wait_for_publish(5)
    c.loop_stop()
    c.disconnect()


def finished_table(tmp_path: Path, mqtt: MqttSettings) -> SimulatedTable:
    folder = tmp_path / "table1"
    folder.mkdir()
    config = table_config(1, {"arbiter": table_arbiter(club_key=KEY)})
    sim = SimulatedTable(1, folder, FakeClock(), mqtt=mqtt, config=config, seed=1,
                         names={"red": "Ann", "black": "Bob"}, key=TABLES[1])
    for _ in range(3):
        sim.clock.advance(2.0)
        sim.step()
    sim.station.correct({"what": "result", "winner": "red", "reason": "x"}, auth="pin")
    return sim


def test_a_fake_table_is_shown_unverified(tmp_path: Path, broker: Broker) -> None:
    mqtt = MqttSettings(enabled=True, port=broker.port)
    client = ArbiterClient(mqtt, client_id="arbiter-fake", keyring=keyring(tmp_path)).start()
    page = ArbiterServer(client, ArbiterSettings(), port=0).start()
    path = tmp_path / "fake.jsonl"
    JournalWriter.create(path, {"game": "tamsk", "table": 12, "names": {"red": "Mallory"}}
                         ).close()
    fake = TablePublisher(mqtt, 12, journal_path=lambda: path, key=SigningKey.generate(),
                          client_id="fake-12").start()

    def on_page() -> dict[int, dict[str, Any]]:
        url = f"http://127.0.0.1:{page.port}/api/state"
        with urllib.request.urlopen(url, timeout=10) as answer:
            return {t["table"]: t for t in json.loads(answer.read())["tables"]}

    try:
        assert wait_until(lambda: on_page().get(12, {}).get("unverified", 0) >= 2)
        table = on_page()[12]
        assert table["status"] == "unverified" and table["verified"] is False
        assert table.get("names") is None and table["game"] is None
        assert table["alerts"][0]["kind"] == "unverified"
        assert "not enrolled" in table["alerts"][0]["text"]
    finally:
        page.stop()
        fake.stop()
        client.stop()


def test_a_table_impersonated_with_another_key_is_unverified(tmp_path: Path,
                                                             broker: Broker) -> None:
    mqtt = MqttSettings(enabled=True, port=broker.port)
    client = ArbiterClient(mqtt, client_id="arbiter-imp", keyring=keyring(tmp_path)).start()
    path = tmp_path / "imp.jsonl"
    JournalWriter.create(path, {"game": "tamsk", "table": 2}).close()
    impostor = TablePublisher(mqtt, 2, journal_path=lambda: path, key=SigningKey.generate(),
                              client_id="impostor-2").start()
    try:
        assert wait_until(lambda: shown(client).get(2, {}).get("unverified", 0) >= 2)
        assert shown(client)[2]["status"] == "unverified"
        assert "not the enrolled table's" in shown(client)[2]["alerts"][0]["text"]
        assert client.view.records(2) == []
    finally:
        impostor.stop()
        client.stop()


def test_a_forged_retained_result_does_not_wipe_the_standings(tmp_path: Path,
                                                              broker: Broker) -> None:
    mqtt = MqttSettings(enabled=True, port=broker.port)
    client = ArbiterClient(mqtt, client_id="arbiter-forged", keyring=keyring(tmp_path)).start()
    sim = finished_table(tmp_path, mqtt)
    try:
        assert wait_until(lambda: len(client.results()) == 1)
        real = client.results()[0]
        game = real["journal"]["game_id"]
        forged = {**real, "winner": "black"}
        forge(mqtt, "companion/table/1/result", forged)  # unsigned
        forge(mqtt, "companion/table/1/result",
              seal(forged, "result", SigningKey.generate()))  # signed by someone else
        forge(mqtt, "companion/table/1/state", {"table": 1, "game": game, "seq": 99,
                                                "state": {"over": True, "winner": "black"}})
        assert wait_until(lambda: shown(client)[1]["unverified"] >= 3)
        assert client.results() == [real]
        assert shown(client)[1]["winner"] == "red" and shown(client)[1]["verified"]
        assert any(a["kind"] == "unverified" for a in shown(client)[1]["alerts"])
    finally:
        sim.close()
        client.stop()


def test_a_retained_forgery_is_refused_by_a_page_started_after_it(tmp_path: Path,
                                                                  broker: Broker) -> None:
    mqtt = MqttSettings(enabled=True, port=broker.port)
    forge(mqtt, "companion/table/4/result",
          {"kind": "companion-result", "table": 4, "winner": "red",
           "journal": {"game_id": "0123456789abcdef"}})
    client = ArbiterClient(mqtt, client_id="arbiter-late", keyring=keyring(tmp_path)).start()
    try:
        assert wait_until(lambda: shown(client).get(4, {}).get("unverified") == 1)
        assert client.results() == []
    finally:
        client.stop()


def test_tables_through_the_locked_broker_over_tls_are_verified(
    tmp_path: Path, club_broker: ClubBroker
) -> None:
    client = ArbiterClient(club_broker.mqtt_for("arbiter"), client_id="arbiter-club",
                           keyring=keyring(tmp_path)).start()
    sim = finished_table(tmp_path, club_broker.mqtt_for("table-1", tls=True))
    try:
        assert wait_until(lambda: len(client.results()) == 1)
        assert shown(client)[1]["verified"] and shown(client)[1]["unverified"] == 0
        assert client.view.records(1)[0]["names"] == {"red": "Ann", "black": "Bob"}
    finally:
        sim.close()
        client.stop()
