"""The arbiter's latency on his own page, quiet and under each attack of issue 27.

The real aiohttp page (in this process, its own thread, as ``companion arbiter`` runs it) with
twelve tables' cards; the arbiter is a signed-in browser session on 127.0.0.1 doing what his
page does: ``GET /api/state`` on a kept-alive connection, a correction (``POST /api/command``
with the PIN; the PIN's hash is made cheap here, n = 2**10, so the figure is the page's and not
scrypt's ~80 ms), and opening a live stream (to its first line). The attackers run in a second
process (so they do not share this one's interpreter lock with the page) from other loopback
addresses, with :class:`tests.arbiter.attackers.Siege`:

- ``posts``: one address holding 256 POSTs with a valid CSRF token and a Content-Length but no
  body, each renewed 0.2 s after the page drops it (the issue's attacker renewed every 10 s);
- ``streams``: eight addresses holding eight live streams each (64), renewed likewise;
- ``nested``: eight addresses sending 16 KiB nested-JSON corrections back to back, 4 at a time;
- ``paths``: eight addresses asking for ``/round/%C2%B2%EF%B8%8F.html`` back to back, 4 at a time.

For each phase: the arbiter's p50 / p99 / max per request kind (ms), his failures (any answer
but the expected one, or a reset), and what the attackers got.

Usage: python bench/page_attacks.py [--seconds 8]
"""

from __future__ import annotations

import argparse
import http.client
import json
import logging
import multiprocessing
import statistics
import sys
import threading
import time
from collections.abc import Mapping
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.arbiter.pin import hash_pin  # noqa: E402
from companion.arbiter.settings import ArbiterSettings  # noqa: E402
from companion.arbiter.web import ArbiterServer  # noqa: E402
from companion.keys import SigningKey  # noqa: E402
from tests.arbiter.attackers import (  # noqa: E402
    Siege,
    bodyless_post,
    live_stream,
    nested_json,
    odd_path,
)
from tests.arbiter.keys import ARBITER  # noqa: E402
from tests.arbiter.test_page import PageSession  # noqa: E402

PIN = "2468"
EIGHT = [f"127.0.0.{n}" for n in range(2, 10)]
ATTACKS = {
    "posts": (["127.0.0.2"], 256, bodyless_post, True, 0.2),
    "streams": (EIGHT, 8, live_stream, True, 0.2),
    "nested": (EIGHT, 4, nested_json, False, 0.0),
    "paths": (EIGHT, 4, odd_path, False, 0.0),
}


class Tables:
    """Twelve tables' cards, unchanging, and the corrections the page was asked to send."""

    def __init__(self) -> None:
        self.changed = threading.Condition()
        self.sent = 0
        self.cards = [{"table": n, "version": 1, "kind": "tamsk", "seq": 40 + n,
                       "status": "online", "names": {"red": f"Red{n}", "black": f"Black{n}"},
                       "alerts": [], "answers": [], "filler": "x" * 600}
                      for n in range(1, 13)]

    def snapshot(self) -> dict[str, Any]:
        return {"version": 1, "tables": self.cards}

    def version(self) -> int:
        return 1

    def send_command(self, table: int, correction: Mapping[str, Any], key: SigningKey
                     ) -> dict[str, Any]:
        self.sent += 1
        return {"nonce": f"{self.sent:032x}"}

    def results(self) -> list[dict[str, Any]]:
        return []


def besiege(port: int, attack: str, cookie: str, token: str, ready: Any, stop: Any,
            out: Any) -> None:
    """The attacker's process: hold the siege until told to stop; report what it got."""
    addresses, per_address, head, hold, renew = ATTACKS[attack]
    siege = Siege(port, addresses, per_address, head, cookie=cookie, token=token,
                  renew_s=renew, hold=hold).start()
    time.sleep(1.0)  # the siege in place before the arbiter starts measuring
    ready.set()
    stop.wait(600)
    siege.stop()
    out.put({"opened": siege.opened, "statuses": dict(siege.statuses),
             "closed unanswered": siege.closed_unanswered})


