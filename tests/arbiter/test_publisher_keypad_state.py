"""A Tantrix table's retained MQTT snapshot carries its game state, folded by the engine."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion.arbiter.publisher import TablePublisher, _Outbox
from companion.arbiter.settings import MqttSettings
from companion.journal import JournalWriter
from companion.simulate import simulate_file


class Client:
    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any], bool]] = []

    def publish(self, topic: str, payload: bytes, qos: int = 0, retain: bool = False) -> None:
        self.sent.append((topic, json.loads(payload), retain))


def test_a_tantrix_snapshot_holds_the_games_state(tmp_path: Path) -> None:
    path = tmp_path / "tantrix-t2.jsonl"
    with JournalWriter.create(path, {"game": "tantrix", "players": ["red", "blue"]}) as w:
        w.append({"t": 0.0, "ev": "place", "tile": 1, "q": 0, "r": 0, "rot": 5})
        w.append({"t": 1.0, "ev": "done"})
        w.append({"t": 2.0, "ev": "place", "tile": 2, "q": 1, "r": 0, "rot": 4})
    publisher = TablePublisher(MqttSettings(enabled=True), 2)
    box = _Outbox(path)
    publisher._read_tail(box)
    client = Client()
    publisher._publish_state(client, box)
    topic, payload, retain = client.sent[-1]
    assert retain and topic.endswith("state")
    state = payload["state"]
    assert state is not None and state["game"] == "tantrix"
    expected = simulate_file(path)
    assert (state["placed"], state["turn"], state["scores"]) == (
        expected["placed"],
        expected["turn"],
        expected["scores"],
    )
