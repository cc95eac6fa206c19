"""The arbiter's page at 100 tables: how much of a core its server uses (target: under 5 %).

100 Tamsk tables (each the real ``Table``, journaling, played by a script) make one input a
second each, spread over the second; their signed records go straight into the arbiter's view
(the MQTT client's part is measured by ``bench/tables.py``), and one browser's worth of live
stream (``/api/stream``, what EventSource reads) is read from the real aiohttp page. The
figure is the CPU time of the page's own thread (``arbiter-http``, from
``/proc/self/task/TID/stat``) over the run, as a share of one core, with the cards and bytes it
pushed a second.

Usage: python bench/page_cpu.py [--tables 100] [--seconds 20]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.arbiter import topics  # noqa: E402
from companion.arbiter.sealing import seal  # noqa: E402
from companion.arbiter.settings import ArbiterSettings  # noqa: E402
from companion.arbiter.view import ArbiterView  # noqa: E402
from companion.arbiter.web import ArbiterServer  # noqa: E402
from companion.clock import MonotonicClock  # noqa: E402
from companion.keys import Keyring, SigningKey  # noqa: E402
from companion.tamsk.simtable import SimulatedTable, table_config  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


class ViewSource:
    """The page's source, as the MQTT client is, fed in-process."""

    def __init__(self, keyring: Keyring) -> None:
        self.view = ArbiterView("companion", keyring)
        self.lock = threading.Lock()
        self.changed = threading.Condition(self.lock)

    def handle(self, topic: str, payload: bytes) -> None:
        with self.changed:
            self.view.handle(topic, payload, time.monotonic())
            self.changed.notify_all()

    def snapshot(self) -> dict[str, Any]:
        with self.lock:
            return self.view.snapshot(time.monotonic())

    def changed_since(self, seen: dict[int, int], full: bool = False,
                      also: frozenset[int] | set[int] = frozenset()) -> list[dict[str, Any]]:
        with self.lock:
            return self.view.changed_since(seen, time.monotonic(), full=full, also=also)

    def version(self) -> int:
        return self.view.version

    def send_command(self, *a: Any) -> dict[str, Any]:
        raise LookupError("no commands in the bench")

    def results(self) -> list[dict[str, Any]]:
        return []


def thread_cpu(name: str) -> float:
    """CPU seconds (user + system) of this process's thread called ``name``."""
    for t in threading.enumerate():
        if t.name == name and t.native_id is not None:
            fields = Path(f"/proc/self/task/{t.native_id}/stat").read_text().rsplit(")", 1)[1]
            parts = fields.split()
            return (int(parts[11]) + int(parts[12])) / TICKS
    raise LookupError(name)


class Reader(threading.Thread):
    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.bytes = 0
        self.cards = 0
        self.stop = threading.Event()

    def run(self) -> None:
        with urllib.request.urlopen(self.url, timeout=30) as stream:
            for line in stream:
                if self.stop.is_set():
                    return
                self.bytes += len(line)
                if line.startswith(b"data: "):
                    self.cards += line.count(b'"table":')


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args()
    n = args.tables
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        keys = {i: SigningKey.generate() for i in range(1, n + 1)}
        ring = Keyring(folder / "keyring.json")
        for i, key in keys.items():
            ring.enroll(str(i), key.public, "bench")
        source = ViewSource(ring)
        server = ArbiterServer(source, ArbiterSettings(), port=0).start()  # type: ignore[arg-type]
        clock = MonotonicClock()
        tables = []
        for i in range(1, n + 1):
            (folder / f"t{i}").mkdir()
            game: dict[str, str] = {}

            def publish(sealed: dict[str, Any], i: int = i, game: dict[str, str] = game) -> None:
                message = {"id": topics.event_id(i, game["id"], sealed["seq"]), "table": i,
                           "game": game["id"], "seq": sealed["seq"], "record": sealed}
                source.handle(topics.topic("companion", i, "events"),
                              json.dumps(seal(message, "events", keys[i])).encode())

            sim = SimulatedTable(i, folder / f"t{i}", clock, config=table_config(i), seed=i,
                                 on_record=publish)
            assert sim.table.journal_path is not None
            with open(sim.table.journal_path, encoding="utf-8") as f:
                header = json.loads(f.readline())
            game["id"] = str(header["hash"])[:16]
            publish(header)
            tables.append(sim)
        reader = Reader(f"http://127.0.0.1:{server.port}/api/stream")
        reader.start()
        time.sleep(2.0)
        cpu0, bytes0, cards0, t0 = thread_cpu("arbiter-http"), reader.bytes, reader.cards, \
            time.monotonic()
        tick = 0
        while time.monotonic() - t0 < args.seconds:
            for k, sim in enumerate(tables):
                due = t0 + tick + k / n
                time.sleep(max(0.0, due - time.monotonic()))
                sim.step()
            tick += 1
        elapsed = time.monotonic() - t0
        cpu = thread_cpu("arbiter-http") - cpu0
        reader.stop.set()
        server.stop()
        for sim in tables:
            sim.close()
    print(f"{n} tables, one input/s each, {elapsed:.0f} s: the page's thread used "
          f"{100 * cpu / elapsed:.1f} % of a core; pushed "
          f"{(reader.cards - cards0) / elapsed:.0f} cards/s, "
          f"{(reader.bytes - bytes0) / elapsed / 1024:.0f} KiB/s to one browser "
          f"(target: under 5 % of a core)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
