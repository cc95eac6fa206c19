"""Fixtures for the hardware files: the repository root, the diagram script, the pin map."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from .hardware_files import HARDWARE, REPO, load_draw_wiring


@pytest.fixture(scope="session")
def repo() -> Path:
    return REPO


@pytest.fixture(scope="session")
def wiring() -> ModuleType:
    return load_draw_wiring()


@pytest.fixture(scope="session")
def pinmap(wiring: ModuleType) -> Any:
    return wiring.load_pinmap(HARDWARE / "pinmap.toml")
