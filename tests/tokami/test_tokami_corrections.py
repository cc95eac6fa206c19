"""Tokami corrections: journal events made by the arbiter, never edits (fix a mis-typed turn,
add a note, adjust a score with a reason)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.scenario import MalformedInput, parse_lines
from companion.tokami.simulate import simulate

HEADER = {"game": "tokami", "players": ["Anna", "Ben"]}
BONUS = {"ev": "bonus", "block": "blue", "bonus": "green"}
HIGHER = {"ev": "higher", "block": "red"}


def fix(what: str, **fields: Any) -> dict[str, Any]:
    return {"ev": "correct", "what": what, "reason": "typed wrong", "by": "arbiter", **fields}


def run(*events: dict[str, Any]) -> dict[str, Any]:
    scenario = parse_lines([json.dumps(HEADER), *(json.dumps(e) for e in events)])
    return simulate(scenario.header, scenario.events)


def test_fix_a_mis_typed_turn() -> None:
    state = run(BONUS, HIGHER, fix("turn", index=1, turn={"ev": "higher", "block": "blue"}))
    assert state["history"][0] == {"player": "Anna", "round": 1, "ev": "higher",
                                   "block": "blue"}
    assert state["scores"]["Anna"]["total"] == 0 and state["turn"] == "Anna"


def test_a_fix_that_makes_a_later_turn_illegal_is_refused() -> None:
    # Ben took the forbidden blue block as malus: had Anna's blue not gone higher, there was
    # no forbidden block to take
    declined = {"ev": "declined"}
    state = run(BONUS, declined,
                fix("turn", index=1, turn={"ev": "not_higher", "block": "blue"}))
    assert state["history"][0]["ev"] == "bonus"
    assert state["violations"][-1]["kind"] == "correction"
    assert "turn 2 after it" in state["violations"][-1]["detail"]


def test_a_fix_of_a_turn_not_played_is_refused() -> None:
    state = run(BONUS, fix("turn", index=3, turn=HIGHER))
    assert "there is no turn 3" in state["violations"][-1]["detail"]


def test_the_arbiter_adds_a_note_that_changes_no_score() -> None:
    plain = run(BONUS)
    state = run(BONUS, fix("note", text="Ben's sleeve touched the cross; no block fell"))
    assert state["notes"] == ["Ben's sleeve touched the cross; no block fell"]
    assert state["scores"] == plain["scores"]


def test_a_plain_note_line_is_accepted_in_a_tokami_journal() -> None:
    assert run(BONUS, {"ev": "note", "text": "table wobbles"})["turns"] == 1


def test_adjust_a_score_with_its_reason() -> None:
    state = run(BONUS, HIGHER, {"ev": "end"}, fix("score", player="Ben", points=3))
    assert state["scores"]["Ben"] == {"total": 3, "rounds": [0], "adjusted": 3}
    assert state["standings"][0] == ["Ben", 3] and state["winner"] == "Ben"
    assert state["corrections"][-1]["reason"] == "typed wrong"


def test_an_adjustment_for_someone_not_playing_is_refused() -> None:
    state = run(BONUS, fix("score", player="Zoe", points=1))
    assert state["violations"][-1]["kind"] == "correction"


def test_only_the_arbiter_corrects() -> None:
    state = run(BONUS, {**fix("score", player="Ben", points=5), "by": "Ben"})
    assert state["scores"]["Ben"]["total"] == 0
    assert state["violations"][-1]["kind"] == "not-arbiter"


@pytest.mark.parametrize("bad", [
    fix("score", player="Ben", points=0), fix("score", player="Ben", points=True),
    fix("turn", index=0, turn=HIGHER), fix("turn", index=1), fix("note"),
    {**fix("note", text="x"), "reason": " "}, fix("rewind"),
])
def test_a_correction_that_says_nothing_definite_is_malformed(bad: dict[str, Any]) -> None:
    with pytest.raises(MalformedInput):
        run(BONUS, bad)
