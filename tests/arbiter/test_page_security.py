"""The arbiter's page under attack: each defence of companion.arbiter.web, one test each.

The page is the real aiohttp server on a free port, fed by a stand-in for the MQTT client that
records the commands it is asked to send. Clients are real sockets: urllib for a browser's
requests, raw sockets for what no browser sends (a negative length, silence, a slow head), and
127.0.0.2 as a second client address (Linux routes all of 127/8 to the loopback).
"""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from companion.arbiter.httpguard import Limits
from companion.arbiter.pin import hash_pin
from companion.arbiter.settings import ArbiterSettings
from companion.arbiter.web import ArbiterServer, PageLimits
from companion.keys import SigningKey
from tests.arbiter.keys import ARBITER
from tests.arbiter.test_page import PageSession

PIN = "2468"
CORRECTION = {"what": "turn", "player": "black", "reason": "seen on the page"}


class Recorder:
    """The page's data source: no tables, and the commands it was asked to send."""

    def __init__(self) -> None:
        self.changed = threading.Condition()
        self.sent: list[tuple[int, dict[str, Any]]] = []

    def snapshot(self) -> dict[str, Any]:
        return {"version": 0, "tables": []}

    def version(self) -> int:
        return 0

    def send_command(self, table: int, correction: Mapping[str, Any], key: SigningKey
                     ) -> dict[str, Any]:
        self.sent.append((table, dict(correction)))
        return {"nonce": f"{len(self.sent):032x}"}

    def results(self) -> list[dict[str, Any]]:
        return []


def serve(limits: PageLimits | None = None) -> tuple[ArbiterServer, Recorder]:
    source = Recorder()
    settings = ArbiterSettings(pin_hash=hash_pin(PIN), pin_attempts=2, pin_lockout_s=60.0)
    server = ArbiterServer(source, settings, port=0, signing_key=ARBITER,
                           limits=limits or PageLimits())
    return server.start(), source


@pytest.fixture
def page() -> Iterator[tuple[ArbiterServer, Recorder]]:
    server, source = serve()
    try:
        yield server, source
    finally:
        server.stop()


def base(server: ArbiterServer) -> str:
    return f"http://127.0.0.1:{server.port}"


def raw(server: ArbiterServer, request: bytes, timeout: float = 10.0) -> bytes:
    with socket.create_connection(("127.0.0.1", server.port), timeout=timeout) as s:
        s.sendall(request)
        out = b""
        while chunk := s.recv(65536):
            out += chunk
            if b"\r\n\r\n" in out:
                break
        return out


