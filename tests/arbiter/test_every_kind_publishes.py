"""Every game kind's table publishes over MQTT and shuts down cleanly (issue 15).

The real daemon process (``companion run --backend mock``) for Tamsk, Tantrix, Tokami and the
Discovery puzzle, with ``[mqtt]`` on and a real mosquitto: its journal header arrives on the
table's ``events`` topic, its retained ``status`` says online, and on SIGTERM the daemon exits
0 with no traceback after saying offline.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from tests.arbiter.broker import Broker
from tests.arbiter.conftest import wait_until

#: The configuration of each kind's table (the puzzle: the Discovery puzzle at a table).
KINDS = {
    "tamsk": "",
    "tantrix": '[tantrix]\nplayers = ["red", "blue"]\n',
    "tokami": "",
    "puzzle": "",
}


class Listener:
    """Everything the broker carries under the table's topics, decoded."""

    def __init__(self, port: int) -> None:
        import paho.mqtt.client as mqtt

        self.messages: list[tuple[str, dict[str, Any]]] = []
        self.lock = threading.Lock()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="listener")
        self.client.on_message = self._on_message
        self.client.connect("127.0.0.1", port)
        self.client.subscribe("companion/table/+/+", qos=1)
        self.client.loop_start()

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        with self.lock:
            self.messages.append((message.topic, json.loads(message.payload)))

    def on(self, kind: str) -> list[dict[str, Any]]:
        with self.lock:
            return [m for t, m in self.messages if t.endswith("/" + kind)]

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


def run_table(tmp_path: Path, kind: str, port: int) -> subprocess.Popen[str]:
    config = tmp_path / "config.toml"
    config.write_text(
        f'[game]\nkind = "{kind}"\n\n{KINDS[kind]}\n'
        f'[table]\nnumber = 4\n\n[mqtt]\nenabled = true\nhost = "127.0.0.1"\nport = {port}\n'
    )
    return subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "run", "--config", str(config),
         "--backend", "mock", "--journal-dir", str(tmp_path / "journals"), "--pins-from-stdin"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_kind_publishes_its_journal_and_stops_cleanly_on_sigterm(
    tmp_path: Path, broker: Broker, kind: str
) -> None:
    listener = Listener(broker.port)
    proc = run_table(tmp_path, kind, broker.port)
    try:
        def header_arrived() -> bool:
            return any(m.get("seq") == 0 for m in listener.on("events"))

        assert wait_until(header_arrived), (listener.messages, proc.poll())
        header = next(m for m in listener.on("events") if m.get("seq") == 0)["record"]
        assert header["game"] == kind and header["table"] == 4
        assert wait_until(lambda: any(m.get("status") == "online"
                                      for m in listener.on("status")))
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=15)
        assert proc.returncode == 0, err
        assert "Traceback" not in err and "cannot join thread" not in err, err
        assert wait_until(lambda: listener.on("status")[-1].get("status") == "offline")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        listener.close()


@pytest.mark.parametrize("kind", ["tantrix", "tokami"])
def test_a_keypad_table_publishes_its_state_for_the_page(
    tmp_path: Path, broker: Broker, kind: str
) -> None:
    """The retained snapshot of a Tantrix or Tokami table carries that game's state."""
    listener = Listener(broker.port)
    proc = run_table(tmp_path, kind, broker.port)
    try:
        assert wait_until(lambda: any(m.get("state") for m in listener.on("state")))
        state = [m for m in listener.on("state") if m.get("state")][-1]["state"]
        assert state["game"] == kind
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=15)
        assert proc.returncode == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        listener.close()
