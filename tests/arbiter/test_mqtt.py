"""Tables and the arbiter through a real mosquitto: outages lose nothing and double nothing."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from companion.arbiter.client import ArbiterClient
from companion.arbiter.pin import hash_pin
from companion.arbiter.publisher import TablePublisher, ack_path
from companion.arbiter.settings import MqttSettings
from companion.clock import FakeClock
from companion.tamsk.simtable import SimulatedTable, table_config
from tests.arbiter.broker import Broker
from tests.arbiter.conftest import wait_until
from tests.arbiter.keys import ARBITER, TABLES, keyring, table_arbiter

KEY = "the club's sixteen-plus key"


def journal_records(sim: SimulatedTable) -> list[dict[str, Any]]:
    path = sim.table.journal_path
    assert path is not None
    return [json.loads(line) for line in path.read_text().splitlines()]


def make_tables(tmp_path: Path, settings: MqttSettings, n: int) -> list[SimulatedTable]:
    tables = []
    for number in range(1, n + 1):
        folder = tmp_path / f"table{number}"
        folder.mkdir()
        config = table_config(number, {"arbiter": table_arbiter(
            club_key=KEY, pin_hash=hash_pin("2468"))})
        tables.append(SimulatedTable(number, folder, FakeClock(), mqtt=settings, config=config,
                                     seed=number, names={"red": f"R{number}",
                                                         "black": f"B{number}"},
                                     key=TABLES[number]))
    return tables


def play(tables: list[SimulatedTable], steps: int) -> None:
    for _ in range(steps):
        for sim in tables:
            sim.clock.advance(2.0)
            sim.step()
        time.sleep(0.01)


def caught_up(view_client: ArbiterClient, tables: list[SimulatedTable]) -> bool:
    with view_client.lock:
        return all(view_client.view.records(s.number) == journal_records(s) for s in tables)


def test_three_tables_survive_a_broker_restart_mid_round(tmp_path: Path, broker: Broker) -> None:
    settings = MqttSettings(enabled=True, port=broker.port)
    arbiter = ArbiterClient(settings, client_id="arbiter-test",
                            keyring=keyring(tmp_path)).start()
    tables = make_tables(tmp_path, settings, 3)
    try:
        assert wait_until(lambda: all(s.publisher and s.publisher.connected.is_set()
                                      for s in tables))
        play(tables, 12)
        broker.kill()  # mid-round, without warning
        play(tables, 8)  # the tables go on; the journals grow
        broker.start()
        play(tables, 8)
        assert wait_until(lambda: caught_up(arbiter, tables), timeout=30.0)
        with arbiter.lock:
            for sim in tables:
                got = arbiter.view.records(sim.number)
                assert [r["seq"] for r in got] == list(range(len(got)))  # once each, in order
                assert got == journal_records(sim)
                assert arbiter.view.tables[sim.number].status == "online"
        for sim in tables:
            assert sim.publisher is not None
            assert sim.publisher.republished > 0 or sim.publisher.connections > 1
            last = journal_records(sim)[-1]
            assert wait_until(lambda sim=sim, last=last: json.loads(
                ack_path(sim.table.journal_path).read_text())["acked"] == last["seq"])
    finally:
        for sim in tables:
            sim.close()
        arbiter.stop()


def test_a_restarted_table_republishes_only_what_the_broker_never_acknowledged(
    tmp_path: Path, broker: Broker
) -> None:
    settings = MqttSettings(enabled=True, port=broker.port)
    (sim,) = make_tables(tmp_path, settings, 1)
    try:
        play([sim], 5)
        path = sim.table.journal_path
        assert path is not None
        first = sim.publisher
        assert first is not None
        assert wait_until(lambda: json.loads(ack_path(path).read_text())["acked"] == 5)
        first.stop()
        sim.publisher = None  # the table is off the network; it goes on journaling
        play([sim], 3)
        again = TablePublisher(settings, 1, journal_path=lambda: path, key=TABLES[1],
                               client_id="companion-table-1-again").start()
        assert wait_until(lambda: json.loads(ack_path(path).read_text())["acked"] == 8)
        assert again.published == 3 and again.republished == 0
        again.stop()
    finally:
        sim.close()


def test_a_replayed_command_over_mqtt_is_refused_and_journaled(
    tmp_path: Path, broker: Broker
) -> None:
    settings = MqttSettings(enabled=True, port=broker.port)
    (sim,) = make_tables(tmp_path, settings, 1)
    # the arbiter's laptop and the table agree on the time of day (the table's is a fake clock)
    arbiter = ArbiterClient(settings, client_id="arbiter-replay", wall=sim.clock.wall,
                            keyring=keyring(tmp_path)).start()
    try:
        play([sim], 4)
        assert wait_until(lambda: caught_up(arbiter, [sim]))
        sent = arbiter.send_command(1, {"what": "add-ring", "player": "black", "space": "d4",
                                        "reason": "seen from the arbiter's desk"}, ARBITER)
        assert wait_until(lambda: (sim.service(), len(sim.answers))[1] == 1)
        assert sim.answers[0].ok is True
        arbiter.publish_raw(1, json.dumps(sent).encode())  # the same bytes again
        assert wait_until(lambda: (sim.service(), len(sim.answers))[1] == 2)
        assert sim.answers[1].ok is False and "replayed" in sim.answers[1].detail
        records = journal_records(sim)
        corrections = [r for r in records if r.get("ev") == "correct"]
        refusals = [r for r in records if r.get("arbiter") == "commands-refused"]
        assert len(corrections) == 1 and corrections[0]["nonce"] == sent["nonce"]
        assert len(refusals) == 1 and "replayed 1" in refusals[0]["text"]
        assert wait_until(lambda: any(a["kind"] == "command"
                                      for a in arbiter.snapshot()["tables"][0]["alerts"]))
    finally:
        sim.close()
        arbiter.stop()


def test_a_finished_game_publishes_its_signed_result(tmp_path: Path, broker: Broker) -> None:
    settings = MqttSettings(enabled=True, port=broker.port)
    arbiter = ArbiterClient(settings, client_id="arbiter-results",
                            keyring=keyring(tmp_path)).start()
    (sim,) = make_tables(tmp_path, settings, 1)
    try:
        play([sim], 3)
        sim.station.correct({"what": "result", "winner": "black", "reason": "red resigned"},
                            auth="pin")
        assert wait_until(lambda: len(arbiter.results()) == 1)
        from companion.arbiter import signing

        record = arbiter.results()[0]
        assert signing.check(record, KEY.encode()) is None
        assert record["winner"] == "black" and record["table"] == 1
        sim.close()  # the table goes away: its retained status says so
        assert wait_until(lambda: arbiter.snapshot()["tables"][0]["status"] == "offline")
    finally:
        sim.close()
        arbiter.stop()


def test_the_daemon_hooks_carry_commands_out_in_the_asyncio_loop(
    tmp_path: Path, broker: Broker
) -> None:
    """A command arrives in the publisher's thread and is carried out in the daemon's loop."""
    import asyncio
    import threading

    from companion.arbiter.hooks import ArbiterHooks
    from companion.tamsk.game import Rules
    from companion.tamsk.table import Table

    config = table_config(7, {"arbiter": table_arbiter(club_key=KEY),
                              "mqtt": {"enabled": True, "port": broker.port}})
    clock = FakeClock()

    async def daemon() -> list[str]:
        hooks = ArbiterHooks(config, clock, loop=asyncio.get_running_loop(),
                             table_key=TABLES[7])
        table = Table(clock, tmp_path, config=config, on_record=hooks.on_record)
        table.start_game(Rules(level=3), table=7)
        hooks.attach(table)
        loop_thread = threading.get_ident()
        ran_in: list[int] = []
        original = hooks.run_screened

        def traced(command: dict[str, Any]) -> None:
            ran_in.append(threading.get_ident())
            original(command)

        hooks.run_screened = traced  # type: ignore[method-assign]
        arbiter = ArbiterClient(MqttSettings(enabled=True, port=broker.port),
                                client_id="arbiter-hooks", wall=clock.wall,
                                keyring=keyring(tmp_path)).start()
        try:
            for _ in range(200):
                if any(t.get("game") for t in arbiter.snapshot()["tables"]):
                    break
                await asyncio.sleep(0.05)
            arbiter.send_command(7, {"what": "turn", "player": "black", "reason": "x"},
                                 ARBITER)
            for _ in range(200):
                if ran_in:
                    break
                await asyncio.sleep(0.05)
            assert ran_in == [loop_thread]
            assert table.game is not None and table.game.turn == "black"
            path = table.journal_path
            assert path is not None
            return [json.loads(line).get("ev") for line in path.read_text().splitlines()]
        finally:
            arbiter.stop()
            hooks.close()
            table.close()

    evs = asyncio.run(daemon())
    assert evs[-1] == "correct"


PUBLISHER_SCRIPT = """
import sys, threading
from pathlib import Path
from companion.arbiter.publisher import TablePublisher
from companion.arbiter.settings import MqttSettings
from companion.journal import JournalWriter
from tests.arbiter.keys import TABLES
path = Path(sys.argv[2])
JournalWriter.create(path, {"game": "tamsk", "table": 9}).close()
p = TablePublisher(MqttSettings(enabled=True, port=int(sys.argv[1])), 9,
                   journal_path=lambda: path, key=TABLES[9]).start()
p.connected.wait(20)
print("online", flush=True)
threading.Event().wait()
"""


def test_a_table_that_dies_is_shown_offline_by_its_last_will(
    tmp_path: Path, broker: Broker
) -> None:
    import subprocess
    import sys

    arbiter = ArbiterClient(MqttSettings(enabled=True, port=broker.port),
                            client_id="arbiter-will", keyring=keyring(tmp_path)).start()
    table = subprocess.Popen([sys.executable, "-c", PUBLISHER_SCRIPT, str(broker.port),
                              str(tmp_path / "t9.jsonl")], stdout=subprocess.PIPE)
    try:
        assert table.stdout is not None and table.stdout.readline().strip() == b"online"
        assert wait_until(lambda: any(t["status"] == "online"
                                      for t in arbiter.snapshot()["tables"]))
        table.kill()  # no goodbye: the broker publishes the will
        assert wait_until(lambda: arbiter.snapshot()["tables"][0]["status"] == "offline")
    finally:
        table.kill()
        table.wait(5)
        arbiter.stop()
