"""The arbiter's place on a crowded page: a session cookie that a right PIN gives a browser.

The page lets anyone read it, and a spectator's browser costs it as much as the arbiter's: with
enough addresses, spectators (or an attacker) can fill every live stream and every request slot
(:mod:`companion.arbiter.budgets`). A browser that has shown the arbiter's PIN (signed in, or
sent a correction the PIN let through) gets a session cookie, and the page keeps a share of its
streams and request slots for requests carrying one, so the arbiter is never queued behind the
crowd.

A session is a *place in the queue*, not a credential: every correction and pairing still needs
the PIN, so a stolen session cookie lets its thief use the arbiter's reserved share and nothing
else. It is held to the client address that signed in (:func:`~companion.arbiter.httpguard.
client_key`), kept only in the page's memory (a restart signs everyone out), ends after
:data:`LIFETIME_S`, and at most :data:`MAX_SESSIONS` are kept (the oldest goes first).

The cookie is ``HttpOnly`` (no script reads it) and ``SameSite=Strict`` (no other site's page
sends it); the page is plain HTTP, so anyone who can read the club's Wi-Fi traffic can read it
too (docs/security.md).
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable

from aiohttp import web

COOKIE = "companion_arbiter"
#: A tournament day: the arbiter signs in once in the morning.
LIFETIME_S = 12 * 3600.0
#: The arbiter's laptop and tablet, each with a browser or two, with room to spare.
MAX_SESSIONS = 16


class ArbiterSessions:
    """The sessions the page gave out (their tokens' hashes), each with its address and end."""

    def __init__(
        self, *, lifetime_s: float = LIFETIME_S, max_sessions: int = MAX_SESSIONS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.lifetime_s = lifetime_s
        self.max_sessions = max_sessions
        self.clock = clock
        self._held: OrderedDict[bytes, tuple[str, float]] = OrderedDict()

    @staticmethod
    def _digest(token: str) -> bytes:
        return hashlib.sha256(token.encode("utf-8", "replace")).digest()

    def grant(self, client: str) -> str:
        """A new session for ``client`` (a :func:`client_key`): the token for its cookie."""
        token = secrets.token_urlsafe(32)
        self._held[self._digest(token)] = (client, self.clock() + self.lifetime_s)
        while len(self._held) > self.max_sessions:
            self._held.popitem(last=False)
        return token

    def holds(self, token: str | None, client: str) -> bool:
        """Whether ``token`` is a live session given to ``client``."""
        if not token or len(token) > 128:
            return False
        digest = self._digest(token)
        entry = self._held.get(digest)
        if entry is None:
            return False
        owner, until = entry
        if self.clock() >= until:
            del self._held[digest]
            return False
        return owner == client

    def of(self, request: web.BaseRequest, client: str) -> bool:
        """Whether ``request`` carries a live session of ``client``."""
        return self.holds(request.cookies.get(COOKIE), client)

    def give(self, response: web.StreamResponse, client: str) -> None:
        """Sign ``response``'s browser in: a new session's cookie on the answer."""
        response.set_cookie(COOKIE, self.grant(client), httponly=True, samesite="Strict",
                            path="/", max_age=int(self.lifetime_s))
