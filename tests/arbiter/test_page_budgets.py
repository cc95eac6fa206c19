"""The arbiter's page under exhaustion attacks: each attack refused, the arbiter served meanwhile.

The real aiohttp page on a free port, fed by the stand-in source of test_page_security (the
last test uses the real mosquitto and simulated tables). Attackers are raw sockets from other
loopback addresses (127.0.0.2 and up: Linux routes all of 127/8 to the loopback, and the page
charges each address its own budget), held open and renewed by :class:`~tests.arbiter.attackers.
Siege`; the arbiter is a browser's session from 127.0.0.1. Nothing here is timed: the tests wait
for what they check (``wait_until``) and assert on what the page answered.
"""

from __future__ import annotations

import http.client
import json
import logging
import re
import socket
import subprocess
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from companion.arbiter.httpguard import Limits
from companion.arbiter.sessions import COOKIE
from companion.arbiter.web import ArbiterServer, PageLimits
from companion.keys import SigningKey
from tests.arbiter.attackers import Siege, bodyless_post, live_stream, nested_json, odd_path
from tests.arbiter.browser import Browser
from tests.arbiter.conftest import wait_until
from tests.arbiter.test_page import CHROMIUM_FLAGS, Club, PageSession, chromium
from tests.arbiter.test_page import club as club  # noqa: F401  (the fixture)
from tests.arbiter.test_page_security import CORRECTION, PIN, base, serve

EIGHT = [f"127.0.0.{n}" for n in range(2, 10)]


@pytest.fixture
def page() -> Iterator[tuple[ArbiterServer, Any]]:
    server, source = serve()
    try:
        yield server, source
    finally:
        server.stop()


def csrf(session: PageSession) -> tuple[str, str]:
    cookie = next(c.value for c in session.jar if c.name == "companion_csrf")
    return cookie, session.token


def signed_in(server: ArbiterServer) -> PageSession:
    """The arbiter's browser, signed in with the PIN (the page's "sign in" button)."""
    arbiter = PageSession(base(server))
    status, answer = arbiter.post("/api/session", {"pin": PIN})
    assert status == 200 and answer["ok"], answer
    assert any(c.name == COOKIE for c in arbiter.jar)
    return arbiter


def opened_stream(session: PageSession | None, url: str, data: bool = False) -> str:
    """Open a live stream (with the session's cookies, if any) and read its first line, or
    with ``data`` its first update (the stand-in source has no tables: it sends none)."""
    opener = session.opener if session is not None else urllib.request.build_opener()
    with opener.open(url + "/api/stream", timeout=20) as stream:
        assert stream.status == 200
        for line in stream:
            if line.strip() and (not data or line.startswith(b"data: ")):
                return str(line.decode().strip())
    raise AssertionError("the stream ended before its first line")


def stream_refused(url: str, source: str | None = None) -> int:
    session_less = PageSession(url, source=source) if source else None
    opener = session_less.opener if session_less else urllib.request.build_opener()
    try:
        with opener.open(url + "/api/stream", timeout=20) as stream:
            return int(stream.status)
    except urllib.error.HTTPError as refused:
        return refused.code


# ---------------------------------------------------------------------------- bodies


def test_one_address_holding_256_bodyless_posts_cannot_keep_the_arbiter_out(
    page: tuple[ArbiterServer, Any],
) -> None:
    server, source = page
    attacker = PageSession(base(server), source="127.0.0.2")
    cookie, token = csrf(attacker)
    with Siege(server.port, ["127.0.0.2"], 256, bodyless_post, cookie=cookie, token=token) as siege:
        assert wait_until(lambda: siege.count(429) >= 256)  # the page refuses, it does not wait
        arbiter = PageSession(base(server))
        for _ in range(3):
            status, answer = arbiter.post("/api/command",
                                          {"table": 1, "pin": PIN, "correction": CORRECTION})
            assert status == 202 and answer["ok"]
        with urllib.request.urlopen(base(server) + "/api/state", timeout=10) as state:
            assert state.status == 200
        held = server.budgets.requests.get("127.0.0.2", 0)
        assert held <= server.limits.requests_per_client
    assert source.sent == [(1, CORRECTION)] * 3


