"""Pairings reach the tables (issue 15): the arbiter's signed pairing is shown on the table's
OLED, one key starts the game, and its journal header holds the names, round and board."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives import serialization
from PIL import Image

from companion import registry
from companion.arbiter.commands import make_pairing_command
from companion.arbiter.hooks import ArbiterHooks
from companion.arbiter.pairing_desk import parse_pairing
from companion.clock import FakeClock
from companion.config import defaults
from companion.hw.display import pick_screen
from companion.inputs import RawInput
from companion.journal import read_path
from companion.simulate import simulate_file
from companion.tables import make_table, start_configured_game
from companion.tournament.record import header_names
from tests.arbiter.broker import Broker
from tests.arbiter.conftest import wait_until
from tests.arbiter.keys import ARBITER, fixed_key, table_arbiter
from tests.arbiter.test_every_kind_publishes import Listener


def table_config(kind: str, number: int = 3) -> dict[str, Any]:
    config = defaults()
    config["game"]["kind"] = kind
    config["table"]["number"] = number
    config["arbiter"].update(table_arbiter())
    return config


def pairing(kind: str, board: int = 3, **more: Any) -> dict[str, Any]:
    return {"tournament": "Club night", "round": 2, "board": board, "first": "Ada",
            "second": "Bob", "game": kind, **more}


class Rig:
    """A table of ``kind`` with the arbiter hooks (no broker: answers are collected)."""

    def __init__(self, tmp_path: Path, kind: str) -> None:
        self.clock = FakeClock()
        self.config = table_config(kind)
        self.hooks = ArbiterHooks(self.config, self.clock)
        self.table: Any = make_table(self.config, self.clock, tmp_path,
                                     on_record=self.hooks.on_record)
        start_configured_game(self.table, self.config)
        self.hooks.attach(self.table)
        self.answers: list[dict[str, Any]] = []
        self.hooks._reply = self.answers.append  # type: ignore[method-assign]
        assert self.hooks.desk is not None
        self.hooks.desk._answer = self.answers.append

    def send(self, body: dict[str, Any], key: Any = ARBITER, table: int = 3) -> None:
        command = make_pairing_command(body, table=table, key=key, issued=self.clock.wall())
        self.hooks._command_arrived(json.dumps(command).encode())

    def key(self, k: str) -> None:
        self.table.feed(RawInput("key", k, True, self.clock.now()))


@pytest.mark.parametrize("kind", ["tamsk", "tantrix", "tokami"])
def test_a_signed_pairing_is_shown_and_one_key_starts_the_named_game(
    tmp_path: Path, kind: str
) -> None:
    rig = Rig(tmp_path, kind)
    rig.send(pairing(kind))
    assert rig.answers[-1]["ok"] and rig.answers[-1]["state"] == "shown"
    view = rig.table.view()
    assert view["pairing"][0] == "R2 board 3"
    assert "Ada" in view["pairing"][1] and "Bob" in view["pairing"][2]
    image = pick_screen(view, (128, 64), "1")
    assert isinstance(image, Image.Image) and image.getbbox() is not None
    old = rig.table.journal_path
    rig.key("#")
    assert rig.answers[-1]["state"] == "started"
    assert rig.table.journal_path != old
    header = read_path(rig.table.journal_path).header
    assert header is not None
    assert (header["round"], header["board"], header["tournament"]) == (2, 3, "Club night")
    assert "pairing" not in rig.table.view()
    state = simulate_file(rig.table.journal_path)
    facet = registry.get(kind)
    assert facet.name == kind and state["game"] == kind


def test_the_paired_names_sit_in_the_first_movers_seat_for_the_standings(
    tmp_path: Path,
) -> None:
    """Tantrix: the first named player plays the first colour, as the standings read it."""
    rig = Rig(tmp_path, "tantrix")
    rig.send(pairing("tantrix"))
    rig.key("#")
    header = read_path(rig.table.journal_path).header
    assert header is not None
    first, second = header["players"]
    assert header["names"] == {first: "Ada", second: "Bob"}
    assert header_names(header, [first, second]) == {first: "Ada", second: "Bob"}


def test_a_tokami_pairing_makes_the_players_the_paired_names(tmp_path: Path) -> None:
    rig = Rig(tmp_path, "tokami")
    rig.send(pairing("tokami"))
    rig.key("#")
    header = read_path(rig.table.journal_path).header
    assert header is not None and header["players"] == ["Ada", "Bob"]


def test_star_puts_the_pairing_away_and_the_next_game_has_no_pairing(tmp_path: Path) -> None:
    rig = Rig(tmp_path, "tantrix")
    rig.send(pairing("tantrix"))
    rig.key("*")
    assert rig.answers[-1]["state"] == "hidden" and "pairing" not in rig.table.view()
    assert rig.table.next_header == {}


def test_a_pairing_for_another_game_is_refused_with_the_reason(tmp_path: Path) -> None:
    rig = Rig(tmp_path, "tantrix")
    rig.send(pairing("tokami"))
    assert rig.answers[-1]["ok"] is False
    assert "plays tantrix, not tokami" in rig.answers[-1]["detail"]
    assert "pairing" not in rig.table.view()


def test_a_pairing_not_signed_by_the_arbiter_never_reaches_the_table(tmp_path: Path) -> None:
    rig = Rig(tmp_path, "tantrix")
    rig.send(pairing("tantrix"), key=fixed_key("intruder"))
    assert rig.answers == [] and "pairing" not in rig.table.view()
    gate = rig.hooks.gate  # the table's one gate, the desk's too
    assert rig.hooks.desk is not None and rig.hooks.desk.gate is gate
    assert gate.refused_total == 1 and "signature refused" in gate.last_refusal


def test_a_replayed_pairing_is_refused(tmp_path: Path) -> None:
    rig = Rig(tmp_path, "tantrix")
    command = make_pairing_command(pairing("tantrix"), table=3, key=ARBITER,
                                   issued=rig.clock.wall())
    rig.hooks._command_arrived(json.dumps(command).encode())
    rig.key("#")
    rig.hooks._command_arrived(json.dumps(command).encode())
    assert rig.answers[-1]["ok"] is False and "replayed" in rig.answers[-1]["detail"]


@pytest.mark.parametrize("field,value,why", [
    ("round", 0, "round must be a whole number"),
    ("board", "3", "board must be a whole number"),
    ("first", "", "first must be a name"),
    ("second", "x" * 200, "second must be a name"),
    ("second", "ada", "two different players"),
    ("first", "Ada\x1b[2J", "control characters"),
])
def test_a_pairing_with_a_bad_field_says_which(field: str, value: Any, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        parse_pairing(pairing("tantrix", **{field: value}))


# ---------------------------------------------------------------------- end to end


def write_arbiter_config(tmp_path: Path, port: int) -> Path:
    """The arbiter's laptop: the test's fixed arbiter key where `companion keys init
    --arbiter` puts it (``$XDG_DATA_HOME/companion/arbiter/arbiter.key``), and a config with
    only the broker: ``pair --send`` finds the key in its default place."""
    key = tmp_path / "data" / "companion" / "arbiter" / "arbiter.key"
    key.parent.mkdir(parents=True)
    pem = ARBITER._private.private_bytes(  # the test's fixed arbiter key, as a key file
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    key.write_bytes(pem)
    key.chmod(0o600)
    config = tmp_path / "arbiter.toml"
    config.write_text(f'[mqtt]\nenabled = true\nhost = "127.0.0.1"\nport = {port}\n')
    return config


def companion(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_DATA_HOME": str(cwd / "data")}
    return subprocess.run([sys.executable, "-m", "companion.cli", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=60, env=env)


def test_tournament_pair_send_reaches_a_running_table(tmp_path: Path, broker: Broker) -> None:
    """`companion tournament pair --send`: the table shows the pairing, `#` starts the game
    with the names, round and board in its header."""
    table_toml = tmp_path / "table.toml"
    table_toml.write_text(
        '[game]\nkind = "tantrix"\n\n[table]\nnumber = 1\n\n'
        f'[arbiter]\narbiter_key = "{ARBITER.public.line()}"\n\n'
        f'[mqtt]\nenabled = true\nhost = "127.0.0.1"\nport = {broker.port}\n'
    )
    journals = tmp_path / "journals"
    listener = Listener(broker.port)
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "run", "--config", str(table_toml),
         "--backend", "mock", "--journal-dir", str(journals), "--pins-from-stdin"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        assert wait_until(lambda: len(list(journals.glob("tantrix-*.jsonl"))) == 1)
        arbiter = write_arbiter_config(tmp_path, broker.port)
        for step in (["new", "Club", "--game", "tantrix", "--system", "round-robin",
                      "--rounds", "1"], ["add-player", "Club", "Ada"],
                     ["add-player", "Club", "Bob"]):
            assert companion("tournament", *step, cwd=tmp_path).returncode == 0
        sent = companion("tournament", "pair", "Club", "--send", "--config", str(arbiter),
                         "--wait", "15", cwd=tmp_path)
        assert sent.returncode == 0, sent.stderr + sent.stdout
        assert "table 1:" in sent.stdout and "waiting for the players" in sent.stdout
        again = companion("tournament", "send", "Club", "--round", "1", "--config",
                          str(arbiter), "--wait", "15", cwd=tmp_path)
        assert again.returncode == 0, again.stderr + again.stdout  # sent again, shown again
        assert proc.stdin is not None
        proc.stdin.write(json.dumps({"key": "#"}) + "\n")
        proc.stdin.flush()
        assert wait_until(lambda: len(list(journals.glob("tantrix-*.jsonl"))) == 2)
        newest = max(journals.glob("tantrix-*.jsonl"), key=lambda p: p.stat().st_mtime_ns)
        header = read_path(newest).header
        assert header is not None
        assert (header["round"], header["board"]) == (1, 1)
        assert sorted(header["names"].values()) == ["Ada", "Bob"]
        assert wait_until(lambda: any(  # the new game's header is published before a move
            m.get("seq") == 0 and m["record"].get("round") == 1 for m in listener.on("events")))
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=15)
        assert proc.returncode == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        listener.close()
