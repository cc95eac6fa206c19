"""Tantrix corrections: journal events made by the arbiter, never edits (take back or move a
mis-entered tile, fix whose turn it is, adjust the result)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.journal import JournalWriter
from companion.scenario import MalformedInput, parse_lines
from companion.tantrix.simulate import simulate
from tests.tournament.helpers import record_of

HEADER = {"game": "tantrix", "players": ["red", "yellow"]}
T1 = {"ev": "place", "tile": 1, "q": 0, "r": 0, "rot": 0}
T2 = {"ev": "place", "tile": 2, "q": -1, "r": 0, "rot": 1}
T3 = {"ev": "place", "tile": 3, "q": -2, "r": 0, "rot": 3}
DONE = {"ev": "done"}


def fix(what: str, **fields: Any) -> dict[str, Any]:
    return {"ev": "correct", "what": what, "reason": "mis-entered", "by": "arbiter", **fields}


def run(*events: dict[str, Any]) -> dict[str, Any]:
    scenario = parse_lines([json.dumps(HEADER), *(json.dumps(e) for e in events)])
    return simulate(scenario.header, scenario.events)


def tiles(state: dict[str, Any]) -> list[tuple[int, int, int, int]]:
    return [(t["tile"], t["q"], t["r"], t["rot"]) for t in state["tiles"]]


def test_take_back_the_last_tile() -> None:
    state = run(T1, DONE, T2, fix("take-back"))
    assert tiles(state) == [(1, 0, 0, 0)] and state["turn"] == "yellow"
    assert state["corrections"][0]["what"] == "take-back"


def test_take_back_an_earlier_tile_replays_the_game_without_it() -> None:
    """The turns played stand: only the tile leaves the table."""
    state = run(T1, DONE, T2, DONE, T3, DONE, fix("take-back", tile=2 + 1))
    assert [t[0] for t in tiles(state)] == [1, 2]
    assert state["turn"] == run(T1, DONE, T2, DONE, T3, DONE)["turn"]


def test_a_take_back_that_would_strand_a_later_tile_is_refused() -> None:
    state = run(T1, DONE, T2, DONE, T3, fix("take-back", tile=2))
    assert [t[0] for t in tiles(state)] == [1, 2, 3]
    assert state["violations"][-1]["kind"] == "correction"
    assert "corrections" not in state


def test_move_a_tile_to_where_it_really_lies() -> None:
    state = run(T1, DONE, T2, fix("move", tile=2, q=-1, r=0, rot=2))
    assert tiles(state) == [(1, 0, 0, 0), (2, -1, 0, 2)]


def test_move_can_also_name_the_tile_really_laid() -> None:
    state = run(T1, DONE, fix("move", tile=1, new_tile=5, q=0, r=0, rot=0))
    assert tiles(state) == [(5, 0, 0, 0)]


def test_a_move_that_breaks_the_golden_rule_is_refused() -> None:
    state = run(T1, DONE, T2, fix("move", tile=2, q=5, r=5, rot=0))
    assert tiles(state)[-1] == (2, -1, 0, 1)
    assert "breaks the rules" in state["violations"][-1]["detail"]


def test_fix_whose_turn_it_is() -> None:
    state = run(T1, fix("turn", player="yellow"))
    assert state["turn"] == "yellow"
    assert run(T1, fix("turn", player="red"))["violations"][-1]["detail"] == \
        "it is already red's turn"


def test_adjust_the_result() -> None:
    state = run(T1, DONE, fix("result", winner="yellow", forfeit=True))
    assert (state["over"], state["winner"], state["reason"]) == (True, "yellow", "forfeit")


def test_inputs_after_the_arbiters_result_are_not_played() -> None:
    state = run(T1, DONE, fix("result", winner="red"), T2)
    assert len(state["tiles"]) == 1 and state["winner"] == "red"


def test_only_the_arbiter_corrects() -> None:
    state = run(T1, {**fix("take-back"), "by": "red"})
    assert len(state["tiles"]) == 1
    assert state["violations"][-1]["kind"] == "not-arbiter"


@pytest.mark.parametrize("bad", [
    {"ev": "correct", "what": "erase", "reason": "x", "by": "arbiter"},
    {"ev": "correct", "what": "take-back", "by": "arbiter"},
    {"ev": "correct", "what": "take-back", "reason": "x"},
    {"ev": "correct", "what": "move", "tile": 1, "reason": "x", "by": "arbiter"},
    {"ev": "correct", "what": "result", "winner": "purple", "reason": "x", "by": "arbiter"},
])
def test_a_correction_that_says_nothing_definite_is_malformed(bad: dict[str, Any]) -> None:
    with pytest.raises(MalformedInput):
        run(T1, bad)


def test_the_corrected_result_reaches_the_standings(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    with JournalWriter.create(path, {**HEADER, "names": {"red": "Ann", "yellow": "Bob"}}) as w:
        for i, e in enumerate([T1, DONE, fix("result", winner="yellow")]):
            w.append({"t": float(i), **e})
    record = record_of(path)
    assert record.winner == "Bob" and record.reason == "arbiter"