def test_a_body_not_sent_within_its_deadline_from_the_head_is_answered_408() -> None:
    server, source = serve(PageLimits(body_timeout_s=0.5))
    try:
        attacker = PageSession(base(server), source="127.0.0.2")
        cookie, token = csrf(attacker)
        with socket.create_connection(("127.0.0.1", server.port), timeout=20) as s:
            s.sendall(bodyless_post(cookie, token) + b'{"table"')  # 8 of its 200 bytes
            answer = s.recv(4096)
        assert answer.startswith(b"HTTP/1.1 408")
        assert b"Connection: close" in answer and source.sent == []
    finally:
        server.stop()


def test_the_body_deadline_holds_for_every_route_not_only_corrections() -> None:
    server, _ = serve(PageLimits(body_timeout_s=0.5))
    try:
        with socket.create_connection(("127.0.0.1", server.port), timeout=20) as s:
            s.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 50\r\n\r\n")
            assert s.recv(4096).startswith(b"HTTP/1.1 408")
    finally:
        server.stop()


def test_one_address_gets_at_most_its_share_of_requests_in_progress(
    page: tuple[ArbiterServer, Any],
) -> None:
    server, _ = page
    attacker = PageSession(base(server), source="127.0.0.2")
    cookie, token = csrf(attacker)
    share = server.limits.requests_per_client
    with Siege(server.port, ["127.0.0.2"], share, bodyless_post, cookie=cookie, token=token,
               renew_s=60) as siege:
        assert wait_until(lambda: server.budgets.requests.get("127.0.0.2", 0) == share)
        with socket.create_connection(("127.0.0.1", server.port), timeout=10,
                                      source_address=("127.0.0.2", 0)) as one_more:
            one_more.sendall(bodyless_post(cookie, token))
            assert one_more.recv(4096).startswith(b"HTTP/1.1 429")
        assert siege.count(429) == 0  # the first eight were let in, and wait for their bodies


def test_the_arbiter_s_session_gets_requests_when_everyone_else_s_share_is_full() -> None:
    # 32 connections: 8 for streams, 4 kept for the arbiter, 20 for everyone else.
    limits = PageLimits(connections=Limits(max_connections=32), max_streams=8,
                        reserved_streams=2, reserved_requests=4)
    server, source = serve(limits)
    try:
        arbiter = signed_in(server)
        attacker = PageSession(base(server), source="127.0.0.2")
        cookie, token = csrf(attacker)
        with Siege(server.port, ["127.0.0.2", "127.0.0.3", "127.0.0.4"], 8, bodyless_post,
                   cookie=cookie, token=token) as siege:
            assert wait_until(lambda: server.budgets.in_use["requests"] == 20
                              and siege.count(503) >= 1)
            with socket.create_connection(("127.0.0.1", server.port), timeout=10,
                                          source_address=("127.0.0.5", 0)) as newcomer:
                newcomer.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                assert newcomer.recv(4096).startswith(b"HTTP/1.1 503")
            status, answer = arbiter.post("/api/command",
                                          {"table": 1, "pin": PIN, "correction": CORRECTION})
            assert status == 202 and answer["ok"]
        assert source.sent == [(1, CORRECTION)]
    finally:
        server.stop()


def test_one_address_opening_connections_fast_never_closes_another_s() -> None:
    server, _ = serve(PageLimits(connections=Limits(max_connections=40, max_per_client=8)))
    flood: list[socket.socket] = []
    try:
        arbiter = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        arbiter.request("GET", "/api/state")
        arbiter.getresponse().read()  # a browser's keep-alive connection, idle from now on
        kept = arbiter.sock
        for _ in range(100):
            flood.append(socket.create_connection(("127.0.0.1", server.port), timeout=10,
                                                  source_address=("127.0.0.2", 0)))
        assert server.guard is not None
        guard = server.guard
        assert wait_until(lambda: guard.closed_idle >= 100 - 8)
        assert guard.per_client["127.0.0.2"] == 8  # it closed its own, oldest first
        arbiter.request("GET", "/api/state")
        assert arbiter.getresponse().status == 200 and arbiter.sock is kept
        arbiter.close()
    finally:
        for s in flood:
            s.close()
        server.stop()


# ---------------------------------------------------------------------------- streams


