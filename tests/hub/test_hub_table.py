"""The sensor hub as the daemon's input backend: the firmware (in a thread, over a real pty)
reports a flip and a ring press; the table journals them with the hub's times; a pulled cable
shows on the screen."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from hubsim import HubThread, PtyCable, SimHub, wait_for

from companion.clock import MonotonicClock
from companion.config import defaults
from companion.daemon import Daemon, HubInputs
from companion.journal import read_path
from companion.tamsk.game import Rules
from companion.tamsk.table import Table


@pytest.fixture
def hub(cable: PtyCable) -> Iterator[HubThread]:
    sim = SimHub(cable.port, virtual=False, period=1 << 24, SETTLE_TILT_US=5000)
    thread = HubThread(sim).start()
    yield thread
    thread.stop()


def test_hub_inputs_become_journaled_moves_and_a_pulled_cable_is_shown(
    tmp_path: Path, cable: PtyCable, hub: HubThread
) -> None:
    config = defaults()
    config["table"]["hub_port"] = str(cable.path)
    clock = MonotonicClock()
    table = Table(clock, tmp_path, config=config)
    table.start_game(Rules(level=2))
    daemon = Daemon(table, clock)
    ready = threading.Event()
    warnings: list[str] = []

    async def main() -> None:
        loop = asyncio.get_running_loop()
        daemon.loop = loop
        inputs = HubInputs(config, clock, daemon, loop)
        ready.set()

        async def watch() -> None:
            while not daemon.stop_event.is_set():
                if table.warning:
                    warnings.append(table.warning)
                await asyncio.sleep(0.02)

        watcher = asyncio.ensure_future(watch())
        try:
            await daemon.run()
        finally:
            watcher.cancel()
            inputs.close()

    runner = threading.Thread(target=lambda: asyncio.run(main()), daemon=True)
    runner.start()
    assert ready.wait(10)
    hub.set_input("tilt.r1", True)  # red turns r1 over
    path = table.journal_path
    assert path is not None
    assert wait_for(lambda: len(read_path(path).events) >= 2)
    before = int(hub.do(lambda: len(hub.sim.emitted)))
    hub.set_input("ring.red", True)
    assert wait_for(lambda: int(hub.do(lambda: len(hub.sim.emitted))) > before)
    hub.set_input("ring.red", False)
    assert wait_for(lambda: len(read_path(path).events) >= 3)
    cable.pull()
    assert wait_for(lambda: "hub link lost" in warnings)
    daemon.loop.call_soon_threadsafe(daemon.stop)  # type: ignore[union-attr]
    runner.join(10)
    events = [b for _, b in read_path(path).events]
    assert [(e["ev"], e.get("glass") or e.get("player")) for e in events[:3]] == [
        ("lift", "r1"),
        ("release", "r1"),
        ("ring", "red"),
    ]
    assert table.game is not None and table.game.turn == "black"

