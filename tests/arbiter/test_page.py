"""The arbiter's page: live tables for everyone, corrections for the arbiter only.

The last test opens the page in a headless Chromium (Debian's ``chromium``; skipped when it is
not installed) while two tables play, and reads the page's DOM: both boards drawn and updated,
and a spectator's correction refused.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from companion.arbiter.client import ArbiterClient
from companion.arbiter.pin import hash_pin
from companion.arbiter.settings import ArbiterSettings, MqttSettings
from companion.arbiter.web import ArbiterServer
from companion.clock import FakeClock
from companion.tamsk.simtable import SimulatedTable, table_config
from tests.arbiter.broker import Broker
from tests.arbiter.conftest import wait_until
from tests.arbiter.keys import ARBITER, TABLES, keyring, table_arbiter

PIN = "2468"
KEY = "the club's sixteen-plus key"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


class PageSession:
    """A browser's session with the page: the cookie and the CSRF token it was served with."""

    def __init__(self, base: str, source: str | None = None) -> None:
        import http.cookiejar

        self.base = base.rstrip("/")
        self.jar = http.cookiejar.CookieJar()
        handlers: list[Any] = [urllib.request.HTTPCookieProcessor(self.jar)]
        if source is not None:
            handlers.append(SourceAddress(source))
        self.opener = urllib.request.build_opener(*handlers)
        with self.opener.open(self.base + "/arbiter", timeout=10) as answer:
            html = answer.read().decode()
        found = re.search(r'name="csrf-token" content="([0-9a-f]+)"', html)
        assert found is not None
        self.token = found.group(1)

    def post(self, path: str, body: Any) -> tuple[int, dict[str, Any]]:
        request = urllib.request.Request(
            self.base + path, json.dumps(body).encode(),
            {"Content-Type": "application/json", "X-CSRF-Token": self.token,
             "Origin": self.base})
        try:
            with self.opener.open(request, timeout=30) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as refused:
            return refused.code, json.loads(refused.read())


class SourceAddress(urllib.request.HTTPHandler):
    """Connect from another loopback address (127.0.0.2: another client of the page)."""

    def __init__(self, address: str) -> None:
        super().__init__()
        self.address = address

    def http_open(self, req: Any) -> Any:
        import http.client

        address = self.address

        def connection(host: str, **kw: Any) -> http.client.HTTPConnection:
            return http.client.HTTPConnection(host, source_address=(address, 0), **kw)

        return self.do_open(connection, req)


@dataclass
class Club:
    server: ArbiterServer
    client: ArbiterClient
    tables: list[SimulatedTable]
    log: Path

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.server.port}{path}"

    def post(self, body: Any, session: PageSession | None = None) -> tuple[int, dict[str, Any]]:
        """POST a command as the arbiter's page does (its cookie and CSRF token)."""
        return (session or PageSession(self.url(""))).post("/api/command", body)

    def get(self, path: str) -> str:
        with urllib.request.urlopen(self.url(path), timeout=10) as answer:
            return str(answer.read().decode())

    def step(self) -> None:
        for sim in self.tables:
            sim.clock.advance(1.0)
            sim.step()


@pytest.fixture
def club(tmp_path: Path, broker: Broker) -> Iterator[Club]:
    mqtt = MqttSettings(enabled=True, port=broker.port)
    tables = []
    for n in (1, 2):
        folder = tmp_path / f"table{n}"
        folder.mkdir()
        config = table_config(n, {"arbiter": table_arbiter(club_key=KEY)})
        tables.append(SimulatedTable(n, folder, FakeClock(), mqtt=mqtt, config=config, seed=n,
                                     names={"red": f"Red{n}", "black": f"Black{n}"},
                                     key=TABLES[n]))
    wall = tables[0].clock.wall
    client = ArbiterClient(mqtt, client_id="arbiter-page", wall=wall,
                           keyring=keyring(tmp_path)).start()
    settings = ArbiterSettings(pin_hash=hash_pin(PIN), club_key=KEY, pin_attempts=2)
    server = ArbiterServer(client, settings, port=0, log_dir=tmp_path / "log",
                           signing_key=ARBITER).start()
    c = Club(server, client, tables, tmp_path / "log" / "arbiter-log.jsonl")
    try:
        c.step()
        assert wait_until(lambda: len(client.snapshot()["tables"]) == 2 and all(
            "turn" in t for t in client.snapshot()["tables"]))
        yield c
    finally:
        server.stop()
        for sim in tables:
            sim.close()
        client.stop()


