"""The club's locked broker (`companion arbiter broker-config`), run by the real mosquitto.

Each test is one thing the broker must refuse or allow: anonymous clients and wrong passwords
are refused, a table writes only its own topics and reads only the commands addressed to it,
only the arbiter commands, and the club's network reaches it over TLS with the club's CA.
"""

from __future__ import annotations

import ssl
import threading
import uuid
from pathlib import Path
from typing import Any

import pytest

from companion.arbiter.brokerconfig import acl_text, password_line, write_broker_config
from companion.arbiter.mqtt import make_client
from companion.arbiter.settings import MqttSettings
from tests.arbiter.clubbroker import ClubBroker
from tests.arbiter.conftest import wait_until


class Peer:
    """A plain paho client that records what it receives and how its connection went."""

    def __init__(self, settings: MqttSettings) -> None:
        self.settings = settings
        self.messages: list[tuple[str, bytes]] = []
        self.result: Any = None
        self.subscribed = threading.Event()
        self.client = make_client(settings, f"test-{uuid.uuid4().hex[:8]}")
        self.client.on_connect = self._on_connect
        self.client.on_message = lambda c, u, m: self.messages.append((m.topic, bytes(m.payload)))
        self.client.on_subscribe = lambda *a: self.subscribed.set()

    def _on_connect(self, client: Any, userdata: Any, flags: Any, rc: Any, props: Any) -> None:
        self.result = rc

    def connect(self) -> bool:
        self.client.connect(self.settings.host, self.settings.port, 30)
        self.client.loop_start()
        assert wait_until(lambda: self.result is not None, timeout=10)
        return not self.result.is_failure

    def subscribe(self, topic: str) -> None:
        self.subscribed.clear()
        self.client.subscribe(topic, qos=1)
        assert self.subscribed.wait(5)

    def publish(self, topic: str, payload: bytes) -> None:
        self.client.publish(topic, payload, qos=1).wait_for_publish(5)

    def got(self, topic: str) -> list[bytes]:
        return [p for t, p in self.messages if t == topic]

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


@pytest.fixture
def peers(club_broker: ClubBroker) -> Any:
    made: list[Peer] = []

    def peer(user: str, **kw: Any) -> Peer:
        p = Peer(club_broker.mqtt_for(user, **kw))
        made.append(p)
        return p

    yield peer
    for p in made:
        p.close()


def test_an_anonymous_client_is_refused(club_broker: ClubBroker) -> None:
    anonymous = Peer(MqttSettings(enabled=True, port=club_broker.setup.local_port))
    try:
        assert not anonymous.connect()
    finally:
        anonymous.close()


def test_a_wrong_password_is_refused(peers: Any) -> None:
    assert not peers("table-1", password="guessed").connect()


def test_a_table_cannot_publish_on_another_table_s_topics(peers: Any) -> None:
    arbiter, intruder = peers("arbiter"), peers("table-2")
    assert arbiter.connect() and intruder.connect()
    arbiter.subscribe("companion/table/+/+")
    intruder.publish("companion/table/1/state", b'{"forged": true}')
    intruder.publish("companion/table/1/result", b'{"forged": true}')
    intruder.publish("companion/table/2/state", b'{"own": true}')  # its own: delivered
    assert wait_until(lambda: arbiter.got("companion/table/2/state"), timeout=10)
    assert arbiter.got("companion/table/1/state") == []
    assert arbiter.got("companion/table/1/result") == []


def test_a_table_cannot_read_commands_addressed_to_another(peers: Any) -> None:
    arbiter, table1, table2 = peers("arbiter"), peers("table-1"), peers("table-2")
    assert arbiter.connect() and table1.connect() and table2.connect()
    table1.subscribe("companion/table/1/cmd")
    table2.subscribe("companion/table/1/cmd")
    table2.subscribe("companion/table/2/cmd")
    arbiter.publish("companion/table/1/cmd", b"for table 1")
    arbiter.publish("companion/table/2/cmd", b"for table 2")
    assert wait_until(lambda: table1.got("companion/table/1/cmd")
                      and table2.got("companion/table/2/cmd"), timeout=10)
    assert table2.got("companion/table/1/cmd") == []


