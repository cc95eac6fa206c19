"""How many tables one broker and one arbiter page keep up with (target: 50 on this machine).

Starts a real mosquitto (Debian's ``mosquitto``) on a free local port, the arbiter's MQTT client
and web server, and one reader of the page's live stream (``/api/stream``, what the browser's
EventSource reads). Then, for growing numbers of tables, runs that many real tables
(``companion.tamsk.table.Table`` with its journal, fsync included, and its MQTT publisher thread),
each making one input per second, spread evenly over the second. Every journal record's delay
is measured from its ``wall`` time (written when it was journaled) to the moment the view had
applied it (broker + arbiter client), and to the moment the page's stream carried it.

A number of tables is kept up with when no record was lost and 99 % of records reached the
page within 100 ms. Prints one line per run and the verdict. Everything runs on this machine
(tables, broker, arbiter and page reader share its 2 cores), so the figures are a lower bound
for a club where each table has its own Pi.

Usage: python bench/tables.py [--tables 10,25,50,75,100] [--seconds 12]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.arbiter.client import ArbiterClient  # noqa: E402
from companion.arbiter.settings import ArbiterSettings, MqttSettings  # noqa: E402
from companion.arbiter.web import ArbiterServer  # noqa: E402
from companion.clock import MonotonicClock  # noqa: E402
from companion.keys import Keyring, SigningKey  # noqa: E402
from companion.tamsk.simtable import SimulatedTable, table_config  # noqa: E402
from tests.arbiter.broker import Broker, mosquitto_path  # noqa: E402

LIMIT_MS = 100.0


class PageReader(threading.Thread):
    """Reads the page's event stream and notes when each table's seq first showed."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.shown: dict[int, list[tuple[int, float]]] = {}
        self.lock = threading.Lock()

    def run(self) -> None:
        with urllib.request.urlopen(self.url, timeout=600) as stream:
            for raw in stream:
                line = raw.decode().strip()
                if not line.startswith("data: "):
                    continue
                now = time.time()
                data = json.loads(line[6:])
                with self.lock:
                    for t in data["tables"]:
                        seq = t.get("seq")
                        if isinstance(seq, int):
                            self.shown.setdefault(t["table"], []).append((seq, now))


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(n: int, seconds: float, broker: Broker, folder: Path) -> dict[str, Any]:
    prefix = f"bench{n}"
    mqtt = MqttSettings(enabled=True, port=broker.port, topic_prefix=prefix)
    keys = {number: SigningKey.generate() for number in range(1, n + 1)}
    ring = Keyring(folder / f"{prefix}-keyring.json")
    for number, key in keys.items():
        ring.enroll(str(number), key.public, "bench")
    client = ArbiterClient(mqtt, client_id=f"bench-arbiter-{n}", persistent=False,
                           keyring=ring).start()
    server = ArbiterServer(client, ArbiterSettings(), port=0).start()
    reader = PageReader(f"http://127.0.0.1:{server.port}/api/stream")
    reader.start()
    walls: dict[tuple[int, int], float] = {}
    applied: dict[tuple[int, int], float] = {}
    lock = threading.Lock()

    def on_message(original: Any) -> Any:
        def handle(c: Any, userdata: Any, message: Any) -> None:
            original(c, userdata, message)
            if message.topic.endswith("/events"):
                m = json.loads(message.payload)
                with lock:
                    applied.setdefault((m["table"], m["seq"]), time.time())
        return handle

    client._client.on_message = on_message(client._client.on_message)  # measure, then apply
    clock = MonotonicClock()
    tables = []
    for number in range(1, n + 1):
        table_dir = folder / f"{prefix}-t{number}"
        table_dir.mkdir()

        def note(sealed: dict[str, Any], number: int = number) -> None:
            with lock:
                walls[(number, int(sealed["seq"]))] = float(sealed["wall"])

        tables.append(SimulatedTable(number, table_dir, clock, mqtt=mqtt, seed=number,
                                     config=table_config(number), on_record=note,
                                     key=keys[number]))
    start = time.monotonic() + 1.0
    tick = 0
    stop_at = start + seconds
    while True:
        for i, sim in enumerate(tables):
            due = start + tick + i / n
            if due >= stop_at:
                break
            time.sleep(max(0.0, due - time.monotonic()))
            sim.step()  # a game is far from over after a few dozen inputs
        else:
            tick += 1
            continue
        break
    time.sleep(2.0)  # let the last records arrive
    with lock:
        records = dict(walls)
        got = dict(applied)
    with reader.lock:
        shown = {t: list(v) for t, v in reader.shown.items()}
    view_delays = [(got[k] - w) * 1000 for k, w in records.items() if k in got]
    page_delays = []
    for (table, seq), wall in records.items():
        first = next((at for s, at in shown.get(table, []) if s >= seq), None)
        if first is not None:
            page_delays.append((first - wall) * 1000)
    missing = len(records) - len(page_delays)
    for sim in tables:
        sim.close()
    server.stop()
    client.stop()
    return {
        "tables": n,
        "records": len(records),
        "missing": missing,
        "view_p50": percentile(view_delays, 0.5),
        "view_p99": percentile(view_delays, 0.99),
        "page_p50": percentile(page_delays, 0.5),
        "page_p99": percentile(page_delays, 0.99),
        "page_max": max(page_delays) if page_delays else float("nan"),
        "mean_rate": len(records) / seconds,
        "stdev": statistics.pstdev(page_delays) if len(page_delays) > 1 else 0.0,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", default="10,25,50,75,100")
    parser.add_argument("--seconds", type=float, default=12.0)
    args = parser.parse_args()
    if mosquitto_path() is None:
        print("bench/tables.py: mosquitto is not installed (apt-get install mosquitto); skipped")
        return 0
    counts = [int(x) for x in args.tables.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "broker").mkdir()
        broker = Broker(folder / "broker").start()
        best = 0
        try:
            print(f"{'tables':>6} {'records':>8} {'lost':>5} {'view p50':>9} {'view p99':>9} "
                  f"{'page p50':>9} {'page p99':>9} {'page max':>9}  (ms, one input/s/table)")
            for n in counts:
                r = run(n, args.seconds, broker, folder)
                ok = r["missing"] == 0 and r["page_p99"] < LIMIT_MS
                print(f"{r['tables']:6d} {r['records']:8d} {r['missing']:5d} "
                      f"{r['view_p50']:9.1f} {r['view_p99']:9.1f} {r['page_p50']:9.1f} "
                      f"{r['page_p99']:9.1f} {r['page_max']:9.1f}  {'ok' if ok else 'TOO SLOW'}",
                      flush=True)
                if ok:
                    best = max(best, n)
                else:
                    break
        finally:
            broker.stop()
    print(f"one broker and one arbiter page keep up with {best} tables "
          f"(p99 under {LIMIT_MS:.0f} ms, nothing lost; target 50)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
