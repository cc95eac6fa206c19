"""Tantrix and Tokami tables on the arbiter's page: their boards, whose turn, scores and alerts.

The view folds the records a keypad table publishes through the game's own engine (as
``companion simulate`` does); the page serves that as JSON and the board as SVG (the replay's
pictures). The first tests hand the view the published messages directly and read the page
over HTTP from the standard library server; the last runs real publishers through mosquitto
and opens the page in a headless Chromium (each skipped with the reason when missing).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import threading
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from companion.arbiter import topics
from companion.arbiter.client import ArbiterClient
from companion.arbiter.publisher import TablePublisher
from companion.arbiter.settings import ArbiterSettings, MqttSettings
from companion.arbiter.view import ArbiterView
from companion.arbiter.web import ArbiterServer
from companion.journal import JournalWriter
from companion.tokami.simulate import simulate as simulate_tokami
from tests.arbiter.broker import Broker
from tests.arbiter.conftest import wait_until
from tests.arbiter.keys import TABLES, TrustingView, enrolled

PREFIX = "companion"

TANTRIX_HEADER = {"game": "tantrix", "players": ["red", "yellow"],
                  "names": {"red": "Ada", "yellow": "Bo"}, "table": 1}
# Three tiles round the empty cell (0, 0): a forced space (tests/scenarios/tantrix/t10).
TANTRIX_MOVES: list[dict[str, Any]] = [
    {"t": 10.0, "ev": "place", "tile": 1, "q": 1, "r": -1, "rot": 1},
    {"t": 11.0, "ev": "done"},
    {"t": 20.0, "ev": "place", "tile": 7, "q": 1, "r": 0, "rot": 0},
    {"t": 21.0, "ev": "done"},
    {"t": 30.0, "ev": "place", "tile": 4, "q": 0, "r": 1, "rot": 1},
    {"t": 31.0, "ev": "done"},
]
# Tile 2 on the cell tile 7 already holds: refused.
TANTRIX_REFUSED = {"t": 40.0, "ev": "place", "tile": 2, "q": 1, "r": 0, "rot": 0}

TOKAMI_HEADER = {"game": "tokami", "players": ["Anna", "Ben"],
                 "blocks": {"red": 3, "blue": 3}, "rounds": 2, "table": 2}
TOKAMI_MOVES: list[dict[str, Any]] = [
    {"t": 1.0, "ev": "bonus", "player": "Anna", "block": "red", "bonus": "blue"},
    {"t": 2.0, "ev": "fell", "player": "Ben", "fallen": ["red"]},
]
# Ten red blocks cannot fall from a box of three: refused, nothing changes.
TOKAMI_REFUSED = {"t": 3.0, "ev": "fell", "player": "Anna", "fallen": ["red"] * 10}


#: What ``companion simulate`` says after TOKAMI_MOVES (the second turn ends round 1).
TOKAMI_STATE = simulate_tokami(TOKAMI_HEADER, list(enumerate(TOKAMI_MOVES, start=2)))
TOKAMI_LEFT = TOKAMI_STATE["blocks_left"]


def journal(path: Path, header: Mapping[str, Any], events: list[dict[str, Any]]
            ) -> list[dict[str, Any]]:
    """Sealed records, as a table's journal holds them (header first)."""
    with JournalWriter.create(path, header) as w:
        for body in events:
            w.append(body)
    return [json.loads(line) for line in path.read_text().splitlines()]


def publish(view: ArbiterView, table: int, records: list[dict[str, Any]],
            now: float = 0.0) -> None:
    """Hand the view these records as the table's publisher sends them."""
    game = records[0]["hash"][:16]
    for r in records:
        body = {"id": topics.event_id(table, game, r["seq"]), "table": table, "game": game,
                "seq": r["seq"], "record": r}
        view.handle(topics.topic(PREFIX, table, "events"), json.dumps(body).encode(), now)


@pytest.fixture
def tantrix(tmp_path: Path) -> list[dict[str, Any]]:
    return journal(tmp_path / "tantrix.jsonl", TANTRIX_HEADER, TANTRIX_MOVES)


