"""The club's locked broker for the tests: `broker-config`'s setup, run by the real mosquitto.

:class:`ClubBroker` writes the setup with :func:`write_broker_config` on free ports and starts
``mosquitto -c`` on it; :func:`mqtt_for` gives a user's :class:`MqttSettings` (the local plain
listener, or TLS with the club's CA).
"""

from __future__ import annotations

import getpass
import socket
import subprocess
import time
from pathlib import Path

from companion.arbiter.brokerconfig import BrokerSetup, write_broker_config
from companion.arbiter.settings import MqttSettings
from tests.arbiter.broker import free_port, mosquitto_path


class ClubBroker:
    def __init__(self, folder: Path, tables: list[int]) -> None:
        exe = mosquitto_path()
        if exe is None:
            raise RuntimeError("mosquitto is not installed (Debian: apt-get install mosquitto)")
        self.exe = exe
        self.setup: BrokerSetup = write_broker_config(
            folder, tables, tls_port=free_port(), local_port=free_port(),
            run_as=getpass.getuser())
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 10.0, attempts: int = 5) -> ClubBroker:
        """Start mosquitto; a port taken meanwhile by someone else (a free port is only free
        when it was looked at) moves the listeners to other free ports and tries again."""
        for attempt in range(attempts):
            if self._start(timeout):
                return self
            if attempt + 1 < attempts:
                self._move_ports()
        raise RuntimeError("mosquitto did not start listening")

    def _start(self, timeout: float) -> bool:
        self.process = subprocess.Popen([self.exe, "-c", str(self.setup.conf)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        for port in (self.setup.local_port, self.setup.tls_port):
            while True:
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                        break
                except OSError:
                    if self.process.poll() is not None or time.monotonic() > deadline:
                        self.stop()
                        return False
                    time.sleep(0.05)
        return True

    def _move_ports(self) -> None:
        """Other free ports, in the configuration and every ``[mqtt]`` section written."""
        moves = {self.setup.local_port: free_port(), self.setup.tls_port: free_port()}
        conf = self.setup.conf.read_text()
        for old, new in moves.items():
            conf = conf.replace(f"listener {old}", f"listener {new}")
        self.setup.conf.write_text(conf)
        for section in (self.setup.folder / "tables").glob("*.toml"):
            text = section.read_text()
            for old, new in moves.items():
                text = text.replace(f"port = {old}\n", f"port = {new}\n")
            section.write_text(text)
        self.setup.local_port = moves[self.setup.local_port]
        self.setup.tls_port = moves[self.setup.tls_port]

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        self.process = None

    def mqtt_for(self, user: str, *, tls: bool = False, password: str | None = None
                 ) -> MqttSettings:
        return MqttSettings(
            enabled=True,
            host="localhost" if tls else "127.0.0.1",
            port=self.setup.tls_port if tls else self.setup.local_port,
            username=user,
            password=self.setup.passwords.get(user, "") if password is None else password,
            tls=tls,
            ca_file=str(self.setup.ca_file) if tls else "",
        )
