"""The arbiter's PIN: checked against a SHA-256 hash, with a limit on wrong attempts.

Only the hash of the PIN is in the configuration (``[arbiter] pin_sha256``), so reading a
table's config does not give the PIN away. :class:`PinLock` is a pure state machine: time is
passed in (``now``, monotonic seconds), it never reads a clock or writes anything; the caller
journals what it reports.

After ``attempts`` wrong PINs in a row the lock refuses every PIN, right or wrong, for
``lockout_s`` seconds; each further lock-out lasts twice as long as the one before (at most an
hour), so trying all 10 000 four-digit PINs takes weeks. A right PIN resets both counts.

>>> lock = PinLock(hash_pin("2468"), attempts=2, lockout_s=30.0)
>>> lock.check("1111", now=0.0).status, lock.check("2222", now=1.0).status
('wrong', 'locked')
>>> lock.check("2468", now=2.0).status
'locked'
>>> lock.check("2468", now=31.0).status
'ok'
"""

from __future__ import annotations

import hashlib
import hmac
import string
from dataclasses import dataclass

MAX_LOCKOUT_S = 3600.0
MAX_PIN_LENGTH = 12


def hash_pin(pin: str) -> str:
    """The SHA-256 hex of a PIN, as ``[arbiter] pin_sha256`` holds it."""
    return hashlib.sha256(pin.encode("utf-8")).hexdigest()


def valid_pin(pin: str) -> bool:
    """A PIN is 4 to 12 digits: the keypad has no letters to spare."""
    return 4 <= len(pin) <= MAX_PIN_LENGTH and all(c in string.digits for c in pin)


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
            return "arbiter PIN accepted"
        if self.status == "wrong":
            return f"wrong PIN ({self.attempts_left} more attempt(s) before a lock-out)"
        if self.status == "locked" and self.wrong:
            return f"wrong PIN: PIN entry locked for {self.locked_for:.0f} s"
        if self.status == "locked":
            return f"PIN entry locked for {self.locked_for:.0f} s after wrong PINs"
        return "arbiter mode is off: no PIN hash in the configuration"


class PinLock:
    """Checks PINs against one hash, counting wrong attempts on the caller's clock."""

    def __init__(self, pin_sha256: str, *, attempts: int = 3, lockout_s: float = 60.0) -> None:
        digest = pin_sha256.strip().lower()
        if digest and (len(digest) != 64 or any(c not in string.hexdigits for c in digest)):
            raise ValueError(
                "[arbiter] pin_sha256 must be 64 hex digits (`companion arbiter hash-pin`)"
            )
        if attempts < 1:
            raise ValueError("the number of PIN attempts must be at least 1")
        if not lockout_s > 0:
            raise ValueError("the PIN lock-out must last some seconds")
        self._digest = digest
        self.attempts = attempts
        self.lockout_s = float(lockout_s)
        self.failures = 0
        self.lockouts = 0
        self.locked_until = float("-inf")

    @property
    def enabled(self) -> bool:
        return bool(self._digest)

    def locked_for(self, now: float) -> float:
        """Seconds until PINs are heard again (0 when they are)."""
        return max(0.0, self.locked_until - now)

    def check(self, pin: str, now: float) -> PinCheck:
        """Try one PIN at ``now``. The comparison takes the same time whatever the PIN."""
        if not self.enabled:
            return PinCheck("disabled")
        if now < self.locked_until:
            return PinCheck("locked", locked_for=self.locked_until - now)
        right = hmac.compare_digest(hash_pin(pin), self._digest)
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
