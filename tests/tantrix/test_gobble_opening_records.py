"""Gobble solo's opening (rule 1: two tiles drawn, then laid together) in the records: the
replay's move list numbers the two tiles laid and not the two draws, its pictures and text
name the tiles drawn and not laid yet, and the notation file writes the opening and reads it
back to the same game."""

from __future__ import annotations

from pathlib import Path

from companion import notation
from companion.replay import load
from companion.replay.text import move_list
from companion.simulate import load as load_scenario
from companion.tantrix import replay as tantrix_replay
from companion.tantrix.simulate import simulate

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios" / "tantrix"
OPENING = SCENARIOS / "g44_gobble_opening_two_draws_then_laid_together_either_first.jsonl"
BOOK_GAME = SCENARIOS / "g37_gobble_solved.jsonl"


def test_the_move_list_numbers_the_two_opening_tiles_not_the_draws() -> None:
    replay = load(OPENING)
    rows = move_list(replay).splitlines()
    assert [row.split()[0] for row in rows] == ["draw", "draw", "1.", "2.", "draw", "3."]
    assert rows[2].split()[1] == "#25" and rows[3].split()[1] == "#55"  # the second drawn first
    assert replay.moves == 3


def test_the_replay_names_the_tiles_drawn_before_they_are_laid_together() -> None:
    replay = load(OPENING)
    held = [f.state["held"] for f in replay.frames[:5]]
    assert held == [[], [55], [55, 25], [55], []]
    after_both_draws = replay.frames[2]
    assert "drawn: 55 25" in tantrix_replay.text_lines(replay, after_both_draws.state)
    assert "drawn: 55 25" in tantrix_replay.svg(replay, after_both_draws)
    assert "drawn:" not in tantrix_replay.svg(replay, replay.frames[4])


def test_the_notation_writes_the_opening_and_reads_it_back() -> None:
    scenario = load_scenario(BOOK_GAME).scenario
    events = [e for _, e in scenario.events]
    text = notation.write(scenario.header, events)
    body = [ln.strip() for ln in text.splitlines() if ln.strip() and ln.strip()[0] in "d1234"]
    assert body[:4] == ["draw #55 @0:00.0", "draw #25 @0:01.0",
                        "1. #55 (0,0) r1 @0:02.0", "2. #25 (0,1) r4 @0:03.0"]
    back = notation.parse(text)
    assert [dict(e) for _, e in back.events] == events
    out = simulate(back.header, back.events)
    assert out["solved"] is True and out["violations"] == []
