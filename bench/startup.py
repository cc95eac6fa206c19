"""Start-up time against history: READY with 0, 500 and 5,000 finished journals in the folder.

Each run starts the real daemon (`companion run --backend mock`) as a process, with a datagram
socket standing in for systemd's NOTIFY_SOCKET, and times the spawn to READY=1; then SIGTERM.
Every journal in the folder is a finished game (a 300-input game on the real table, ended by
the arbiter), so each start finds no game to resume and opens a new one (removed before the
next start). The first start in a folder ("cold") has no ``current`` pointer yet and folds the
newest journal of its table to see it is over; the later ones ("warm", median of RUNS taken
round robin over the folders) follow the pointer. Goal: warm READY with 5,000 within 1.2x of 0.

    python bench/startup.py [--runs 5] [--counts 0,500,5000]
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from companion.journal import seal

ROOT = Path(__file__).resolve().parent.parent


def finished_game(moves: int = 300) -> bytes:
    """A believable finished Tamsk game: ``moves`` keypad inputs on the real table (the
    simulated players of companion.tamsk.simtable), then the arbiter's ``end``."""
    from companion.clock import FakeClock
    from companion.journal import read_path
    from companion.tamsk.simtable import SimulatedTable

    with tempfile.TemporaryDirectory() as tmp:
        clock = FakeClock()
        sim = SimulatedTable(1, Path(tmp), clock, seed=7, names={"red": "Ada", "black": "Ben"})
        for _ in range(moves):
            clock.advance(2.5)
            if not sim.step():
                break
        sim.close()
        path = sim.table.journal_path
        assert path is not None
        data = path.read_bytes()
        read = read_path(path)
    last = read.events[-1][1] if read.events else {}
    if last.get("ev") == "end":
        return data
    last_t = float(last.get("t", 0.0))
    end, _ = seal({"t": last_t + 1, "ev": "end", "src": "arbiter"}, read.next_seq, read.last_hash)
    return data + end.encode() + b"\n"


def fill(folder: Path, count: int) -> None:
    data = finished_game()
    old = time.time() - 86400 * 30
    for i in range(count):
        path = folder / f"tamsk-t1-20260101-{i // 3600:02d}{i // 60 % 60:02d}{i % 60:02d}-{i}.jsonl"
        path.write_bytes(data)
        os.utime(path, (old + i, old + i))


def ready_time(folder: Path, sock_path: Path) -> float:
    """Seconds from spawning the daemon to its READY=1."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(sock_path))
    sock.settimeout(900)
    env = dict(os.environ, NOTIFY_SOCKET=str(sock_path))
    command = [sys.executable, "-m", "companion.cli", "run", "--backend", "mock"]
    start = time.perf_counter()
    proc = subprocess.Popen(
        [*command, "--journal-dir", str(folder)],
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        while b"READY=1" not in sock.recv(4096):
            pass
        took = time.perf_counter() - start
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
        sock.close()
        sock_path.unlink()
    return took


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--counts", default="0,500,5000")
    args = parser.parse_args()
    counts = [int(c) for c in args.counts.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        notify = Path(tmp) / "notify"
        folders, kept, cold = {}, {}, {}
        for count in counts:
            folders[count] = Path(tmp) / f"j{count}"
            folders[count].mkdir()
            fill(folders[count], count)
            kept[count] = set(folders[count].glob("*.jsonl"))
            cold[count] = ready_time(folders[count], notify)
        warm: dict[int, list[float]] = {count: [] for count in counts}
        for _ in range(args.runs):  # round robin: a busy moment falls on every count alike
            for count in counts:
                for new in set(folders[count].glob("*.jsonl")) - kept[count]:
                    new.unlink()  # the game the previous start opened
                warm[count].append(ready_time(folders[count], notify))
    rows = [(count, cold[count], statistics.median(warm[count])) for count in counts]
    base = rows[0][2]
    heads = ("finished journals", "cold READY (s)", "warm READY (s)", "warm / 0")
    print(f"{heads[0]:>18} {heads[1]:>15} {heads[2]:>15} {heads[3]:>9}")
    for count, first, median in rows:
        print(f"{count:>18,} {first:>15.3f} {median:>15.3f} {median / base:>8.2f}x")


if __name__ == "__main__":
    main()
