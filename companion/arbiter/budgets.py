"""What one client may cost the arbiter's page at once, with a share always kept for the arbiter.

:mod:`~companion.arbiter.httpguard` bounds connections; this module bounds what they may be
doing. It is one aiohttp middleware (:meth:`ClientBudgets.middleware`), run for every request as
soon as its head has arrived:

- **requests in progress**: at most ``requests_per_client`` at once from one client address
  (the next is answered 429 at once, and its connection closed), and at most
  ``anonymous_requests`` from everyone without an arbiter's session together (503);
- **live streams**: at most ``streams_per_client`` from one address and ``streams -
  reserved_streams`` without a session (503);
- **the arbiter's share**: a request carrying the arbiter's session cookie
  (:mod:`~companion.arbiter.sessions`, held to the address that signed in) draws on
  ``reserved_requests`` and ``reserved_streams`` first, which nobody else can use, so however
  many addresses crowd the page the arbiter's page, stream and corrections get through (when
  the reserve is in use too, the session's request queues with everyone else's);
- **the body's deadline**: a request with a body must have sent all of it ``body_timeout_s``
  after its head arrived, or is answered 408 and its connection closed. The middleware reads
  the body itself, before anything else looks at the request, so the deadline holds for every
  route and starts at the head, not when a handler gets round to reading; bodies are small
  (``client_max_size``), so reading them first costs nothing.

The counts are kept on the page's own event loop (no locks); the middleware undoes its count in
a ``finally``, so a request that fails or whose client goes away gives its slot back.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from http import HTTPStatus

from aiohttp import web
from aiohttp.web_exceptions import HTTPRequestEntityTooLarge

from companion.arbiter.httpguard import client_key
from companion.arbiter.sessions import ArbiterSessions
from companion.i18n import _


@dataclass(frozen=True)
class Budgets:
    """The numbers (the page's are in :class:`~companion.arbiter.web.PageLimits`)."""

    requests_per_client: int = 8
    anonymous_requests: int = 176
    reserved_requests: int = 16
    streams: int = 64
    streams_per_client: int = 8
    reserved_streams: int = 8
    body_timeout_s: float = 5.0
    max_body: int = 16 * 1024
    stream_paths: frozenset[str] = field(default_factory=lambda: frozenset({"/api/stream"}))


def refusal(status: int, detail: str) -> web.Response:
    """A refusal that also closes its connection (what it held goes back at once)."""
    response = web.Response(status=status, content_type="application/json",
                            body=json.dumps({"ok": False, "detail": detail}).encode())
    if status in (HTTPStatus.TOO_MANY_REQUESTS, HTTPStatus.SERVICE_UNAVAILABLE):
        response.headers["Retry-After"] = "2"
    response.force_close()
    return response


class ClientBudgets:
    """The page's per-client budgets and the arbiter's reserved share (module docstring)."""

    def __init__(self, budgets: Budgets, sessions: ArbiterSessions,
                 clock: Callable[[], float] | None = None) -> None:
        self.budgets = budgets
        self.sessions = sessions
        self.clock = clock
        self.requests: dict[str, int] = {}
        self.streams: dict[str, int] = {}
        #: In progress now, by pool: anonymous or reserved, requests or streams.
        self.in_use = {"requests": 0, "streams": 0, "reserved requests": 0,
                       "reserved streams": 0}
        self.refused = {"requests": 0, "streams": 0, "slow bodies": 0}

    def _now(self) -> float:
        return self.clock() if self.clock is not None else asyncio.get_running_loop().time()

    def _take(self, client: str, stream: bool, session: bool) -> tuple[str, str] | web.Response:
        """The pool and per-client count this request is charged to, or its refusal."""
        b = self.budgets
        kind = "streams" if stream else "requests"
        reserved = f"reserved {kind}"
        if session and self.in_use[reserved] < (b.reserved_streams if stream
                                                else b.reserved_requests):
            self.in_use[reserved] += 1
            return reserved, ""
        counts = self.streams if stream else self.requests
        mine = counts.get(client, 0)
        if stream:
            if mine >= b.streams_per_client or self.in_use[kind] >= b.streams - b.reserved_streams:
                self.refused[kind] += 1
                return refusal(HTTPStatus.SERVICE_UNAVAILABLE, _("too many live streams open"))
        elif mine >= b.requests_per_client:
            self.refused[kind] += 1
            return refusal(HTTPStatus.TOO_MANY_REQUESTS,
                           _("too many requests from your address at once"))
        elif self.in_use[kind] >= b.anonymous_requests:
            self.refused[kind] += 1
            return refusal(HTTPStatus.SERVICE_UNAVAILABLE, _("the page is busy: try again"))
        counts[client] = mine + 1
        self.in_use[kind] += 1
        return kind, client

    def _give_back(self, pool: str, client: str) -> None:
        self.in_use[pool] -= 1
        if client:
            counts = self.streams if pool == "streams" else self.requests
            left = counts.get(client, 0) - 1
            if left > 0:
                counts[client] = left
            else:
                counts.pop(client, None)

    async def _read_body(self, request: web.Request, deadline: float) -> web.Response | None:
        """Read the whole body before ``deadline`` (kept by aiohttp for the handler's own
        ``read()``), or the refusal: 408 when too slow, 413 when too large."""
        if not request.body_exists:
            return None
        length = request.content_length
        if length is not None and length > self.budgets.max_body:
            return refusal(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, _("too large"))
        try:
            async with asyncio.timeout(max(0.0, deadline - self._now())):
                await request.read()
        except TimeoutError:
            self.refused["slow bodies"] += 1
            return refusal(HTTPStatus.REQUEST_TIMEOUT, _("body too slow"))
        except HTTPRequestEntityTooLarge:
            return refusal(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, _("too large"))
        return None

    @web.middleware
    async def middleware(
        self, request: web.Request,
        handler: Callable[[web.Request], Awaitable[web.StreamResponse]],
    ) -> web.StreamResponse:
        arrived = self._now()  # the head has just been parsed: the body's clock starts
        client = client_key(request.remote)
        session = self.sessions.of(request, client)
        taken = self._take(client, request.path in self.budgets.stream_paths, session)
        if isinstance(taken, web.Response):
            return taken
        pool, counted = taken
        try:
            refused = await self._read_body(request, arrived + self.budgets.body_timeout_s)
            if refused is not None:
                return refused
            return await handler(request)
        finally:
            self._give_back(pool, counted)
