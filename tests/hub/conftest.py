"""Fixtures for the sensor hub tests: simulated hubs, pty cables, MicroPython."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hubsim import PtyCable, VirtualLink


@pytest.fixture
def link() -> VirtualLink:
    """A simulated hub and the host session, connected in-process on virtual time."""
    return VirtualLink()


@pytest.fixture
def cable(tmp_path: Path) -> Iterator[PtyCable]:
    """A pseudo-terminal 'USB cable' whose host end is ``cable.path``."""
    made = PtyCable(tmp_path)
    yield made
    made.close()
