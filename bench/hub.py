"""Sensor hub link: end-to-end latency and timestamp error over a real pty, idle and loaded.

    .venv/bin/python bench/hub.py [--seconds 15] [--warmup 12]

A child process runs the real firmware (firmware/*.py over the fake machine/time of
tests/hub/fakes) on the PC's monotonic clock, skewed by +35 ppm and offset, so the hub's
clock is not the host's; it moves inputs at random and writes frames to the master side
of a pseudo-terminal pair. This process reads the slave side with ``HubLink`` and
measures, per load phase (idle, one busy process, two busy processes on a 2-core Pi):

* latency: hub writes the EVENT frame -> ``on_event`` runs in the host (p50/p99/max);
* edge latency: the input moves -> ``on_event`` (adds the debounce settle time);
* timestamp error: ``HubEvent.t`` minus the true host time of the hub's timestamp,
  i.e. the error of the hub->host clock mapping (target: p99 under 1 ms while loaded).

The simulated hub runs at nice -10 when allowed, standing in for a microcontroller that
has a core to itself; the host reader under test runs at normal priority beside the load.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
import tty
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "hub"))

DRIFT_PPM = 35.0
OFFSET_US = 123_456_789
NAMES = [
    "tilt.r1",
    "tilt.r2",
    "tilt.r3",
    "tilt.b1",
    "tilt.b2",
    "tilt.b3",
    "ring.red",
    "ring.black",
    "timer15.red",
    "timer15.black",
    "menu",
    "5",
    "#",
]


def serve_hub(fd: int, seconds: float, report: str) -> None:
    """Child process: the simulated hub on the real clock, moving inputs at random."""
    from hubsim import CablePort, SimHub

    try:
        os.nice(-10)
    except OSError:
        pass
    port = CablePort()
    port.fd = fd
    os.set_blocking(fd, False)
    sim = SimHub(port, virtual=False, drift_ppm=DRIFT_PPM, offset_us=OFFSET_US)
    hub = sim.hub
    emits: dict[int, float] = {}
    emit = hub._emit
    clean_write = port.write
    marker: list[int | None] = [None]

    def timed_write(data: bytes) -> None:
        seq = marker[0]
        if seq is not None:  # the first write after an emit is that event's frame
            emits[seq] = time.monotonic()
            marker[0] = None
        clean_write(data)

    def timed_emit(index: int, value: int, first_tick: int) -> None:
        marker[0] = hub.next_seq
        emit(index, value, first_tick)

    port.write = timed_write  # type: ignore[method-assign]
    hub._emit = timed_emit
    rng = random.Random(7)
    levels = dict.fromkeys(NAMES, False)
    moves: list[tuple[str, int, float]] = []
    end = time.monotonic() + seconds
    next_move = time.monotonic() + 0.5
    while time.monotonic() < end:
        now = time.monotonic()
        if now >= next_move:
            name = rng.choice(NAMES)
            levels[name] = not levels[name]
            sim.set_input(name, levels[name])
            moves.append((name, int(levels[name]), time.monotonic()))
            next_move = now + rng.uniform(0.02, 0.06)
        sim.step()
        time.sleep(0.0001)
    t_end = time.monotonic() + 1.0
    while time.monotonic() < t_end:  # let the last events settle and go out
        sim.step()
        time.sleep(0.0001)
    assert sim.real_base_us is not None
    out = {
        "base_us": sim.real_base_us,
        "offset_us": OFFSET_US,
        "rate": 1 + DRIFT_PPM * 1e-6,
        "emitted": sim.emitted,
        "emits": emits,
        "moves": moves,
    }
    Path(report).write_text(json.dumps(out))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=15.0, help="per load phase")
    parser.add_argument("--warmup", type=float, default=12.0, help="idle time before measuring")
    parser.add_argument("--serve-hub", nargs=3, metavar=("FD", "SECONDS", "REPORT"))
    args = parser.parse_args()
    if args.serve_hub:
        fd, seconds, report = args.serve_hub
        serve_hub(int(fd), float(seconds), report)
        return

    from companion.hub import HubEvent, HubLink

    phases = [("idle", 0), ("1 busy process", 1), ("2 busy processes", 2)]
    total = args.warmup + args.seconds * len(phases)
    master, slave = os.openpty()
    tty.setraw(slave)
    received: list[tuple[HubEvent, float]] = []
    lock = threading.Lock()

    def on_event(event: HubEvent) -> None:
        now = time.monotonic()
        with lock:
            received.append((event, now))

    links: list[tuple[float, str, str]] = []

    def on_link(status: str, detail: str) -> None:
        links.append((time.monotonic(), status, detail))

    link = HubLink(os.ttyname(slave), on_event=on_event, on_link=on_link)
    link.start()
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "hub.json")
        hub = subprocess.Popen(
            [sys.executable, __file__, "--serve-hub", str(master), str(total), report],
            pass_fds=(master,),
        )
        start = time.monotonic()
        bounds: list[tuple[str, float, float]] = []
        time.sleep(args.warmup)
        for name, busy in phases:
            spinners = [
                subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(busy)
            ]
            t0 = time.monotonic()
            time.sleep(args.seconds)
            bounds.append((name, t0, time.monotonic()))
            for spinner in spinners:
                spinner.kill()
                spinner.wait()
        hub.wait()
        time.sleep(0.5)
        link.close()
        os.close(master)
        os.close(slave)
        data = json.loads(Path(report).read_text())

    base_us, offset_us, rate = data["base_us"], data["offset_us"], data["rate"]

    def true_host(hub_us: int) -> float:
        return (base_us + (hub_us - offset_us) / rate) / 1e6

    emitted = {seq: (index, value, hub_us) for seq, index, value, hub_us in data["emitted"]}
    emits = {int(seq): t for seq, t in data["emits"].items()}
    moves = data["moves"]
    seqs = [event.seq for event, _ in received]
    exact = seqs == sorted(set(seqs)) and set(seqs) == set(emitted)
    estimated = -link.session.clock.drift * 1e6
    print(
        f"hub link over a pty: {len(emitted)} events from the hub, {len(received)} delivered,"
        f" {'each exactly once' if exact else 'NOT exactly once'};"
        f" hub crystal {DRIFT_PPM:+g} ppm fast, estimated {estimated:+.1f} ppm;"
        f" warm-up {args.warmup:g} s, {time.monotonic() - start:.0f} s in all"
    )
    print(
        f"{'phase':<18} {'n':>4}  {'latency p50/p99/max (ms)':>26}  {'edge->event p50/p99':>20}"
        f"  {'timestamp error p50/p99/max (ms)':>33}"
    )
    move_times = sorted(t for _, _, t in moves)
    for name, t0, t1 in bounds:
        lat, edge_lat, err = [], [], []
        for event, at in received:
            if not t0 <= at < t1:
                continue
            lat.append((at - emits[event.seq]) * 1e3)
            err.append(abs(event.t - true_host(event.hub_us)) * 1e3)
            truth = true_host(event.hub_us)
            # The move that caused it: the last move at or before the hub's timestamp.
            before = [t for t in move_times if t <= truth + 0.001]
            if before:
                edge_lat.append((at - before[-1]) * 1e3)
        if not lat:
            print(f"{name:<18} no events")
            continue
        p = percentile
        print(
            f"{name:<18} {len(lat):>4}  {p(lat, 0.5):>8.2f} {p(lat, 0.99):>8.2f} {max(lat):>8.2f}"
            f"  {p(edge_lat, 0.5):>9.2f} {p(edge_lat, 0.99):>9.2f}"
            f"  {p(err, 0.5):>10.3f} {p(err, 0.99):>10.3f} {max(err):>10.3f}"
        )
    measured = [
        (round(t - start, 1), s, d)
        for t, s, d in links
        if s != "up" and bounds[0][1] <= t < bounds[-1][2]
    ]
    print(f"link warnings while measuring: {measured if measured else 'none'}")


if __name__ == "__main__":
    main()