@pytest.fixture
def tokami(tmp_path: Path) -> list[dict[str, Any]]:
    return journal(tmp_path / "tokami.jsonl", TOKAMI_HEADER, TOKAMI_MOVES)


# ------------------------------------------------------------------------------ the view


def test_a_tantrix_table_shows_its_tiles_forced_spaces_bag_turn_and_scores(
    tantrix: list[dict[str, Any]],
) -> None:
    view = TrustingView(PREFIX)
    publish(view, 1, tantrix)
    shown = view.table_json(1, now=0.0)
    state = shown["tantrix"]
    assert shown["kind"] == "tantrix" and shown["turn"] == "yellow" and not shown["over"]
    assert [(t["tile"], t["q"], t["r"]) for t in state["tiles"]] == [(1, 1, -1), (7, 1, 0),
                                                                      (4, 0, 1)]
    assert state["forced"] == [[0, 0]]
    assert state["placed"] == 3 and state["bag"] == 41 and state["phase"] == "restricted"
    assert set(state["scores"]) == {"red", "yellow"}
    assert shown["names"] == {"red": "Ada", "yellow": "Bo"}
    assert shown["board"] == f"/board/1.svg?game={tantrix[0]['hash'][:16]}&seq=6"
    assert shown["alerts"] == []


def test_the_tantrix_state_is_what_simulate_reports(tantrix: list[dict[str, Any]]) -> None:
    from companion.tantrix.simulate import simulate

    view = TrustingView(PREFIX)
    publish(view, 1, tantrix)
    expected = simulate(TANTRIX_HEADER, list(enumerate(TANTRIX_MOVES, start=2)))
    state = view.table_json(1, now=0.0)["tantrix"]
    for name in ("placed", "bag", "phase", "turn", "forced", "controlled", "scores", "tiles"):
        assert state[name] == expected[name], name


def test_a_refused_tantrix_placement_is_an_alert_for_a_while(
    tantrix: list[dict[str, Any]], tmp_path: Path,
) -> None:
    records = journal(tmp_path / "refused.jsonl", TANTRIX_HEADER,
                      [*TANTRIX_MOVES, TANTRIX_REFUSED])
    view = TrustingView(PREFIX)
    publish(view, 1, records, now=100.0)
    alerts = view.table_json(1, now=100.0)["alerts"]
    assert [a["kind"] for a in alerts] == ["refused"]
    assert alerts[0]["text"].startswith("refused (yellow): ")
    assert view.table_json(1, now=100.0)["tantrix"]["placed"] == 3  # nothing changed
    assert view.table_json(1, now=125.0)["alerts"] == []  # 20 s of game time later


def test_a_tokami_table_shows_its_standings_round_turn_and_blocks(
    tokami: list[dict[str, Any]],
) -> None:
    view = TrustingView(PREFIX)
    publish(view, 2, tokami)
    shown = view.table_json(2, now=0.0)
    state = shown["tokami"]
    expected = TOKAMI_STATE
    assert shown["kind"] == "tokami" and shown["turn"] == expected["turn"]
    for name in ("round", "rounds", "standings", "blocks_left", "on_cross", "forbidden",
                 "held", "scores"):
        assert state[name] == expected[name], name
    assert shown["players"] == ["Anna", "Ben"]
    assert shown["board"].startswith("/board/2.svg?")


def test_a_refused_tokami_turn_is_an_alert(tmp_path: Path) -> None:
    records = journal(tmp_path / "refused.jsonl", TOKAMI_HEADER,
                      [*TOKAMI_MOVES, TOKAMI_REFUSED])
    view = TrustingView(PREFIX)
    publish(view, 2, records)
    shown = view.table_json(2, now=0.0)
    assert [a["kind"] for a in shown["alerts"]] == ["refused"]
    assert shown["alerts"][0]["text"].startswith("refused (Anna): ")
    assert shown["tokami"]["on_cross"] == TOKAMI_STATE["on_cross"]  # nothing changed


