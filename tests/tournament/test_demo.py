"""`companion tournament demo`, end to end: a real mosquitto (the locked broker), six tables of
three games, three rounds paired by the software, a correction and a dispute, the page, and the
exports. The standings it wrote must be the ones its journals give, recomputed here."""

from __future__ import annotations

import json
import re
import subprocess
import urllib.request
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.journal import read_path
from companion.tournament import sheets, store
from companion.tournament.demo import Evening, run_evening
from companion.tournament.record import GameRecord
from companion.tournament.standings import record_from_journal, standings
from tests.arbiter.broker import mosquitto_path
from tests.arbiter.test_page import CHROMIUM_FLAGS, chromium


@pytest.fixture(scope="module")
def evening(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Evening]:
    pytest.importorskip("paho.mqtt.client", reason="paho-mqtt is not installed")
    if mosquitto_path() is None:
        pytest.skip("mosquitto is not installed: apt-get install mosquitto (the CI installs it)")
    lines: list[str] = []
    run = run_evening(tmp_path_factory.mktemp("demo") / "evening", port=0, say=lines.append)
    run.lines = lines
    try:
        yield run
    finally:
        run.close()


def journals(evening: Evening) -> list[Path]:
    return sorted((evening.folder / "journals").glob("*.jsonl"))


def test_the_standings_written_are_the_ones_the_journals_give(evening: Evening) -> None:
    by_game: dict[str, list[GameRecord]] = defaultdict(list)
    for path in journals(evening):
        game, record = record_from_journal(path)
        by_game[game].append(record)
    assert len(evening.tournaments) == len(by_game) >= 2  # mixed games
    for path in evening.tournaments:
        t = store.load(path)
        recomputed = standings(t.game, by_game[t.game], [p.name for p in t.players])
        written = (evening.folder / f"{path.name.removesuffix(store.SUFFIX)}-standings.csv")
        assert written.read_text(encoding="utf-8") == sheets.standings_csv(recomputed)
        assert sum(row.played for row in recomputed.rows) == 2 * 6  # 3 rounds of 2 games


def test_three_rounds_were_paired_and_every_game_played_to_a_result(evening: Evening) -> None:
    for path in evening.tournaments:
        t = store.load(path)
        assert [r.number for r in t.played] == [1, 2, 3]
        assert all(g.result is not None for r in t.played for g in r.games)
        pairs = [frozenset((g.first, g.second)) for r in t.played for g in r.games]
        assert len(set(pairs)) == len(pairs) == 6  # round-robin: nobody met twice


def test_every_game_started_from_its_pairing_with_names_round_and_board(
    evening: Evening,
) -> None:
    found = journals(evening)
    assert len(found) == 6 * len(evening.tournaments)  # 3 rounds of 2 games for each game
    for path in found:
        header = read_path(path).header
        assert header is not None
        assert header["round"] in (1, 2, 3) and header["board"] in (1, 2)
        assert header["tournament"].startswith("Club evening")


def test_the_arbiter_s_correction_went_over_mqtt_and_the_dispute_shows_it(
    evening: Evening,
) -> None:
    corrections = [body for path in journals(evening) for _, body in read_path(path).events
                   if body.get("ev") == "correct"]
    assert len(corrections) == 1 and corrections[0]["auth"] == "command"
    assert any(line.startswith("correction at table") and "accepted" in line
               for line in evening.lines)
    dispute = (evening.folder / "dispute.txt").read_text(encoding="utf-8")
    assert "[arbiter] correct what=undo" in dispute and "journal intact" in dispute


def test_the_exports_are_written(evening: Evening) -> None:
    names = {p.name for p in evening.exports}
    for path in evening.tournaments:
        stem = path.name.removesuffix(store.SUFFIX)
        for suffix in ("-standings.csv", "-standings.html", ".trf", "-round1.html",
                       "-round3.html"):
            assert stem + suffix in names
        trf = (evening.folder / f"{stem}.trf").read_text(encoding="utf-8")
        assert trf.count("\n001 ") + trf.startswith("001 ") == 4


def test_the_page_shows_the_tournament_and_every_table(evening: Evening, tmp_path: Path) -> None:
    with urllib.request.urlopen(evening.url + "api/tournament", timeout=10) as answer:
        info = json.load(answer)
    assert info["name"].startswith("Club evening") and info["round"] == 3
    exe = chromium()
    if exe is None:
        pytest.skip("chromium is not installed: apt-get install chromium")
    dom = subprocess.run(
        [exe, *CHROMIUM_FLAGS, f"--user-data-dir={tmp_path / 'chromium'}",
         "--virtual-time-budget=5000", "--dump-dom", evening.url + "?transport=poll"],
        capture_output=True, text=True, timeout=90,
    ).stdout
    assert 'id="tname">Club evening' in dom
    assert "round 3 of 3" in dom
    for n in range(1, 2 * len(evening.tournaments) + 1):
        assert re.search(rf'<div id="table-{n}"', dom), f"table {n} is not on the page"
    assert 'class="coord"' in dom  # the Tamsk boards carry their coordinates
