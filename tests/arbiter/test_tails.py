"""The station keeps each table's tail as records arrive in order: what `verify --against` reads."""

from __future__ import annotations

import json
from pathlib import Path

from companion.arbiter import topics
from companion.arbiter.tails import MAX_GAMES, TailStore, read_tail
from companion.arbiter.view import ArbiterView
from companion.journal import GENESIS, seal


def stream(n: int, game_salt: str = "") -> list[dict]:
    out, prev = [], GENESIS
    for seq in range(n):
        body = {"game": "tamsk", "table": 3, "salt": game_salt} if seq == 0 else \
            {"t": float(seq), "ev": "note", "text": "x"}
        line, h = seal(body, seq, prev)
        out.append(json.loads(line))
        prev = h
    return out


def test_the_view_hands_each_record_applied_in_order_to_the_station(tmp_path: Path) -> None:
    view = ArbiterView()
    store = TailStore(tmp_path)
    view.on_applied = store.saw
    records = stream(4)
    game = records[0]["hash"][:16]
    tv = view._table(3)
    for seq in (0, 2, 1, 3):  # 2 waits for 1
        message = {"id": topics.event_id(3, game, seq), "table": 3, "game": game, "seq": seq,
                   "record": records[seq]}
        view._event(tv, message, 0.0)
    tail = read_tail(tmp_path / "table-3.json")
    assert tail["games"][game] == {"final_seq": None, "seq": 3, "hash": records[3]["hash"]}


def test_the_station_file_keeps_only_the_recent_games(tmp_path: Path) -> None:
    store = TailStore(tmp_path)
    for g in range(MAX_GAMES + 5):
        records = stream(1, str(g))
        store.saw(3, records[0]["hash"][:16], records[0])
    assert len(read_tail(tmp_path / "table-3.json")["games"]) == MAX_GAMES
