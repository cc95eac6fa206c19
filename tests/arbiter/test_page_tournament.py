"""The arbiter's page shows every tournament of its folder under its own name, with standings,
TRF and round sheets drawn from the tournament files (the CLI's own writers), each table's
answers and when an offline table was last seen, and assigns a pairing only through the
tournament file (PIN, CSRF and the pairing's fields checked, then sent signed)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from companion.arbiter.pin import hash_pin
from companion.arbiter.sealing import seal
from companion.arbiter.settings import ArbiterSettings
from companion.arbiter.signing import arbiter_key
from companion.arbiter.view import ArbiterView
from companion.arbiter.web import ArbiterServer, page
from companion.config import defaults
from companion.keys import SigningKey
from companion.tournament import sheets, store
from companion.tournament.standings import standings
from tests.arbiter.keys import TABLES, enrolled
from tests.arbiter.test_page import PageSession
from tests.arbiter.test_page_security import PIN, Recorder
from tests.tournament import helpers


class PairingRecorder(Recorder):
    def __init__(self) -> None:
        super().__init__()
        self.pairings: list[tuple[int, dict[str, Any]]] = []

    def send_pairing(self, table: int, body: Mapping[str, Any], key: SigningKey
                     ) -> dict[str, Any]:
        self.pairings.append((table, dict(body)))
        return {"nonce": f"{len(self.pairings):032x}"}


@pytest.fixture
def evening(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Two tournaments in the arbiter's folder: a Tantrix round robin (round 1 paired at tables
    1-2) and a Tamsk one at tables 3-4 (round 1 paired and played)."""
    helpers.laptop(monkeypatch, tmp_path)
    helpers.club(tmp_path, game="tantrix", name="Thursday club", names=("Ada", "Bob", "Cleo",
                                                                        "Dan"))
    assert helpers.run(["tournament", "pair", "Thursday club", "--dir", str(tmp_path)]) == 0
    d = str(tmp_path)
    assert helpers.run(["tournament", "new", "Tamsk cup", "--game", "tamsk", "--system",
                        "round-robin", "--rounds", "3", "--first-table", "3", "--dir", d]) == 0
    for name in ("Eva", "Fay", "Gil", "Hal"):
        assert helpers.run(["tournament", "add-player", "Tamsk cup", name, "--dir", d]) == 0
    assert helpers.run(["tournament", "pair", "Tamsk cup", "--dir", d]) == 0
    for board, typed in ((1, "1-0"), (2, "0-1")):
        assert helpers.run(["tournament", "result", "Tamsk cup", "--round", "1", "--board",
                            str(board), typed, "--score", "20:25" if typed == "1-0"
                            else "25:20", "--dir", d]) == 0
    return tmp_path


@pytest.fixture
def served(evening: Path) -> Iterator[tuple[ArbiterServer, PairingRecorder]]:
    source = PairingRecorder()
    server = ArbiterServer(source, ArbiterSettings(pin_hash=hash_pin(PIN)), port=0,
                           signing_key=arbiter_key(defaults()), tournament_dir=evening)
    server.start()
    try:
        yield server, source
    finally:
        server.stop()


