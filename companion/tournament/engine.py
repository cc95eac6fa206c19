"""Pairing with bbpPairings (a FIDE-endorsed Dutch-system engine) when it is installed.

The tournament is written as TRF-2016 (:mod:`.trf`), ``bbpPairings --dutch IN -p OUT`` is run
on it, and its answer read back: the number of pairs on the first line, then one pair per line,
the first mover first, ``0`` for the bye. Its pairings are checked against the absolute rules
(:func:`companion.tournament.pairing.check_pairs`) before they are used.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from companion.tournament.berger import Pair
from companion.tournament.model import TournamentError

PROGRAM = "bbpPairings"
TIMEOUT_S = 60.0


def find() -> str | None:
    """The engine's path, or None when it is not on the PATH."""
    return shutil.which(PROGRAM) or shutil.which(PROGRAM + ".exe")


def parse_pairs(text: str) -> list[Pair]:
    lines = [ln.split() for ln in text.splitlines() if ln.strip()]
    try:
        count = int(lines[0][0])
        pairs: list[Pair] = [(int(a), int(b) or None) for a, b in lines[1:]]
    except (IndexError, ValueError):
        raise TournamentError(f"{PROGRAM} gave no pairings this program can read") from None
    if count != len(pairs):
        raise TournamentError(f"{PROGRAM} announced {count} pairs but gave {len(pairs)}")
    return [p for p in pairs if p[1] is not None] + [p for p in pairs if p[1] is None]


def run(trf_text: str, program: str | None = None) -> list[Pair]:
    """Pair the next round of the TRF tournament with the engine."""
    exe = program or find()
    if exe is None:
        raise TournamentError(f"{PROGRAM} is not on the PATH")
    with tempfile.TemporaryDirectory() as tmp:
        src, out = Path(tmp) / "in.trf", Path(tmp) / "out.txt"
        src.write_text(trf_text, encoding="ascii", errors="replace")
        try:
            done = subprocess.run([exe, "--dutch", str(src), "-p", str(out)],
                                  capture_output=True, text=True, timeout=TIMEOUT_S, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise TournamentError(f"{PROGRAM} could not run: {exc}") from None
        if done.returncode != 0 or not out.exists():
            why = (done.stderr or done.stdout).strip().splitlines()
            raise TournamentError(f"{PROGRAM} refused the tournament: "
                                  f"{why[-1] if why else f'exit {done.returncode}'}")
        return parse_pairs(out.read_text(encoding="ascii", errors="replace"))
