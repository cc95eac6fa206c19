"""Arbiter commands sent to a table over MQTT: signed by the arbiter, single-use, rate-limited.

A command from the arbiter's page is a correction wrapped in an envelope and signed with the
arbiter's Ed25519 key (the tables know its public key, ``[arbiter] arbiter_key``)::

    {"table": 3, "game": "<the journal header's hash, 16 hex>", "nonce": "<32 hex>",
     "issued": 1790000123.4, "correction": {"what": "sand", "glass": "r1", "sand": 60,
                                            "reason": "..."},
     "sig": "<the arbiter's signature of the rest, base64>"}

The table's :class:`CommandGate` works in two steps so that a flood never reaches the game:

:meth:`CommandGate.screen`, on the network thread, as each message arrives
    drops, cheapest check first: an oversized payload, anything beyond the rate limit (a token
    bucket: a few commands a second, which no arbiter exceeds), what is not JSON, a command for
    another table, without a nonce, issued outside the time window around the table's clock,
    and last (the only costly check) a signature that is not the arbiter's;
:meth:`CommandGate.admit`, in the daemon's loop, for what passed
    refuses a command for another game, or whose nonce was used already (a replay).

Every decision is made on the decoded command, never on the payload's bytes: JSON spells one
key or one nonce many ways (``"pa\\u0069ring"`` is ``"pairing"``), and the signature covers the
decoded, canonical form (:func:`~companion.arbiter.sealing.signed_bytes`), so a command
re-encoded is the same command, with the same nonce, and refused as a replay.

Refusals are *counted*, never journaled one by one (a flood would fill the SD card and hold the
journal's fsyncs up): :meth:`CommandGate.summary` gives at most one summary line a minute,
which the station journals as a note. Accepted nonces are journaled with the correction, so a
table that restarts rebuilds the used set from its journal and a replay stays refused.
"""

from __future__ import annotations

import json
import re
import secrets
import threading
from collections import Counter
from collections.abc import Mapping
from typing import Any

from companion.arbiter import sealing
from companion.keys import PublicKey, SigningKey

NONCE = re.compile(r"[0-9a-f]{32}")
KIND = "cmd"
MAX_COMMAND_BYTES = 8 * 1024
RATE_PER_S = 5.0
BURST = 10.0
SUMMARY_EVERY_S = 60.0


def new_nonce() -> str:
    return secrets.token_hex(16)


def make_command(
    correction: Mapping[str, Any],
    *,
    table: int,
    game: str,
    key: SigningKey,
    issued: float,
    nonce: str | None = None,
) -> dict[str, Any]:
    """A command carrying one correction to one table's current game, signed by the arbiter."""
    envelope = {
        "table": table,
        "game": game,
        "nonce": nonce or new_nonce(),
        "issued": round(float(issued), 3),
        "correction": dict(correction),
    }
    return sealing.seal(envelope, KIND, key)


def make_pairing_command(
    pairing: Mapping[str, Any],
    *,
    table: int,
    key: SigningKey,
    issued: float,
    nonce: str | None = None,
) -> dict[str, Any]:
    """A command carrying the next game's pairing to a table, signed by the arbiter. It names
    no game (``"game": ""``): it is for whatever the table plays next."""
    envelope = {
        "table": table,
        "game": "",
        "nonce": nonce or new_nonce(),
        "issued": round(float(issued), 3),
        "pairing": dict(pairing),
    }
    return sealing.seal(envelope, KIND, key)


def is_pairing(command: Mapping[str, Any]) -> bool:
    """Whether a decoded command carries a pairing (never decided on the payload's bytes: JSON
    spells the same key many ways, ``"pairing"`` or ``"pa\\u0069ring"``)."""
    return isinstance(command.get("pairing"), Mapping)


