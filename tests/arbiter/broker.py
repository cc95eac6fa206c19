"""A real mosquitto on a free local port, for the tests and the benchmark.

Debian's ``mosquitto`` package (``apt-get install mosquitto``). :class:`Broker` writes a minimal
configuration (one listener on 127.0.0.1, anonymous clients, no persistence: a restart loses
every session, the hardest case for catching up), starts it, and can kill and restart it on
the same port.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from pathlib import Path


def mosquitto_path() -> str | None:
    for candidate in ("mosquitto", "/usr/sbin/mosquitto"):
        found = shutil.which(candidate)
        if found:
            return found
    return None


def free_port() -> int:
    """A port free on every address: the club broker's TLS listener binds them all, and a port
    free on 127.0.0.1 alone may still be held on another (a closed connection from 127.0.0.2
    waiting out its TIME_WAIT makes mosquitto's bind fail)."""
    with socket.socket() as s:
        s.bind(("", 0))
        return int(s.getsockname()[1])


class Broker:
    def __init__(self, folder: Path, port: int | None = None) -> None:
        exe = mosquitto_path()
        if exe is None:
            raise RuntimeError("mosquitto is not installed (Debian: apt-get install mosquitto)")
        self.exe = exe
        self.port = port or free_port()
        self.folder = folder
        self.conf = folder / "mosquitto.conf"
        self.conf.write_text(
            f"listener {self.port} 127.0.0.1\n"
            "allow_anonymous true\n"
            "persistence false\n"
            "max_queued_messages 100000\n"
            "max_inflight_messages 0\n"
            f"log_dest file {folder / 'mosquitto.log'}\n"
        )
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 10.0) -> Broker:
        self.process = subprocess.Popen(
            [self.exe, "-c", str(self.conf)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return self
            except OSError:
                if self.process.poll() is not None:
                    raise RuntimeError(f"mosquitto exited with {self.process.returncode}") from None
                time.sleep(0.05)
        raise RuntimeError("mosquitto did not start listening")

    def kill(self) -> None:
        """Kill it outright (SIGKILL), as a power cut would."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(5)
        self.process = None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        self.process = None