def test_a_keypad_table_offline_is_an_alert(tokami: list[dict[str, Any]]) -> None:
    view = TrustingView(PREFIX)
    publish(view, 2, tokami)
    body = json.dumps({"table": 2, "status": "offline"}).encode()
    view.handle(topics.topic(PREFIX, 2, "status"), body, 0.0)
    assert view.table_json(2, 0.0)["alerts"] == [{"kind": "offline",
                                                  "text": "table 2 is offline"}]


def test_a_retained_snapshot_shows_a_keypad_game_before_its_events(
    tokami: list[dict[str, Any]],
) -> None:
    state = TOKAMI_STATE
    game = tokami[0]["hash"][:16]
    snapshot = {"table": 2, "game": game, "seq": 2, "header": TOKAMI_HEADER, "state": state}
    view = TrustingView(PREFIX)
    view.handle(topics.topic(PREFIX, 2, "state"), json.dumps(snapshot).encode(), 0.0)
    shown = view.table_json(2, now=0.0)
    assert shown["from_snapshot"] and shown["seq"] == 2 and shown["game"] == game
    assert shown["tokami"]["standings"] == state["standings"]
    publish(view, 2, tokami)  # the events arrive: the fold takes over
    assert "from_snapshot" not in view.table_json(2, now=0.0)


def test_a_keypad_journal_whose_header_cannot_be_played_shows_no_board(tmp_path: Path) -> None:
    records = journal(tmp_path / "bad.jsonl", {"game": "tantrix", "players": ["red"]}, [])
    view = TrustingView(PREFIX)
    publish(view, 3, records)
    shown = view.table_json(3, now=0.0)
    assert shown["kind"] == "tantrix" and "tantrix" not in shown and "board" not in shown


# ------------------------------------------------------------------------------ the page


class ViewSource:
    """The page's data straight from a view (what ArbiterClient does, without a broker)."""

    def __init__(self, view: ArbiterView) -> None:
        self.view = view
        self.changed = threading.Condition()

    def snapshot(self) -> dict[str, Any]:
        with self.changed:
            return self.view.snapshot(0.0)

    def version(self) -> int:
        return self.view.version

    def send_command(self, table: int, correction: Mapping[str, Any], key: bytes
                     ) -> dict[str, Any]:
        raise LookupError("no broker in this test")

    def results(self) -> list[dict[str, Any]]:
        return []


def get(port: int, path: str) -> tuple[int, str, str]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as answer:
            return answer.status, answer.headers["Content-Type"], answer.read().decode()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.headers["Content-Type"], refused.read().decode()


@pytest.fixture
def page(tantrix: list[dict[str, Any]], tokami: list[dict[str, Any]]) -> Iterator[int]:
    view = TrustingView(PREFIX)
    publish(view, 1, tantrix)
    publish(view, 2, tokami)
    server = ArbiterServer(ViewSource(view), ArbiterSettings(), port=0).start()
    try:
        yield server.port
    finally:
        server.stop()


def test_the_page_serves_keypad_tables_as_json(page: int) -> None:
    status, kind, text = get(page, "/api/state")
    tables = {t["table"]: t for t in json.loads(text)["tables"]}
    assert status == 200 and kind == "application/json"
    assert tables[1]["tantrix"]["forced"] == [[0, 0]] and tables[1]["turn"] == "yellow"
    assert tables[2]["tokami"]["round"] == TOKAMI_STATE["round"]
    assert tables[2]["turn"] == TOKAMI_STATE["turn"]


def test_the_tantrix_board_is_served_as_svg_with_every_tile_and_forced_space(page: int) -> None:
    status, kind, svg = get(page, "/board/1.svg?seq=6")
    assert status == 200 and kind == "image/svg+xml" and svg.startswith("<svg")
    assert sorted(re.findall(r'data-tile="(\d+)"', svg)) == ["1", "4", "7"]
    assert re.findall(r'data-cell="([-\d,]+)" data-kind="forced"', svg) == ["0,0"]


def test_the_tokami_board_is_served_as_svg_with_the_standings_and_the_cross(page: int) -> None:
    status, kind, svg = get(page, "/board/2.svg")
    assert status == 200 and kind == "image/svg+xml" and svg.startswith("<svg")
    assert set(re.findall(r'data-player="([^"]+)"', svg)) == {"Anna", "Ben"}
    assert set(re.findall(r'data-cross="([^"]+)"', svg)) == {"red", "blue"}


