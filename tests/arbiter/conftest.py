"""Fixtures for the arbiter's tests: a real mosquitto broker (skipped, with the reason, when the
Debian package or paho-mqtt is missing), and a helper to wait for something to become true."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.arbiter.broker import Broker, mosquitto_path
from tests.arbiter.clubbroker import ClubBroker


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    pytest.importorskip("paho.mqtt.client", reason="paho-mqtt is not installed (pip install "
                        "'paho-mqtt>=2.1,<3')")
    if mosquitto_path() is None:
        pytest.skip("mosquitto is not installed: apt-get install mosquitto (the CI installs it)")
    folder = tmp_path / "broker"
    folder.mkdir()
    b = Broker(folder).start()
    try:
        yield b
    finally:
        b.stop()


def wait_until(condition: Callable[[], bool], timeout: float = 20.0, step: float = 0.05) -> bool:
    """Poll until ``condition()`` holds or ``timeout`` seconds pass; returns whether it held.

    Tests assert on what the condition checks, never on how long it took.
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(step)
    return condition()


@pytest.fixture
def club_broker(tmp_path: Path) -> Iterator[ClubBroker]:
    """The locked broker `companion arbiter broker-config` writes, for tables 1 to 3."""
    pytest.importorskip("paho.mqtt.client", reason="paho-mqtt is not installed (pip install "
                        "'paho-mqtt>=2.1,<3')")
    if mosquitto_path() is None:
        pytest.skip("mosquitto is not installed: apt-get install mosquitto (the CI installs it)")
    b = ClubBroker(tmp_path / "club-broker", [1, 2, 3]).start()
    try:
        yield b
    finally:
        b.stop()
