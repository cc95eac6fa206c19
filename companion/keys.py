"""Ed25519 keys: each table's own signing key, the arbiter's key, and the arbiter's keyring.

Why per-table keys: a hash chain alone has no secret, so whoever edits a journal can recompute
it. A signature by a key that never leaves the table (file mode 0600, owned by the service
user, never in the configuration) makes an edit detectable by anyone holding the *public*
key, which can be shown to everybody. Trust in that public key is established once, the way
SSH host keys and Bluetooth pairing do it: the table's OLED and ``companion keys show`` print
a short fingerprint, the arbiter compares it and enrols the key (:class:`Keyring`).

Formats (all text, so a person can copy them):

``companion-ed25519 <base64 of the 32 raw public bytes> [label]``
    one public key on one line (like an ``authorized_keys`` line); the label is informative.
private key file
    PKCS#8 PEM, unencrypted (the table must sign unattended), mode 0600.
fingerprint
    ``SHA256:`` and the unpadded base64 of the SHA-256 of the raw public key (as OpenSSH
    prints), and a short form for the OLED: the first 80 bits in base32, four groups of four.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from companion.files import PUBLIC, SECRET, atomic_write

KEY_TYPE = "companion-ed25519"
#: What a key line looks like (its type, or a base64 word of about a key's length): a value
#: that looks like neither was meant as a file's path.
_KEY_LINE = re.compile(rf"{KEY_TYPE}\b|[A-Za-z0-9+/]{{40,}}={{0,2}}$")
SIGNATURE_BYTES = 64
KEYRING_FORMAT = 1


class KeyFileError(ValueError):
    """A key file or key line that cannot be used; the message says why, for a person."""


@dataclass(frozen=True)
class PublicKey:
    """A table's or the arbiter's public key: verifies signatures, prints its fingerprint."""

    raw: bytes

    def __post_init__(self) -> None:
        if len(self.raw) != 32:
            raise KeyFileError("an Ed25519 public key is 32 bytes")

    @classmethod
    def from_line(cls, text: str) -> PublicKey:
        """Read the line ``companion keys show`` prints, or just its base64 part.

        Accepts the contents of a public key file too (the first non-empty, non-comment line).
        """
        for line in text.splitlines():
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split()
            if parts[0] == KEY_TYPE:
                if len(parts) < 2:
                    raise KeyFileError(f"'{KEY_TYPE}' must be followed by the key")
                encoded = parts[1]
            elif len(parts) == 1:
                encoded = parts[0]
            else:
                raise KeyFileError(f"not a public key line (it should start with {KEY_TYPE})")
            try:
                raw = base64.b64decode(encoded, validate=True)
            except (binascii.Error, ValueError):
                raise KeyFileError("the key is not valid base64") from None
            if len(raw) != 32:
                raise KeyFileError("the key has the wrong length (an Ed25519 key is 32 bytes)")
            if base64.b64encode(raw).decode("ascii") != encoded:
                raise KeyFileError("the key is not written as it was made (its base64 differs)")
            return cls(raw)
        raise KeyFileError("no public key found (empty text)")

    @classmethod
    def from_file_or_line(cls, value: str) -> PublicKey:
        """``--key`` takes a path to a public key file or the line itself."""
        path = Path(value)
        if len(value) < 4096 and path.is_file():
            try:
                return cls.from_line(path.read_text(encoding="utf-8", errors="replace"))
            except OSError as exc:
                raise KeyFileError(f"{path}: {exc.strerror}") from None
        if len(value) < 4096 and path.is_dir():
            raise KeyFileError(f"{path}: a folder, not a public key file")
        try:
            return cls.from_line(value)
        except KeyFileError:
            if _KEY_LINE.match(value.strip()):
                raise
            raise KeyFileError(f"{value}: no such file (nor a public key line, which begins "
                               f"with {KEY_TYPE})") from None

    def line(self, label: str = "") -> str:
        text = f"{KEY_TYPE} {base64.b64encode(self.raw).decode('ascii')}"
        return f"{text} {label}".rstrip()

    @property
    def fingerprint(self) -> str:
        """OpenSSH style: ``SHA256:`` + unpadded base64 of the key's SHA-256."""
        b64 = base64.b64encode(hashlib.sha256(self.raw).digest()).decode("ascii")
        return "SHA256:" + b64.rstrip("=")

    @property
    def short_fingerprint(self) -> str:
        """What the OLED shows and a person compares: 16 base32 characters in groups of 4."""
        text = base64.b32encode(hashlib.sha256(self.raw).digest()[:10]).decode("ascii")
        return "-".join(text[i : i + 4] for i in range(0, 16, 4))

    def verify(self, signature: bytes, data: bytes) -> bool:
        """True only when ``signature`` is this key's signature of ``data``."""
        if len(signature) != SIGNATURE_BYTES:
            return False
        try:
            Ed25519PublicKey.from_public_bytes(self.raw).verify(signature, data)
        except InvalidSignature:
            return False
        return True


