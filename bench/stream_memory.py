"""Peak memory of `companion simulate` and `companion verify` on 1, 10 and 100 MB files.

The readers go line by line (companion.lines), so a file padded with blank lines costs no more
memory than a small one. Each run is a fresh process; its peak RSS (VmHWM) is printed.
Goal: the 100 MB scenario within 1.3x the 1 MB peak.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from companion.journal import JournalWriter, seal

ROOT = Path(__file__).resolve().parent.parent
SIZES_MB = (1, 10, 100)
GAME = [
    b'{"game": "tamsk", "level": 3}',
    b'{"t": 3, "ev": "release", "glass": "r1", "to": "a2"}',
    b'{"t": 3.2, "ev": "ring", "player": "red"}',
    b'{"t": 7, "ev": "release", "glass": "b3", "to": "b5"}',
    b'{"t": 9, "ev": "end"}',
]
#: The child's own peak (VmHWM of its address space). Not ru_maxrss: Linux carries that over
#: fork and exec, so a child would report at least the parent's size when it was started.
PROBE = (
    "import re, sys; from companion.cli import main; rc = main(sys.argv[1:]); "
    "status = open('/proc/self/status').read(); "
    "print(re.search(r'VmHWM:\\s+(\\d+)', status).group(1), file=sys.stderr); sys.exit(rc)"
)


def scenario(path: Path, mb: int) -> None:
    """A short game padded with blank lines to ``mb`` megabytes."""
    with open(path, "wb") as f:
        f.write(b"\n".join(GAME[:-1]) + b"\n")
        chunk = b"\n" * (1 << 20)
        for _ in range(mb):
            f.write(chunk)
        f.write(GAME[-1] + b"\n")


def journal(path: Path, mb: int) -> None:
    """A journal of notes to ``mb`` megabytes (every record is kept as an event), written as
    it is made so this process stays small."""
    with JournalWriter.create(path, {"game": "tamsk", "level": 3}) as w:
        prev = w.last_hash
    with open(path, "ab") as out:
        seq, t, size = 1, 0.0, path.stat().st_size
        while size < mb << 20:
            line, prev = seal({"t": round(t, 3), "ev": "note", "text": "x" * 40}, seq, prev)
            size += out.write(line.encode() + b"\n")
            seq += 1
            t += 0.001


def peak_kb(command: str, path: Path) -> int:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, command, str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    return int(done.stderr.strip().splitlines()[-1])


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        results: dict[str, list[int]] = {"simulate scenario": [], "verify journal": []}
        for mb in SIZES_MB:
            s = base / f"s{mb}.jsonl"
            scenario(s, mb)
            results["simulate scenario"].append(peak_kb("simulate", s))
            s.unlink()
            j = base / f"j{mb}.jsonl"
            journal(j, mb)
            results["verify journal"].append(peak_kb("verify", j))
            j.unlink()
        print(f"{'peak RSS (MB)':22}" + "".join(f"{mb:>8} MB" for mb in SIZES_MB) + "   100/1")
        for name, peaks in results.items():
            cells = "".join(f"{p / 1024:>11.1f}" for p in peaks)
            print(f"{name:22}{cells}   {peaks[-1] / peaks[0]:.2f}x")


if __name__ == "__main__":
    main()