def test_only_the_arbiter_commands_a_table(peers: Any) -> None:
    table1, table2 = peers("table-1"), peers("table-2")
    assert table1.connect() and table2.connect()
    table1.subscribe("companion/table/1/cmd")
    table2.publish("companion/table/1/cmd", b"a command from a player")
    table1.publish("companion/table/1/state", b"sync")  # round trip: the command had its chance
    arbiter = peers("arbiter")
    assert arbiter.connect()
    arbiter.publish("companion/table/1/cmd", b"the arbiter's")
    assert wait_until(lambda: table1.got("companion/table/1/cmd"), timeout=10)
    assert table1.got("companion/table/1/cmd") == [b"the arbiter's"]


def test_tls_works_with_the_club_s_ca(peers: Any) -> None:
    arbiter, table = peers("arbiter"), peers("table-3", tls=True)
    assert arbiter.connect() and table.connect()
    arbiter.subscribe("companion/table/3/status")
    table.publish("companion/table/3/status", b"online over TLS")
    assert wait_until(lambda: arbiter.got("companion/table/3/status"), timeout=10)


def test_tls_refuses_a_broker_the_club_s_ca_did_not_sign(club_broker: ClubBroker,
                                                        tmp_path: Path) -> None:
    other = write_broker_config(tmp_path / "other-club", [1], run_as="root")
    settings = club_broker.mqtt_for("table-1", tls=True)
    settings = MqttSettings(**{**settings.__dict__, "ca_file": str(other.ca_file)})
    peer = Peer(settings)
    with pytest.raises(ssl.SSLError):
        peer.client.connect(settings.host, settings.port, 30)


def test_the_password_file_is_mosquitto_s_pbkdf2_sha512_format() -> None:
    line = password_line("table-1", "secret", salt=b"0123456789ab", rounds=101)
    user, hashed = line.split(":")
    kind, rounds, salt, digest = hashed.split("$")[1:]
    assert (user, kind, rounds, salt) == ("table-1", "7", "101", "MDEyMzQ1Njc4OWFi")
    assert len(digest) == 88  # base64 of the 64 bytes of a SHA-512


def test_the_acl_gives_each_table_only_its_own_topics() -> None:
    text = acl_text("companion", [4])
    block = text.split("user table-4\n")[1]
    assert "topic write companion/table/4/state" in block
    assert "topic read companion/table/4/cmd" in block
    assert "+" not in block and "#" not in block


def test_the_secrets_are_readable_by_their_owner_only(tmp_path: Path) -> None:
    setup = write_broker_config(tmp_path / "club", [1, 2])
    for name in ("passwd", "acl", "ca.key", "server.key", "tables/table-1.toml"):
        assert (setup.folder / name).stat().st_mode & 0o077 == 0, name
    text = setup.table_config(2).read_text()
    assert 'username = "table-2"' in text and setup.passwords["table-2"] in text


def test_an_existing_setup_is_not_overwritten(tmp_path: Path) -> None:
    write_broker_config(tmp_path / "club", [1])
    with pytest.raises(FileExistsError):
        write_broker_config(tmp_path / "club", [1])


def test_the_command_writes_a_setup_and_says_what_goes_where(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from companion.cli import main

    assert main(["arbiter", "broker-config", str(tmp_path / "club"), "--tables", "2",
                 "--host", "club-pi.local"]) == 0
    out = capsys.readouterr().out
    assert "mosquitto -c" in out and (tmp_path / "club" / "tables" / "table-2.toml").exists()
    assert main(["arbiter", "broker-config", str(tmp_path / "club")]) == 2
    assert "already exists" in capsys.readouterr().err


def test_the_command_line_user_commands_and_reads_answers_only(peers: Any) -> None:
    sender, table1 = peers("arbiter-send"), peers("table-1")
    assert sender.connect() and table1.connect()
    table1.subscribe("companion/table/1/cmd")
    sender.subscribe("companion/table/+/reply")
    sender.subscribe("companion/table/+/state")
    table1.publish("companion/table/1/state", b"not for the command line")
    sender.publish("companion/table/1/cmd", b"a command")
    assert wait_until(lambda: table1.got("companion/table/1/cmd"), timeout=10)
    table1.publish("companion/table/1/reply", b"an answer")
    assert wait_until(lambda: sender.got("companion/table/1/reply"), timeout=10)
    assert sender.got("companion/table/1/state") == []
