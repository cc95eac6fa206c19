"""Every Tamsk scenario in tests/scenarios/tamsk/, in-process and through the command line.

The three ``p0*`` examples came with the scenario contract; every other scenario was written
here from the rule books, its expectations worked out by hand (the first line of each names the
rule it shows). The acceptance checker ``tests/scenarios/check.py`` is run over them as a
subprocess too, exactly as the acceptance tests outside the project run it.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.scenarios.expectations import HERE, failures, scenarios

CASES = scenarios("tamsk")
#: The three examples handed over with the contract; every other scenario was written here.
EXAMPLES = {"p01_opening_and_claim", "p02_forfeit_adjusted", "p03_time_tiebreak"}
#: The two Tantrix examples of the contract, checked through the command line as well.
TANTRIX_EXAMPLES = [
    HERE / "tantrix" / "t01_discovery_red_loop.jsonl",
    HERE / "tantrix" / "t02_restriction2.jsonl",
]


def test_at_least_thirty_scenarios_of_our_own_each_with_its_expectations() -> None:
    own = [case for case in CASES if case.stem not in EXAMPLES]
    assert len(own) >= 30
    missing = [case.name for case in CASES if not case.with_suffix(".expect.json").exists()]
    assert not missing, f"scenarios without an .expect.json: {missing}"


@pytest.mark.parametrize("case", CASES, ids=[case.stem for case in CASES])
def test_scenario_opens_with_a_one_line_comment_naming_its_rule(case: Path) -> None:
    first = case.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("# ") and len(first) > 20, f"{case.name}: {first!r}"


@pytest.mark.parametrize("case", CASES, ids=[case.stem for case in CASES])
def test_scenario_meets_its_expectations(case: Path) -> None:
    problems = failures(case)
    assert not problems, problems


def test_checker_run_from_the_command_line_passes_every_scenario() -> None:
    """The acceptance run: ``check.py FILES --cmd "python -m companion.cli simulate"``."""
    cmd = f"{shlex.quote(sys.executable)} -m companion.cli simulate"
    targets = [str(HERE / "tamsk"), *map(str, TANTRIX_EXAMPLES)]
    proc = subprocess.run(
        [sys.executable, str(HERE / "check.py"), *targets, "--cmd", cmd],
        capture_output=True,
        text=True,
        timeout=600,
    )
    total = len(CASES) + len(TANTRIX_EXAMPLES)
    assert proc.stdout.strip().splitlines()[-1] == f"{total}/{total} scenarios pass", proc.stdout
    assert proc.returncode == 0
