"""Keys for the arbiter's tests: each table's own key, the arbiter's, and an enrolled keyring.

Fixed keys (derived from their names); :func:`keyring` enrols tables 1 to 9 the
way ``companion arbiter enroll`` does, in a file under the test's folder.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from companion.arbiter import topics
from companion.arbiter.sealing import seal
from companion.arbiter.view import ArbiterView, Request
from companion.keys import Keyring, SigningKey


def fixed_key(name: str) -> SigningKey:
    """The same key in every process (a table started as a subprocess signs with it too)."""
    seed = hashlib.sha256(f"companion test key {name}".encode()).digest()
    return SigningKey(Ed25519PrivateKey.from_private_bytes(seed))


ARBITER = fixed_key("arbiter")
TABLES = {n: fixed_key(f"table {n}") for n in range(1, 10)}


def keyring(folder: Path, tables: range = range(1, 10)) -> Keyring:
    ring = Keyring(folder / "keyring.json")
    for n in tables:
        ring.enroll(str(n), TABLES[n].public, "2026-11-24T20:00:00")
    ring.save()
    return ring


def table_arbiter(**more: Any) -> dict[str, Any]:
    """A table's ``[arbiter]`` section that trusts :data:`ARBITER`'s commands."""
    return {"arbiter_key": ARBITER.public.line(), **more}


def enrolled(tables: range = range(1, 10)) -> Keyring:
    """Tables enrolled in a keyring kept in memory only."""
    ring = Keyring(Path("/nonexistent/keyring.json"))
    for n in tables:
        ring.enroll(str(n), TABLES[n].public, "2026-11-24T20:00:00")
    return ring


class TrustingView(ArbiterView):
    """The arbiter's view with tables 1-9 enrolled, handed each message signed as that table
    signs it: for the tests of ordering and display (signatures have tests of their own)."""

    def __init__(self, prefix: str = "companion") -> None:
        super().__init__(prefix, enrolled())

    def handle(self, topic: str, payload: bytes, now: float) -> list[Request]:
        parsed = topics.parse(self.prefix, topic)
        try:
            message = json.loads(payload)
        except ValueError:
            message = None
        if parsed is not None and isinstance(message, dict) and parsed[0] in TABLES:
            payload = json.dumps(seal(message, parsed[1], TABLES[parsed[0]])).encode()
        return super().handle(topic, payload, now)
