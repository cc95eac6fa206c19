"""Game results from journals, signed so that a result file cannot be forged or edited.

A result record is worked out from a journal through the game's engine (never typed in), and
carries the journal's last hash: the signature (the arbiter's Ed25519 key, see
:mod:`companion.arbiter.signing`) therefore vouches for the result *and* for the exact journal
it came from. (A table's publisher may still sign with the club's HMAC key,
given as ``bytes``.) ``companion arbiter sign`` writes ``JOURNAL.result.json`` beside the
journal, once the one verified reader of journals
(:func:`companion.tournament.journals.check_journal`) accepts it; ``companion arbiter
verify-result`` refuses a record whose signature fails, and, given the journal too, one that
does not match it (or a journal the verified reader refuses).

Result codes are FIDE TRF-16's: ``1`` win, ``0`` loss, ``=`` draw, ``+`` win by forfeit,
``-`` loss by forfeit.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion import journal as journal_mod
from companion import registry
from companion.arbiter import signing
from companion.files import atomic_write
from companion.keys import PublicKey, SigningKey

KIND = "companion-result"
VERSION = 1
RESULT_SUFFIX = ".result.json"


class ResultError(ValueError):
    """A journal that gives no result (unfinished, damaged, unknown game)."""


def _round_of(
    header: Mapping[str, Any], events: list[tuple[int, dict[str, Any]]]
) -> int | None:
    """The round: from the header, or from the table's first ``round`` note."""
    value = header.get("round")
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    for _, body in events:
        r = body.get("round")
        if body.get("ev") == "note" and isinstance(r, int) and not isinstance(r, bool):
            return r
    return None


def _codes(colours: list[str], winner: str | None, forfeit: bool) -> dict[str, str]:
    if winner == "tie":
        return {c: "=" for c in colours}
    if winner is None:
        return {}
    win, loss = ("+", "-") if forfeit else ("1", "0")
    return {c: win if c == winner else loss for c in colours}


def _hash_of(path: Path, records: int) -> str:
    """The ``hash`` of record number ``records - 1`` (the last of the first ``records``)."""
    with open(path, "rb") as f:
        for n, line in enumerate(f):
            if n == records - 1:
                value = json.loads(line).get("hash")
                return str(value)
    raise ResultError(f"{path}: the journal has fewer than {records} records")


def result_from_journal(path: str | Path, records: int | None = None) -> dict[str, Any]:
    """The (unsigned) result record of a finished game's journal.

    ``records`` limits it to the journal's first records (the header counts): a result signed
    when the journal had N records is checked against those N, whatever notes came after.
    Raises :class:`ResultError` for a journal that is damaged (a broken hash chain is never
    signed) or whose game has no result yet.
    """
    path = Path(path)
    j = journal_mod.read_path(path)
    if not j.intact or j.header is None:
        problems = [str(p) for p in j.problems] + ([str(j.torn)] if j.torn else [])
        raise ResultError(f"{path}: the journal is damaged: {'; '.join(problems)}")
    header = j.header
    events = list(j.events)
    last_hash = j.last_hash
    if records is not None:
        if not 1 <= records <= len(events) + 1:
            raise ResultError(f"{path}: the journal has {len(events) + 1} records, not {records}")
        events = events[: records - 1]
        last_hash = _hash_of(path, records)
    game = str(header.get("game"))
    try:
        kind = registry.get(game)
    except registry.UnknownGame:
        raise ResultError(f"{path}: unknown game {game!r}") from None
    state = kind.simulate(dict(header), [(n, body) for n, body in events])
    names = header.get("names") if isinstance(header.get("names"), dict) else {}
    assert isinstance(names, dict)
    facet = kind.arbiter()
    try:
        outcome = facet.result(state) if facet is not None else None
    except ValueError as exc:
        raise ResultError(f"{path}: {exc}") from None
    if outcome is None:
        raise ResultError(f"{path}: {kind.title} games keep no result records")
    colours, winner, reason = outcome.colours, outcome.winner, outcome.reason
    forfeit, score, margin = outcome.forfeit, outcome.score, outcome.margin
    confirmed, over_at = outcome.confirmed, outcome.over_at
    return {
        "kind": KIND,
        "version": VERSION,
        "game": game,
        "table": header.get("table"),
        "round": _round_of(header, events),
        "tournament": header.get("tournament"),
        "players": [{"colour": c, "name": str(names.get(c) or c)} for c in colours],
        "winner": winner,
        "reason": reason,
        "forfeit": forfeit,
        "score": score,
        "margin": margin,
        "trf": _codes(colours, winner, forfeit),
        "confirmed": confirmed,
        "over_at": over_at,
        "challenge": state.get("challenge"),  # a game that decides something else (GIPF)
        "journal": {
            "file": path.name,
            "records": len(events) + 1,
            "game_id": str(header_hash(path) or "")[:16],
            "last_hash": last_hash,
        },
    }


