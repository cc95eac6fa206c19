"""`companion tournament demo`, end to end: a real mosquitto (the locked broker), six tables of
three games, three rounds paired into the tournament files and sent signed, the results back
over MQTT through the page's inbox, a correction and a dispute, the page, and the exports. The
page's `/standings.csv`, `tournament standings --csv` and `tournament standings --journals`
rank alike; the demo's keys are where the arbiter's commands look, so every command it prints
works as printed."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.arbiter.signing import arbiter_key, keyring_path
from companion.config import defaults
from companion.journal import read_path
from companion.keys import Keyring, SigningKey
from companion.tournament import sheets, store
from companion.tournament.demo import DemoError, Evening, enrol_demo_tables, run_evening
from companion.tournament.journals import OK, Keys, check_journal
from companion.tournament.model import Tournament
from companion.tournament.standings import standings
from tests.arbiter.broker import mosquitto_path
from tests.arbiter.test_page import CHROMIUM_FLAGS, chromium

#: The demo's HOME (its arbiter's key and keyring are in its data folder).
HOME: dict[str, Path] = {}


@pytest.fixture(scope="module")
def evening(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Evening]:
    pytest.importorskip("paho.mqtt.client", reason="paho-mqtt is not installed")
    if mosquitto_path() is None:
        pytest.skip("mosquitto is not installed: apt-get install mosquitto (the CI installs it)")
    home = HOME["home"] = tmp_path_factory.mktemp("home")
    lines: list[str] = []
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HOME", str(home))
        mp.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))
        run = run_evening(tmp_path_factory.mktemp("demo") / "evening", port=0,
                          say=lines.append)
        run.lines = lines
        try:
            yield run
        finally:
            run.close()


def env_of(evening: Evening) -> dict[str, str]:
    home = HOME["home"]
    return {**os.environ, "HOME": str(home), "XDG_DATA_HOME": str(home / ".local" / "share")}


def tournaments(evening: Evening) -> list[Tournament]:
    home = Path(env_of(evening)["XDG_DATA_HOME"])
    key = SigningKey.load(home / "companion" / "arbiter" / "arbiter.key")
    return [store.load(p, key.public) for p in evening.tournaments]


def kept(evening: Evening) -> list[Path]:
    return sorted((evening.folder / "journals").glob("*.jsonl"))


def test_the_page_the_file_and_the_journals_rank_every_game_alike(evening: Evening) -> None:
    home = Path(env_of(evening)["XDG_DATA_HOME"]) / "companion" / "arbiter"
    keys = Keys(keyring=Keyring.load(home / "keyring.json"),
                arbiter=(SigningKey.load(home / "arbiter.key").public,))
    found = tournaments(evening)
    assert sorted(t.game for t in found) == ["tamsk", "tantrix", "tokami"]
    for t in found:
        results = {}
        for path in kept(evening):
            checked = check_journal(path, keys, only=t)
            if checked.status == OK and checked.result is not None:
                results[(checked.round, checked.board)] = checked.result
        assert len(results) == 6  # 3 rounds of 2 games, each from its journal
        from_journals = sheets.standings_csv(standings(t, results=results))
        slug = t.name.replace(":", "").replace(" ", "-")
        with urllib.request.urlopen(f"{evening.url}standings.csv?t={slug}", timeout=10) as a:
            assert a.read().decode() == from_journals == sheets.standings_csv(standings(t))
        written = evening.folder / f"{slug}-standings.csv"
        assert written.read_text(encoding="utf-8") == from_journals
    assert sum("the page, `tournament standings` and the journals agree" in line
               for line in evening.lines) == 3


def test_three_rounds_were_paired_and_every_result_came_over_mqtt(evening: Evening) -> None:
    for t in tournaments(evening):
        assert [r.number for r in t.played] == [1, 2, 3]
        assert all(g.result is not None and g.source is not None and g.source.kind == "table"
                   for r in t.played for g in r.games)
        results = [c for c in t.trail if c.ev == "result"]
        assert len(results) == 6 and {c.via for c in results} == {"mqtt"}
        pairs = [frozenset(g.players()) for r in t.played for g in r.games]
        assert len(set(pairs)) == len(pairs) == 6  # round-robin: nobody met twice


def test_every_game_started_from_its_pairing_with_names_round_board_and_table(
    evening: Evening,
) -> None:
    for t in tournaments(evening):
        for r in t.played:
            for g in r.games:
                assert g.source is not None
                header = read_path(evening.folder / "journals" / g.source.file).header
                assert header is not None and header["tournament"] == t.name
                assert (header["round"], header["board"], header["table"]) == (
                    r.number, g.board, g.table)


def test_the_arbiter_s_correction_went_over_mqtt_and_the_dispute_shows_it(
    evening: Evening,
) -> None:
    corrections = [body for path in kept(evening) for _, body in read_path(path).events
                   if body.get("ev") == "correct"]
    assert len(corrections) == 1 and corrections[0]["auth"] == "command"
    assert any(line.startswith("correction at table") and "accepted" in line
               for line in evening.lines)
    dispute = (evening.folder / "dispute.txt").read_text(encoding="utf-8")
    assert "[arbiter] correct what=undo" in dispute and "journal intact" in dispute
    assert "as the tournament file paired it" in dispute


def test_the_exports_are_written_and_each_round_sheet_shows_its_own_round(
    evening: Evening,
) -> None:
    names = {p.name for p in evening.exports}
    for path in evening.tournaments:
        stem = path.name.removesuffix(store.SUFFIX)
        for suffix in ("-standings.csv", "-standings.html", ".trf", "-round1.html",
                       "-round3.html"):
            assert stem + suffix in names
        trf = (evening.folder / f"{stem}.trf").read_text(encoding="utf-8")
        assert trf.count("\n001 ") == 4
        first = (evening.folder / f"{stem}-round1.html").read_text(encoding="utf-8")
        last = (evening.folder / f"{stem}-round3.html").read_text(encoding="utf-8")
        assert "Standings after round 1" in first and "Standings after round 3" in last
        played = re.findall(r"<td class='n'>(\d)</td></tr>", first)
        assert played and set(played) == {"1"}  # after round 1 everyone has played once


def test_the_page_shows_the_three_tournaments_under_their_names(
    evening: Evening, tmp_path: Path
) -> None:
    with urllib.request.urlopen(evening.url + "api/tournament", timeout=10) as answer:
        info = json.load(answer)
    assert [t["name"] for t in info["tournaments"]] == [
        "Club evening: Tamsk", "Club evening: Tantrix", "Club evening: Tokami"]
    assert all(t["round"] == 3 for t in info["tournaments"])
    exe = chromium()
    if exe is None:
        pytest.skip("chromium is not installed: apt-get install chromium")
    dom = subprocess.run(
        [exe, *CHROMIUM_FLAGS, f"--user-data-dir={tmp_path / 'chromium'}",
         "--virtual-time-budget=5000", "--dump-dom", evening.url + "?transport=poll"],
        capture_output=True, text=True, timeout=90,
    ).stdout
    for name in ("Tamsk", "Tantrix", "Tokami"):
        assert f"<h2>Club evening: {name}</h2>" in dom
    assert dom.count("round 3 of 3") == 3
    for n in range(1, 7):
        assert re.search(rf'<div id="table-{n}"', dom), f"table {n} is not on the page"
    assert 'class="coord"' in dom  # the Tamsk boards carry their coordinates


def test_every_command_the_demo_prints_works_as_printed(evening: Evening) -> None:
    assert len(evening.commands) >= 8
    for command in evening.commands:
        argv = shlex.split(command)
        assert argv[0] == "companion"
        done = subprocess.run([sys.executable, "-m", "companion.cli", *argv[1:]],
                              capture_output=True, text=True, timeout=120, env=env_of(evening))
        assert done.returncode == 0, f"{command}\n{done.stdout}\n{done.stderr}"
        if "standings --journals" in command:
            assert done.stdout.count("standings after round 3") == 3


def test_the_demo_enrols_its_tables_where_the_arbiter_looks_and_no_real_one_is_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    first = enrol_demo_tables([1, 2], lambda line: None)
    assert enrol_demo_tables([1, 2], lambda line: None)[1].public == first[1].public  # again
    ring = Keyring.load(keyring_path(defaults()))
    assert ring.key_for("1") == first[1].public
    real = SigningKey.generate()
    ring.enroll("3", real.public, "2026-11-24T20:00:00")
    ring.save()
    before = keyring_path(defaults()).read_bytes()
    with pytest.raises(DemoError, match="enrols table 3 with another key"):
        enrol_demo_tables([1, 2, 3], lambda line: None)
    assert keyring_path(defaults()).read_bytes() == before
    assert arbiter_key(defaults()).public is not None
