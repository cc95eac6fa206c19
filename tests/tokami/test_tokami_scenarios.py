"""Every scenario in tests/scenarios/tokami/, run in-process and checked like check.py does."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

from companion.simulate import simulate_file

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
CASES = sorted((SCENARIOS / "tokami").glob("*.jsonl"))


def load_checker() -> ModuleType:
    """tests/scenarios/check.py, the acceptance checker, so expectations mean the same here."""
    spec = importlib.util.spec_from_file_location("scenario_check", SCENARIOS / "check.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CHECK = load_checker()


def test_there_are_at_least_fifteen_tokami_scenarios() -> None:
    assert len(CASES) >= 15
    assert all(case.with_suffix(".expect.json").exists() for case in CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_scenario_meets_its_expectations(case: Path) -> None:
    expect = json.loads(case.with_suffix(".expect.json").read_text())
    out = simulate_file(case)
    failures = [
        message
        for key, want in expect.items()
        for ok, message in [CHECK.check_one(key, want, out)]
        if not ok
    ]
    assert not failures, failures
