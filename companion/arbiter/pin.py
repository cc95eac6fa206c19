"""The arbiter's PIN: checked against a salted scrypt hash, with a limit on wrong attempts.

Only a slow, salted hash of the PIN is in the configuration (``[arbiter] pin_hash``, written by
``companion arbiter hash-pin``), so reading a table's config (or its SD card) does not give the
PIN away cheaply: with the default cost one guess takes about 80 ms of CPU on the project's CI
machine (``bench/signing.py``), so trying every 6-digit PIN costs about 20 CPU-hours, and every
table has its own salt, so no table's search helps with another's. The old unsalted SHA-256
form (``pin_sha256``) falls in seconds and is refused with a message saying how to re-hash.

:class:`PinLock` is a pure state machine: time is passed in (``now``, monotonic seconds), it
never reads a clock or writes anything; the caller journals what it reports.

After ``attempts`` wrong PINs in a row the lock refuses every PIN, right or wrong, for
``lockout_s`` seconds; each further lock-out lasts twice as long as the one before (at most an
hour). A right PIN resets both counts.

>>> lock = PinLock(hash_pin("2468", n=16), attempts=2, lockout_s=30.0)
>>> lock.check("1111", now=0.0).status, lock.check("2222", now=1.0).status
('wrong', 'locked')
>>> lock.check("2468", now=2.0).status
'locked'
>>> lock.check("2468", now=31.0).status
'ok'
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import os
import string
from dataclasses import dataclass

from companion.i18n import N_
from companion.remark import Remark

MAX_LOCKOUT_S = 3600.0
MIN_PIN_LENGTH = 4
MAX_PIN_LENGTH = 32
SCHEME = "scrypt"
#: scrypt's cost: N = 2**15, r = 8, p = 1 (32 MiB; ~80 ms of CPU here, bench/signing.py;
#: under a second on a Pi Zero 2 W, once per PIN typed).
DEFAULT_N = 2**15
DEFAULT_R = 8
DEFAULT_P = 1
#: The weakest cost a configuration may hold (tests use cheaper hashes directly).
MIN_CONFIG_N = 2**15
MAX_N = 2**20
SALT_BYTES = 16
KEY_BYTES = 32
REHASH = (
    "re-hash it with `companion arbiter hash-pin` and put the pin_hash line it prints in [arbiter]"
)


class PinHashError(ValueError):
    """A stored PIN hash that cannot be used; the message says why and what to do."""


@dataclass(frozen=True)
class PinHash:
    n: int
    r: int
    p: int
    salt: bytes
    key: bytes

    def __str__(self) -> str:
        b64 = base64.b64encode
        return (
            f"{SCHEME}${self.n}${self.r}${self.p}$"
            f"{b64(self.salt).decode('ascii')}${b64(self.key).decode('ascii')}"
        )

    def derive(self, pin: str) -> bytes:
        return _scrypt(pin, self.salt, self.n, self.r, self.p)


def _scrypt(pin: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(
        pin.encode("utf-8"), salt=salt, n=n, r=r, p=p, maxmem=256 * n * r + (1 << 20),
        dklen=KEY_BYTES,
    )


def hash_pin(pin: str, *, n: int = DEFAULT_N, r: int = DEFAULT_R, p: int = DEFAULT_P) -> str:
    """The stored form of a PIN, with a fresh random salt: ``scrypt$N$r$p$salt$key``."""
    salt = os.urandom(SALT_BYTES)
    return str(PinHash(n, r, p, salt, _scrypt(pin, salt, n, r, p)))


def parse_pin_hash(text: str) -> PinHash:
    """Read a stored PIN hash; :class:`PinHashError` says what is wrong, for a person."""
    text = text.strip()
    if len(text) == 64 and all(c in string.hexdigits for c in text):
        raise PinHashError(f"the PIN hash is the old unsalted SHA-256 form, which a search of all "
                           f"PINs breaks in seconds; {REHASH}")
    parts = text.split("$")
    if len(parts) != 6 or parts[0] != SCHEME:
        raise PinHashError(f"the PIN hash is not a scrypt hash; {REHASH}")
    try:
        n, r, p = int(parts[1]), int(parts[2]), int(parts[3])
        salt = base64.b64decode(parts[4], validate=True)
        key = base64.b64decode(parts[5], validate=True)
    except (ValueError, binascii.Error):
        raise PinHashError(f"the PIN hash is damaged; {REHASH}") from None
    if n < 2 or n > MAX_N or n & (n - 1) or not 1 <= r <= 32 or not 1 <= p <= 16:
        raise PinHashError(f"the PIN hash has impossible scrypt parameters; {REHASH}")
    if len(salt) < 8 or len(key) != KEY_BYTES:
        raise PinHashError(f"the PIN hash is damaged; {REHASH}")
    return PinHash(n, r, p, salt, key)


def check_config_pin_hash(text: str) -> None:
    """What a configuration may hold: empty (arbiter mode off) or a full-cost scrypt hash."""
    if not text.strip():
        return
    parsed = parse_pin_hash(text)
    if parsed.n * parsed.r * parsed.p < MIN_CONFIG_N * DEFAULT_R:
        raise PinHashError(f"the PIN hash is too cheap to compute (scrypt N={parsed.n}); "
                           f"{REHASH}")


def valid_pin(pin: str) -> bool:
    """A PIN is 4 to 32 digits: the keypad has no letters to spare (longer is stronger)."""
    return MIN_PIN_LENGTH <= len(pin) <= MAX_PIN_LENGTH and all(c in string.digits for c in pin)


@dataclass(frozen=True)
class PinCheck:
    """What one PIN attempt came to.

    ``status`` is ``ok``, ``wrong`` (``attempts_left`` more before a lock-out), ``locked``
    (``locked_for`` seconds to go; ``wrong`` says whether this PIN was heard and was wrong,
    the attempt that started the lock-out, or refused unheard) or ``disabled`` (no PIN
    configured).
    """

    status: str
    attempts_left: int = 0
    locked_for: float = 0.0
    wrong: bool = False

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @property
    def message(self) -> str:
        if self.status == "ok":
            return Remark(N_("arbiter PIN accepted"))
        if self.status == "wrong":
            return Remark(N_("wrong PIN ({n} more attempt(s) before a lock-out)"),
                          n=self.attempts_left)
        if self.status == "locked" and self.wrong:
            return Remark(N_("wrong PIN: PIN entry locked for {seconds} s"),
                          seconds=f"{self.locked_for:.0f}")
        if self.status == "locked":
            return Remark(N_("PIN entry locked for {seconds} s after wrong PINs"),
                          seconds=f"{self.locked_for:.0f}")
        return Remark(N_("arbiter mode is off: no PIN hash in the configuration"))


class PinLock:
    """Checks PINs against one stored hash, counting wrong attempts on the caller's clock."""

    def __init__(self, pin_hash: str, *, attempts: int = 3, lockout_s: float = 60.0) -> None:
        self._hash = parse_pin_hash(pin_hash) if pin_hash.strip() else None
        if attempts < 1:
            raise ValueError("the number of PIN attempts must be at least 1")
        if not lockout_s > 0:
            raise ValueError("the PIN lock-out must last some seconds")
        self.attempts = attempts
        self.lockout_s = float(lockout_s)
        self.failures = 0
        self.lockouts = 0
        self.locked_until = float("-inf")

    @property
    def enabled(self) -> bool:
        return self._hash is not None

    def locked_for(self, now: float) -> float:
        """Seconds until PINs are heard again (0 when they are)."""
        return max(0.0, self.locked_until - now)

    def check(self, pin: str, now: float) -> PinCheck:
        """Try one PIN at ``now``. The comparison takes the same time whatever the PIN; a PIN
        too long to be one is wrong without the (slow) derivation."""
        if self._hash is None:
            return PinCheck("disabled")
        if now < self.locked_until:
            return PinCheck("locked", locked_for=self.locked_until - now)
        derived = self._hash.derive(pin) if len(pin) <= MAX_PIN_LENGTH else b""
        right = hmac.compare_digest(derived, self._hash.key)
        if right:
            self.failures = 0
            self.lockouts = 0
            return PinCheck("ok", attempts_left=self.attempts)
        self.failures += 1
        if self.failures >= self.attempts:
            self.failures = 0
            seconds = min(MAX_LOCKOUT_S, self.lockout_s * 2**self.lockouts)
            self.lockouts += 1
            self.locked_until = now + seconds
            return PinCheck("locked", locked_for=seconds, wrong=True)
        return PinCheck("wrong", attempts_left=self.attempts - self.failures)
