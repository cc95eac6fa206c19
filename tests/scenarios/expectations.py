"""Scenario expectations judged exactly as tests/scenarios/check.py (the acceptance checker,
imported, not copied) judges them, but in-process."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

from companion.simulate import simulate_file

HERE = Path(__file__).resolve().parent


def load_checker() -> ModuleType:
    spec = importlib.util.spec_from_file_location("scenario_check", HERE / "check.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CHECK = load_checker()


def scenarios(game: str) -> list[Path]:
    return sorted((HERE / game).glob("*.jsonl"))


def failures(path: Path) -> list[str]:
    """What the scenario's .expect.json wants and the simulator does not give."""
    expect = json.loads(path.with_suffix(".expect.json").read_text())
    out = json.loads(json.dumps(simulate_file(path)))  # exactly what --json prints
    return [
        message
        for key, want in expect.items()
        for ok, message in [CHECK.check_one(key, want, out)]
        if not ok
    ]
