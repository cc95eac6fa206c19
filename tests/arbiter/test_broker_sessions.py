"""Client ids on the club's locked broker: each user owns one, so no one takes another's session.

MQTT lets a second connection with a client id take that session over: the first connection
is closed (its last will, a table's signed "offline", goes out) and a clean start wipes the
stored session. The broker `companion arbiter broker-config` writes gives every client the
client id its user owns (``use_username_as_clientid``), and every client of ours connects
with it. Each test runs the real mosquitto with that configuration.
"""

from __future__ import annotations

import json
import threading
import tomllib
from pathlib import Path
from typing import Any

import pytest

from companion.arbiter.brokerconfig import ARBITER_USER, SENDER_USER
from companion.arbiter.client import ArbiterClient
from companion.arbiter.commands import make_command
from companion.arbiter.mqtt import make_client
from companion.arbiter.settings import MqttSettings, mqtt_settings
from companion.arbiter.view import Request
from companion.clock import FakeClock
from companion.tamsk.simtable import SimulatedTable, table_config
from companion.tournament.send import send_commands
from tests.arbiter.clubbroker import ClubBroker
from tests.arbiter.conftest import wait_until
from tests.arbiter.keys import ARBITER, TABLES, keyring, table_arbiter


class Listening(ArbiterClient):
    """The page's client, keeping every status message it hears (the page's user is the only
    one that reads every table, and only one connection of it can be up at a time)."""

    def __init__(self, settings: MqttSettings, folder: Path) -> None:
        super().__init__(settings, keyring=keyring(folder))
        self.statuses: list[tuple[int, str]] = []
        handle = self.view.handle

        def hear(topic: str, payload: bytes, now: float) -> list[Request]:
            if topic.endswith("/status"):
                self.statuses.append((int(topic.split("/")[-2]), json.loads(payload)["status"]))
            return handle(topic, payload, now)

        self.view.handle = hear  # type: ignore[method-assign]


def live_table(folder: Path, mqtt: MqttSettings, number: int = 1) -> SimulatedTable:
    folder.mkdir(parents=True, exist_ok=True)
    config = table_config(number, {"arbiter": table_arbiter()})
    sim = SimulatedTable(number, folder, FakeClock(), mqtt=mqtt, config=config, seed=number,
                         names={"red": "Ann", "black": "Bob"}, key=TABLES[number])
    assert sim.publisher is not None and sim.publisher.connected.wait(10)
    return sim


def intrude(settings: MqttSettings, client_id: str, *, clean: bool = True) -> bool:
    """Connect as ``settings``' user but naming ``client_id``; whether the broker took us."""
    done = threading.Event()
    outcome: list[bool] = []

    def on_connect(c: Any, userdata: Any, flags: Any, rc: Any, props: Any) -> None:
        outcome.append(not rc.is_failure)
        done.set()

    client = make_client(settings, client_id, clean_session=clean)
    client.on_connect = on_connect
    client.connect(settings.host, settings.port, 30)
    client.loop_start()
    try:
        assert done.wait(10)
    finally:
        client.disconnect()
        client.loop_stop()
    return outcome[0]


def shown(client: ArbiterClient) -> dict[int, dict[str, Any]]:
    return {t["table"]: t for t in client.snapshot()["tables"]}


@pytest.fixture
def page(tmp_path: Path, club_broker: ClubBroker) -> Any:
    client = Listening(club_broker.mqtt_for(ARBITER_USER), tmp_path).start()
    assert client.connected.wait(10)
    yield client
    client.stop()


def test_another_table_s_password_cannot_take_over_a_table_or_the_page(
    tmp_path: Path, club_broker: ClubBroker, page: Listening
) -> None:
    sim = live_table(tmp_path / "table1", club_broker.mqtt_for("table-1", tls=True))
    try:
        assert wait_until(lambda: shown(page).get(1, {}).get("status") == "online")
        assert sim.publisher is not None
        names = {"table-1", sim.publisher.client_id, "companion-table-1", ARBITER_USER,
                 page.client_id, "companion-arbiter"}
        for client_id in sorted(names):
            for tls in (False, True):
                # table 2's password is a real one: the broker lets it in, as table-2
                assert intrude(club_broker.mqtt_for("table-2", tls=tls), client_id)
        sim.clock.advance(2.0)
        sim.step()
        seq = len(sim.table.journal_path.read_text().splitlines()) - 1  # type: ignore[union-attr]
        assert wait_until(lambda: len(page.view.records(1)) == seq + 1)
        assert sim.publisher.connections == 1
        assert page.connections == 1
        assert page.statuses == [(1, "online")]
        assert shown(page)[1]["status"] == "online" and shown(page)[1]["verified"]
    finally:
        sim.close()


def test_the_takeover_is_real_on_a_broker_that_lets_clients_choose_their_id(
    tmp_path: Path, club_broker: ClubBroker
) -> None:
    """Why the setting is there: the same broker without it hands table 1's session to a
    connection with table 2's password (so the test above would catch its absence)."""
    club_broker.stop()
    conf = club_broker.setup.conf
    conf.write_text(conf.read_text().replace("use_username_as_clientid true\n", ""))
    club_broker.start()
    sim = live_table(tmp_path / "table1", club_broker.mqtt_for("table-1"))
    try:
        assert sim.publisher is not None
        assert intrude(club_broker.mqtt_for("table-2"), sim.publisher.client_id)
        assert wait_until(lambda: sim.publisher is not None and sim.publisher.connections > 1)
    finally:
        sim.close()


def test_the_page_s_stored_session_survives_others_naming_its_client_id(
    tmp_path: Path, club_broker: ClubBroker
) -> None:
    page = ArbiterClient(club_broker.mqtt_for(ARBITER_USER), keyring=keyring(tmp_path)).start()
    assert page.connected.wait(10)
    page.stop()  # away for a while; its session (subscriptions, queued records) stays
    for user in ("table-2", SENDER_USER):
        assert intrude(club_broker.mqtt_for(user), page.client_id, clean=True)
    sim = live_table(tmp_path / "table1", club_broker.mqtt_for("table-1"))
    again = ArbiterClient(club_broker.mqtt_for(ARBITER_USER), keyring=keyring(tmp_path)).start()
    try:
        assert again.connected.wait(10)
        assert again.session_present
        assert wait_until(lambda: shown(again).get(1, {}).get("verified") is True)
    finally:
        again.stop()
        sim.close()


def test_the_command_line_connects_as_its_own_user_and_leaves_the_page_alone(
    tmp_path: Path, club_broker: ClubBroker, page: Listening
) -> None:
    """`tournament pair --send` with the laptop's configuration (broker-config's
    ``tables/arbiter.toml``): its own user, so the page keeps its one connection."""
    text = (club_broker.setup.folder / "tables" / "arbiter.toml").read_text()
    settings = mqtt_settings(tomllib.loads(text))
    assert settings.username == ARBITER_USER and settings.sender().username == SENDER_USER
    sim = live_table(tmp_path / "table1", club_broker.mqtt_for("table-1"))
    try:
        command = make_command({"what": "turn", "player": "red", "reason": "test"}, table=1,
                               game=str(sim.station.game_id), key=ARBITER,
                               issued=sim.clock.wall())
        send_commands(settings, [(1, command)], wait_s=0.5)
        assert wait_until(lambda: not sim.commands.empty())  # through the broker, to table 1
        assert page.connections == 1 and page.connected.is_set()
    finally:
        sim.close()
