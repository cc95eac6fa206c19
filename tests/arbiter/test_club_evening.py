"""docs/arbiter.md's set-up and club evening, followed as written on a fresh laptop (an empty
HOME): the set-up's shell blocks run as they are (ports moved to free ones), three mock tables
(Tamsk, Tantrix, Tokami) driven by the lines the guide shows, the real mosquitto with the club's
locked configuration, the real page (`companion arbiter`), three rounds of three round robins,
and at the end the standings the games call for, the same from the command line, the page and
the journals, with no file edited by hand."""

from __future__ import annotations

import getpass
import json
import os
import re
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.arbiter.broker import free_port, mosquitto_path
from tests.arbiter.conftest import wait_until
from tests.arbiter.test_page import PageSession

REPO = Path(__file__).resolve().parents[2]
PIN = "2580"
GAMES = {1: "Tamsk", 2: "Tantrix", 3: "Tokami"}
PLAYERS = {"Tamsk": ("Alice --rating 1650", "Boris --rating 1600", "Clara"),
           "Tantrix": ("Dana", "Emil", "Fanny"), "Tokami": ("Gustav", "Hana", "Ivan")}


def setup_blocks() -> list[str]:
    guide = (REPO / "docs" / "arbiter.md").read_text(encoding="utf-8")
    start = guide.index("## Setting up, step by step")
    section = guide[start:guide.index("\n## ", start + 5)]
    return re.findall(r"```sh\n(.*?)```", section, flags=re.S)


