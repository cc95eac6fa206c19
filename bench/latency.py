"""The table daemon's latency, timer jitter and CPU share, quiet and beside a hog.

1. edge -> journaled + displayed: a gpiozero mock pin is driven from another thread (as
   gpiozero's own callback thread would), the real asyncio daemon on the monotonic clock takes
   it, journals it (fsync) and draws the OLED frame. p50/p99 of the time from the edge to the
   fsynced record and to the frame on luma's dummy device. Target p99 < 2 ms.
2. 15-second timer expiry jitter: how late after the instant the timer runs out the daemon acts
   on it (penalty journaled, long tone started). The timer is calibrated short here so that
   many expiries fit in a run. Target p99 < 5 ms.
3. CPU share over a simulated 10-minute game: the daemon plays a 10-minute scripted game on the
   fake clock (every input, journal write, frame at up to 10 fps, buzzer step); the CPU time it
   used, divided by 600 s of game. Target < 2 % of one core.

1 and 2 run three times: quiet, beside a CPU hog (one busy process per core) and beside an I/O
hog (a process writing and fsyncing 4 MB blocks on the journal's file system), with the
priority systemd/companion.service gives the daemon (CPUSchedulingPolicy/Priority, Nice,
IOSchedulingClass/Priority, read from the unit; needs root, else what is allowed). The hogs
run at the ordinary priority. Goal: loaded p99 <= 2x quiet. ``--default-priority`` runs the
same at the ordinary priority, for comparison.

Run: .venv/bin/python bench/latency.py [--default-priority]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from gpiozero.pins.mock import MockFactory, MockPWMPin  # noqa: E402

from companion.clock import FakeClock, MonotonicClock  # noqa: E402
from companion.config import defaults  # noqa: E402
from companion.daemon import Daemon, make_sounder  # noqa: E402
from companion.hw.display import Display, make_device  # noqa: E402
from companion.hw.inputs import GpioInputs  # noqa: E402
from companion.tamsk.game import Rules  # noqa: E402
from companion.tamsk.table import Table  # noqa: E402


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def build(tmp: Path, config: dict, clock, rules: Rules, on_record=None, on_frame=None, sound=None):
    factory = MockFactory(pin_class=MockPWMPin)
    sounder = make_sounder(config, factory)

    def play(pattern: str) -> None:
        if sound:
            sound(pattern)
        sounder.play(pattern, clock.now())

    table = Table(clock, tmp, config=config, sound=play, on_record=on_record)
    display = Display(make_device(config, "mock"), max_fps=10, on_frame=on_frame)
    daemon = Daemon(table, clock, display=display, sounder=sounder)
    inputs = GpioInputs(config, clock, daemon.deliver, pin_factory=factory)
    table.start_game(rules)
    return table, daemon, inputs


def edge_latency(samples: int = 150) -> tuple[list[float], list[float]]:
    config = defaults()
    config["input"]["settle_ms"] = 20
    clock = MonotonicClock()
    journaled: list[float] = []
    drawn: list[float] = []
    marks: dict[str, float] = {}

    def on_record(record: dict) -> None:
        if record.get("ev") == "lift":
            journaled.append(time.perf_counter() - marks["edge"])
            marks["recorded"] = 1

    def on_frame(image, now) -> None:
        if marks.get("recorded"):
            drawn.append(time.perf_counter() - marks["edge"])
            marks["recorded"] = 0

    with tempfile.TemporaryDirectory() as tmp:
        table, daemon, inputs = build(
            Path(tmp), config, clock, Rules(level=1), on_record=on_record, on_frame=on_frame
        )

        async def main() -> None:
            daemon.loop = asyncio.get_running_loop()

            def driver() -> None:
                level = {g: False for g in ("r1", "b1")}
                time.sleep(0.3)
                for i in range(samples):
                    glass = "r1" if i % 2 == 0 else "b1"
                    pin = inputs.pin("tilt", glass)
                    level[glass] = not level[glass]
                    marks["edge"] = time.perf_counter()
                    (pin.drive_low if level[glass] else pin.drive_high)()
                    time.sleep(0.13)  # settle, and the display's 10 fps
                daemon.loop.call_soon_threadsafe(daemon.stop)

            threading.Thread(target=driver, daemon=True).start()
            await daemon.run()

        asyncio.run(main())
        inputs.close()
    return journaled, drawn


def disk_sync(samples: int = 300) -> list[float]:
    """fdatasync of one appended line alone: what the disk costs, whatever our code does."""
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        fd = os.open(Path(tmp) / "sync", os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        try:
            for _ in range(samples):
                start = time.perf_counter()
                os.write(fd, b'{"t":1.0,"ev":"lift","glass":"r1"}' + b"x" * 150 + b"\n")
                os.fdatasync(fd)
                out.append(time.perf_counter() - start)
                time.sleep(0.005)
        finally:
            os.close(fd)
    return out


#: A hog starts at the ordinary priority whatever the bench runs at: SCHED_OTHER, nice 0,
#: best-effort I/O.
ORDINARY = (
    "import os, subprocess, sys, time\n"
    "os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))\n"
    "os.setpriority(os.PRIO_PROCESS, 0, 0)\n"
    "subprocess.run(['ionice', '-c', '2', '-n', '4', '-p', str(os.getpid())], check=False)\n"
)
CPU_HOG = ORDINARY + "while True:\n    pass\n"
IO_HOG = ORDINARY + (
    "path = sys.argv[1]\n"
    "block = os.urandom(4 << 20)\n"
    "fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)\n"
    "n = 0\n"
    "while True:\n"
    "    os.write(fd, block); os.fsync(fd); n += 1\n"
    "    if n % 64 == 0: os.ftruncate(fd, 0); os.lseek(fd, 0, 0)\n"
)


@contextlib.contextmanager
def hog(kind: str) -> Iterator[None]:
    """Nothing, a busy process per core, or a process writing and fsyncing 4 MB blocks in the
    directory the journals go to (the default temporary directory)."""
    procs: list[subprocess.Popen[bytes]] = []
    with tempfile.TemporaryDirectory() as tmp:
        if kind == "cpu":
            procs = [subprocess.Popen([sys.executable, "-c", CPU_HOG])
                     for _ in range(os.cpu_count() or 1)]
        elif kind == "io":
            procs = [subprocess.Popen([sys.executable, "-c", IO_HOG, str(Path(tmp) / "hog")])]
        time.sleep(0.5 if procs else 0)
        try:
            yield
        finally:
            for p in procs:
                p.kill()
                p.wait()


def unit_priority() -> dict[str, str]:
    """The [Service] priority settings of systemd/companion.service."""
    keys = ("CPUSchedulingPolicy", "CPUSchedulingPriority", "Nice", "IOSchedulingClass",
            "IOSchedulingPriority")
    out: dict[str, str] = {}
    for line in (ROOT / "systemd" / "companion.service").read_text().splitlines():
        key, _, value = line.partition("=")
        if key in keys:
            out[key] = value.strip()
    return out


def take_unit_priority() -> str:
    """Give this process (and the threads it starts from now on) the unit's priority, as far
    as allowed; says what it got."""
    unit = unit_priority()
    got = []
    try:
        os.setpriority(os.PRIO_PROCESS, 0, int(unit.get("Nice", "0")))
        got.append(f"nice {unit.get('Nice')}")
    except OSError:
        got.append("nice 0 (not allowed)")
    policy = unit.get("CPUSchedulingPolicy", "other")
    if policy in ("fifo", "rr"):
        prio = int(unit.get("CPUSchedulingPriority", "1"))
        which = os.SCHED_FIFO if policy == "fifo" else os.SCHED_RR
        try:
            os.sched_setscheduler(0, which, os.sched_param(prio))
            got.append(f"SCHED_{policy.upper()} {prio}")
        except OSError:
            got.append(f"SCHED_OTHER (SCHED_{policy.upper()} not allowed)")
    io_class = {"realtime": "1", "best-effort": "2", "idle": "3"}.get(
        unit.get("IOSchedulingClass", ""), "")
    if io_class:
        done = subprocess.run(
            ["ionice", "-c", io_class, "-n", unit.get("IOSchedulingPriority", "4"),
             "-p", str(os.getpid())], capture_output=True, check=False)
        got.append(f"I/O {unit['IOSchedulingClass']} {unit.get('IOSchedulingPriority')}"
                   if done.returncode == 0 else "I/O best-effort (ionice refused)")
    return ", ".join(got)


def timer_jitter(samples: int = 40, period: float = 0.4) -> list[float]:
    config = defaults()
    clock = MonotonicClock()
    late: list[float] = []
    holder: dict[str, object] = {}

    def sound(pattern: str) -> None:
        table: Table = holder["table"]  # type: ignore[assignment]
        if pattern == "timer_out" and table.game is not None and table.game.penalties:
            expiry = table.game.penalties[-1].t + table.mono0
            late.append(clock.now() - expiry)

    with tempfile.TemporaryDirectory() as tmp:
        rules = Rules(level=3, timer_period=period)
        table, daemon, inputs = build(Path(tmp), config, clock, rules, sound=sound)
        holder["table"] = table

        async def main() -> None:
            daemon.loop = asyncio.get_running_loop()

            def driver() -> None:
                time.sleep(0.2)
                for _ in range(samples):
                    player = "black" if table.game.turn == "red" else "red"  # type: ignore[union-attr]
                    pin = inputs.pin("button", f"timer15.{player}")
                    pin.drive_low()
                    time.sleep(0.05)
                    pin.drive_high()
                    time.sleep(period + 0.1)  # the player on turn hesitates: a forfeit
                daemon.loop.call_soon_threadsafe(daemon.stop)

            threading.Thread(target=driver, daemon=True).start()
            await daemon.run()

        asyncio.run(main())
        inputs.close()
    return late


def cpu_share(game_seconds: float = 600.0) -> tuple[float, int, int]:
    from companion.tamsk.demo import ScriptedTime, Table3Script

    config = defaults()
    clock = FakeClock()
    with tempfile.TemporaryDirectory() as tmp:
        table, daemon, inputs = build(Path(tmp), config, clock, Rules(level=3))
        scripted = ScriptedTime(clock, table.mono0, 0, on_done=daemon.stop)
        daemon.waiter = scripted.wait
        frames = [0]
        daemon.display._on_frame = lambda im, now: frames.__setitem__(0, frames[0] + 1)
        Table3Script(scripted, inputs, daemon.deliver).script(until=game_seconds)
        scripted.at(game_seconds, daemon.stop)

        async def main() -> None:
            daemon.loop = asyncio.get_running_loop()
            await daemon.run()

        start = time.process_time()
        asyncio.run(main())
        used = time.process_time() - start
        inputs.close()
        return used / game_seconds, frames[0], daemon.inputs_handled


def ms(values: list[float], q: float) -> str:
    return f"{pct(values, q) * 1000:7.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description="the table daemon's latency under load")
    parser.add_argument("--default-priority", action="store_true",
                        help="run at the ordinary priority instead of the unit's")
    args = parser.parse_args()
    if args.default_priority:
        print("priority: ordinary (SCHED_OTHER, nice 0, best-effort I/O)")
    else:
        print(f"priority of systemd/companion.service: {take_unit_priority()}")
    sync = disk_sync()
    print(
        f"the disk alone: append + fdatasync  n={len(sync)}  "
        f"p50 {statistics.median(sync) * 1000:.3f} ms  p99 {pct(sync, 0.99) * 1000:.3f} ms"
    )
    rows: dict[str, tuple[list[float], list[float], list[float]]] = {}
    for kind in ("quiet", "cpu", "io"):
        with hog(kind):
            journaled, drawn = edge_latency()
            late = timer_jitter()
        rows[kind] = (journaled, drawn, late)
    quiet = rows["quiet"]
    print("\n(ms)           edge->journal p50 / p99   edge->frame p50 / p99  x quiet   "
          "15 s jitter p50 / p99  x quiet")
    names = {"quiet": "quiet", "cpu": f"CPU hog x{os.cpu_count()}", "io": "I/O hog"}
    for kind, (journaled, drawn, late) in rows.items():
        print(f"{names[kind]:<14} {ms(journaled, 0.5)} {ms(journaled, 0.99)}       "
              f"{ms(drawn, 0.5)} {ms(drawn, 0.99)}  {pct(drawn, 0.99) / pct(quiet[1], 0.99):5.1f}x"
              f"      {ms(late, 0.5)} {ms(late, 0.99)}  "
              f"{pct(late, 0.99) / pct(quiet[2], 0.99):5.1f}x")
    print("goal: loaded p99 <= 2x quiet")
    share, frames, inputs = cpu_share()
    print(
        f"\nCPU share over a simulated 10-minute game: {share * 100:.3f} % of one core"
        f"  ({inputs} raw inputs, {frames} frames)   (target < 2 %)"
    )


if __name__ == "__main__":
    main()