class SigningKey:
    """A private key that signs; loaded from (or created as) a 0600 PEM file."""

    def __init__(self, private: Ed25519PrivateKey, path: Path | None = None) -> None:
        self._private = private
        self.path = path
        raw = private.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )
        self.public = PublicKey(raw)

    @classmethod
    def generate(cls) -> SigningKey:
        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def load(cls, path: str | Path) -> SigningKey:
        path = Path(path)
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise KeyFileError(f"{path}: cannot read the key ({exc.strerror})") from None
        try:
            private = serialization.load_pem_private_key(data, password=None)
        except (ValueError, TypeError):
            raise KeyFileError(f"{path}: not a private key file") from None
        if not isinstance(private, Ed25519PrivateKey):
            raise KeyFileError(f"{path}: not an Ed25519 key")
        return cls(private, path)

    @classmethod
    def create(cls, path: str | Path) -> SigningKey:
        """A new key written to ``path`` (mode 0600) and ``path.pub`` (0644); refuses to
        replace an existing key, since journals already signed with it would lose their signer."""
        path = Path(path)
        if path.exists():
            raise KeyFileError(f"{path} already exists; a table keeps its key")
        key = cls.generate()
        key.path = path
        pem = key._private.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        atomic_write(path, pem, mode=SECRET)
        atomic_write(public_path(path), key.public.line(path.stem) + "\n", mode=PUBLIC)
        return key

    @classmethod
    def load_or_create(cls, path: str | Path) -> SigningKey:
        path = Path(path)
        if path.exists():
            return cls.load(path)
        return cls.create(path)

    def sign(self, data: bytes) -> bytes:
        return self._private.sign(data)


def public_path(private_path: str | Path) -> Path:
    """Where the public half of a key file is kept: ``NAME.pub`` beside it."""
    p = Path(private_path)
    return p.with_name(p.name + ".pub")


def loose_permissions(path: str | Path) -> bool:
    """True when a private key file can be read or written by group or others."""
    try:
        return bool(os.stat(path).st_mode & 0o077)
    except OSError:
        return False


@dataclass(frozen=True)
class Enrolled:
    table: str
    key: PublicKey
    enrolled_at: str  # ISO date-time, from the arbiter's laptop, informative only


class Keyring:
    """The arbiter's enrolled table keys: table name -> public key, kept in one JSON file.

    Enrolling is deliberate (the arbiter compared the fingerprint), so a table that comes back
    with another key is not silently re-enrolled: :meth:`enroll` refuses unless ``replace``.
    """

    def __init__(self, path: Path, entries: dict[str, Enrolled] | None = None) -> None:
        self.path = path
        self._entries: dict[str, Enrolled] = dict(entries or {})

    @classmethod
    def load(cls, path: str | Path) -> Keyring:
        """The keyring at ``path``; an absent file is an empty keyring, a damaged one an error."""
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return cls(path)
        except (OSError, UnicodeDecodeError) as exc:
            raise KeyFileError(f"{path}: cannot read the keyring ({exc})") from None
        try:
            data = json.loads(text)
            tables = data["tables"]
            entries = {
                str(name): Enrolled(
                    str(name), PublicKey.from_line(str(e["key"])), str(e.get("enrolled_at", ""))
                )
                for name, e in tables.items()
            }
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise KeyFileError(f"{path}: the keyring is damaged ({exc})") from None
        return cls(path, entries)

    def save(self) -> None:
        data = {
            "format": KEYRING_FORMAT,
            "tables": {
                name: {
                    "key": e.key.line(),
                    "fingerprint": e.key.fingerprint,
                    "enrolled_at": e.enrolled_at,
                }
                for name, e in sorted(self._entries.items())
            },
        }
        atomic_write(self.path, json.dumps(data, indent=2) + "\n", mode=SECRET)

    def enroll(self, table: str, key: PublicKey, when: str, *, replace: bool = False) -> Enrolled:
        current = self._entries.get(table)
        if current is not None and current.key != key and not replace:
            raise KeyFileError(
                f"table {table!r} is enrolled with another key ({current.key.short_fingerprint}); "
                "re-enrol deliberately with --replace"
            )
        entry = Enrolled(table, key, when)
        self._entries[table] = entry
        return entry

    def key_for(self, table: str) -> PublicKey | None:
        entry = self._entries.get(table)
        return None if entry is None else entry.key

    def table_for(self, key: PublicKey) -> str | None:
        return next((e.table for e in self._entries.values() if e.key == key), None)

    def __iter__(self) -> Iterator[Enrolled]:
        return iter(sorted(self._entries.values(), key=lambda e: e.table))

    def __len__(self) -> int:
        return len(self._entries)
