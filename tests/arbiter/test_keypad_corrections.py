"""Corrections for every game (issue 15): the arbiter's page corrects a Tantrix and a Tokami
table with the same PIN and signed command as a Tamsk table.

Two tables in this process, each with its daemon's arbiter hooks (publisher, command gate,
station) on a real mosquitto, and the arbiter's page (aiohttp) with its MQTT client: a
correction POSTed as the page's form sends it reaches the table, is journaled as the game's
``correct`` record, changes the table's own state, the page's card and the standings, and the
table's answer shows on its card. A command not signed by the arbiter never reaches the game.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from companion.arbiter.client import ArbiterClient
from companion.arbiter.commands import make_command
from companion.arbiter.hooks import ArbiterHooks
from companion.arbiter.pin import hash_pin
from companion.arbiter.settings import ArbiterSettings, MqttSettings
from companion.arbiter.station import game_id_of
from companion.arbiter.web import ArbiterServer
from companion.clock import FakeClock
from companion.config import defaults
from companion.inputs import RawInput
from companion.simulate import simulate_file
from companion.tables import make_table, start_configured_game
from tests.arbiter.broker import Broker
from tests.arbiter.conftest import wait_until
from tests.arbiter.keys import ARBITER, TABLES, fixed_key, keyring, table_arbiter
from tests.arbiter.test_page import CHROMIUM_FLAGS, PageSession, chromium

PIN = "2468"
KEY = "the club's sixteen-plus key"
TANTRIX, TOKAMI = 1, 2


class KeypadRig:
    """One keypad table with its daemon's arbiter hooks, publishing to the broker."""

    def __init__(self, folder: Path, kind: str, number: int, port: int) -> None:
        self.clock = FakeClock()
        config = defaults()
        config["game"]["kind"] = kind
        config["table"]["number"] = number
        config["arbiter"].update(table_arbiter(club_key=KEY))
        config["mqtt"] = {"enabled": True, "host": "127.0.0.1", "port": port}
        if kind == "tantrix":
            config["tantrix"] = {"players": ["red", "yellow"]}
        self.hooks = ArbiterHooks(config, self.clock, table_key=TABLES[number])
        self.table: Any = make_table(config, self.clock, folder, on_record=self.hooks.on_record)
        start_configured_game(self.table, config)
        self.hooks.attach(self.table)

    def keys(self, keys: str) -> None:
        for k in keys:
            self.clock.advance(1.0)
            self.table.feed(RawInput("key", k, True, self.clock.now()))

    def journal(self) -> list[dict[str, Any]]:
        path = self.table.journal_path
        assert path is not None
        return [json.loads(line) for line in path.read_text().splitlines()]

    def corrections(self) -> list[dict[str, Any]]:
        return [r for r in self.journal() if r.get("ev") == "correct"]


@dataclass
class Club:
    server: ArbiterServer
    client: ArbiterClient
    tantrix: KeypadRig
    tokami: KeypadRig

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.server.port}{path}"

    def send(self, table: int, correction: dict[str, Any]) -> dict[str, Any]:
        """POST the correction as the page's form does (cookie, CSRF token, PIN)."""
        status, answer = PageSession(self.url("")).post(
            "/api/command", {"table": table, "pin": PIN, "correction": correction})
        assert status == 202 and answer["ok"], answer
        return answer

    def card(self, table: int) -> dict[str, Any]:
        return next(t for t in self.client.snapshot()["tables"] if t["table"] == table)

    def answered(self, table: int, nonce: str) -> dict[str, Any] | None:
        """The table's answer to the command ``nonce`` (each test sends one to a table) as
        the page's card shows it, once the table has answered."""
        answers = self.card(table).get("answers", [])
        return answers[-1] if answers else None