class Laptop:
    """A fresh laptop: an empty HOME, companion on the PATH, ports of its own."""

    def __init__(self, home: Path) -> None:
        self.home = home
        self.club = home / "club"
        bin_dir = str(Path(sys.executable).parent)
        self.env = {**os.environ, "HOME": str(home), "USER": getpass.getuser(),
                    "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}
        self.env.pop("XDG_DATA_HOME", None)
        self.local, self.tls, self.page = free_port(), free_port(), free_port()
        self.processes: list[subprocess.Popen[str]] = []

    def sh(self, script: str, stdin: str = "") -> str:
        done = subprocess.run(["bash", "-e", "-c", script], cwd=self.club if self.club.exists()
                              else self.home, env=self.env, input=stdin, capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0, f"{script}\n{done.stdout}\n{done.stderr}"
        return done.stdout

    def companion(self, *args: str) -> str:
        done = subprocess.run([sys.executable, "-m", "companion.cli", *args], cwd=self.club,
                              env=self.env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, f"{args}\n{done.stdout}\n{done.stderr}"
        return done.stdout

    def start(self, *args: str) -> subprocess.Popen[str]:
        log = open(self.home / f"process-{len(self.processes)}.log", "w")  # noqa: SIM115
        p = subprocess.Popen(args, cwd=self.club, env=self.env, stdin=subprocess.PIPE,
                             stdout=log, stderr=subprocess.STDOUT, text=True)
        log.close()
        self.processes.append(p)
        return p

    def close(self) -> None:
        for p in reversed(self.processes):
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(10)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait(5)


@pytest.fixture
def laptop(tmp_path: Path) -> Iterator[Laptop]:
    pytest.importorskip("paho.mqtt.client", reason="paho-mqtt is not installed")
    if mosquitto_path() is None:
        pytest.skip("mosquitto is not installed: apt-get install mosquitto (the CI installs it)")
    lap = Laptop(tmp_path / "home")
    lap.home.mkdir()
    try:
        yield lap
    finally:
        lap.close()


def keys(table: subprocess.Popen[str], *typed: str) -> None:
    """The guide's lines, one JSON object a key."""
    assert table.stdin is not None
    for key in typed:
        table.stdin.write(json.dumps({"key": key}) + "\n")
        table.stdin.flush()
        time.sleep(0.15)


def standings_csv(lap: Laptop, name: str) -> str:
    out = lap.club / "s.csv"
    lap.companion("tournament", "standings", name, "--csv", str(out))
    return out.read_text(encoding="utf-8")


def page_csv(lap: Laptop, slug: str) -> str:
    with urllib.request.urlopen(f"http://127.0.0.1:{lap.page}/standings.csv?t={slug}",
                                timeout=10) as answer:
        return answer.read().decode("utf-8")


def card(lap: Laptop, table: int) -> dict[str, Any]:
    with urllib.request.urlopen(f"http://127.0.0.1:{lap.page}/api/state", timeout=5) as answer:
        state = json.load(answer)
    return next((t for t in state["tables"] if t["table"] == table), {})


def round_done(lap: Laptop, name: str, number: int) -> bool:
    """Whether round ``number``'s game has its result in the file (`tournament show`)."""
    shown = lap.companion("tournament", "show", name)
    block = shown.split(f"{name}: round {number} of 3\n")[1].splitlines()
    return bool(re.search(r"moves first\) - \S+\s{3}\S", block[0]))


def test_the_club_evening_of_the_guide_on_a_fresh_laptop(laptop: Laptop) -> None:
    lap = laptop
    blocks = setup_blocks()
    assert len(blocks) == 6
    # step 2: the broker's files (on ports of its own), step 3: run it
    lap.sh(blocks[0].replace("broker-config broker",
                             f"broker-config broker --local-port {lap.local} "
                             f"--tls-port {lap.tls}"))
    lap.start(str(mosquitto_path()), "-c", str(lap.club / "broker" / "mosquitto.conf"))
    # step 4: the arbiter's key, PIN and configuration (the PIN typed on standard input)
    lap.sh(blocks[1], stdin=PIN + "\n")
    # step 5: the tables on the laptop; step 6: their keys enrolled
    lap.sh(blocks[3])
    lap.sh(blocks[5])
    assert len(lap.companion("keys", "show", "--arbiter").splitlines()) == 2
    # step 7: the page, and the three mock tables
    lap.start(sys.executable, "-m", "companion.cli", "arbiter", "--config", "arbiter.toml",
              "--dir", str(lap.club), "--port", str(lap.page))
    tables = {n: lap.start(sys.executable, "-m", "companion.cli", "run", "--config",
                           f"table-{n}.toml", "--backend", "mock", "--pins-from-stdin")
              for n in GAMES}

    def verified() -> bool:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{lap.page}/api/state",
                                        timeout=5) as answer:
                state = json.load(answer)
        except OSError:
            return False
        return sorted(t["table"] for t in state["tables"] if t["verified"]) == [1, 2, 3]

    assert wait_until(verified, timeout=60)

    # the evening, step 1: three tournaments
    for n, game in GAMES.items():
        name = f"Thursday {game}"
        lap.companion("tournament", "new", name, "--game", game.lower(), "--system",
                      "round-robin", "--rounds", "3", "--first-table", str(n))
        for player in PLAYERS[game]:
            lap.companion("tournament", "add-player", name, *player.split())
    session = PageSession(f"http://127.0.0.1:{lap.page}")
    tantrix_winner = {1: "yellow", 2: "red", 3: "tie"}
    tamsk_loser = {1: "B", 2: "B", 3: "A"}  # black resigns, black, then red resigns
    for number in (1, 2, 3):
        # step 2: pair and send; step 3: the players press # and play
        for n, game in GAMES.items():
            out = lap.companion("tournament", "pair", f"Thursday {game}", "--send", "--config",
                                "arbiter.toml")
            assert f"table {n}:" in out and "waiting for the players to press #" in out
        keys(tables[1], "#", "1", "1", "2", "#", "A", "1", "3", "1", "#", "D",
             tamsk_loser[number], tamsk_loser[number])
        if number < 3:  # the first player's turn, then the second resigns
            keys(tables[3], "#", "1", "1", "3", "#", "D", "#")
        else:  # the first player resigns at once
            keys(tables[3], "#", "D", "#")
        keys(tables[2], "#", "1", "2", "#", "#")
        # the arbiter decides the Tantrix game from the page (a result correction), once the
        # page shows the round's game with its tile
        assert wait_until(lambda: (card(lap, 2).get("round") == number  # noqa: B023
                                   and card(lap, 2).get("seq", 0) >= 1), timeout=30)
        status, _ = session.post("/api/command", {"table": 2, "pin": PIN, "correction": {
            "what": "result", "winner": tantrix_winner[number], "reason": "the arbiter's ruling"}})
        assert status == 202
        for game in GAMES.values():
            name = f"Thursday {game}"
            assert wait_until(lambda n=name, r=number: round_done(lap, n, r),  # type: ignore[misc]
                              timeout=60), lap.companion("tournament", "show", name)
        # step 4: standings and the round sheet
        lap.companion("tournament", "sheet", "Thursday Tamsk", "--round", str(number), "--html",
                      f"round{number}.html")

    # the standings the games call for, the same from the command line, the page, the journals
    expected = {"Thursday Tamsk": ["1,Alice,3", "2,Boris,2", "3,Clara,1"],
                "Thursday Tantrix": ["1,Dana,2.5", "1,Fanny,2.5", "3,Emil,1"],
                "Thursday Tokami": ["1,Gustav,3", "2,Hana,2", "3,Ivan,1"]}
    journals = lap.companion("tournament", "standings", "--journals", "journals")
    for name, ranking in expected.items():
        cli = standings_csv(lap, name)
        assert [",".join(row.split(",")[:3]) for row in cli.splitlines()[1:]] == ranking, cli
        assert page_csv(lap, name.replace(" ", "-")) == cli
        assert f"{name}: standings after round 3" in journals
        trail = lap.companion("tournament", "history", name)
        assert trail.count(" mqtt ") == 3  # every result came over MQTT, signed
        assert lap.companion("tournament", "verify", name).rstrip().endswith("OK")
    assert "Standings after round 2" in (lap.club / "round2.html").read_text(encoding="utf-8")
