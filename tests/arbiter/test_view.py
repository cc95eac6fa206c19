"""The arbiter's view: every event id once, in order, and the alerts an arbiter must see."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion.arbiter import topics
from companion.arbiter.view import ArbiterView
from companion.journal import JournalWriter
from tests.arbiter.keys import TrustingView

PREFIX = "companion"


def journal(tmp_path: Path, events: list[dict[str, Any]], table: int = 1) -> list[dict[str, Any]]:
    """Sealed records, as a table's journal holds them (header first)."""
    path = tmp_path / f"t{table}.jsonl"
    with JournalWriter.create(path, {"game": "tamsk", "level": 3, "table": table}) as w:
        for body in events:
            w.append(body)
    return [json.loads(line) for line in path.read_text().splitlines()]


def message(record: dict[str, Any], table: int = 1) -> tuple[str, bytes]:
    game = record["hash"][:16] if record["seq"] == 0 else ""
    return topics.topic(PREFIX, table, "events"), json.dumps(
        {"id": topics.event_id(table, game, record["seq"]), "table": table, "game": game,
         "seq": record["seq"], "record": record}).encode()


GAMES: dict[int, str] = {}


def feed(view: ArbiterView, records: list[dict[str, Any]], now: float = 0.0,
         table: int = 1) -> list[tuple[str, bytes]]:
    """Hand the view these records as the table publishes them."""
    if records and records[0]["seq"] == 0:
        GAMES[table] = records[0]["hash"][:16]
    game = GAMES[table]
    out = []
    for r in records:
        t, body = topics.topic(PREFIX, table, "events"), json.dumps(
            {"id": topics.event_id(table, game, r["seq"]), "table": table, "game": game,
             "seq": r["seq"], "record": r}).encode()
        out += view.handle(t, body, now)
    return out


MOVES = [
    {"t": 3.0, "ev": "release", "glass": "r1", "to": "a2"},
    {"t": 3.5, "ev": "ring", "player": "red"},
    {"t": 6.0, "ev": "release", "glass": "b1", "to": "c1"},
]


def test_events_in_order_are_applied_once(tmp_path: Path) -> None:
    records = journal(tmp_path, MOVES)
    view = TrustingView(PREFIX)
    feed(view, records)
    feed(view, records[1:])  # the same ids again
    assert view.records(1) == records
    assert view.tables[1].duplicates == 3
    state = view.table_json(1, now=0.0)
    assert state["turn"] == "red" and state["rings_left"]["red"] == 31


def test_a_record_ahead_of_its_turn_waits_and_the_gap_is_asked_for(tmp_path: Path) -> None:
    records = journal(tmp_path, MOVES)
    view = TrustingView(PREFIX)
    feed(view, records[:1])
    asks = feed(view, [records[2]], now=1.0)
    game = records[0]["hash"][:16]
    assert asks == [(topics.topic(PREFIX, 1, "resend"),
                     json.dumps({"game": game, "from": 1}).encode())]
    assert feed(view, [records[3]], now=1.2) == []  # asked already, less than a second ago
    assert view.table_json(1, 1.2)["missing"] == 2
    feed(view, [records[1]], now=1.5)
    assert view.records(1) == records


def test_a_gap_is_asked_for_again_later(tmp_path: Path) -> None:
    records = journal(tmp_path, MOVES)
    view = TrustingView(PREFIX)
    feed(view, [records[0], records[2]], now=0.0)
    assert view.tick(0.5) == []
    assert len(view.tick(1.5)) == 1


def test_a_retained_state_ahead_of_us_asks_for_the_rest(tmp_path: Path) -> None:
    records = journal(tmp_path, MOVES)
    view = TrustingView(PREFIX)
    game = records[0]["hash"][:16]
    state = {"table": 1, "game": game, "seq": 3}
    asks = view.handle(topics.topic(PREFIX, 1, "state"), json.dumps(state).encode(), 0.0)
    assert asks == [(topics.topic(PREFIX, 1, "resend"),
                     json.dumps({"game": game, "from": 0}).encode())]


