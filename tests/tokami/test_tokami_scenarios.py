"""Every scenario in tests/scenarios/tokami/, run in-process and checked like check.py does."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.scenarios.expectations import failures, scenarios

CASES = scenarios("tokami")


def test_there_are_at_least_fifteen_tokami_scenarios() -> None:
    assert len(CASES) >= 15
    assert all(case.with_suffix(".expect.json").exists() for case in CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_scenario_meets_its_expectations(case: Path) -> None:
    assert not failures(case)
