"""Every Tamsk scenario in tests/scenarios/tamsk/, checked the way the acceptance checker does.

Each ``NAME.jsonl`` is run in-process through ``companion.simulate.simulate_file`` and compared
with ``NAME.expect.json`` by the checker's own ``check_one``, so an expectation means exactly
what it means to ``tests/scenarios/check.py``. One more test runs the checker itself over the
folder through the command line, as an outside acceptance run would.

The expectations were worked out from the contract and the rule books, not copied from the
engine. Where they disagree with the engine, the scenario stays and is listed in
``KNOWN_ENGINE_BUGS``: its test is an expected failure until the engine is fixed (then the
strict xfail turns red, and the entry must go).
"""

from __future__ import annotations

import importlib.util
import json
import shlex
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from companion.simulate import simulate_file

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
FOLDER = SCENARIOS / "tamsk"
CASES = sorted(FOLDER.glob("*.jsonl"))
#: The three examples handed over with the contract; every other scenario was written here.
EXAMPLES = {"p01_opening_and_claim", "p02_forfeit_adjusted", "p03_time_tiebreak"}

#: Scenarios the engine does not pass yet, with what the contract says.
KNOWN_ENGINE_BUGS: dict[str, str] = {}


def load_checker() -> ModuleType:
    """tests/scenarios/check.py, imported from its path (it is a script, not a package)."""
    spec = importlib.util.spec_from_file_location("tamsk_scenario_check", SCENARIOS / "check.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CHECK = load_checker()


def case_param(case: Path) -> object:
    bug = KNOWN_ENGINE_BUGS.get(case.stem)
    marks = [pytest.mark.xfail(reason=f"engine bug: {bug}", strict=True)] if bug else []
    return pytest.param(case, id=case.stem, marks=marks)


def test_at_least_thirty_scenarios_of_our_own_each_with_its_expectations() -> None:
    own = [case for case in CASES if case.stem not in EXAMPLES]
    assert len(own) >= 30
    missing = [case.name for case in CASES if not case.with_suffix(".expect.json").exists()]
    assert not missing, f"scenarios without an .expect.json: {missing}"


@pytest.mark.parametrize("case", CASES, ids=[case.stem for case in CASES])
def test_scenario_opens_with_a_one_line_comment_naming_its_rule(case: Path) -> None:
    first = case.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("# ") and len(first) > 20, f"{case.name}: {first!r}"


@pytest.mark.parametrize("case", [case_param(case) for case in CASES])
def test_scenario_meets_its_expectations(case: Path) -> None:
    expect = json.loads(case.with_suffix(".expect.json").read_text(encoding="utf-8"))
    out = simulate_file(case)
    failures = [
        message
        for key, want in expect.items()
        for ok, message in [CHECK.check_one(key, want, out)]
        if not ok
    ]
    assert not failures, failures


def test_known_engine_bugs_name_real_scenarios() -> None:
    stems = {case.stem for case in CASES}
    assert set(KNOWN_ENGINE_BUGS) <= stems


def test_checker_run_from_the_command_line_passes_every_scenario() -> None:
    """The acceptance run: ``check.py FOLDER --cmd "python -m companion.cli simulate"``.

    Every scenario must pass ("N/N scenarios pass"), except those listed as known engine bugs,
    which must be exactly the ones that fail.
    """
    cmd = f"{shlex.quote(sys.executable)} -m companion.cli simulate"
    proc = subprocess.run(
        [sys.executable, str(SCENARIOS / "check.py"), str(FOLDER), "--cmd", cmd],
        capture_output=True,
        text=True,
        timeout=600,
    )
    lines = proc.stdout.strip().splitlines()
    assert lines, proc.stderr
    failed = {
        line.split()[1].removesuffix(":").removesuffix(".jsonl")
        for line in lines
        if line.startswith("FAIL ")
    }
    total = len(CASES)
    assert failed == set(KNOWN_ENGINE_BUGS), proc.stdout
    assert lines[-1] == f"{total - len(failed)}/{total} scenarios pass"
    assert proc.returncode == (1 if failed else 0)