def test_a_table_without_a_board_picture_is_not_found(page: int) -> None:
    assert get(page, "/board/9.svg")[0] == 404
    assert get(page, "/board/x.svg")[0] == 404


def test_the_page_draws_keypad_boards(page: int) -> None:
    status, _, html = get(page, "/")
    assert status == 200
    assert "function tantrixLines(t)" in html and "function tokamiLines(t)" in html
    assert 'el("img", {class: "board", src: t.board' in html


# ------------------------------------------------------------------- through mosquitto


def journal_of(path: Path) -> Callable[[], Path]:
    """A table's ``journal_path`` for its publisher: always this one."""
    return lambda: path


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def test_keypad_tables_through_the_broker_reach_the_page_and_a_browser(
    tmp_path: Path, broker: Broker,
) -> None:
    mqtt = MqttSettings(enabled=True, port=broker.port)
    paths = {1: tmp_path / "t1" / "tantrix.jsonl", 2: tmp_path / "t2" / "tokami.jsonl"}
    for path in paths.values():
        path.parent.mkdir()
    writers = {1: JournalWriter.create(paths[1], TANTRIX_HEADER),
               2: JournalWriter.create(paths[2], TOKAMI_HEADER)}
    publishers = {n: TablePublisher(mqtt, n, client_id=f"keypad-{n}", key=TABLES[n])
                  for n in paths}
    for n, pub in publishers.items():
        pub.bind(journal_of(paths[n]))
        pub.start()
    client = ArbiterClient(mqtt, client_id="arbiter-keypad", keyring=enrolled()).start()
    server = ArbiterServer(client, ArbiterSettings(), port=0).start()
    try:
        for n, moves in ((1, TANTRIX_MOVES[:4]), (2, TOKAMI_MOVES[:1])):
            for body in moves:
                publishers[n].record(writers[n].append(body))

        def shown() -> dict[int, dict[str, Any]]:
            return {t["table"]: t for t in json.loads(get(server.port, "/api/state")[2])["tables"]}

        assert wait_until(lambda: shown().get(1, {}).get("seq") == 4
                          and shown().get(2, {}).get("seq") == 1)
        for body in TANTRIX_MOVES[4:]:
            publishers[1].record(writers[1].append(body))
        publishers[2].record(writers[2].append(TOKAMI_MOVES[1]))
        assert wait_until(lambda: shown()[1]["seq"] == 6 and shown()[2]["seq"] == 2)
        tables = shown()
        assert tables[1]["tantrix"]["forced"] == [[0, 0]]
        assert tables[2]["tokami"]["blocks_left"] == TOKAMI_LEFT
        assert 'data-kind="forced"' in get(server.port, "/board/1.svg")[2]

        exe = chromium()
        if exe is not None:
            dom = subprocess.run(
                [exe, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", f"--user-data-dir={tmp_path / 'chromium'}",
                 "--virtual-time-budget=3000", "--dump-dom",
                 f"http://127.0.0.1:{server.port}/?transport=poll"],
                capture_output=True, text=True, timeout=90,
            ).stdout
            kinds = re.findall(r'<img class="board" src="/board/(\d)\.svg[^"]*"[^>]*'
                               r'data-kind="(\w+)"', dom)
            assert sorted(kinds) == [("1", "tantrix"), ("2", "tokami")]
            assert "Ada (red) – Bo (yellow)" in dom and 'data-score="yellow"' in dom
            assert f'data-blocks-left="{TOKAMI_LEFT}"' in dom and 'data-standing="Anna"' in dom

        publishers[2].stop()  # the table goes away: its last will says offline
        assert wait_until(lambda: {"kind": "offline", "text": "table 2 is offline"}
                          in shown()[2]["alerts"])
        if exe is None:
            pytest.skip("chromium is not installed (apt-get install chromium): the page was "
                        "checked over HTTP only")
    finally:
        server.stop()
        client.stop()
        for pub in publishers.values():
            pub.stop()
        for w in writers.values():
            w.close()