@pytest.fixture
def club(tmp_path: Path, broker: Broker) -> Iterator[Club]:
    rigs = {}
    for kind, number in (("tantrix", TANTRIX), ("tokami", TOKAMI)):
        folder = tmp_path / kind
        folder.mkdir()
        rigs[kind] = KeypadRig(folder, kind, number, broker.port)
    mqtt = MqttSettings(enabled=True, port=broker.port)
    client = ArbiterClient(mqtt, client_id="arbiter-page", wall=rigs["tantrix"].clock.wall,
                           keyring=keyring(tmp_path)).start()
    settings = ArbiterSettings(pin_hash=hash_pin(PIN), club_key=KEY)
    server = ArbiterServer(client, settings, port=0, log_dir=tmp_path / "log",
                           signing_key=ARBITER).start()
    c = Club(server, client, rigs["tantrix"], rigs["tokami"])
    try:
        assert wait_until(lambda: {t["table"] for t in client.snapshot()["tables"]
                                   if t.get("game")} == {TANTRIX, TOKAMI})
        yield c
    finally:
        server.stop()
        for rig in rigs.values():
            rig.hooks.close()
            rig.table.close()
        client.stop()


# ---------------------------------------------------------------------------- Tantrix


def test_a_tantrix_take_back_from_the_page_is_journaled_and_lifts_the_tile(club: Club) -> None:
    club.tantrix.keys("12##")
    assert club.tantrix.table.game.placed == 1
    assert wait_until(lambda: club.card(TANTRIX)["tantrix"]["placed"] == 1)
    sent = club.send(TANTRIX, {"what": "take-back", "tile": 12, "reason": "typed the wrong tile"})
    assert wait_until(lambda: len(club.tantrix.corrections()) == 1)
    record = club.tantrix.corrections()[0]
    assert (record["what"], record["tile"], record["by"], record["auth"], record["nonce"]) == (
        "take-back", 12, "arbiter", "command", sent["nonce"])
    assert wait_until(lambda: club.tantrix.table.game.placed == 0)
    assert club.tantrix.table.view()["tiles"] == []
    assert wait_until(lambda: club.card(TANTRIX)["tantrix"]["placed"] == 0)
    assert wait_until(lambda: (club.answered(TANTRIX, sent["nonce"]) or {}).get("ok") is True)
    assert simulate_file(club.tantrix.table.journal_path)["placed"] == 0


def test_a_tantrix_result_correction_ends_the_game_and_its_result_is_published(
    club: Club,
) -> None:
    club.tantrix.keys("12##")
    sent = club.send(TANTRIX, {"what": "result", "winner": "yellow", "forfeit": True,
                               "reason": "red left the hall"})
    assert wait_until(lambda: (club.answered(TANTRIX, sent["nonce"]) or {}).get("ok") is True)
    view = club.tantrix.table.view()
    assert view["over"] and view["winner"] == "yellow" and view["reason"] == "forfeit"
    assert wait_until(lambda: club.card(TANTRIX).get("over") is True)
    assert club.card(TANTRIX)["winner"] == "yellow"
    assert wait_until(lambda: len(club.client.results()) == 1)
    published = club.client.results()[0]
    assert (published["winner"], published["forfeit"]) == ("yellow", True)


def test_a_tantrix_correction_the_rules_refuse_is_journaled_and_answered_why(
    club: Club,
) -> None:
    club.tantrix.keys("12##")
    sent = club.send(TANTRIX, {"what": "take-back", "tile": 40, "reason": "wrong tile?"})
    assert wait_until(lambda: club.answered(TANTRIX, sent["nonce"]) is not None)
    answer = club.answered(TANTRIX, sent["nonce"])
    assert answer is not None and answer["ok"] is False
    assert "tile 40 is not on the table" in answer["detail"]
    assert len(club.tantrix.corrections()) == 1  # journaled, as every input is
    assert club.tantrix.table.game.placed == 1
    violations = simulate_file(club.tantrix.table.journal_path)["violations"]
    assert violations[-1]["kind"] == "correction"


# ---------------------------------------------------------------------------- Tokami


def test_a_tokami_score_correction_from_the_page_changes_the_standings(club: Club) -> None:
    first = club.tokami.table.game.players[0]
    sent = club.send(TOKAMI, {"what": "score", "player": first, "points": 5,
                              "reason": "a block counted wrongly"})
    assert wait_until(lambda: len(club.tokami.corrections()) == 1)
    assert club.tokami.corrections()[0]["nonce"] == sent["nonce"]
    assert wait_until(lambda: club.tokami.table.view()["standings"][0] == [first, 5])
    assert wait_until(lambda: club.card(TOKAMI)["tokami"]["standings"][0] == [first, 5])
    assert wait_until(lambda: (club.answered(TOKAMI, sent["nonce"]) or {}).get("ok") is True)
    assert simulate_file(club.tokami.table.journal_path)["scores"][first]["total"] == 5


