"""Hostile clients of the arbiter's page, for its tests and ``bench/page_attacks.py``.

Each :class:`Siege` keeps a number of raw sockets open from given loopback addresses (Linux
routes all of 127/8 to the loopback, so 127.0.0.2 to 127.0.0.9 are eight client addresses to the
page), each having sent one request head and then holding it, and renews every socket the page
closes or refuses, until stopped: what an attacker's script does. It reads whatever the page
sends (so a live stream it holds is a reading client) and counts the status lines it gets.

All sockets are driven by one thread with a selector, so 256 of them cost the test little.
"""

from __future__ import annotations

import selectors
import socket
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence

#: A head, given the page's CSRF cookie and token (anyone gets a pair from ``GET /arbiter``).
Head = Callable[[str, str], bytes]


def bodyless_post(cookie: str, token: str) -> bytes:
    """A correction's head, valid CSRF and all, announcing a body that never comes."""
    return ("POST /api/command HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            "Content-Type: application/json\r\n"
            f"X-CSRF-Token: {token}\r\nCookie: companion_csrf={cookie}\r\n"
            "Content-Length: 200\r\n\r\n").encode()


def live_stream(cookie: str, token: str) -> bytes:
    """A live stream's request, as EventSource sends it."""
    return (b"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Accept: text/event-stream\r\n\r\n")


def nested_json(cookie: str, token: str) -> bytes:
    """A correction whose 16 KiB body is 8,192 nested arrays."""
    body = b"[" * 8192 + b"]" * 8192
    return ("POST /api/command HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            "Content-Type: application/json\r\n"
            f"X-CSRF-Token: {token}\r\nCookie: companion_csrf={cookie}\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode() + body


def odd_path(cookie: str, token: str) -> bytes:
    """A round sheet whose number is a superscript two (percent-encoded UTF-8)."""
    return b"GET /round/%C2%B2%EF%B8%8F.html HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"


class Siege:
    """``per_address`` sockets from each of ``addresses``, each holding one request head made
    by ``head``, renewed ``renew_s`` after the page closes it (or, with ``hold`` false, as soon
    as the page has answered: a flood of whole requests)."""

    def __init__(self, port: int, addresses: Sequence[str], per_address: int, head: Head,
                 *, cookie: str = "", token: str = "", renew_s: float = 0.2,
                 hold: bool = True) -> None:
        self.hold = hold
        self.port = port
        self.addresses = list(addresses)
        self.per_address = per_address
        self.head = head(cookie, token)
        self.renew_s = renew_s
        self.statuses: Counter[int] = Counter()  # status code -> how many answers
        self.closed_unanswered = 0
        self.opened = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="siege", daemon=True)
        self._selector = selectors.DefaultSelector()
        self._lock = threading.Lock()

    def start(self) -> Siege:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(30)

    def __enter__(self) -> Siege:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def count(self, status: int) -> int:
        with self._lock:
            return self.statuses[status]

    def _open(self, address: str) -> None:
        try:
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.bind((address, 0))
            s.settimeout(5)
            s.connect(("127.0.0.1", self.port))
            s.sendall(self.head)
            s.setblocking(False)
        except OSError:
            s.close()
            return
        self.opened += 1
        self._selector.register(s, selectors.EVENT_READ, [address, b""])

    def _run(self) -> None:
        due: list[tuple[float, str]] = [(0.0, a) for a in self.addresses
                                        for _ in range(self.per_address)]
        try:
            while not self._stop.is_set():
                now = time.monotonic()
                for at, address in [d for d in due if d[0] <= now]:
                    due.remove((at, address))
                    self._open(address)
                for key, _ in self._selector.select(timeout=0.05):
                    s = key.fileobj
                    assert isinstance(s, socket.socket)
                    address, seen = key.data
                    try:
                        chunk = s.recv(65536)
                    except BlockingIOError:
                        continue
                    except OSError:
                        chunk = b""
                    if seen is not None and len(seen) < 16:
                        seen += chunk
                        if len(seen) >= 12 and seen.startswith(b"HTTP/1."):
                            with self._lock:
                                self.statuses[int(seen[9:12])] += 1
                            seen = None
                        key.data[1] = seen
                    if not chunk or (seen is None and not self.hold):
                        if key.data[1] is not None:
                            self.closed_unanswered += 1
                        self._selector.unregister(s)
                        s.close()
                        due.append((time.monotonic() + self.renew_s, address))
        finally:
            for key in list(self._selector.get_map().values()):
                key.fileobj.close()  # type: ignore[union-attr]
            self._selector.close()

    def holding(self) -> int:
        """Sockets open now."""
        return len(self._selector.get_map()) if not self._stop.is_set() else 0
