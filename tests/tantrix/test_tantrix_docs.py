"""The examples in the engine's docstrings run as written."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["tantrix.game", "tantrix.entry", "puzzle.rules"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(f"companion.{name}")
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
