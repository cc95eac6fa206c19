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


def test_the_new_modes_have_at_least_40_scenarios_covering_each_rule() -> None:
    new = [f.stem for f in FILES if f.stem[0] in "hsrg" and f.stem[1:3].isdigit()]
    assert len(new) >= 40
    for needle in ("step1", "step3", "draw_first", "not_in_hand", "starter", "team",
                   "solitaire_forced", "gobble_discard", "return"):
        assert any(needle in name for name in new), needle
    for colour in ("green", "yellow", "white", "blue", "red"):
        assert any(f"rainbow_{colour}_solved" in name for name in new), colour
        assert any(f"rainbow_{colour}" in name and "solved" not in name for name in new), colour