def logged(club: Club) -> list[dict[str, Any]]:
    return [json.loads(line) for line in club.log.read_text().splitlines()]


CORRECTION = {"what": "add-ring", "player": "red", "space": "d4", "reason": "seen on the page"}


def test_spectators_see_every_table_as_json(club: Club) -> None:
    state = json.loads(club.get("/api/state"))
    assert [t["table"] for t in state["tables"]] == [1, 2]
    assert state["tables"][0]["names"] == {"red": "Red1", "black": "Black1"}


def test_the_live_stream_carries_every_table_then_what_changes(club: Club) -> None:
    with urllib.request.urlopen(club.url("/api/stream"), timeout=10) as stream:
        first = json.loads(next(line for line in stream if line.startswith(b"data: "))[6:])
        assert first["full"] and [t["table"] for t in first["tables"]] == [1, 2]
        seq = first["tables"][0]["seq"]
        club.step()
        for line in stream:
            if line.startswith(b"data: "):
                update = json.loads(line[6:])
                one = [t for t in update["tables"] if t["table"] == 1]
                if one and one[0]["seq"] > seq:
                    break
        assert one[0]["seq"] > seq


def test_a_correction_without_credentials_is_refused_and_logged(club: Club) -> None:
    status, answer = club.post({"table": 1, "correction": CORRECTION})
    assert status == 401 and not answer["ok"]
    assert logged(club)[-1]["reason"] == "no credentials"


def test_a_wrong_pin_is_refused_logged_and_locks_that_client_out(club: Club) -> None:
    assert club.post({"table": 1, "pin": "1111", "correction": CORRECTION})[0] == 403
    assert club.post({"table": 1, "pin": "2222", "correction": CORRECTION})[0] == 429
    assert club.post({"table": 1, "pin": PIN, "correction": CORRECTION})[0] == 429
    reasons = [entry["reason"] for entry in logged(club)]
    assert reasons[0].startswith("wrong PIN") and "locked" in reasons[-1]
    assert all(PIN not in json.dumps(entry) for entry in logged(club))


def test_the_arbiter_s_correction_reaches_the_table_s_journal(club: Club) -> None:
    status, answer = club.post({"table": 1, "pin": PIN, "correction": CORRECTION})
    assert status == 202 and answer["ok"]
    sim = club.tables[0]
    assert wait_until(lambda: (sim.service(), len(sim.answers))[1] == 1)
    path = sim.table.journal_path
    assert path is not None
    last = json.loads(path.read_text().splitlines()[-1])
    assert last["ev"] == "correct" and last["nonce"] == answer["nonce"]
    assert last["reason"] == "seen on the page" and last["auth"] == "command"


def test_a_correction_needs_a_reason(club: Club) -> None:
    status, answer = club.post({"table": 1, "pin": PIN,
                                "correction": {"what": "confirm", "reason": ""}})
    assert status == 400 and "reason" in answer["detail"]


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def test_the_page_in_a_headless_browser(club: Club, tmp_path: Path) -> None:
    exe = chromium()
    if exe is None:
        pytest.skip("chromium is not installed: apt-get install chromium")
    stop = threading.Event()

    def play() -> None:
        while not stop.is_set():
            club.step()
            time.sleep(0.1)

    player = threading.Thread(target=play, daemon=True)
    player.start()
    try:
        dom = subprocess.run(
            [exe, *CHROMIUM_FLAGS, f"--user-data-dir={tmp_path / 'chromium'}",
             "--virtual-time-budget=5000", "--dump-dom",
             club.url("/arbiter?transport=poll&try=spectator")],
            capture_output=True, text=True, timeout=90,
        ).stdout
    finally:
        stop.set()
        player.join(5)
    for n in (1, 2):
        card = re.search(rf'<div id="table-{n}"[^>]*data-seen="([^"]*)"', dom)
        assert card is not None, f"table {n} is not on the page"
        assert len(card.group(1).split()) >= 2, f"table {n}'s board did not update"
        assert f"Red{n} – Black{n}" in dom
    assert dom.count('data-space="') == 2 * 37  # two whole boards
    reply = re.search(r'id="reply" data-status="(\d+)">([^<]*)', dom)
    assert reply is not None and reply.group(1) == "401" and "refused" in reply.group(2)
    assert logged(club)[-1]["reason"] == "no credentials"