def header_hash(path: str | Path) -> str | None:
    """The hash of a journal's header record: the game's identity."""
    with open(path, "rb") as f:
        first = f.readline()
    try:
        value = json.loads(first).get("hash")
    except (ValueError, AttributeError):
        return None
    return value if isinstance(value, str) else None


def signed_result(path: str | Path, key: SigningKey | bytes) -> dict[str, Any]:
    """The journal's result signed by the arbiter's key (or, ``bytes``, the club's HMAC key)."""
    record = result_from_journal(path)
    if isinstance(key, SigningKey):
        return signing.sign_as_arbiter(record, key)
    return signing.sign(record, key)


def write_signed(path: str | Path, key: SigningKey | bytes) -> Path:
    """Sign a journal's result into ``JOURNAL.result.json`` (replacing an older one)."""
    path = Path(path)
    record = signed_result(path, key)
    out = path.with_name(path.name + RESULT_SUFFIX)
    atomic_write(out, json.dumps(record, indent=1, ensure_ascii=False) + "\n")
    return out


def check_signature(record: Mapping[str, Any], key: PublicKey | bytes) -> str | None:
    """Why the result record's signature does not hold for ``key`` (None: it holds)."""
    if isinstance(key, PublicKey):
        return signing.check_arbiter(record, key)
    return signing.check(record, key)


@dataclass
class ResultVerdict:
    """What checking a result file found."""

    path: str
    record: dict[str, Any] | None = None
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.record is not None and not self.problems

    def report(self) -> str:
        lines = [f"{self.path}:"]
        r = self.record
        if r is not None:
            players = " - ".join(f"{p['name']} ({p['colour']})" for p in r.get("players", []))
            lines.append(
                f"  table {r.get('table')} round {r.get('round')}: {players}: "
                f"winner {r.get('winner')} ({r.get('reason')}), score {r.get('score')}"
            )
        lines += [f"  REFUSED: {p}" for p in self.problems]
        lines.append("OK: signed by the arbiter's key and unchanged" if self.ok else "FAILED")
        return "\n".join(lines)


def verify_result(
    path: str | Path,
    key: PublicKey | bytes,
    journal: str | Path | None = None,
    *,
    journal_check: Callable[[str], str | None] | None = None,
) -> ResultVerdict:
    """Check a result file's signature and, with its journal, that it is that journal's result.

    Without ``journal`` the journal named in the record is looked for beside the file; if it is
    not there only the signature is checked (and the report says so). ``journal_check`` is the
    verified reader (``companion arbiter verify-result`` passes it): why it refuses the journal,
    or None; a journal it refuses gives no result to compare with.
    """
    verdict = ResultVerdict(str(path))
    try:
        record = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        verdict.problems.append(f"not a readable result file ({exc})")
        return verdict
    if not isinstance(record, dict) or record.get("kind") != KIND:
        verdict.problems.append("not a companion result record")
        return verdict
    verdict.record = record
    bad = check_signature(record, key)
    if bad is not None:
        verdict.problems.append(f"the result record was refused: {bad}")
        return verdict
    info = record.get("journal") or {}
    if journal is None and isinstance(info, dict) and isinstance(info.get("file"), str):
        beside = Path(path).with_name(Path(info["file"]).name)
        journal = beside if beside.exists() else None
    if journal is None:
        return verdict
    if journal_check is not None:
        refused = journal_check(str(journal))
        if refused is not None:
            verdict.problems.append(f"its journal is refused: {refused}")
            return verdict
    records = info.get("records") if isinstance(info, dict) else None
    try:
        fresh = result_from_journal(journal, records if isinstance(records, int) else None)
    except (ResultError, OSError, ValueError) as exc:
        verdict.problems.append(f"its journal does not give this result: {exc}")
        return verdict
    for key_name in ("winner", "score", "players", "reason", "journal"):
        if fresh.get(key_name) != record.get(key_name):
            verdict.problems.append(
                f"{key_name!r} differs from the journal: file says {record.get(key_name)!r}, "
                f"the journal gives {fresh.get(key_name)!r}"
            )
    return verdict
