"""Move numbers count moves (issue 18): one numbering for the move list, ``--at``, every heading,
the pictures, the HTML viewer and the notation.

A move is what the game calls one: a Tamsk glass moved, a Tantrix tile laid (a Gobble race:
a gobble), a Tokami turn, each as the rules accepted it. A timer turned, a pass, a refused
input, an undo, a draw, the end or a note sits after the move before it, without a number.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import notation
from companion.replay import Frame, Replay, build, load
from companion.replay.cli import main, parse_at, position_at
from companion.replay.html import page
from companion.replay.text import heading, move_list
from tests.replay.games import SCENARIOS, TAMSK, TANTRIX, scenario, tamsk_events

TOKAMI = sorted((SCENARIOS / "tokami").glob("*.jsonl"))
#: ``move 7 of 9``, ``after move 7 of 9``, ``before the first move``, ``start``
_HEADING = re.compile(r"(?:(after )?move (\d+) of (\d+)|(before the first move)|(start))")
_LISTED = re.compile(r"^\s*(\d+)\. ")


@cache
def loaded(path: Path) -> Replay:
    return load(path)


def said(text: str) -> tuple[int, bool, int | None]:
    """(the move number, whether it is that move's own frame, the total) from a heading."""
    m = _HEADING.search(text)
    assert m is not None, text
    after, n, total, before, start = m.groups()
    if n is not None:
        return int(n), after is None, int(total)
    assert before or start
    return 0, False, None


def listed(replay: Replay) -> list[int | None]:
    """The number ``--list`` gives each frame after the start (None: none)."""
    out: list[int | None] = []
    for line in move_list(replay).splitlines():
        m = _LISTED.match(line)
        out.append(int(m.group(1)) if m else None)
    return out


def test_move_numbers_count_moves_not_timer_turns(capsys: pytest.CaptureFixture[str]) -> None:
    replay = load(scenario("p02_forfeit_adjusted"))  # 7 moves, a 15-second timer, the end
    assert replay.records == 9 and replay.moves == 7
    timer = next(line for line in replay.lines if "T15" in line.text)
    assert not timer.move and timer.number == 6  # after move 6, no number of its own
    after = replay.lines[replay.lines.index(timer) + 1]
    assert after.move and after.number == 7
    assert main(["replay", str(scenario("p02_forfeit_adjusted")), "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[5].startswith("  6. b2 g4-g3")
    assert lines[6] == "       black T15 @0:30.0"
    assert lines[8].startswith("  7. b2 g3-f4")
    assert lines[9].startswith("       end @0:55.0")


def test_a_pass_is_not_a_move() -> None:
    replay = load(scenario("s23_pass_adjusted"))
    (passed,) = [line for line in replay.lines if " pass " in line.text]
    assert not passed.move
    assert [line.number for line in replay.lines if line.move] == list(range(1, 9))


def test_a_refused_turn_is_not_a_move() -> None:
    replay = load(SCENARIOS / "tokami" / "k07_forbidden_block_cannot_be_moved_or_taken.jsonl")
    assert [(line.move, line.number) for line in replay.lines] == [
        (True, 1), (False, 1), (False, 1), (True, 2)
    ]
    refused = replay.frame_of_record(3)
    assert refused.refused and heading(replay, refused).startswith("Tokami after move 1 of 2")


def test_an_undo_is_not_a_move_and_the_move_it_takes_back_keeps_its_number() -> None:
    replay = load(scenario("t27_undo_returns_the_turn"))
    assert [(line.move, line.number) for line in replay.lines] == [
        (True, 1), (False, 1), (True, 2)
    ]
    assert move_list(replay).splitlines()[1].startswith("       yellow undo")


def test_a_tantrix_draw_is_not_a_move_but_the_tile_laid_is() -> None:
    replay = load(scenario("g33_gobble_fill_then_return_the_top_discard"))
    for line in replay.lines:
        assert line.move == (" (" in line.text and not line.text.startswith("draw"))
    assert replay.moves == 13


def test_a_gobble_race_numbers_its_accepted_gobbles_only() -> None:
    replay = load(scenario("g42_gobble_race_refusals"))  # every gobble refused
    assert replay.moves == 0 and all(line.number == 0 for line in replay.lines)
    assert main(["replay", str(scenario("g42_gobble_race_refusals")), "--at", "0"]) == 0


def test_at_n_is_the_position_after_move_n(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(scenario("p02_forfeit_adjusted"))
    assert main(["replay", path, "--at", "7"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Tamsk move 7 of 7  [0:51.5]  b2 g3-f4 +ring +ring:d4 @0:51.0")
    assert main(["replay", path, "--at", "0"]) == 0
    assert capsys.readouterr().out.startswith("Tamsk start of the game")


def test_at_a_number_past_the_moves_names_the_moves_there_are(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = str(scenario("p02_forfeit_adjusted"))  # 9 lines, 7 moves
    for beyond in ("8", "9"):
        assert main(["replay", path, "--at", beyond]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1
        assert f"there is no move {beyond}: give a move from 0 (the start) to 7" in err


def test_at_a_time_says_the_moves_made_by_then() -> None:
    replay = load(scenario("p02_forfeit_adjusted"))
    # 0:40: the six moves and black's timer turned; the forfeit comes at 0:45
    at = replay.at_time(40.0)
    assert at.label == "at 0:40.0, after move 6" and at.number == 6 and not at.move
    assert heading(replay, at).startswith("Tamsk position at 0:40.0, after move 6")
    assert replay.at_time(1.0).label == "at 0:01.0"


def test_a_game_of_n_moves_counts_moves() -> None:
    replay = load(scenario("p02_forfeit_adjusted"))
    assert "black wins, 7 moves, 0:55.0" in page(replay)


def test_the_notation_numbers_moves_and_indents_the_other_lines() -> None:
    replay = load(scenario("p02_forfeit_adjusted"))
    body = replay.notation().split("\n\n", 1)[1].splitlines()
    numbers = [m.group(1) if (m := re.match(r"^(\d+)\. ", line)) else None for line in body]
    assert numbers == ["1", "2", "3", "4", "5", "6", None, "7", None]
    assert body[6] == "   black T15 @0:30.0"
    # readers ignore the numbers: the text gives back the same game
    sc = notation.parse(replay.notation())
    assert [e for _, e in sc.events] == [dict(e) for _, e in replay.events]


def test_without_move_flags_the_notation_numbers_every_line() -> None:
    text = notation.dumps({"game": "tamsk"}, [("r1 a1-a2 @0:01", ""), ("end @0:02", "")])
    assert text.endswith("\n1. r1 a1-a2 @0:01\n2. end @0:02\n")


def check_agreement(replay: Replay) -> None:
    """For every frame: the heading's number, the move list's number and ``--at`` agree."""
    numbers = listed(replay)
    assert len(numbers) == len(replay.frames) - 1
    assert [n for n in numbers if n is not None] == list(range(1, replay.moves + 1))
    last_move: Frame = replay.frames[0]
    for frame in replay.frames:
        n, own, total = said(heading(replay, frame))
        assert total in (None, replay.moves)
        if frame.index:
            assert numbers[frame.index - 1] == (n if own else None)
        if own:
            last_move = frame
        # --at n shows this frame when it is move n's own, else the move it sits after
        shown = position_at(replay, *parse_at(str(n)))
        assert shown is last_move
        assert said(heading(replay, shown))[0] == n


@pytest.mark.parametrize("path", TAMSK[:6] + TANTRIX[:6] + TOKAMI[:6], ids=lambda p: p.stem)
def test_headers_list_and_at_agree_on_known_games(path: Path) -> None:
    check_agreement(loaded(path))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(TAMSK + TANTRIX + TOKAMI))
def test_headers_list_and_at_agree(path: Path) -> None:
    check_agreement(loaded(path))


@settings(max_examples=60, deadline=None)
@given(tamsk_events(max_size=20))
def test_headers_list_and_at_agree_on_any_recorded_tamsk_inputs(events: list[dict[str, object]]
                                                                ) -> None:
    replay = build({"game": "tamsk", "level": 3}, list(enumerate(events, start=2)))
    check_agreement(replay)
    assert replay.moves == replay.frames[-1].state["moves"]  # the moves the engine made


@pytest.mark.parametrize("path", [p for p in TAMSK if '"correct"' not in p.read_text()],
                         ids=lambda p: p.stem)
def test_tamsk_moves_are_the_moves_the_engine_made(path: Path) -> None:
    """(An arbiter's undo takes a move out of the engine; the record keeps its number.)"""
    assert loaded(path).moves == loaded(path).frames[-1].state["moves"]


def test_a_move_the_arbiter_takes_back_keeps_its_number() -> None:
    replay = load(SCENARIOS / "tamsk" / "arbiter_sand_and_undo.jsonl")
    assert replay.moves == 2 and replay.frames[-1].state["moves"] == 1
    assert [line.number for line in replay.lines] == [1, 2, 2, 2, 2]


DOCS = Path(__file__).resolve().parents[2] / "docs" / "replay.md"
#: The notation's line kinds that are moves (a Tamsk glass moved, a Tokami turn).
MOVE_KINDS = {"tamsk": {"move"}, "tokami": {"bonus", "higher", "fell", "not_higher", "declined"}}


def test_the_docs_notation_examples_number_moves_only() -> None:
    """docs/replay.md shows notation as the writer numbers it: a number on a move's line, none
    on a timer's (the example is cut, so only which lines carry one is checked)."""
    blocks = re.findall(r"```\n(; companion notation 1\n.*?)```", DOCS.read_text(), flags=re.S)
    assert len(blocks) == 2
    for block in blocks:
        sc = notation.parse(block)
        game = sc.header["game"]
        body = [line for line in block.split("\n\n", 1)[1].splitlines() if line.strip()]
        by_line = {n: [e for k, e in sc.events if k == n] for n, _ in sc.events}
        assert len(by_line) == len(body)
        for line, events in zip(body, by_line.values(), strict=True):
            (record,) = notation.group(game, events)
            assert bool(_LISTED.match(line)) == (record.kind in MOVE_KINDS[game]), line