def post(server: ArbiterServer, body: bytes, headers: dict[str, str]) -> tuple[int, str]:
    request = urllib.request.Request(base(server) + "/api/command", body, headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode()


def test_the_page_binds_the_loopback_address_unless_told_otherwise() -> None:
    server = ArbiterServer(Recorder(), ArbiterSettings(), port=0)
    assert server.host == "127.0.0.1"


def test_a_cross_origin_text_plain_post_is_refused(
    page: tuple[ArbiterServer, Recorder],
) -> None:
    server, source = page
    body = json.dumps({"table": 1, "pin": PIN, "correction": CORRECTION}).encode()
    status, text = post(server, body, {"Content-Type": "text/plain",
                                       "Origin": "http://evil.example"})
    assert status == 403 and "cross-origin" in text
    assert source.sent == []


def test_a_cross_origin_post_with_a_stolen_token_is_still_refused(
    page: tuple[ArbiterServer, Recorder],
) -> None:
    server, source = page
    session = PageSession(base(server))
    session.base = base(server)
    request = urllib.request.Request(
        base(server) + "/api/command",
        json.dumps({"table": 1, "pin": PIN, "correction": CORRECTION}).encode(),
        {"Content-Type": "application/json", "X-CSRF-Token": session.token,
         "Origin": "http://evil.example"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        session.opener.open(request, timeout=10)
    assert refused.value.code == 403 and source.sent == []


def test_a_post_without_the_page_s_token_is_refused(
    page: tuple[ArbiterServer, Recorder],
) -> None:
    server, source = page
    body = json.dumps({"table": 1, "pin": PIN, "correction": CORRECTION}).encode()
    status, text = post(server, body, {"Content-Type": "application/json"})
    assert status == 403 and "CSRF" in text and source.sent == []


def test_the_page_s_own_post_is_carried_out(page: tuple[ArbiterServer, Recorder]) -> None:
    server, source = page
    status, answer = PageSession(base(server)).post(
        "/api/command", {"table": 1, "pin": PIN, "correction": CORRECTION})
    assert status == 202 and answer["ok"] and source.sent == [(1, CORRECTION)]


def test_the_csrf_cookie_is_same_site_strict_and_http_only(
    page: tuple[ArbiterServer, Recorder],
) -> None:
    server, _ = page
    with urllib.request.urlopen(base(server) + "/arbiter", timeout=10) as answer:
        cookie = answer.headers["Set-Cookie"]
    assert "SameSite=Strict" in cookie and "HttpOnly" in cookie


def test_a_negative_content_length_is_refused(page: tuple[ArbiterServer, Recorder]) -> None:
    server, source = page
    answer = raw(server, b"POST /api/command HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         b"Content-Type: application/json\r\nContent-Length: -1\r\n\r\n{}")
    assert answer.split(b"\r\n")[0].endswith(b" 400 Bad Request") and source.sent == []


def test_a_huge_content_length_is_refused_before_any_body_is_read(
    page: tuple[ArbiterServer, Recorder],
) -> None:
    server, source = page
    session = PageSession(base(server))
    cookie = next(iter(session.jar)).value
    answer = raw(server, (
        "POST /api/command HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Content-Type: application/json\r\nX-CSRF-Token: {session.token}\r\n"
        f"Cookie: companion_csrf={cookie}\r\nContent-Length: 1000000000000\r\n\r\n{{"
    ).encode())
    assert answer.startswith(b"HTTP/1.1 413") and source.sent == []


def test_security_headers_on_every_answer(page: tuple[ArbiterServer, Recorder]) -> None:
    server, _ = page
    for path in ("/arbiter", "/api/state", "/api/tournament"):
        with urllib.request.urlopen(base(server) + path, timeout=10) as answer:
            csp = answer.headers["Content-Security-Policy"]
            assert "frame-ancestors 'none'" in csp and "default-src 'none'" in csp
            assert answer.headers["X-Content-Type-Options"] == "nosniff"
    with urllib.request.urlopen(base(server) + "/arbiter", timeout=10) as answer:
        html = answer.read().decode()
        nonce = answer.headers["Content-Security-Policy"].split("'nonce-")[1].split("'")[0]
    assert f'<script nonce="{nonce}">' in html


def test_a_host_name_that_is_not_this_machine_s_is_refused(
    page: tuple[ArbiterServer, Recorder],
) -> None:
    server, _ = page
    answer = raw(server, b"GET /api/state HTTP/1.1\r\nHost: rebound.evil.example\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 421")


def test_the_page_still_answers_with_a_thousand_idle_connections_open(
    page: tuple[ArbiterServer, Recorder],
) -> None:
    server, _ = page
    idle = []
    try:
        for _ in range(1000):
            idle.append(socket.create_connection(("127.0.0.1", server.port), timeout=10))
        with urllib.request.urlopen(base(server) + "/api/state", timeout=10) as answer:
            assert answer.status == 200 and json.loads(answer.read())["tables"] == []
        assert server.guard is not None
        assert len(server.guard.open) <= server.limits.connections.max_connections
    finally:
        for s in idle:
            s.close()


def test_a_connection_that_never_finishes_its_request_head_is_closed() -> None:
    server, _ = serve(PageLimits(connections=Limits(header_timeout=0.5, sweep_every=0.1)))
    try:
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
            s.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            for _ in range(40):  # a byte every 0.1 s keeps it busy, never finished
                try:
                    s.sendall(b"a")
                except OSError:
                    break
                time.sleep(0.1)
            s.settimeout(5)
            try:
                assert s.recv(1024) == b""  # closed by the page, no answer
            except ConnectionResetError:
                pass
        assert server.guard is not None and server.guard.closed_slow >= 1
    finally:
        server.stop()


def test_pin_guessing_from_one_client_never_locks_out_another(
    page: tuple[ArbiterServer, Recorder],
) -> None:
    server, source = page
    guesser = PageSession(base(server), source="127.0.0.2")
    arbiter = PageSession(base(server))
    statuses = [guesser.post("/api/command", {"table": 1, "pin": f"{n:04d}",
                                              "correction": CORRECTION})[0]
                for n in range(1000, 1010)]
    assert statuses[0] == 403 and set(statuses[1:]) == {429}
    status, answer = arbiter.post("/api/command",
                                  {"table": 1, "pin": PIN, "correction": CORRECTION})
    assert status == 202 and answer["ok"]
    assert guesser.post("/api/command", {"table": 1, "pin": PIN,
                                         "correction": CORRECTION})[0] == 429
    assert source.sent == [(1, CORRECTION)]


def test_one_client_cannot_hold_more_than_its_share_of_live_streams(
    page: tuple[ArbiterServer, Recorder],
) -> None:
    server, _ = page
    streams = []
    try:
        for _ in range(server.limits.max_streams_per_client):
            streams.append(urllib.request.urlopen(base(server) + "/api/stream", timeout=10))
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(base(server) + "/api/stream", timeout=10)
        assert refused.value.code == 503
        with urllib.request.urlopen(base(server) + "/api/state", timeout=10) as answer:
            assert answer.status == 200
    finally:
        for s in streams:
            s.close()
