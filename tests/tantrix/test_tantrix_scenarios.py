"""Every Tantrix scenario under tests/scenarios/tantrix, run in-process through `companion
simulate` and judged with the matching rules of tests/scenarios/check.py (imported, not copied),
so the scenario files and the command-line checker can never disagree."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.scenarios.expectations import failures, scenarios

FILES = scenarios("tantrix")


def test_there_are_at_least_30_own_scenarios_beside_the_shared_ones() -> None:
    own = [f for f in FILES if not f.name.startswith(("t01_", "t02_"))]
    assert len(own) >= 30
    assert all(f.with_suffix(".expect.json").exists() for f in FILES)


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_scenario(path: Path) -> None:
    problems = failures(path)
    assert not problems, "; ".join(problems)
