"""Connection limits for the arbiter's page: caps on connections and header/idle time-outs.

aiohttp bounds what a request may carry (``client_max_size``, header line and field sizes) and
closes a keep-alive connection after ``keepalive_timeout``, but it has no cap on open
connections and no limit on how long a client may take to send its request's head: a thousand
sockets opened and left silent (or fed one byte a minute) would hold the page's file
descriptors. :class:`ConnectionGuard` wraps aiohttp's protocol (one :class:`GuardedProtocol`
per connection, passing everything through) and, once a second:

- closes a connection that has not sent a whole request head ``header_timeout`` seconds after
  it opened or after it started a new request;
- closes a connection idle (no request in progress) for ``idle_timeout`` seconds;

and when ``max_connections`` are open, makes room for a new one by closing the connection idle
the longest (so silent sockets never lock the arbiter out); only when every connection is busy
with a request (live streams included) is the newcomer refused. One client address
(:func:`client_key`) may hold ``max_per_client`` connections: its next one closes its own
oldest idle connection (or is refused when all of its connections are busy), so one address
opening connections fast never closes anyone else's.

aiohttp answers a request it cannot parse (400: a raw non-ASCII byte in the path, a bad header)
from inside its protocol, where no middleware runs; with ``secure`` (the page's security
headers) the guard gives each connection's protocol a subclass whose ``handle_error`` hands
those answers to it on their way out.

A request is "in progress" from the moment aiohttp hands it to the application (the
:meth:`ConnectionGuard.middleware` marks it) until its response is done; reading its body is
bounded by the handler itself.
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web


@dataclass(frozen=True)
class Limits:
    max_connections: int = 256
    #: One address's share: a browser opens at most six connections to a site, plus its live
    #: stream; 32 leaves room for a few devices behind one address (a club's NAT).
    max_per_client: int = 32
    header_timeout: float = 10.0
    idle_timeout: float = 30.0
    sweep_every: float = 1.0


def client_key(peer: Any) -> str:
    """Whom a connection's budget is charged to: its IPv4 address, or the /64 network of an
    IPv6 address (one machine may hold a whole /64); ``"?"`` when the socket has no peer."""
    host = peer[0] if isinstance(peer, (tuple, list)) and peer else peer
    if not isinstance(host, str) or not host:
        return "?"
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


def secured_handler(secure: Callable[[web.StreamResponse], None]) -> type[web.RequestHandler]:
    """aiohttp's protocol class, with ``secure`` applied to the answers it makes itself."""

    class SecuredRequestHandler(web.RequestHandler):
        __slots__ = ()  # the same layout: an existing protocol may take this class

        def handle_error(self, request: Any, status: int = 500, exc: BaseException | None = None,
                         message: str | None = None) -> web.StreamResponse:
            response = super().handle_error(request, status, exc, message)
            if not response.prepared:
                secure(response)
            return response

    return SecuredRequestHandler


class GuardedProtocol(asyncio.Protocol):
    """aiohttp's protocol for one connection, with the guard's bookkeeping around it."""

    def __init__(self, inner: Any, guard: ConnectionGuard) -> None:
        if guard.handler_class is not None and type(inner) is web.RequestHandler:
            inner.__class__ = guard.handler_class
        self.inner = inner
        self.guard = guard
        self.transport: asyncio.Transport | None = None
        self.client = "?"
        self.active = 0  # requests in progress
        self.waiting_since: float | None = None  # a request head is due since then
        self.idle_since = 0.0
        self.refused = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        self.client = client_key(transport.get_extra_info("peername"))
        now = self.guard.now()
        self.waiting_since = now
        self.idle_since = now
        if not self.guard.admit(self):
            self.refused = True
            transport.abort()
            return
        self.inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if self.refused:
            return
        if self.active == 0 and self.waiting_since is None:
            self.waiting_since = self.guard.now()
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        if self.refused:
            return None
        return bool(self.inner.eof_received())

    def connection_lost(self, exc: Exception | None) -> None:
        self.guard.remove(self)
        if not self.refused:
            self.inner.connection_lost(exc)

    def pause_writing(self) -> None:
        if not self.refused:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if not self.refused:
            self.inner.resume_writing()

    def close(self) -> None:
        if self.transport is not None:
            self.transport.abort()


class ConnectionGuard:
    """Every open connection of one server, with the limits above."""

    def __init__(
        self, limits: Limits, loop: asyncio.AbstractEventLoop,
        secure: Callable[[web.StreamResponse], None] | None = None,
    ) -> None:
        self.limits = limits
        self.loop = loop
        self.handler_class = secured_handler(secure) if secure is not None else None
        self.open: dict[Any, GuardedProtocol] = {}  # transport -> connection
        self.per_client: dict[str, int] = {}
        self.closed_idle = 0
        self.closed_slow = 0
        self.refused = 0
        self._sweeper: asyncio.Task[None] | None = None

    def now(self) -> float:
        return self.loop.time()

    def factory(self, make: Callable[[], Any]) -> Callable[[], GuardedProtocol]:
        """A protocol factory for ``loop.create_server`` around aiohttp's (``make``)."""
        return lambda: GuardedProtocol(make(), self)

    def start(self) -> None:
        self._sweeper = self.loop.create_task(self._sweep_forever())

    def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()

    def admit(self, conn: GuardedProtocol) -> bool:
        if self.per_client.get(conn.client, 0) >= self.limits.max_per_client:
            own = [c for c in self.open.values() if c.client == conn.client and c.active == 0]
            if not own:
                self.refused += 1
                return False
            self._evict(min(own, key=lambda c: c.idle_since))
        if len(self.open) >= self.limits.max_connections:
            idle = [c for c in self.open.values() if c.active == 0]
            if not idle:
                self.refused += 1
                return False
            self._evict(min(idle, key=lambda c: c.idle_since))
        self.open[conn.transport] = conn
        self.per_client[conn.client] = self.per_client.get(conn.client, 0) + 1
        return True

    def _evict(self, conn: GuardedProtocol) -> None:
        self.remove(conn)
        self.closed_idle += 1
        conn.close()

    def remove(self, conn: GuardedProtocol) -> None:
        if self.open.get(conn.transport) is conn:
            del self.open[conn.transport]
            left = self.per_client.get(conn.client, 0) - 1
            if left > 0:
                self.per_client[conn.client] = left
            else:
                self.per_client.pop(conn.client, None)

    def sweep(self) -> None:
        now = self.now()
        for conn in list(self.open.values()):
            if conn.active:
                continue
            if conn.waiting_since is not None and (
                now - conn.waiting_since > self.limits.header_timeout
            ):
                self.closed_slow += 1
                conn.close()
            elif conn.waiting_since is None and now - conn.idle_since > self.limits.idle_timeout:
                self.closed_idle += 1
                conn.close()

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.limits.sweep_every)
            self.sweep()

    @web.middleware
    async def middleware(
        self, request: web.Request,
        handler: Callable[[web.Request], Awaitable[web.StreamResponse]],
    ) -> web.StreamResponse:
        conn = self.open.get(request.transport)
        if conn is None:
            return await handler(request)
        conn.active += 1
        conn.waiting_since = None
        try:
            return await handler(request)
        finally:
            conn.active -= 1
            conn.idle_since = self.now()
