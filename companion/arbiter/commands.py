"""Arbiter commands sent to a table over MQTT: signed, single-use, for one table and one game.

A command from the arbiter's page is a correction wrapped in an envelope and signed with the
club's key::

    {"table": 3, "game": "<the journal header's hash, 16 hex>", "nonce": "<32 hex>",
     "issued": 1790000123.4, "correction": {"what": "sand", "glass": "r1", "sand": 60,
                                            "reason": "..."},
     "hmac": "<HMAC-SHA256 of the rest>"}

The table (:class:`CommandGate`) refuses a command whose signature fails, that names another
table or another game, whose nonce it has seen before (a replayed command), or that was issued
more than ``max_age_s`` from the table's own clock. Accepted nonces are journaled with the
correction, so a table that restarts rebuilds the set from its journal and a replay stays
refused.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping
from typing import Any

from companion.arbiter import signing

NONCE = re.compile(r"[0-9a-f]{32}")


def new_nonce() -> str:
    return secrets.token_hex(16)


def make_command(
    correction: Mapping[str, Any],
    *,
    table: int,
    game: str,
    key: bytes,
    issued: float,
    nonce: str | None = None,
) -> dict[str, Any]:
    """A signed command carrying one correction to one table's current game."""
    envelope = {
        "table": table,
        "game": game,
        "nonce": nonce or new_nonce(),
        "issued": round(float(issued), 3),
        "correction": dict(correction),
    }
    return signing.sign(envelope, key)


class CommandGate:
    """Decides whether a command may be carried out at this table."""

    def __init__(self, key: bytes | None, table: int, *, max_age_s: float = 300.0) -> None:
        self.key = key
        self.table = table
        self.max_age_s = max_age_s
        self.seen: set[str] = set()

    def remember(self, nonce: str) -> None:
        """A nonce already used (read back from the journal after a restart)."""
        self.seen.add(nonce)

    def check(self, command: Any, game: str | None, now_wall: float) -> str | None:
        """Why the command is refused, or None (and its nonce is then used up)."""
        if not isinstance(command, Mapping):
            return "not a command (a JSON object is expected)"
        if self.key is None:
            return "this table has no club key: it takes no commands"
        bad = signing.check(command, self.key)
        if bad is not None:
            return f"signature refused: {bad}"
        if command.get("table") != self.table:
            return f"the command is for table {command.get('table')!r}, this is table {self.table}"
        if game is None or command.get("game") != game:
            return "the command is for another game than the one on this table"
        nonce = command.get("nonce")
        if not isinstance(nonce, str) or not NONCE.fullmatch(nonce):
            return "the command has no valid nonce"
        if nonce in self.seen:
            return f"replayed command refused (nonce {nonce} was already used)"
        issued = command.get("issued")
        if isinstance(issued, bool) or not isinstance(issued, (int, float)):
            return "the command has no issue time"
        if self.max_age_s > 0 and abs(now_wall - float(issued)) > self.max_age_s:
            return (
                f"the command was issued {now_wall - float(issued):+.0f} s from this table's "
                f"clock (more than {self.max_age_s:.0f} s): refused as stale"
            )
        if not isinstance(command.get("correction"), Mapping):
            return "the command carries no correction"
        self.seen.add(nonce)
        return None