class Arbiter:
    """The arbiter's browser: a signed-in session, one kept-alive connection for reads."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.session = PageSession(f"http://127.0.0.1:{port}")
        status, answer = self.session.post("/api/session", {"pin": PIN})
        assert status == 200, answer
        self.cookies = "; ".join(f"{c.name}={c.value}" for c in self._jar())
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def _jar(self) -> CookieJar:
        return self.session.jar

    def _ask(self, method: str, path: str, body: bytes | None = None,
             headers: dict[str, str] | None = None) -> int:
        for attempt in (1, 2):  # a browser retries once on a kept-alive connection gone stale
            try:
                self.conn.request(method, path, body, {"Cookie": self.cookies, **(headers or {})})
                answer = self.conn.getresponse()
                answer.read()
                return answer.status
            except (ConnectionError, http.client.HTTPException):
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def state(self) -> bool:
        return self._ask("GET", "/api/state") == 200

    def correct(self) -> bool:
        body = json.dumps({"table": 1, "pin": PIN,
                           "correction": {"what": "note", "reason": "bench"}}).encode()
        return self._ask("POST", "/api/command", body, {
            "Content-Type": "application/json", "X-CSRF-Token": self.session.token,
            "Origin": f"http://127.0.0.1:{self.port}"}) == 202

    def stream(self) -> bool:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.request("GET", "/api/stream", headers={"Cookie": self.cookies})
            answer = conn.getresponse()
            return answer.status == 200 and answer.readline().startswith(b"retry:")
        finally:
            conn.close()


def measure(arbiter: Arbiter, seconds: float) -> dict[str, Any]:
    """The arbiter's requests, in turn, for ``seconds``: latency per kind, and failures."""
    times: dict[str, list[float]] = {"state": [], "correction": [], "stream": []}
    failed = dict.fromkeys(times, 0)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for kind, ask in (("state", arbiter.state), ("correction", arbiter.correct),
                          ("stream", arbiter.stream)):
            start = time.perf_counter()
            try:
                ok = ask()
            except OSError:
                ok = False
            if ok:
                times[kind].append((time.perf_counter() - start) * 1000)
            else:
                failed[kind] += 1
        time.sleep(0.02)
    out: dict[str, Any] = {}
    for kind, xs in times.items():
        xs.sort()
        out[kind] = {"n": len(xs), "failed": failed[kind],
                     "p50": statistics.median(xs) if xs else None,
                     "p99": xs[min(len(xs) - 1, int(len(xs) * 0.99))] if xs else None,
                     "max": xs[-1] if xs else None}
    return out


def row(phase: str, figures: dict[str, Any], attackers: str) -> str:
    cells = []
    for kind in ("state", "correction", "stream"):
        f = figures[kind]
        if f["n"]:
            cells.append(f"{f['p50']:.1f} / {f['p99']:.1f} / {f['max']:.0f}")
        else:
            cells.append("none served")
    fails = sum(figures[k]["failed"] for k in figures)
    n = sum(figures[k]["n"] for k in figures)
    return f"| {phase} | {' | '.join(cells)} | {n} | {fails} | {attackers} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8.0)
    args = parser.parse_args()
    logging.disable(logging.WARNING)  # the page's audit line per correction: not the figures
    settings = ArbiterSettings(pin_hash=hash_pin(PIN, n=2**10), pin_attempts=1000)
    server = ArbiterServer(Tables(), settings, port=0, signing_key=ARBITER).start()
    spawn = multiprocessing.get_context("spawn")
    try:
        arbiter = Arbiter(server.port)
        attacker = PageSession(f"http://127.0.0.1:{server.port}", source="127.0.0.2")
        cookie = next(c.value for c in attacker.jar if c.name == "companion_csrf")
        print("| phase | state p50 / p99 / max (ms) | correction p50 / p99 / max (ms) "
              "| stream opened p50 / p99 / max (ms) | arbiter's requests | failed "
              "| what the attackers got |")
        print("|---|---|---|---|---:|---:|---|")
        measure(arbiter, 1.0)  # warm up
        print(row("no attack", measure(arbiter, args.seconds), ""), flush=True)
        for attack in ATTACKS:
            ready, stop, out = spawn.Event(), spawn.Event(), spawn.Queue()
            child = spawn.Process(target=besiege, args=(
                server.port, attack, cookie, attacker.token, ready, stop, out))
            child.start()
            ready.wait(60)
            figures = measure(arbiter, args.seconds)
            stop.set()
            got = out.get(timeout=60)
            child.join(60)
            statuses = ", ".join(f"{n} × {code}" for code, n in sorted(got["statuses"].items()))
            print(row(attack, figures,
                      f"{got['opened']} sockets opened; {statuses or 'no answer'}; "
                      f"{got['closed unanswered']} closed unanswered"), flush=True)
            time.sleep(1.0)  # the page settles (held sockets closed) before the next phase
            arbiter.conn.close()
    finally:
        server.stop()


if __name__ == "__main__":
    main()
