"""A flood of forged commands through the real mosquitto: counted, summarised, and harmless.

A thousand forged commands (well-formed, for the right table, fresh nonces, signed with a key
that is not the arbiter's) arrive while the table plays. None is carried out; the journal gains
one summary note, not a record each; the players' inputs meanwhile are journaled as usual.
How long the inputs take under the flood is measured by ``bench/flood.py``, not here.
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

from companion.arbiter.commands import make_command
from companion.arbiter.hooks import ArbiterHooks
from companion.arbiter.mqtt import make_client
from companion.arbiter.settings import MqttSettings
from companion.clock import FakeClock
from companion.inputs import RawInput
from companion.keys import SigningKey
from companion.tamsk.game import Rules
from companion.tamsk.simtable import table_config
from companion.tamsk.table import Table
from tests.arbiter.broker import Broker
from tests.arbiter.keys import TABLES, table_arbiter

FLOOD = 1000


def test_a_command_flood_is_counted_not_journaled_and_inputs_go_on(
    tmp_path: Path, broker: Broker
) -> None:
    config = table_config(3, {"arbiter": table_arbiter(),
                              "mqtt": {"enabled": True, "port": broker.port}})
    clock = FakeClock()
    forger = SigningKey.generate()

    async def daemon() -> tuple[list[dict[str, object]], int, int]:
        loop = asyncio.get_running_loop()
        hooks = ArbiterHooks(config, clock, loop=loop, table_key=TABLES[3])
        table = Table(clock, tmp_path, config=config, on_record=hooks.on_record)
        table.start_game(Rules(level=3), table=3)
        hooks.attach(table)
        assert hooks.publisher is not None and hooks.station is not None
        await loop.run_in_executor(None, hooks.publisher.connected.wait, 20)
        path = table.journal_path
        assert path is not None
        before = len(path.read_bytes().splitlines())
        flooder = make_client(MqttSettings(enabled=True, port=broker.port), "flooder")
        flooder.connect("127.0.0.1", broker.port)
        flooder.loop_start()
        try:
            for i in range(FLOOD):
                cmd = make_command({"what": "result", "winner": "red", "reason": "forged"},
                                   table=3, game=hooks.station.game_id or "", key=forger,
                                   issued=clock.wall())
                flooder.publish("companion/table/3/cmd", json.dumps(cmd), qos=0)
                if i % 100 == 0:  # the players play on meanwhile
                    table.feed(RawInput("key", "A", True, clock.now()))
                    await asyncio.sleep(0)
            deadline = time.monotonic() + 60  # generous: CI machines may be loaded
            while hooks.station.gate.refused_total < FLOOD and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
        finally:
            flooder.loop_stop()
            flooder.disconnect()
        records = [json.loads(raw) for raw in path.read_bytes().splitlines()[before:]]
        refused = hooks.station.gate.refused_total
        over = table.game is not None and table.game.over
        hooks.close()
        table.close()
        return records, refused, int(over)

    records, refused, over = asyncio.run(daemon())
    assert refused == FLOOD, f"only {refused} of {FLOOD} forged commands were seen and refused"
    assert not over
    notes = [r for r in records if r.get("arbiter") == "commands-refused"]
    assert len(notes) == 1  # the first refusal, summarised at once; the rest wait a minute
    assert not any(r.get("ev") == "correct" for r in records)
    assert len([r for r in records if r.get("ev") != "note"]) == FLOOD // 100  # every input