class Refused(Exception):
    """Why a command was refused: ``kind`` is its counter's name, the message for a person."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


class CommandGate:
    """Decides whether a command may be carried out at this table; counts what it refuses.

    Thread-safe: :meth:`screen` runs on the MQTT thread, the rest in the daemon's loop.
    """

    def __init__(
        self,
        arbiter_key: PublicKey | None,
        table: int,
        *,
        max_age_s: float = 300.0,
        rate_per_s: float = RATE_PER_S,
        burst: float = BURST,
    ) -> None:
        self.arbiter_key = arbiter_key
        self.table = table
        self.max_age_s = max_age_s
        self.rate_per_s = rate_per_s
        self.burst = burst
        self.seen: set[str] = set()
        self._lock = threading.Lock()
        self._tokens = burst
        self._filled_at: float | None = None
        self.refused: Counter[str] = Counter()  # since the last summary
        self.refused_total = 0
        self.last_refusal = ""
        self._summarised_at = float("-inf")

    def remember(self, nonce: str) -> None:
        """A nonce already used (read back from the journal after a restart)."""
        self.seen.add(nonce)

    # ------------------------------------------------------------------ the network thread

    def _take_token(self, now: float) -> bool:
        if self._filled_at is not None:
            self._tokens = min(self.burst, self._tokens + (now - self._filled_at) * self.rate_per_s)
        self._filled_at = now
        if self._tokens < 1.0:
            return False
        self._tokens -= 1.0
        return True

    def count(self, refused: Refused) -> bool:
        """Count one refusal; True when it is the first since the last summary."""
        with self._lock:
            first = not self.refused
            self.refused[refused.kind] += 1
            self.refused_total += 1
            self.last_refusal = str(refused)
            return first

    def screen(self, payload: bytes | str, now_wall: float, now_mono: float) -> dict[str, Any]:
        """The command in ``payload`` when it may go on to :meth:`admit`; raises
        :class:`Refused` (already counted) otherwise."""
        try:
            return self._screen(payload, now_wall, now_mono)
        except Refused as refused:
            self.count(refused)
            raise

    def _screen(self, payload: bytes | str, now_wall: float, now_mono: float) -> dict[str, Any]:
        if len(payload) > MAX_COMMAND_BYTES:
            raise Refused("too-large", f"the command is larger than {MAX_COMMAND_BYTES} bytes")
        with self._lock:
            if not self._take_token(now_mono):
                raise Refused("rate-limited", "more commands than the rate limit allows")
        try:
            command = json.loads(payload)
        except (ValueError, UnicodeDecodeError):
            raise Refused("malformed", "not a command (a JSON object is expected)") from None
        if not isinstance(command, dict):
            raise Refused("malformed", "not a command (a JSON object is expected)")
        if self.arbiter_key is None:
            raise Refused("no-key", "this table has no arbiter key: it takes no commands")
        if command.get("table") != self.table:
            raise Refused("other-table", f"the command is for table {command.get('table')!r}, "
                                         f"this is table {self.table}")
        nonce = command.get("nonce")
        if not isinstance(nonce, str) or not NONCE.fullmatch(nonce):
            raise Refused("malformed", "the command has no valid nonce")
        issued = command.get("issued")
        if isinstance(issued, bool) or not isinstance(issued, (int, float)):
            raise Refused("malformed", "the command has no issue time")
        if self.max_age_s > 0 and not abs(now_wall - float(issued)) <= self.max_age_s:
            raise Refused("stale", f"the command was issued {now_wall - float(issued):+.0f} s "
                                   f"from this table's clock (more than {self.max_age_s:.0f} s): "
                                   "refused as stale")
        if not isinstance(command.get("correction"), Mapping) and not isinstance(
            command.get("pairing"), Mapping
        ):
            raise Refused("malformed", "the command carries no correction and no pairing")
        bad = sealing.check(command, KIND, self.arbiter_key)
        if bad is not None:
            raise Refused("signature", f"signature refused: {bad.replace('table', 'arbiter')}")
        return command

    # ------------------------------------------------------------------ the daemon's loop

    def admit(self, command: Mapping[str, Any], game: str | None) -> None:
        """Use the command's nonce up; raises :class:`Refused` (counted) for another game's
        command or a replay."""
        try:
            if is_pairing(command):
                pass  # a pairing is for the next game, whatever game is open now
            elif game is None or command.get("game") != game:
                raise Refused("other-game",
                              "the command is for another game than the one on this table")
            nonce = str(command.get("nonce"))
            if nonce in self.seen:
                raise Refused("replayed",
                              f"replayed command refused (nonce {nonce} was already used)")
        except Refused as refused:
            self.count(refused)
            raise
        self.seen.add(nonce)

    def check(self, payload: bytes | str | Mapping[str, Any], game: str | None,
              now_wall: float, now_mono: float) -> dict[str, Any]:
        """Both steps at once (a caller with no network thread of its own)."""
        if isinstance(payload, Mapping):
            payload = json.dumps(payload)
        command = self.screen(payload, now_wall, now_mono)
        self.admit(command, game)
        return command

    def summary(self, now_mono: float) -> tuple[str | None, float]:
        """``(text, 0)`` to journal the refusals counted since the last summary, at most once
        every :data:`SUMMARY_EVERY_S`; else ``(None, seconds to wait)`` (0: nothing to say)."""
        with self._lock:
            if not self.refused:
                return None, 0.0
            wait = self._summarised_at + SUMMARY_EVERY_S - now_mono
            if wait > 0:
                return None, wait
            counts = ", ".join(f"{kind} {n}" for kind, n in self.refused.most_common())
            total = sum(self.refused.values())
            text = (f"arbiter commands refused: {total} ({counts}); "
                    f"the last: {self.last_refusal}")
            self.refused.clear()
            self._summarised_at = now_mono
            return text, 0.0
