"""A headless Chromium that a test can watch in real time (the DevTools protocol).

``--dump-dom`` with ``--virtual-time-budget`` reads a page once, on a clock of its own that
races ahead whenever no request is pending, so a test cannot make something happen *between*
two of the page's retries. :class:`Browser` starts Chromium with a DevTools port (read from the
``DevToolsActivePort`` file it writes), opens one page, and evaluates JavaScript in it on demand
over the protocol's WebSocket (aiohttp's client), so the test can poll the page's state with
``wait_until`` while it changes what the page's server does.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import time
import urllib.request
from pathlib import Path
from typing import Any

import aiohttp


class Browser:
    def __init__(self, exe: str, profile: Path, url: str, flags: list[str]) -> None:
        self.profile = profile
        self.process = subprocess.Popen(
            [exe, *flags, f"--user-data-dir={profile}", "--remote-debugging-port=0",
             "--remote-debugging-address=127.0.0.1", url],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.socket_url = self._page_socket(url)

    def _page_socket(self, url: str, timeout: float = 60.0) -> str:
        marker = self.profile / "DevToolsActivePort"
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if marker.exists() and marker.read_text().strip():
                port = int(marker.read_text().splitlines()[0])
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list",
                                                timeout=5) as answer:
                        targets = json.loads(answer.read())
                except OSError:
                    targets = []
                for target in targets:
                    if target.get("type") == "page" and target.get("url", "").startswith(url):
                        return str(target["webSocketDebuggerUrl"])
            time.sleep(0.1)
        raise RuntimeError("chromium did not open the page")

    def evaluate(self, expression: str) -> Any:
        """The value of ``expression`` in the page (JSON-able), or None when it throws."""

        async def ask() -> Any:
            async with aiohttp.ClientSession() as session, session.ws_connect(
                self.socket_url, max_msg_size=0
            ) as ws:
                await ws.send_json({"id": 1, "method": "Runtime.evaluate",
                                    "params": {"expression": expression,
                                               "returnByValue": True}})
                async for message in ws:
                    answer = json.loads(message.data)
                    if answer.get("id") == 1:
                        return answer.get("result", {}).get("result", {}).get("value")
            return None

        return asyncio.run(ask())

    def close(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)
