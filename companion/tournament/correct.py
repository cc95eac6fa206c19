"""An arbiter's correction appended to a finished game's journal on the arbiter's laptop.

``companion tournament correct JOURNAL --what W --reason R [--set key=value ...]``: the
arbiter's PIN is checked against the configuration's hash (``[arbiter] pin_hash``, as at the
table: :class:`companion.arbiter.pin.PinLock`), then the correction is tried on the game first:
the journal folded by its game's own engine with the correction after its last record. Only a
correction the rules accept is appended (``"by": "arbiter", "auth": "pin"``, at the last
record's game time), signed with the arbiter's own key, which the record names (``signer``):
``companion verify`` accepts it only from the arbiter's key; a malformed or refused one is
reported and the journal left as it was. A
damaged journal (broken hash chain) is never appended to.

This works for every game whose fold knows ``correct`` records (Tamsk, Tantrix, Tokami); the
line it corrects stays as it was written. A result signed before the correction still verifies
against the journal's first records (``companion arbiter verify-result``); sign it again for the
corrected result.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion import journal as journal_mod
from companion import registry
from companion.arbiter.pin import PinLock
from companion.keys import SigningKey
from companion.tournament.model import TournamentError

RESERVED = ("t", "ev", "by", "auth", "nonce", "what", "reason", "wall", "src", "seq", "prev",
            "hash", "sig", "signer")


def parse_fields(pairs: list[str]) -> dict[str, Any]:
    """``key=value`` pairs; a value that reads as JSON (a number, true, null, a list, an
    object) is taken as such, anything else as text."""
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        key = key.strip()
        if not sep or not key or key in RESERVED:
            raise TournamentError(f"--set takes key=value with a correction's own field, not "
                                  f"{pair!r}")
        try:
            out[key] = json.loads(text)
        except ValueError:
            out[key] = text
    return out


def check_pin(pin: str, pin_hash: str) -> None:
    lock = PinLock(pin_hash)
    verdict = lock.check(pin, 0.0)
    if not verdict.ok:
        raise TournamentError(verdict.message)


def _violations(state: Mapping[str, Any]) -> int:
    v = state.get("violations")
    return len(v) if isinstance(v, list) else 0


def correct(
    path: str | Path,
    what: str,
    reason: str,
    fields: Mapping[str, Any],
    key: SigningKey | None = None,
) -> str:
    """Try the correction on the game, append it if the rules accept it (signed with the
    arbiter's ``key``); what it did."""
    from companion.scenario import MalformedInput, NumberedEvent

    path = Path(path)
    j = journal_mod.read_path(path)
    if not j.intact or j.header is None or j.torn is not None:
        raise TournamentError(f"{path}: the journal is damaged: nothing is appended to it")
    try:
        kind = registry.for_header(j.header)
    except registry.UnknownGame as exc:
        raise TournamentError(f"{path}: {exc}") from None
    events: list[NumberedEvent] = [(n, dict(b)) for n, b in j.events]
    last_t = max((float(b["t"]) for _, b in events
                  if isinstance(b.get("t"), (int, float)) and not isinstance(b.get("t"), bool)),
                 default=0.0)
    body: dict[str, Any] = {"t": last_t, "ev": "correct", "what": what, **fields,
                            "reason": reason, "by": "arbiter", "auth": "pin"}
    line = len(events) + 2
    try:
        before = kind.simulate(dict(j.header), events)
        after = kind.simulate(dict(j.header), [*events, (line, body)])
    except (MalformedInput, ValueError) as exc:
        raise TournamentError(f"the correction was refused: {exc}") from None
    if _violations(after) > _violations(before):
        detail = after["violations"][-1].get("detail")
        raise TournamentError(f"the rules refuse the correction: {detail}")
    writer, _ = journal_mod.JournalWriter.resume(path, appending_as=key)
    signed = {journal_mod.SIGNER: key.public.line()} if key is not None else {}
    try:
        writer.append({**body, "wall": round(time.time(), 3), "src": "arbiter", **signed})
    finally:
        writer.close()
    return f"{path.name}: {what} appended ({kind.summary(after).splitlines()[0]})"
