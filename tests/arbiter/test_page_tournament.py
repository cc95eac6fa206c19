"""The arbiter's page shows the tournament (name, round, pairings, links to the exports), each
table's answer to a command and when an offline table was last seen, and assigns a pairing to a
table by hand (PIN, CSRF and the pairing's fields checked, then sent signed)."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.arbiter.pin import hash_pin
from companion.arbiter.sealing import seal
from companion.arbiter.settings import ArbiterSettings
from companion.arbiter.view import ArbiterView
from companion.arbiter.web import ArbiterServer, page
from companion.keys import SigningKey
from companion.tournament import pairing, store
from companion.tournament.model import Tournament
from tests.arbiter.keys import ARBITER, TABLES, enrolled
from tests.arbiter.test_page import PageSession
from tests.arbiter.test_page_security import PIN, Recorder


class PairingRecorder(Recorder):
    def __init__(self) -> None:
        super().__init__()
        self.pairings: list[tuple[int, dict[str, Any]]] = []

    def send_pairing(self, table: int, body: Mapping[str, Any], key: SigningKey
                     ) -> dict[str, Any]:
        self.pairings.append((table, dict(body)))
        return {"nonce": f"{len(self.pairings):032x}"}


def club(tmp_path: Path) -> Path:
    t = Tournament(name="Thursday club", game="tantrix", system="round-robin", rounds=3)
    for name in ("Ada", "Bob", "Cleo", "Dan"):
        t.add_player(name)
    t.played.append(pairing.next_round(t))
    return store.save(t, tmp_path / "club.tournament.json")


def serve(tmp_path: Path) -> tuple[ArbiterServer, PairingRecorder]:
    source = PairingRecorder()
    settings = ArbiterSettings(pin_hash=hash_pin(PIN))
    server = ArbiterServer(source, settings, port=0, signing_key=ARBITER,
                           tournament_file=club(tmp_path))
    return server.start(), source


def test_the_page_shows_the_tournament_name_round_and_pairings(tmp_path: Path) -> None:
    server, _ = serve(tmp_path)
    try:
        url = f"http://127.0.0.1:{server.port}/api/tournament"
        with urllib.request.urlopen(url, timeout=10) as answer:
            info = json.load(answer)
    finally:
        server.stop()
    assert (info["name"], info["round"], info["rounds"]) == ("Thursday club", 1, 3)
    assert len(info["pairings"]) == 2
    assert {p["first"] for p in info["pairings"]} | {p["second"] for p in info["pairings"]} == {
        "Ada", "Bob", "Cleo", "Dan"}


def test_the_page_links_the_standings_the_round_sheet_and_the_trf() -> None:
    html = page(arbiter=False)
    for link in ('href="/standings.csv"', 'href="/results.trf"', 'id="sheet"'):
        assert link in html


def test_every_correction_field_has_a_hint() -> None:
    html = page(arbiter=True)
    form = html[html.index('<form id="correct"'):html.index("</form>")]
    assert form.count("<label") == form.count("<label title=")


def test_a_pairing_is_assigned_from_the_page_with_the_pin(tmp_path: Path) -> None:
    server, source = serve(tmp_path)
    body = {"tournament": "Thursday club", "round": 1, "board": 2, "first": "Ada",
            "second": "Bob", "game": "tantrix"}
    try:
        session = PageSession(f"http://127.0.0.1:{server.port}")
        status, answer = session.post("/api/pairing", {"pairing": body})
        assert status == 401 and source.pairings == []
        status, answer = session.post("/api/pairing", {"pairing": {**body, "round": 0},
                                                        "pin": PIN})
        assert status == 400 and "round" in answer["detail"] and source.pairings == []
        status, answer = session.post("/api/pairing", {"pairing": body, "pin": PIN})
    finally:
        server.stop()
    assert status == 202 and answer["ok"]
    assert source.pairings == [(2, body)]


def test_an_offline_table_s_card_says_when_it_was_last_seen_and_shows_its_answers() -> None:
    view = ArbiterView("companion", enrolled())
    key = TABLES[1]

    def send(kind: str, message: dict[str, Any], now: float) -> None:
        payload = json.dumps(seal(message, kind, key)).encode()
        view.handle(f"companion/table/1/{kind}", payload, now)

    send("status", {"table": 1, "status": "online", "wall": 1_790_000_000.0}, 0.0)
    send("reply", {"table": 1, "ok": False, "detail": "no such glass", "nonce": "a" * 32}, 1.0)
    send("reply", {"table": 1, "ok": True, "detail": "shown at table 1", "nonce": "b" * 32,
                   "pairing": True}, 2.0)
    send("status", {"table": 1, "status": "offline", "wall": 1_790_000_060.0}, 3.0)
    card = view.table_json(1, now=4.0)
    assert card["status"] == "offline" and card["last_seen"] == 1_790_000_060.0
    assert [(a["verdict"], a["detail"], a["pairing"]) for a in card["answers"]] == [
        ("refused", "no such glass", False), ("accepted", "shown at table 1", True)]