def test_eight_addresses_holding_64_streams_leave_the_arbiter_s_stream_its_place(
    page: tuple[ArbiterServer, Any],
) -> None:
    server, _ = page
    anonymous = server.limits.max_streams - server.limits.reserved_streams
    with Siege(server.port, EIGHT, 8, live_stream) as siege:
        assert wait_until(lambda: server.budgets.in_use["streams"] == anonymous
                          and siege.count(503) >= 8)
        assert stream_refused(base(server), source="127.0.0.10") == 503  # the page is full
        arbiter = signed_in(server)
        assert opened_stream(arbiter, base(server)) == "retry: 1000"
        status, answer = arbiter.post("/api/command",
                                      {"table": 1, "pin": PIN, "correction": CORRECTION})
        assert status == 202 and answer["ok"]
        assert server.budgets.in_use["streams"] == anonymous  # nobody else got the arbiter's


def test_one_address_gets_at_most_its_share_of_streams(page: tuple[ArbiterServer, Any]) -> None:
    server, _ = page
    with Siege(server.port, ["127.0.0.2"], 20, live_stream) as siege:
        assert wait_until(lambda: siege.count(503) >= 12)
        assert server.budgets.streams["127.0.0.2"] == server.limits.max_streams_per_client
        assert opened_stream(None, base(server)) == "retry: 1000"  # another address: served


def test_a_session_from_another_address_is_not_the_arbiter_s(
    page: tuple[ArbiterServer, Any],
) -> None:
    server, _ = page
    arbiter = signed_in(server)
    stolen = next(c.value for c in arbiter.jar if c.name == COOKIE)
    with Siege(server.port, EIGHT, 8, live_stream) as siege:
        assert wait_until(lambda: siege.count(503) >= 8)
        request = urllib.request.Request(base(server) + "/api/stream",
                                         headers={"Cookie": f"{COOKIE}={stolen}"})
        opener = PageSession(base(server), source="127.0.0.10").opener
        with pytest.raises(urllib.error.HTTPError) as refused:
            opener.open(request, timeout=10)
        assert refused.value.code == 503


def test_a_wrong_pin_gives_no_session(page: tuple[ArbiterServer, Any]) -> None:
    server, _ = page
    guesser = PageSession(base(server))
    status, answer = guesser.post("/api/session", {"pin": "0000"})
    assert status == 403 and not answer["ok"]
    assert not any(c.name == COOKIE for c in guesser.jar)


def test_a_live_stream_ends_after_its_idle_time_out_and_tells_the_browser_to_come_back() -> None:
    server, _ = serve(PageLimits(stream_idle_s=0.5))
    try:
        with urllib.request.urlopen(base(server) + "/api/stream", timeout=20) as stream:
            text = stream.read().decode()  # returns: the page ended the stream
        assert text == "retry: 1000\n\n"  # no tables, no updates; then the end
        assert server.budgets.in_use["streams"] == 0
    finally:
        server.stop()


class Busy:
    """A source that changes all the time, with big cards: a stream pushes without pause."""

    def __init__(self) -> None:
        self.changed = threading.Condition()
        self.n = 0

    def version(self) -> int:
        self.n += 1
        return self.n

    def snapshot(self) -> dict[str, Any]:
        return {"version": self.n, "tables": [
            {"table": t, "version": self.n, "filler": "x" * 20_000} for t in range(1, 6)]}

    def send_command(self, table: int, correction: Mapping[str, Any], key: SigningKey
                     ) -> dict[str, Any]:
        raise LookupError("no tables")

    def results(self) -> list[dict[str, Any]]:
        return []