def test_a_broken_chain_is_an_alert(tmp_path: Path) -> None:
    records = journal(tmp_path, MOVES)
    records[2] = {**records[2], "prev": "f" * 64}
    view = TrustingView(PREFIX)
    feed(view, records)
    kinds = [a["kind"] for a in view.table_json(1, 0.0)["alerts"]]
    assert "chain" in kinds


def test_an_event_whose_id_does_not_match_is_ignored(tmp_path: Path) -> None:
    records = journal(tmp_path, MOVES)
    view = TrustingView(PREFIX)
    name, body = message(records[0])
    forged = json.loads(body)
    forged["id"] = "t9/x/0"
    view.handle(name, json.dumps(forged).encode(), 0.0)
    assert view.records(1) == []


def test_a_glass_under_ten_seconds_is_an_alert(tmp_path: Path) -> None:
    records = journal(tmp_path, MOVES[:1])
    view = TrustingView(PREFIX)
    feed(view, records, now=100.0)
    assert not view.table_json(1, now=250.0)["alerts"]
    alerts = view.table_json(1, now=272.0)["alerts"]  # r1 turned at 3.0: 8 s left at 175.0
    assert alerts == [{"kind": "low", "text": "r1 under 10 s (8.0 s)"}]
    assert view.table_json(1, now=290.0)["alerts"][0]["kind"] == "out"


def test_a_15_second_overrun_is_an_alert(tmp_path: Path) -> None:
    records = journal(tmp_path, MOVES[:1] + [{"t": 4.0, "ev": "timer15", "player": "red"}])
    view = TrustingView(PREFIX)
    feed(view, records, now=0.0)
    assert view.table_json(1, now=10.0)["timer15"]["remaining"] == 5.0
    alerts = view.table_json(1, now=16.0)["alerts"]
    assert {"kind": "overrun", "text": "15 s overrun: black"} in alerts


def test_a_refused_input_is_an_alert(tmp_path: Path) -> None:
    records = journal(tmp_path, [{"t": 2.0, "ev": "release", "glass": "b1", "to": "c1"}])
    view = TrustingView(PREFIX)
    feed(view, records)
    alerts = view.table_json(1, 0.0)["alerts"]
    assert alerts[0]["kind"] == "refused" and "red's turn" in alerts[0]["text"]


def test_a_table_offline_is_an_alert(tmp_path: Path) -> None:
    view = TrustingView(PREFIX)
    body = json.dumps({"table": 2, "status": "offline"}).encode()
    view.handle(topics.topic(PREFIX, 2, "status"), body, 0.0)
    assert view.table_json(2, 0.0)["alerts"] == [{"kind": "offline",
                                                  "text": "table 2 is offline"}]


def test_each_table_keeps_its_own_games(tmp_path: Path) -> None:
    one = journal(tmp_path, MOVES, table=1)
    two = journal(tmp_path, MOVES[:1], table=2)
    view = TrustingView(PREFIX)
    feed(view, one, table=1)
    feed(view, two, table=2)
    assert view.records(1) == one and view.records(2) == two
    assert [t["table"] for t in view.snapshot(0.0)["tables"]] == [1, 2]


def test_forged_tables_cannot_grow_the_view_without_bound() -> None:
    from companion.arbiter.view import MAX_UNVERIFIED_TABLES

    view = ArbiterView(PREFIX)  # nothing enrolled: every table is unverified
    for n in range(1, 1001):
        view.handle(topics.topic(PREFIX, n, "state"), b'{"table": 1}', 0.0)
    assert len(view.tables) == MAX_UNVERIFIED_TABLES
    assert view.dropped == 1000 - MAX_UNVERIFIED_TABLES
    assert all(t["status"] == "unverified" for t in view.snapshot(0.0)["tables"])
