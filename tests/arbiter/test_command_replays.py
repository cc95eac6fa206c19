"""A command is heard once, however it is spelt: every gate decides on the decoded command.

JSON spells one key many ways (``"pairing"``, ``"pa\\u0069ring"``), and the arbiter's
signature covers the decoded, canonical form, so a re-encoded command is still validly signed.
A table must therefore tell a pairing from a correction, and a used nonce from a new one, from
the decoded command: a re-encoded replay is refused (answered, never an exception in the
table's loop), and nothing reaches the game twice.
"""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path
from typing import Any

import pytest

from companion.arbiter.commands import make_command, make_pairing_command
from companion.arbiter.hooks import ArbiterHooks
from companion.arbiter.station import game_id_of
from companion.clock import FakeClock
from companion.tables import make_table
from companion.tamsk.simtable import SimulatedTable, table_config
from tests.arbiter.keys import ARBITER, table_arbiter
from tests.arbiter.test_pairings_reach_tables import Rig, pairing


def respelt_key(payload: str, key: str) -> str:
    """``payload`` with ``key``'s name spelt with a ``\\u`` escape (the same JSON object)."""
    spelt = f"{key[:2]}\\u{ord(key[2]):04x}{key[3:]}"
    out = payload.replace(f'"{key}"', f'"{spelt}"')
    assert out != payload and json.loads(out) == json.loads(payload)
    return out


def respelt_nonce(payload: str, nonce: str) -> str:
    """``payload`` with its nonce's first character escaped (the same nonce, decoded)."""
    out = payload.replace(f'"{nonce}"', f'"\\u{ord(nonce[0]):04x}{nonce[1:]}"')
    assert out != payload and json.loads(out) == json.loads(payload)
    return out


@pytest.mark.parametrize("kind", ["tamsk", "tantrix", "tokami"])
def test_a_pairing_replayed_with_its_key_re_encoded_is_refused(tmp_path: Path,
                                                                kind: str) -> None:
    rig = Rig(tmp_path, kind)
    command = make_pairing_command(pairing(kind), table=3, key=ARBITER, issued=rig.clock.wall())
    payload = json.dumps(command)
    rig.hooks._command_arrived(payload.encode())
    rig.key("#")
    started = rig.table.journal_path
    assert rig.answers[-1]["state"] == "started"
    for replay in (respelt_key(payload, "pairing"), respelt_nonce(payload, command["nonce"]),
                   respelt_nonce(respelt_key(payload, "pairing"), command["nonce"])):
        rig.hooks._command_arrived(replay.encode())
        assert rig.answers[-1]["ok"] is False and "replayed" in rig.answers[-1]["detail"]
        assert "pairing" not in rig.table.view()
    rig.key("#")
    assert rig.table.journal_path == started  # no second game from the replays


def test_a_re_encoded_pairing_is_refused_while_the_first_is_still_shown(tmp_path: Path) -> None:
    rig = Rig(tmp_path, "tantrix")
    command = make_pairing_command(pairing("tantrix"), table=3, key=ARBITER,
                                   issued=rig.clock.wall())
    payload = respelt_key(json.dumps(command), "pairing")  # the genuine one, spelt oddly
    rig.hooks._command_arrived(payload.encode())
    assert rig.answers[-1]["state"] == "shown"
    rig.hooks._command_arrived(json.dumps(command).encode())
    assert rig.answers[-1]["ok"] is False and "replayed" in rig.answers[-1]["detail"]


def test_a_pairing_replayed_after_the_table_restarts_is_refused(tmp_path: Path) -> None:
    """The used pairing's nonce is in the game's header: a fresh table (the daemon restarted)
    reads it back into its one gate, however the replay is spelt."""
    rig = Rig(tmp_path, "tamsk")
    command = make_pairing_command(pairing("tamsk"), table=3, key=ARBITER,
                                   issued=rig.clock.wall())
    rig.hooks._command_arrived(json.dumps(command).encode())
    rig.key("#")
    path = rig.table.journal_path
    rig.table.close()
    table: Any = make_table(rig.config, rig.clock, tmp_path)
    table.resume(path)
    hooks = ArbiterHooks(rig.config, rig.clock)
    hooks.attach(table)
    answers: list[dict[str, Any]] = []
    hooks._reply = answers.append  # type: ignore[method-assign]
    assert hooks.desk is not None
    hooks.desk._answer = answers.append
    hooks._command_arrived(respelt_key(json.dumps(command), "pairing").encode())
    assert answers[-1]["ok"] is False and "replayed" in answers[-1]["detail"]
    table.close()


def test_a_re_encoded_pairing_replay_raises_nothing_in_the_table_s_loop(tmp_path: Path) -> None:
    """The daemon's way: the command arrives on the publisher's thread and is carried out in
    the asyncio loop; the loop's exception handler hears of no exception."""
    errors: list[dict[str, Any]] = []

    async def daemon() -> list[dict[str, Any]]:
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(lambda _loop, context: errors.append(context))
        rig = Rig(tmp_path, "tantrix")
        rig.hooks.loop = loop
        command = make_pairing_command(pairing("tantrix"), table=3, key=ARBITER,
                                       issued=rig.clock.wall())
        payload = json.dumps(command)
        for data in (payload, respelt_key(payload, "pairing")):
            arrived = threading.Thread(target=rig.hooks._command_arrived, args=(data.encode(),))
            arrived.start()
            arrived.join()
            for _ in range(100):
                await asyncio.sleep(0.01)
                if len(rig.answers) == (1 if data == payload else 2):
                    break
        return rig.answers

    answers = asyncio.run(daemon())
    assert errors == []
    assert [a["ok"] for a in answers] == [True, False]
    assert "replayed" in answers[-1]["detail"]


@pytest.fixture
def tamsk(tmp_path: Path) -> SimulatedTable:
    config = table_config(4, {"arbiter": table_arbiter()})
    clock = FakeClock()
    sim = SimulatedTable(4, tmp_path, clock, config=config, seed=3,
                         names={"red": "Ann", "black": "Bob"})
    for _ in range(4):
        clock.advance(2.5)
        sim.step()
    return sim


def corrections(sim: SimulatedTable) -> list[dict[str, Any]]:
    path = sim.table.journal_path
    assert path is not None
    records = [json.loads(line) for line in path.read_text().splitlines()]
    return [r for r in records if r.get("ev") == "correct"]


def test_a_correction_replayed_re_encoded_is_refused(tamsk: SimulatedTable) -> None:
    command = make_command({"what": "add-ring", "player": "black", "space": "d4",
                            "reason": "missed"}, table=4,
                           game=str(game_id_of(tamsk.table.journal_path)), key=ARBITER,
                           issued=tamsk.clock.wall())
    payload = json.dumps(command)
    assert tamsk.station.command(payload).ok
    for replay in (respelt_key(payload, "correction"), respelt_nonce(payload, command["nonce"])):
        outcome = tamsk.station.command(replay)
        assert outcome.ok is False and "replayed" in outcome.detail
    assert len(corrections(tamsk)) == 1


def test_a_pairing_at_a_station_is_refused_not_carried_out(tamsk: SimulatedTable) -> None:
    """A table without a pairing desk: the station answers that it takes no such command
    (today's KeyError, a pairing read as a correction, is gone)."""
    command = make_pairing_command(pairing("tamsk"), table=4, key=ARBITER,
                                   issued=tamsk.clock.wall())
    for payload in (json.dumps(command), respelt_key(json.dumps(command), "pairing")):
        outcome = tamsk.station.command(payload)
        assert outcome.ok is False and "no correction" in outcome.detail
    assert corrections(tamsk) == []
