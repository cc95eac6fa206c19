"""Outside FIDE pairing engines: bbpPairings, and JaVaFo when Java and its jar are there.

Never bundled (neither is a Python package; JaVaFo's licence grants no redistribution) and
never a silent fallback: an engine asked for and not found is an error that says where it was
looked for. bbpPairings is found through the caller's option, then ``$BBP_PAIRINGS``, then the
PATH (``bbpPairings``, ``bbpPairings.exe``); JaVaFo through the option or ``$JAVAFO_JAR`` (the
jar) with ``java`` on the PATH.

What bbpPairings' documentation (its README and the JaVaFo advanced user manual it follows)
asks, and :func:`run` does: the TRF-2016 of the finished rounds (:func:`.trf.write_pairing_input`:
``XXR``, ``XXC white1``/``black1``, start numbers in initial-ranking order, points that match
the results, the requested byes ``0000 - H``/``Z``/``F`` and absences ``0000 - Z`` in the
column of the round being paired), the command ``--dutch IN -p OUT`` with absolute paths and a
time-out. The answer: the number of pairs on the first line, then ``white black`` a line (start
numbers), ``N 0`` for the pairing-allocated bye. Exit 1: no legal pairing exists; 3: the input
is malformed; other codes: the engine failed.

The engine's pairing is adopted exactly, colours included (the boards put in the order of
C.04.2 3.6), after :mod:`.criteria` has checked it: an answer breaking an absolute criterion is
refused (:class:`~.dutch.EngineFault`).

This module runs a program (subprocess, temporary files); everything else in the package is
pure.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from companion import oserrors
from companion.remark import N_, Remark
from companion.tournament.fide.criteria import Context, complete
from companion.tournament.fide.dutch import (
    NoLegalPairing,
    board_order,
    refuse_broken,
    request_check,
)
from companion.tournament.fide.history import (
    Bye,
    FideError,
    Game,
    History,
    Pairing,
    available,
    numbered,
)
from companion.tournament.fide.trf import write_pairing_input

BBP = "bbpPairings"
JAVAFO = "javafo"
TIMEOUT_S = 60.0


@dataclass(frozen=True)
class Engine:
    """An outside engine: its name (``bbpPairings`` or ``javafo``) and the command that
    runs it, up to the TRF's path."""

    name: str
    command: tuple[str, ...]


def find_bbp(option: str | None = None, environ: Mapping[str, str] | None = None,
             path: str | None = None) -> Engine:
    """bbpPairings from ``option``, ``$BBP_PAIRINGS`` or the PATH (``path`` stands for the
    PATH in tests); FideError naming where it looked when it is not there."""
    env = os.environ if environ is None else environ
    for given in (option, env.get("BBP_PAIRINGS")):
        if given:
            exe = shutil.which(given, path=path) if os.sep not in given else given
            if exe and os.access(exe, os.X_OK) and Path(exe).is_file():
                return Engine(BBP, (str(Path(exe).resolve()), "--dutch"))
            raise FideError(Remark(N_("bbpPairings is not at {where} (or cannot be run)"),
                                   where=given))
    for name in ("bbpPairings", "bbpPairings.exe"):
        exe = shutil.which(name, path=path)
        if exe:
            return Engine(BBP, (str(Path(exe).resolve()), "--dutch"))
    raise FideError(Remark(N_("bbpPairings is not installed: give its path, set "
                              "$BBP_PAIRINGS or put it on the PATH")))


def find_javafo(jar: str | None = None, environ: Mapping[str, str] | None = None,
                path: str | None = None) -> Engine:
    """JaVaFo from its jar (``jar`` or ``$JAVAFO_JAR``) and ``java`` on the PATH."""
    env = os.environ if environ is None else environ
    given = jar or env.get("JAVAFO_JAR")
    if not given:
        raise FideError(Remark(N_("JaVaFo is not installed: give the path of javafo.jar or "
                                  "set $JAVAFO_JAR")))
    if not Path(given).is_file():
        raise FideError(Remark(N_("JaVaFo is not at {where}"), where=given))
    java = shutil.which("java", path=path)
    if not java:
        raise FideError(Remark(N_("JaVaFo needs Java: java is not on the PATH")))
    return Engine(JAVAFO, (java, "-ea", "-jar", str(Path(given).resolve())))


