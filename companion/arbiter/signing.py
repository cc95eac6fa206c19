"""HMAC-SHA256 with the club's key: signed result records and signed arbiter commands.

The club's key (``[arbiter] club_key`` in every table's and the arbiter laptop's configuration)
is a shared secret: whoever holds it can sign, so it stays off the spectators' machines. A
signature covers the canonical JSON of the record without its ``hmac`` field (keys sorted,
compact, UTF-8), so pretty-printing a file keeps it valid while changing any value, adding or
removing a field breaks it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Mapping
from typing import Any

SIGNATURE = "hmac"
MIN_KEY_LENGTH = 16


class ClubKeyError(ValueError):
    """The club's key is missing or too short to sign with."""


def club_key(text: str) -> bytes:
    """The key bytes from the configured text; refuses an empty or short one."""
    key = text.strip()
    if len(key) < MIN_KEY_LENGTH:
        raise ClubKeyError(
            f"[arbiter] club_key must be at least {MIN_KEY_LENGTH} characters "
            "(the same on every table and on the arbiter's laptop)"
        )
    return key.encode("utf-8")


def canonical(record: Mapping[str, Any]) -> bytes:
    """What a signature covers: the record without ``hmac``, sorted keys, compact JSON."""
    body = {k: v for k, v in record.items() if k != SIGNATURE}
    return json.dumps(
        body, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


def signature(record: Mapping[str, Any], key: bytes) -> str:
    return hmac.new(key, canonical(record), hashlib.sha256).hexdigest()


def sign(record: Mapping[str, Any], key: bytes) -> dict[str, Any]:
    """A copy of ``record`` with its ``hmac``."""
    out = {k: v for k, v in record.items() if k != SIGNATURE}
    out[SIGNATURE] = signature(out, key)
    return out


def check(record: Mapping[str, Any], key: bytes) -> str | None:
    """Why the record's signature does not hold (None when it does). Constant-time compare."""
    claimed = record.get(SIGNATURE)
    if not isinstance(claimed, str):
        return "it is not signed (no hmac field)"
    try:
        expected = signature(record, key)
    except (TypeError, ValueError):
        return "it is not a record that can be signed"
    if not hmac.compare_digest(claimed.lower(), expected):
        return "its signature does not match: it was edited, or signed with another key"
    return None