def get(server: ArbiterServer, path: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{server.port}{path}", timeout=10) as a:
            return a.status, a.read().decode()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode()


def cli_csv(evening: Path, name: str) -> str:
    t = store.load(store.path_for(name, evening), arbiter_key(defaults()).public)
    return sheets.standings_csv(standings(t))


def test_the_page_shows_every_tournament_under_its_name(
    served: tuple[ArbiterServer, PairingRecorder]
) -> None:
    status, text = get(served[0], "/api/tournament")
    info = json.loads(text)
    assert status == 200
    assert [(t["name"], t["round"], t["rounds"]) for t in info["tournaments"]] == [
        ("Tamsk cup", 1, 3), ("Thursday club", 1, 3)]
    tamsk = info["tournaments"][0]
    assert [(p["board"], p["table"], p["text"]) for p in tamsk["pairings"]] == [
        (1, 3, "1-0 (20:25)"), (2, 4, "0-1 (25:20)")]
    assert tamsk["links"]["csv"] == "/standings.csv?t=Tamsk-cup"


def test_the_page_s_standings_csv_is_the_command_line_s(
    served: tuple[ArbiterServer, PairingRecorder], evening: Path
) -> None:
    server = served[0]
    for slug, name in (("Tamsk-cup", "Tamsk cup"), ("Thursday-club", "Thursday club")):
        status, text = get(server, f"/standings.csv?t={slug}")
        assert status == 200 and text == cli_csv(evening, name)
    status, text = get(server, "/standings.csv")
    assert status == 400 and "?t=Tamsk-cup" in text  # two tournaments: say which
    assert get(server, "/standings.csv?t=nothing")[0] == 404


def test_the_round_sheet_and_the_trf_come_from_the_file(
    served: tuple[ArbiterServer, PairingRecorder]
) -> None:
    status, sheet = get(served[0], "/round/1.html?t=Tamsk-cup")
    assert status == 200 and "Tamsk cup: round 1 of 3" in sheet
    assert "Standings after round 1" in sheet and "1-0 (20:25)" in sheet
    status, trf = get(served[0], "/results.trf?t=Tamsk-cup")
    assert status == 200 and trf.startswith("012 Tamsk cup\r\n") and trf.count("\n001 ") == 4
    assert get(served[0], "/round/2.html?t=Tamsk-cup")[0] == 404


def test_a_forged_tournament_file_shows_why_and_gives_no_standings(
    served: tuple[ArbiterServer, PairingRecorder], evening: Path
) -> None:
    path = store.path_for("Tamsk cup", evening)
    path.write_text(path.read_text().replace('"Eva"', '"Eve"'))
    info = json.loads(get(served[0], "/api/tournament")[1])
    tamsk = next(t for t in info["tournaments"] if t["slug"] == "Tamsk-cup")
    assert "refused as `companion verify` refuses it" in tamsk["problem"]
    status, text = get(served[0], "/standings.csv?t=Tamsk-cup")
    assert status == 409 and "ALTERED OR DAMAGED" in text


def test_the_page_has_a_place_for_every_tournament_and_its_exports() -> None:
    html = page(arbiter=True)
    assert 'id="tournaments"' in html and 'data-link="csv"' in html
    assert 'data-link="trf"' in html and '<select name="tournament">' in html


def test_every_correction_field_has_a_hint() -> None:
    html = page(arbiter=True)
    form = html[html.index('<form id="correct"'):html.index("</form>")]
    assert form.count("<label") == form.count("<label title=")


def pairing(**more: Any) -> dict[str, Any]:
    return {"tournament": "Thursday club", "round": 1, "board": 1, "first": "Ada",
            "second": "Dan", "game": "tantrix", **more}


def test_a_pairing_of_the_file_is_sent_to_its_table_with_the_pin(
    served: tuple[ArbiterServer, PairingRecorder]
) -> None:
    server, source = served
    session = PageSession(f"http://127.0.0.1:{server.port}")
    status, answer = session.post("/api/pairing", {"pairing": pairing()})
    assert status == 401 and source.pairings == []
    status, answer = session.post("/api/pairing", {"pairing": pairing(round=0), "pin": PIN})
    assert status == 400 and "round" in answer["detail"] and source.pairings == []
    status, answer = session.post("/api/pairing", {"pairing": pairing(), "pin": PIN})
    assert status == 202 and answer["ok"]
    assert source.pairings == [(1, {**pairing(), "board": 1})]


@pytest.mark.parametrize("wrong,why", [
    ({"first": "Dan", "second": "Ada"}, "Ada moves first in round 1"),
    ({"first": "Ada", "second": "Bob"}, "round 1 does not pair Ada - Bob"),
    ({"round": 2}, "round 2 of Thursday club is not paired"),
    ({"tournament": "Spring open"}, "no tournament called Spring open"),
    ({"game": "tamsk"}, "Thursday club plays tantrix"),
    ({"board": 2}, "table 2 plays board 2"),
])
def test_a_pairing_the_file_contradicts_is_refused(
    served: tuple[ArbiterServer, PairingRecorder], wrong: dict[str, Any], why: str
) -> None:
    server, source = served
    session = PageSession(f"http://127.0.0.1:{server.port}")
    status, answer = session.post("/api/pairing", {"pairing": pairing(**wrong), "pin": PIN})
    assert status == 409 and why in answer["detail"] and source.pairings == []


def test_a_pairing_sent_to_a_free_table_pairs_the_round_again_in_the_file(
    served: tuple[ArbiterServer, PairingRecorder], evening: Path
) -> None:
    server, source = served
    session = PageSession(f"http://127.0.0.1:{server.port}")
    status, _ = session.post("/api/pairing", {"pairing": pairing(board=7), "pin": PIN})
    assert status == 202 and source.pairings == [(7, {**pairing(), "board": 1})]
    t = store.load(store.path_for("Thursday club", evening), arbiter_key(defaults()).public)
    assert t.round(1).board(1).table == 7  # type: ignore[union-attr]
    assert (t.trail[-1].ev, t.trail[-1].via) == ("repair", "page")


def test_a_round_with_results_keeps_its_tables(
    served: tuple[ArbiterServer, PairingRecorder]
) -> None:
    server, source = served
    session = PageSession(f"http://127.0.0.1:{server.port}")
    body = {"tournament": "Tamsk cup", "round": 1, "board": 9, "first": "Eva", "second": "Hal",
            "game": "tamsk"}
    status, answer = session.post("/api/pairing", {"pairing": body, "pin": PIN})
    assert status == 409 and "board 1 stays at table 3" in answer["detail"]


def control(session: PageSession, what: str, **fields: Any) -> tuple[int, dict[str, Any]]:
    return session.post("/api/tournament/control", {"pin": PIN, "control": what,
                                                      "tournament": "Open", **fields})


def test_every_arbiter_control_on_the_page_is_a_signed_record_of_the_file(
    served: tuple[ArbiterServer, PairingRecorder], evening: Path
) -> None:
    """The page's controls make the command line's records (``via`` page), after the PIN:
    a player, settings, a bye and its cancellation, pair, a swap warned of C1... ."""
    server, _source = served
    d = str(evening)
    assert helpers.run(["tournament", "new", "Open", "--game", "tamsk", "--system", "swiss",
                        "--rounds", "4", "--dir", d]) == 0
    for i, name in enumerate(("Ann", "Bob", "Cid", "Dee")):
        assert helpers.run(["tournament", "add-player", "Open", name, "--rating",
                            str(2000 - i), "--dir", d]) == 0
    session = PageSession(f"http://127.0.0.1:{server.port}")
    status, answer = session.post("/api/tournament/control", {"control": "pair",
                                                               "tournament": "Open"})
    assert status == 401 and not answer["ok"]
    assert control(session, "player", name="Éva Šťastná", rating=1990)[0] == 200
    assert control(session, "settings", settings={"tiebreaks": ["BH", "DE"]})[0] == 200
    assert control(session, "bye", player="Éva Šťastná", points=0)[0] == 200
    assert control(session, "bye-cancel", player="Éva Šťastná")[0] == 200
    status, answer = control(session, "pair")
    assert status == 200 and "round 1 paired (FIDE Dutch system)" in answer["detail"]
    assert control(session, "colours", board=1)[1]["warnings"]
    assert control(session, "unpair", why="wrong ratings")[0] == 200
    assert control(session, "pair")[0] == 200
    path = store.path_for("Open", evening)
    t = store.load(path, arbiter_key(defaults()).public)
    for g in t.played[0].games:
        helpers.run(["tournament", "result", "Open", "--round", "1", "--board", str(g.board),
                     "1-0", "--dir", d])
    assert control(session, "withdraw", player="Dee", **{"from": 2})[0] == 200
    assert control(session, "reinstate", player="Dee", **{"from": 3})[0] == 200
    assert control(session, "pair")[0] == 200
    t = store.load(path, arbiter_key(defaults()).public)
    first = {frozenset(x.players()) for x in t.played[0].games}
    other, met = next((y, p) for g in t.played[1].games for x, y in (g.players(),
                                                                       g.players()[::-1])
                      for p in t.players if p not in g.players()
                      and frozenset((x, p)) in first and t.played[1].game_of(p) is not None)
    status, answer = control(session, "swap", a=str(other), b=str(met))
    g = t.played[1].games[0]
    assert status == 200 and any("C1:" in w for w in answer["warnings"])
    names = [t.players[p].name for p in (g.first, g.second)]
    status, answer = control(session, "pairs", pairs="-".join(names))
    assert status == 200 and "paired again (by hand)" in answer["detail"]
    status, answer = control(session, "lots", seed="x")
    assert status == 409 and "numbers by lot are for a round robin" in answer["detail"]
    status, answer = control(session, "nothing")
    assert status == 400
    t = store.load(path, arbiter_key(defaults()).public)
    assert {c.ev for c in t.trail if c.via == "page"} == {
        "player", "settings", "bye", "bye-cancel", "numbers", "pair", "repair", "unpair",
        "withdraw", "reinstate"}
    assert t.trail[-1].via == "page" and t.played[-1].engine == "manual"


def test_the_page_has_the_arbiter_s_tournament_controls() -> None:
    html = page(arbiter=True)
    form = html[html.index('<form id="controls"'):]
    form = form[:form.index("</form>")]
    assert form.count("<label") == form.count("<label title=") + 1  # the PIN's has none
    for control in ("pair", "player", "bye", "bye-cancel", "withdraw", "reinstate", "unpair",
                    "swap", "colours", "pairs", "lots", "settings"):
        assert f'<option value="{control}">' in form


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


def test_the_page_s_controls_form_sends_a_control_the_file_records(
    served: tuple[ArbiterServer, PairingRecorder], evening: Path, tmp_path: Path
) -> None:
    """In a real browser: the arbiter picks "requested bye", names the player, gives the PIN
    and presses the button; the file has the record, via the page."""
    import time

    from tests.arbiter.browser import Browser
    from tests.arbiter.test_page import CHROMIUM_FLAGS, chromium

    exe = chromium()
    if exe is None:
        pytest.skip("chromium is not installed: apt-get install chromium")
    server, _source = served
    d = str(evening)
    assert helpers.run(["tournament", "new", "Open", "--game", "tamsk", "--system", "swiss",
                        "--rounds", "3", "--dir", d]) == 0
    for name in ("Ann", "Bob", "Cid"):
        assert helpers.run(["tournament", "add-player", "Open", name, "--dir", d]) == 0
    browser = Browser(exe, tmp_path / "chromium",
                      f"http://127.0.0.1:{server.port}/arbiter?transport=poll", CHROMIUM_FLAGS)
    try:
        deadline = time.monotonic() + 60
        ready = ("document.getElementById('controls').elements.tournament"
                 ".querySelector('option[value=\"Open\"]') !== null")
        while not browser.evaluate(ready) and time.monotonic() < deadline:
            time.sleep(0.2)
        browser.evaluate(f"""(() => {{
          const f = document.getElementById('controls');
          f.elements.tournament.value = 'Open'; f.elements.control.value = 'bye';
          f.elements.player.value = 'Bob'; f.elements.points.value = '0';
          f.elements.why.value = 'a wedding'; f.elements.pin.value = '{PIN}';
          f.requestSubmit(); return true; }})()""")
        status = None
        while status is None and time.monotonic() < deadline:
            status = browser.evaluate("document.getElementById('controlled').dataset.status")
            time.sleep(0.2)
    finally:
        browser.close()
    assert status == "200"
    t = store.load(store.path_for("Open", evening), arbiter_key(defaults()).public)
    last = t.trail[-1]
    assert (last.ev, last.via, last.why) == ("bye", "page", "a wedding")
    assert t.requested == {(2, 1): 0.0}
