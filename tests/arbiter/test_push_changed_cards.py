"""The page's live stream pushes only what changed: a card whose table sent something, a card
whose clock ran out since (it says when: ``next_change_s``), and every card only every few
seconds (the page runs the sand on by itself in between)."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Mapping
from typing import Any

from companion.arbiter.settings import ArbiterSettings
from companion.arbiter.web import FULL_EVERY_S, ArbiterServer
from tests.arbiter.test_page_tournament import PairingRecorder


class Cards(PairingRecorder):
    """Three tables that never change; table 1's clock runs out 0.3 s after each push."""

    def __init__(self) -> None:
        super().__init__()
        self.built: list[int] = []

    def version(self) -> int:
        return 3

    def changed_since(self, seen: Mapping[int, int], full: bool = False,
                      also: frozenset[int] | set[int] = frozenset()) -> list[dict[str, Any]]:
        out = []
        for n in (1, 2, 3):
            if full or n in also or seen.get(n, -1) < n:
                self.built.append(n)
                out.append({"table": n, "version": n,
                            "next_change_s": 0.3 if n == 1 else None})
        return out


def read_stream(port: int, seconds: float) -> list[dict[str, Any]]:
    pushes: list[dict[str, Any]] = []
    deadline = time.monotonic() + seconds
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/stream", timeout=10) as stream:
        for line in stream:
            if line.startswith(b"data: "):
                pushes.append(json.loads(line[6:]))
            if time.monotonic() > deadline:
                break
    return pushes


def test_only_a_card_whose_clock_ran_out_is_pushed_again_between_full_refreshes() -> None:
    assert FULL_EVERY_S >= 2.0
    source = Cards()
    server = ArbiterServer(source, ArbiterSettings(), port=0).start()
    try:
        pushes = read_stream(server.port, 1.5)
    finally:
        server.stop()
    sent = [t["table"] for push in pushes for t in push["tables"]]
    assert sent.count(2) == 1 and sent.count(3) == 1  # the first, full push only
    assert sent.count(1) >= 3  # again each time its clock ran out
    assert source.built.count(2) == 1  # unchanged cards are not even built


def test_the_view_builds_only_the_cards_that_changed() -> None:
    from companion.arbiter.sealing import seal
    from companion.arbiter.view import ArbiterView
    from tests.arbiter.keys import TABLES, enrolled

    view = ArbiterView("companion", enrolled())
    for n in (1, 2, 3):
        payload = json.dumps(seal({"table": n, "status": "online", "wall": 1.0}, "status",
                                  TABLES[n])).encode()
        view.handle(f"companion/table/{n}/status", payload, 0.0)
    seen = {t["table"]: t["version"] for t in view.changed_since({}, 0.0)}
    assert view.changed_since(seen, 1.0) == []
    payload = json.dumps(seal({"table": 2, "status": "offline", "wall": 2.0}, "status",
                              TABLES[2])).encode()
    view.handle("companion/table/2/status", payload, 1.0)
    assert [t["table"] for t in view.changed_since(seen, 1.0)] == [2]
    assert [t["table"] for t in view.changed_since(seen, 1.0, also={3})] == [2, 3]
    assert [t["table"] for t in view.changed_since(seen, 1.0, full=True)] == [1, 2, 3]