def test_a_tokami_mistyped_turn_is_replaced_from_the_page(club: Club) -> None:
    club.tokami.keys("24#")  # higher, no bonus: blue
    assert club.tokami.table.game.history[0].turn.to_event()["block"] == "blue"
    sent = club.send(TOKAMI, {"what": "turn", "index": 1,
                              "turn": {"ev": "higher", "block": "green"},
                              "reason": "typed blue for green"})
    assert wait_until(lambda: (club.answered(TOKAMI, sent["nonce"]) or {}).get("ok") is True)
    assert wait_until(lambda: club.tokami.table.game.history[0].turn.to_event()["block"]
                      == "green")
    history = simulate_file(club.tokami.table.journal_path)["history"]
    assert history[0]["block"] == "green"


# ---------------------------------------------------------------------------- forgeries


@pytest.mark.parametrize("table", [TANTRIX, TOKAMI])
def test_an_unsigned_or_forged_correction_never_reaches_the_game(club: Club, table: int) -> None:
    rig = club.tantrix if table == TANTRIX else club.tokami
    correction = ({"what": "result", "winner": "red", "reason": "forged"} if table == TANTRIX
                  else {"what": "score", "player": rig.table.game.players[0], "points": 50,
                        "reason": "forged"})
    game = game_id_of(rig.table.journal_path)
    assert game is not None
    forged = make_command(correction, table=table, game=game, key=fixed_key("intruder"),
                          issued=rig.clock.wall())
    unsigned = {k: v for k, v in make_command(correction, table=table, game=game, key=ARBITER,
                                              issued=rig.clock.wall()).items() if k != "sig"}
    for command in (forged, unsigned):
        club.client.publish_raw(table, json.dumps(command).encode())
    station = rig.hooks.station
    assert station is not None
    assert wait_until(lambda: station.gate.refused_total == 2)
    assert rig.corrections() == []
    state = simulate_file(rig.table.journal_path)
    assert not state["over"] and state.get("corrections", []) == []


# ---------------------------------------------------------------------------- the page


@pytest.mark.parametrize(("table", "kind", "field"),
                         [(TANTRIX, "tantrix", "rot"), (TOKAMI, "tokami", "points")])
def test_the_page_offers_the_table_s_own_correction_fields_and_shows_its_answer(
    club: Club, tmp_path: Path, table: int, kind: str, field: str
) -> None:
    exe = chromium()
    if exe is None:
        pytest.skip("chromium is not installed: apt-get install chromium")
    correction = ({"what": "take-back", "reason": "typed the wrong tile"} if table == TANTRIX
                  else {"what": "note", "text": "a ruling", "reason": "for the record"})
    if table == TANTRIX:
        club.tantrix.keys("12##")
    club.send(table, correction)
    assert wait_until(lambda: (club.answered(table, "") or {}).get("ok") is True)
    dom = subprocess.run(
        [exe, *CHROMIUM_FLAGS, f"--user-data-dir={tmp_path / 'chromium'}",
         "--virtual-time-budget=4000", "--dump-dom",
         club.url(f"/arbiter?transport=poll&table={table}")],
        capture_output=True, text=True, timeout=90,
    ).stdout
    shown = re.findall(r'<fieldset data-kind="(\w+)"( disabled="" hidden="")?', dom)
    assert (kind, "") in shown, shown  # the chosen table's game's fields, enabled
    assert all(hidden for name, hidden in shown if name != kind), shown
    own = re.search(rf'<fieldset data-kind="{kind}">(.*?)</fieldset>', dom, re.S)
    assert own is not None
    hint = re.search(rf'<label title="([^"]+)">{field}\b', own.group(1))
    assert hint is not None and len(hint.group(1)) > 20  # every field says what it takes
    assert re.search(r'class="answer ok">correction accepted: \w[\w-]*: done<', dom), dom[-2000:]
