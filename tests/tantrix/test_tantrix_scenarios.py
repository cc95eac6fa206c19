"""Every Tantrix scenario under tests/scenarios/tantrix, run in-process through `companion
simulate` and judged with the matching rules of tests/scenarios/check.py (imported, not copied),
so the scenario files and the command-line checker can never disagree."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

from companion.simulate import simulate_file

HERE = Path(__file__).parent.parent / "scenarios"
FILES = sorted((HERE / "tantrix").glob("*.jsonl"))


def _checker() -> ModuleType:
    spec = importlib.util.spec_from_file_location("scenario_check", HERE / "check.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CHECK = _checker()


def test_there_are_at_least_30_own_scenarios_beside_the_shared_ones() -> None:
    own = [f for f in FILES if not f.name.startswith(("t01_", "t02_"))]
    assert len(own) >= 30
    assert all(f.with_suffix(".expect.json").exists() for f in FILES)


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_scenario(path: Path) -> None:
    expect = json.loads(path.with_suffix(".expect.json").read_text())
    out = json.loads(json.dumps(simulate_file(path)))  # exactly what --json prints
    failures = [
        msg
        for key, want in expect.items()
        for ok, msg in [CHECK.check_one(key, want, out)]
        if not ok
    ]
    assert not failures, "; ".join(failures)