def parse_answer(text: str, engine: str) -> tuple[list[tuple[int, int]], int | None]:
    """An engine's answer: ``(pairs of start numbers, white first; the bye's start number)``.
    """
    rows = [ln.split() for ln in text.replace("\r", "\n").splitlines() if ln.strip()]
    try:
        count = int(rows[0][0])
        pairs = [(int(a), int(b)) for a, b in rows[1:]]
    except (IndexError, ValueError):
        raise FideError(Remark(N_("{engine} answered with something that is not a pairing"),
                               engine=engine)) from None
    if count != len(pairs):
        raise FideError(Remark(N_("{engine} announced {count} pairs and gave {got}"),
                               engine=engine, count=count, got=len(pairs)))
    byes = [a for a, b in pairs if b == 0]
    if len(byes) > 1:
        raise FideError(Remark(N_("{engine} gave more than one bye"), engine=engine))
    return [(a, b) for a, b in pairs if b != 0], (byes[0] if byes else None)


def run(engine: Engine, history: History, requested: Sequence[Bye] = (), *,
        timeout: float = TIMEOUT_S) -> Pairing:
    """Pair the next round of ``history`` with ``engine``; the pairing as the engine made it,
    checked (see the module's words)."""
    history = numbered(history)
    request_check(history, requested)
    ctx = Context.of(history)
    players = available(history, requested)
    if not players:
        return Pairing(ctx.round, (), None, tuple(requested), engine.name)
    text = write_pairing_input(history, requested)
    with tempfile.TemporaryDirectory(prefix="companion-pair-") as tmp:
        src = (Path(tmp) / "round.trf").resolve()
        out = (Path(tmp) / "pairing.txt").resolve()
        src.write_text(text, encoding="utf-8", newline="")
        try:
            done = subprocess.run([*engine.command, str(src), "-p", str(out)],
                                  capture_output=True, text=True, timeout=timeout,
                                  check=False, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            raise FideError(Remark(N_("{engine} gave no pairing within {seconds} s"),
                                   engine=engine.name, seconds=f"{timeout:g}")) from None
        except OSError as exc:
            raise FideError(Remark(N_("{engine} could not be run: {why}"),
                                   engine=engine.name, why=oserrors.problem(exc))) from None
        said = (done.stderr or done.stdout).strip().splitlines()
        last = said[-1] if said else ""
        if done.returncode == 1:
            if not complete(ctx, players):
                raise NoLegalPairing(Remark(N_("{engine}: no legal pairing exists for round "
                                               "{round}; the Chief Arbiter decides"),
                                            engine=engine.name, round=ctx.round))
            raise NoLegalPairing(Remark(N_("{engine} found no legal pairing for round {round} "
                                           "({why})"), engine=engine.name, round=ctx.round,
                                        why=last))
        if done.returncode == 3:
            raise FideError(Remark(N_("{engine} refused the tournament file as malformed: "
                                      "{why}"), engine=engine.name, why=last))
        if done.returncode != 0 or not out.is_file():
            raise FideError(Remark(N_("{engine} failed (exit {code}): {why}"),
                                   engine=engine.name, code=done.returncode, why=last))
        answer = out.read_text(encoding="utf-8", errors="replace")
    pairs, bye = parse_answer(answer, engine.name)
    by_number = {e.number: e.id for e in history.players}

    def ident(n: int) -> int:
        if n not in by_number:
            raise FideError(Remark(N_("{engine} paired start number {number}, which nobody "
                                      "has"), engine=engine.name, number=n))
        return by_number[n]

    games = [Game(ident(w), ident(b)) for w, b in pairs]
    proposal = Pairing(ctx.round, tuple(board_order(ctx, games)),
                       ident(bye) if bye is not None else None, tuple(requested), engine.name)
    refuse_broken(history, proposal, engine.name)
    return proposal

