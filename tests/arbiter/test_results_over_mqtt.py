"""Results reach the tournament file over MQTT, through the page's journal inbox, and only the
game the file paired at that table: a real mosquitto, the real arbiter client and page, each
table publishing its journal as the daemon's publisher does. A re-chained forgery, an unsigned
appended result, a game of another tournament and a result for another table's pairing (a
compromised table 2 publishing table 1's game) are each kept out of the file and of the page's
standings, and the page says why; the genuine games are recorded, signed, via ``mqtt``."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.arbiter.client import ArbiterClient
from companion.arbiter.pin import hash_pin
from companion.arbiter.publisher import TablePublisher
from companion.arbiter.settings import ArbiterSettings, MqttSettings
from companion.arbiter.signing import arbiter_key, keyring_path
from companion.arbiter.web import ArbiterServer
from companion.config import defaults
from companion.keys import Keyring
from companion.tournament import store
from companion.tournament.inbox import JournalInbox
from companion.tournament.journals import Keys
from tests.arbiter.broker import Broker
from tests.arbiter.conftest import wait_until
from tests.arbiter.keys import TABLES
from tests.tournament import helpers
from tests.tournament.test_journals import (
    ATTACKS,
    CUP,
    append_unsigned_result,
    genuine,
    load,
    other_tables_pairing,
    unsigned_appended,
)


class Laptop:
    """The arbiter's laptop: client, inbox and page, on the evening's folder."""

    def __init__(self, folder: Path, broker: Broker) -> None:
        self.folder = folder
        self.mqtt = MqttSettings(enabled=True, host="127.0.0.1", port=broker.port)
        key = arbiter_key(defaults())
        ring = Keyring.load(keyring_path(defaults()))
        self.inbox = JournalInbox(folder, Keys(keyring=ring, arbiter=(key.public,)), key).start()
        self.client = ArbiterClient(self.mqtt, keyring=ring, client_id="test-laptop")
        self.client.view.on_applied = self.inbox.saw
        self.client.start()
        self.server = ArbiterServer(self.client, ArbiterSettings(pin_hash=hash_pin("2468")),
                                    port=0, signing_key=key, tournament_dir=folder,
                                    inbox=self.inbox).start()
        self.publishers: list[TablePublisher] = []

    def publish(self, table: int, journal: Path) -> None:
        """Table ``table`` (its own key) publishes this journal, record by record."""
        p = TablePublisher(self.mqtt, table, key=TABLES[table],
                           client_id=f"test-table-{table}-{journal.stem}")
        p.start()
        p.follow(journal)
        self.publishers.append(p)

    def get(self, path: str) -> str:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.server.port}{path}",
                                    timeout=10) as answer:
            return answer.read().decode()

    def close(self) -> None:
        for p in self.publishers:
            p.stop()
        self.server.stop()
        self.client.stop()
        self.inbox.stop()


@pytest.fixture
def laptop(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, broker: Broker) -> Iterator[Laptop]:
    helpers.laptop(monkeypatch, tmp_path)
    helpers.club(tmp_path)
    assert helpers.run(["tournament", "pair", CUP, "--dir", str(tmp_path)]) == 0
    (tmp_path / "in").mkdir()
    lap = Laptop(tmp_path, broker)
    try:
        yield lap
    finally:
        lap.close()


def notes(lap: Laptop) -> list[str]:
    return list(json.loads(lap.get("/api/tournament")).get("recent", []))


@pytest.mark.parametrize("attack", ATTACKS)
def test_the_page_keeps_it_out_of_the_file_and_its_standings(laptop: Laptop,
                                                            attack: str) -> None:
    make, words = ATTACKS[attack]
    journal = make(laptop.folder)
    table = 2 if make is other_tables_pairing else 1
    before = (laptop.folder / "Club-Cup.tournament.jsonl").read_bytes()
    laptop.publish(table, journal)
    assert wait_until(lambda: any(words in line for line in notes(laptop))), notes(laptop)
    rows = laptop.get("/standings.csv").splitlines()[1:]
    if (laptop.folder / "Club-Cup.tournament.jsonl").read_bytes() == before:
        assert all(row.split(",")[2] == "0" for row in rows)  # nobody has a point
    else:
        # The appended records are published after the genuine, signed final record: when the
        # inbox checks the copy before they arrive, it records the game the table signed (Ann
        # wins). The forged ruling (black wins) never enters; its arrival is refused and noted.
        assert make is unsigned_appended
        game = load(laptop.folder).played[0].games[0]
        assert game.result is not None and game.result.winner == "first"
        assert {row.split(",")[1]: row.split(",")[2] for row in rows}["Ann"] == "1"
    kept = list((laptop.folder / "journals").glob(f"table-{table}-*.jsonl"))
    assert len(kept) == 1 and kept[0].read_bytes() == journal.read_bytes()  # kept as sent


def test_the_tables_genuine_games_are_recorded_over_mqtt(laptop: Laptop) -> None:
    laptop.publish(1, genuine(laptop.folder, "t1.jsonl"))
    laptop.publish(2, genuine(laptop.folder, "t2.jsonl", table=2, players=("Bob", "Cid"),
                              winner="black"))
    path = laptop.folder / "Club-Cup.tournament.jsonl"
    key = arbiter_key(defaults()).public

    def recorded() -> bool:
        return store.load(path, key).round(1).done

    assert wait_until(recorded), notes(laptop)
    t = store.load(path, key)
    assert [c.via for c in t.trail[-2:]] == ["mqtt", "mqtt"]
    assert {g.source.kind for g in t.round(1).games if g.source} == {"table"}
    csv = laptop.get("/standings.csv")
    assert {line.split(",")[1]: line.split(",")[2] for line in csv.splitlines()[1:]} == {
        "Ann": "1", "Cid": "1", "Bob": "0", "Dee": "0"}
    assert helpers.run(["tournament", "standings", CUP, "--journals",
                        str(laptop.folder / "journals"), "--dir", str(laptop.folder),
                        "--csv", str(laptop.folder / "s.csv")]) == 0
    assert (laptop.folder / "s.csv").read_text() == csv  # the journals rank as the page


def test_a_result_appended_after_the_genuine_one_is_refused_and_the_genuine_one_stays(
        laptop: Laptop) -> None:
    """Table 1's signed game is recorded as it ends; records chained onto it afterwards without
    the table's key (a ruling that black won) are refused and noted, and change nothing."""
    journal = genuine(laptop.folder, "late.jsonl")
    laptop.publish(1, journal)
    assert wait_until(lambda: load(laptop.folder).played[0].games[0].result is not None)
    recorded = (laptop.folder / "Club-Cup.tournament.jsonl").read_bytes()
    append_unsigned_result(journal)
    laptop.publishers[-1].follow(journal)  # the table's publisher sends what the file gained
    assert wait_until(lambda: any("this record is not signed" in line
                                  for line in notes(laptop))), notes(laptop)
    assert (laptop.folder / "Club-Cup.tournament.jsonl").read_bytes() == recorded
    game = load(laptop.folder).played[0].games[0]
    assert game.result is not None and game.result.winner == "first"
    # the laptop's copy of the journal now carries the forgery: `tournament verify` names it
    assert helpers.run(["tournament", "verify", CUP, "--dir", str(laptop.folder)]) != 0  # DIFFERS