def test_a_stream_whose_client_reads_nothing_is_ended() -> None:
    from companion.arbiter.settings import ArbiterSettings

    server = ArbiterServer(Busy(), ArbiterSettings(), port=0,
                           limits=PageLimits(stream_stall_s=0.5)).start()
    try:
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.connect(("127.0.0.1", server.port))
        s.sendall(b"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert wait_until(lambda: server.budgets.in_use["streams"] == 1)
        assert wait_until(lambda: server.budgets.in_use["streams"] == 0, timeout=60)
        guard = server.guard
        assert guard is not None and wait_until(lambda: not guard.open)  # and its socket closed
        s.close()
    finally:
        server.stop()


def browse(exe: str, url: str, profile: Path, budget_ms: int) -> str:
    """The page's DOM after ``budget_ms`` of the headless browser's (virtual) time."""
    return subprocess.run(
        [exe, *CHROMIUM_FLAGS, f"--user-data-dir={profile}",
         f"--virtual-time-budget={budget_ms}", "--dump-dom", url],
        capture_output=True, text=True, timeout=120).stdout


def streams_opened(dom: str) -> int:
    found = re.search(r'<body[^>]*data-streams="(\d+)"', dom)
    return int(found.group(1)) if found else 0


def test_the_page_s_script_opens_a_new_stream_after_each_idle_time_out(tmp_path: Path) -> None:
    exe = chromium()
    if exe is None:
        pytest.skip("chromium is not installed: apt-get install chromium")
    server, _ = serve(PageLimits(stream_idle_s=1.0))
    try:
        dom = browse(exe, base(server) + "/arbiter", tmp_path / "chromium", 6000)
    finally:
        server.stop()
    assert streams_opened(dom) >= 3


def test_the_page_s_script_comes_back_after_its_stream_is_refused(tmp_path: Path) -> None:
    exe = chromium()
    if exe is None:
        pytest.skip("chromium is not installed: apt-get install chromium")
    server, _ = serve()
    anonymous = server.limits.max_streams - server.limits.reserved_streams
    browser = None
    try:
        with Siege(server.port, EIGHT[:7], 8, live_stream, renew_s=600):
            assert wait_until(lambda: server.budgets.in_use["streams"] == anonymous)
            browser = Browser(exe, tmp_path / "chromium", base(server) + "/arbiter",
                              CHROMIUM_FLAGS)
            # Refused: 503, and EventSource gives up for good on a refused stream.
            assert wait_until(lambda: server.budgets.refused["streams"] >= 1, 60)
            assert browser.evaluate("document.body.dataset.streams") is None
        # The siege is over; the page's own script tries again, and gets its stream.
        assert wait_until(lambda: browser.evaluate("document.body.dataset.streams") == "1", 60)
    finally:
        if browser is not None:
            browser.close()
        server.stop()


# ---------------------------------------------------------------------------- bad requests


def test_a_16k_nested_json_body_is_refused_400_without_a_traceback(
    page: tuple[ArbiterServer, Any], caplog: pytest.LogCaptureFixture,
) -> None:
    server, source = page
    session = PageSession(base(server), source="127.0.0.2")
    cookie, token = csrf(session)
    caplog.set_level(logging.DEBUG)
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(nested_json(cookie, token))
        answer = s.recv(65536)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400") and b"nested more than 8 levels" in body
    assert b"X-Content-Type-Options: nosniff" in head and b"frame-ancestors 'none'" in head
    assert not any(r.exc_info for r in caplog.records)
    assert not any("Recursion" in r.getMessage() for r in caplog.records)
    assert source.sent == []


def test_the_arbiter_is_served_while_nested_bodies_pour_in(
    page: tuple[ArbiterServer, Any],
) -> None:
    server, source = page
    attacker = PageSession(base(server), source="127.0.0.2")
    cookie, token = csrf(attacker)
    with Siege(server.port, EIGHT, 4, nested_json, cookie=cookie, token=token,
               renew_s=0.05, hold=False) as siege:
        assert wait_until(lambda: siege.count(400) >= 64)
        status, answer = PageSession(base(server)).post(
            "/api/command", {"table": 1, "pin": PIN, "correction": CORRECTION})
        assert status == 202 and answer["ok"]
        assert siege.count(500) == 0
    assert source.sent == [(1, CORRECTION)]


@pytest.mark.parametrize("path", ["/round/%C2%B2%EF%B8%8F.html", "/board/%C2%B2.svg",
                                  "/%E2%80%AEarbiter", "/api/state%00"])
def test_a_path_that_is_not_printable_ascii_is_404_with_the_security_headers(
    page: tuple[ArbiterServer, Any], path: str,
) -> None:
    server, _ = page
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        head = s.recv(65536).partition(b"\r\n\r\n")[0]
    assert head.startswith(b"HTTP/1.1 404")
    assert b"X-Content-Type-Options: nosniff" in head and b"frame-ancestors 'none'" in head


def test_the_arbiter_is_served_while_odd_paths_pour_in(page: tuple[ArbiterServer, Any]) -> None:
    server, source = page
    with Siege(server.port, EIGHT, 4, odd_path, renew_s=0.05, hold=False) as siege:
        assert wait_until(lambda: siege.count(404) >= 64)
        status, answer = PageSession(base(server)).post(
            "/api/command", {"table": 1, "pin": PIN, "correction": CORRECTION})
        assert status == 202 and answer["ok"]
        assert siege.count(500) == 0
    assert source.sent == [(1, CORRECTION)]


def test_raw_non_ascii_in_the_request_line_is_400_with_the_security_headers(
    page: tuple[ArbiterServer, Any],
) -> None:
    server, _ = page  # aiohttp's parser refuses it before any middleware: the guard's class
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall("GET /round/²️.html HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        head = s.recv(65536).partition(b"\r\n\r\n")[0]
    assert b" 400 " in head.split(b"\r\n")[0]
    assert b"X-Content-Type-Options: nosniff" in head and b"frame-ancestors 'none'" in head
    assert b"aiohttp" not in head  # no library name and version


class Failing:
    """A source that breaks when read, with a message quoting what a client sent."""

    changed = threading.Condition()

    def version(self) -> int:
        return 0

    def snapshot(self) -> dict[str, Any]:
        raise KeyError("the text a client sent")

    def send_command(self, table: int, correction: Mapping[str, Any], key: SigningKey
                     ) -> dict[str, Any]:
        raise LookupError("no tables")

    def results(self) -> list[dict[str, Any]]:
        return []


def test_an_unexpected_error_is_a_500_with_the_security_headers_and_one_log_line(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from companion.arbiter.settings import ArbiterSettings

    server = ArbiterServer(Failing(), ArbiterSettings(), port=0).start()
    try:
        caplog.set_level(logging.DEBUG)
        with pytest.raises(urllib.error.HTTPError) as failed:
            urllib.request.urlopen(base(server) + "/api/state", timeout=10)
        assert failed.value.code == 500
        assert failed.value.headers["X-Content-Type-Options"] == "nosniff"
        assert "frame-ancestors 'none'" in failed.value.headers["Content-Security-Policy"]
        lines = [r for r in caplog.records if r.levelno >= logging.WARNING]
        assert len(lines) == 1 and not lines[0].exc_info
        said = lines[0].getMessage()
        assert "unexpected KeyError" in said and "the text a client sent" not in said
        with urllib.request.urlopen(base(server) + "/arbiter", timeout=10) as page:
            assert page.status == 200  # the page goes on
    finally:
        server.stop()


# ---------------------------------------------------------------------------- the club


def test_the_arbiter_s_correction_reaches_the_table_through_both_sieges(club: Club) -> None:
    """Real mosquitto and simulated tables: one address holds 256 body-less POSTs and eight
    hold 64 streams, and the arbiter's signed-in page still streams, and corrects a table."""
    server = club.server
    attacker = PageSession(base(server), source="127.0.0.2")
    cookie, token = csrf(attacker)
    posts = Siege(server.port, ["127.0.0.2"], 256, bodyless_post, cookie=cookie, token=token)
    streams = Siege(server.port, EIGHT, 8, live_stream)
    with posts, streams:
        assert wait_until(lambda: posts.count(429) >= 256 and streams.count(503) >= 8)
        arbiter = signed_in(server)
        update = json.loads(opened_stream(arbiter, base(server), data=True)[6:])
        assert [t["table"] for t in update["tables"]] == [1, 2]
        status, answer = arbiter.post("/api/command", {
            "table": 1, "pin": PIN,
            "correction": {"what": "add-ring", "player": "red", "space": "d4",
                           "reason": "under siege"}})
        assert status == 202 and answer["ok"]
        sim = club.tables[0]
        assert wait_until(lambda: (sim.service(), len(sim.answers))[1] == 1)
    path = sim.table.journal_path
    assert path is not None
    last = json.loads(path.read_text().splitlines()[-1])
    assert last["ev"] == "correct" and last["nonce"] == answer["nonce"]

