"""The arbiter's Ed25519 signature on results and corrections; HMAC with the club's key (old).

The arbiter's own key pair (``[arbiter] key_file`` on the arbiter's laptop, made on first use;
default ``~/.local/share/companion/arbiter/arbiter.key``) signs result records and the
corrections made from the page: :func:`sign_as_arbiter` adds ``signed_by`` (the public line) and
``signature``; :func:`check_arbiter` checks them against the arbiter's public key, which anyone
may hold, so a spectator can check a result but only the arbiter can make one. The enrolled
tables' keyring sits beside the key (``[arbiter] keyring``, default ``keyring.json`` there).

The HMAC functions below (:func:`sign`, :func:`check`) remain for what still uses the club's
shared secret.

The club's key (``[arbiter] club_key`` in every table's and the arbiter laptop's configuration)
is a shared secret: whoever holds it can sign, so it stays off the spectators' machines. A
signature covers the canonical JSON of the record without its ``hmac`` field (keys sorted,
compact, UTF-8), so pretty-printing a file keeps it valid while changing any value, adding or
removing a field breaks it.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.keys import KeyFileError, Keyring, PublicKey, SigningKey, loose_permissions

SIGNATURE = "hmac"
MIN_KEY_LENGTH = 16

#: The fields an Ed25519-signed record carries: who signed (a public line) and the signature.
SIGNED_BY = "signed_by"
ED_SIGNATURE = "signature"
#: What an arbiter signature covers starts with this, so it can be nothing else the arbiter or
#: a table signs (a journal record, an MQTT message).
ARBITER_DOMAIN = b"companion-arbiter-record-1\n"


def data_dir() -> Path:
    """The arbiter's own folder: ``$XDG_DATA_HOME/companion/arbiter`` (``~/.local/share``)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.expanduser("~/.local/share")
    return Path(base) / "companion" / "arbiter"


def _arbiter_section(config: Mapping[str, Any]) -> Mapping[str, Any]:
    section = config.get("arbiter", {})
    return section if isinstance(section, Mapping) else {}


def arbiter_key_path(config: Mapping[str, Any]) -> Path:
    """The arbiter's private key file: ``[arbiter] key_file`` or ``arbiter.key`` in
    :func:`data_dir`."""
    configured = str(_arbiter_section(config).get("key_file", "") or "")
    return Path(configured).expanduser() if configured else data_dir() / "arbiter.key"


def keyring_path(config: Mapping[str, Any]) -> Path:
    """The enrolled tables' keyring: ``[arbiter] keyring`` or ``keyring.json`` in
    :func:`data_dir`."""
    configured = str(_arbiter_section(config).get("keyring", "") or "")
    return Path(configured).expanduser() if configured else data_dir() / "keyring.json"


def arbiter_key(config: Mapping[str, Any], *, create: bool = True) -> SigningKey:
    """The arbiter's key pair (made on first use with ``create``); a key file others can read
    is refused (:class:`~companion.keys.KeyFileError`)."""
    path = arbiter_key_path(config)
    if path.exists():
        if loose_permissions(path):
            raise KeyFileError(f"{path}: the arbiter's key is readable by others (chmod 600)")
        return SigningKey.load(path)
    if not create:
        raise KeyFileError(f"{path}: no arbiter key yet (`companion keys init --arbiter`)")
    path.parent.mkdir(parents=True, exist_ok=True)
    os.chmod(path.parent, 0o700)
    return SigningKey.create(path)


def load_keyring(config: Mapping[str, Any]) -> Keyring:
    return Keyring.load(keyring_path(config))


def ed_canonical(record: Mapping[str, Any]) -> bytes:
    """What an Ed25519 record signature covers: the domain, then the record without
    ``signature`` (``signed_by`` stays in: the signer is part of what is vouched for), keys
    sorted, compact JSON."""
    body = {k: v for k, v in record.items() if k != ED_SIGNATURE}
    text = json.dumps(
        body, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )
    return ARBITER_DOMAIN + text.encode("utf-8")


def sign_as_arbiter(record: Mapping[str, Any], key: SigningKey) -> dict[str, Any]:
    """A copy of ``record`` signed with ``key`` (``signed_by`` and ``signature``)."""
    out = {k: v for k, v in record.items() if k not in (SIGNED_BY, ED_SIGNATURE, SIGNATURE)}
    out[SIGNED_BY] = key.public.line()
    out[ED_SIGNATURE] = base64.b64encode(key.sign(ed_canonical(out))).decode("ascii")
    return out


def signer_of(record: Mapping[str, Any]) -> PublicKey | None:
    """The public key a record says signed it (None: none, or not a key)."""
    line = record.get(SIGNED_BY)
    if not isinstance(line, str):
        return None
    try:
        return PublicKey.from_line(line)
    except KeyFileError:
        return None


def check_arbiter(record: Mapping[str, Any], public: PublicKey) -> str | None:
    """Why ``record`` is not signed by ``public`` (None: it is), for a person."""
    claimed = record.get(ED_SIGNATURE)
    if not isinstance(claimed, str):
        return "it is not signed (no signature field)"
    named = signer_of(record)
    if named is None:
        return "it does not say who signed it"
    if named != public:
        return (
            f"it was signed by another key ({named.short_fingerprint}), "
            f"not the arbiter's ({public.short_fingerprint})"
        )
    try:
        raw = base64.b64decode(claimed, validate=True)
        data = ed_canonical(record)
    except (binascii.Error, TypeError, ValueError):
        return "its signature cannot be read"
    if not public.verify(raw, data):
        return "its signature does not match: it was edited after signing"
    return None


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
