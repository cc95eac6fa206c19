"""A flood of forged arbiter commands against a table: its journal and its inputs.

Starts a real mosquitto (Debian's ``mosquitto``) on a free local port and the real table
daemon (asyncio loop, gpiozero mock pins, the journal with its fsyncs, the OLED on luma's dummy
device) with arbiter mode and MQTT on (:class:`~companion.arbiter.hooks.ArbiterHooks`, its
publisher thread). A second process publishes forged commands on the table's command topic,
``--rate`` a second (default 1,000) for ``--seconds``: well-formed JSON for the right table,
a fresh nonce and the current time, signed by a key that is not the arbiter's (the costliest
kind to refuse). Meanwhile a tilt switch is toggled every 130 ms, as in ``bench/latency.py``.

Prints, without and with the flood: the delay from the switch's edge to its fsynced journal
record (p50 / p99 / max), how many commands were refused, and how many bytes and lines the
journal gained besides the inputs' own records.

Usage: python bench/flood.py [--rate 1000] [--seconds 10]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gpiozero.pins.mock import MockFactory, MockPWMPin  # noqa: E402

from companion.arbiter.hooks import ArbiterHooks  # noqa: E402
from companion.clock import MonotonicClock  # noqa: E402
from companion.config import defaults  # noqa: E402
from companion.daemon import Daemon, make_sounder  # noqa: E402
from companion.hw.display import Display, make_device  # noqa: E402
from companion.hw.inputs import GpioInputs  # noqa: E402
from companion.keys import SigningKey  # noqa: E402
from companion.tamsk.game import Rules  # noqa: E402
from companion.tamsk.table import Table  # noqa: E402
from tests.arbiter.broker import Broker, mosquitto_path  # noqa: E402

FLOODER = """
import json, secrets, sys, time
import paho.mqtt.client as mqtt
from companion.arbiter.commands import make_command
from companion.keys import SigningKey
port, table = int(sys.argv[1]), int(sys.argv[2])
rate, seconds = float(sys.argv[3]), float(sys.argv[4])
forger = SigningKey.generate()
c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="flooder")
c.connect("127.0.0.1", port)
c.loop_start()
payloads = [json.dumps(make_command({"what": "result", "winner": "red", "reason": "forged"},
                                    table=table, game="0" * 16, key=forger,
                                    issued=time.time())).encode() for _ in range(200)]
start = time.monotonic()
sent = 0
while time.monotonic() - start < seconds:
    due = start + sent / rate
    delay = due - time.monotonic()
    if delay > 0:
        time.sleep(delay)
    c.publish(f"companion/table/{table}/cmd", payloads[sent % len(payloads)], qos=0)
    sent += 1
c.loop_stop()
print(sent, flush=True)
"""


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def run(broker: Broker, rate: float, seconds: float, flood: bool) -> dict[str, Any]:
    config = defaults()
    config["input"]["settle_ms"] = 20
    config["table"]["number"] = 5
    config["mqtt"].update(enabled=True, port=broker.port)
    config["arbiter"]["arbiter_key"] = SigningKey.generate().public.line()
    clock = MonotonicClock()
    journaled: list[float] = []
    marks: dict[str, float] = {}
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        factory = MockFactory(pin_class=MockPWMPin)
        sounder = make_sounder(config, factory)
        loop_holder: dict[str, Any] = {}

        async def main() -> None:
            loop = asyncio.get_running_loop()
            hooks = ArbiterHooks(config, clock, loop=loop, table_key=SigningKey.generate())
            loop_holder["hooks"] = hooks

            def on_record(record: dict[str, Any]) -> None:
                hooks.on_record(record)
                if record.get("ev") == "lift" and "edge" in marks:
                    journaled.append(time.perf_counter() - marks.pop("edge"))

            table = Table(clock, Path(tmp), config=config, on_record=on_record,
                          sound=lambda p: sounder.play(p, clock.now()))
            display = Display(make_device(config, "mock"), max_fps=10)
            daemon = Daemon(table, clock, display=display, sounder=sounder)
            daemon.loop = loop
            inputs = GpioInputs(config, clock, daemon.deliver, pin_factory=factory)
            table.start_game(Rules(level=1), table=5)
            hooks.attach(table)
            assert hooks.publisher is not None
            await loop.run_in_executor(None, hooks.publisher.connected.wait, 20)
            path = table.journal_path
            assert path is not None

            def driver() -> None:
                level = {g: False for g in ("r1", "b1")}
                time.sleep(0.5)
                before = path.stat().st_size, len(path.read_bytes().splitlines())
                flooder = None
                if flood:
                    flooder = subprocess.Popen(
                        [sys.executable, "-c", FLOODER, str(broker.port), "5", str(rate),
                         str(seconds)], stdout=subprocess.PIPE, text=True,
                        cwd=Path(__file__).resolve().parents[1])
                    time.sleep(0.5)
                lifts_before = len(journaled)
                end = time.monotonic() + seconds - 1.0
                i = 0
                while time.monotonic() < end:
                    glass = "r1" if i % 2 == 0 else "b1"
                    pin = inputs.pin("tilt", glass)
                    level[glass] = not level[glass]
                    marks["edge"] = time.perf_counter()
                    (pin.drive_low if level[glass] else pin.drive_high)()
                    time.sleep(0.13)
                    i += 1
                time.sleep(0.3)
                lines = path.read_bytes().splitlines()
                inputs_written = sum(1 for raw in lines[before[1]:]
                                     if json.loads(raw).get("ev") in ("lift", "release"))
                out["extra_lines"] = len(lines) - before[1] - inputs_written
                out["journal_bytes"] = path.stat().st_size - before[0]
                out["inputs"] = len(journaled) - lifts_before
                if flooder is not None:
                    assert flooder.stdout is not None
                    out["sent"] = int(flooder.stdout.read().strip() or 0)
                    flooder.wait(30)
                out["refused"] = table_gate_total()
                loop.call_soon_threadsafe(daemon.stop)

            def table_gate_total() -> int:
                station = hooks.station
                return station.gate.refused_total if station is not None else -1

            threading.Thread(target=driver, daemon=True).start()
            await daemon.run()
            hooks.close()
            inputs.close()
            table.close()

        asyncio.run(main())
    out["p50"] = pct(journaled, 0.5) * 1000
    out["p99"] = pct(journaled, 0.99) * 1000
    out["max"] = max(journaled) * 1000 if journaled else float("nan")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rate", type=float, default=1000.0)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    if mosquitto_path() is None:
        print("mosquitto is not installed (apt-get install mosquitto)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        broker = Broker(Path(tmp)).start()
        try:
            print("flood        sent  refused  edge->journal p50 / p99 / max (ms)  "
                  "journal growth besides inputs")
            for flood in (False, True):
                r = run(broker, args.rate, args.seconds, flood)
                label = f"{args.rate:.0f}/s" if flood else "none"
                print(f"{label:>8} {r.get('sent', 0):>8} {r['refused']:>8}  "
                      f"{r['p50']:>8.2f} / {r['p99']:>6.2f} / {r['max']:>6.2f}"
                      f"          {r['extra_lines']} line(s), {r['journal_bytes']} bytes in all "
                      f"({r['inputs']} inputs)")
        finally:
            broker.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
