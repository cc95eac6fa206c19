"""`companion verify`: is this journal exactly what the table wrote, and what do the rules say?"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion import journal as journal_mod
from companion.scenario import MalformedInput
from companion.simulate import simulator_for


@dataclass
class Verdict:
    path: str
    journal: journal_mod.Journal
    result: dict[str, Any] | None = None
    rule_errors: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.journal.intact and not self.rule_errors

    def report(self) -> str:
        j = self.journal
        lines = [f"{self.path}: {j.records} records"]
        if j.intact:
            lines.append("hash chain intact: no record was edited, removed, inserted or reordered")
        else:
            lines.append("ALTERED OR DAMAGED:")
            for p in j.problems:
                lines.append(f"  {p}")
            if j.torn is not None:
                lines.append(f"  {j.torn}")
        for e in self.rule_errors:
            lines.append(f"  rules: {e}")
        r = self.result
        if r is not None:
            refused = r.get("violations", [])
            lines.append(f"rules: {len(refused)} refused input(s) recorded")
            for v in refused:
                lines.append(
                    f"  t={v.get('t')}: {v.get('player')} {v.get('kind')}: {v.get('detail')}"
                )
            if r.get("over"):
                lines.append(f"result: {r.get('winner')} ({r.get('reason')})")
            else:
                lines.append("result: the game was not finished")
        lines.append("OK" if self.ok else "FAILED")
        return "\n".join(lines)


def verify_path(path: str | Path) -> Verdict:
    """Check a journal, folding its records while they are read (memory does not grow with the
    journal's length); a line beyond the readers' limits (a hostile file, see
    :mod:`companion.lines`) raises MalformedInput naming it."""
    with open(path, "rb") as stream:
        scan = journal_mod.Scan(stream)
        verdict = Verdict(str(path), scan.journal)
        verdict.result = _fold(verdict, scan)
    j = scan.journal
    bad = journal_mod.refused(j)
    if bad is not None:
        raise MalformedInput(f"{bad.message} (at byte {bad.offset})", bad.line)
    return verdict


def _fold(verdict: Verdict, scan: journal_mod.Scan) -> dict[str, Any] | None:
    """The rules' result for the intact records (read to the end whatever happens, so the
    journal's problems are all found)."""
    header = scan.journal.header
    try:
        if header is None:
            return None
        try:
            sim = simulator_for(str(header.get("game")))
        except ImportError:
            verdict.rule_errors.append(f"unknown game {header.get('game')!r} in the header")
            return None
        try:
            return sim.simulate(dict(header), scan)
        except MalformedInput as exc:
            verdict.rule_errors.append(str(exc))
            return None
    finally:
        for _ in scan:  # whatever the fold did not read
            pass
