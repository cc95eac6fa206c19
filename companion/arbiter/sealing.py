"""Table messages signed with the table's own Ed25519 key, and checked against the keyring.

Why: whoever reaches the broker could otherwise publish a fake table, a forged state or a
retained forged result that replaces the real one on the arbiter's page. Every message a table
publishes (events, state, status, result, reply) carries ``sig``: the table's signature of
the topic kind and the message's canonical JSON (keys sorted, compact, UTF-8, without
``sig``). The kind is signed too, so a table's signed event cannot be replayed as its state.

The arbiter's page accepts a message on table N's topics only when it verifies with the key
enrolled for table N (:func:`enrolled_key`); anything else is counted and shown as unverified.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Mapping
from typing import Any

from companion.keys import Keyring, PublicKey, SigningKey

SIG = "sig"
DOMAIN = b"companion-mqtt-1\n"


def signed_bytes(kind: str, message: Mapping[str, Any]) -> bytes:
    """What a table's signature covers: the topic kind and the message without ``sig``."""
    body = {k: v for k, v in message.items() if k != SIG}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return DOMAIN + kind.encode() + b"\n" + text.encode("utf-8")


def seal(message: Mapping[str, Any], kind: str, key: SigningKey | None) -> dict[str, Any]:
    """A copy of ``message`` with the table's signature (unchanged, unsigned, without a key)."""
    out = {k: v for k, v in message.items() if k != SIG}
    if key is not None:
        out[SIG] = base64.b64encode(key.sign(signed_bytes(kind, out))).decode("ascii")
    return out


def check(message: Mapping[str, Any], kind: str, key: PublicKey | None) -> str | None:
    """Why ``message`` is not a signed message of the table whose key is ``key`` (None: it is)."""
    if key is None:
        return "the table is not enrolled"
    claimed = message.get(SIG)
    if not isinstance(claimed, str):
        return "the message is not signed"
    try:
        signature = base64.b64decode(claimed, validate=True)
        data = signed_bytes(kind, message)
    except (binascii.Error, ValueError, TypeError):
        return "the message's signature cannot be read"
    if not key.verify(signature, data):
        return "the signature is not the enrolled table's"
    return None


def enrolled_key(keyring: Keyring | None, table: int) -> PublicKey | None:
    """The key enrolled for table number ``table`` (enrolled as ``3`` or ``table-3``)."""
    if keyring is None:
        return None
    return keyring.key_for(str(table)) or keyring.key_for(f"table-{table}")
