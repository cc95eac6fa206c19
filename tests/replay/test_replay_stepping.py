"""The stepping model: a recorded game folded through its engine, one frame per move."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.replay import build, load
from companion.replay.chains import board_of, chains, traced
from companion.scenario import MalformedInput
from companion.simulate import load as load_file
from companion.simulate import simulator_for
from companion.tantrix.autoplay import random_game
from companion.tantrix.geometry import key
from companion.tantrix.scoring import score_board
from tests.replay.games import TAMSK, TANTRIX, journal, scenario


def events_of(name: str) -> list[dict[str, Any]]:
    return [dict(e) for _, e in load_file(scenario(name)).scenario.events]


@pytest.mark.parametrize("path", TAMSK + TANTRIX, ids=lambda p: p.stem)
def test_the_last_frame_is_the_state_simulate_reports(path: Path) -> None:
    replay = load(path)
    sc = load_file(path).scenario
    expected = simulator_for(sc.game).simulate(sc.header, sc.events)
    last = dict(replay.frames[-1].state)
    last.pop("chains", None)  # the replay adds each player's chain for the picture
    assert last == expected


@pytest.mark.parametrize("path", TAMSK[:12] + TANTRIX[:12], ids=lambda p: p.stem)
def test_every_notation_line_has_its_frame_after_the_start(path: Path) -> None:
    replay = load(path)
    assert replay.frames[0].label == "start"
    numbered = [f.record for f in replay.frames if f.record is not None]
    assert numbered == list(range(1, replay.records + 1))
    assert [f.index for f in replay.frames] == list(range(len(replay.frames)))
    assert all(a.t <= b.t for a, b in zip(replay.frames, replay.frames[1:], strict=False))


def test_a_claimed_ring_is_shown_with_the_claimer() -> None:
    replay = load(scenario("p01_opening_and_claim"))
    claim = replay.frames[-2]
    assert claim.label == "r1 a2-b2 +ring(black) @1:30.5"
    assert "black claims the ring on b2" in claim.marks
    assert claim.highlight == ("a2", "b2")


def test_a_forfeit_gets_its_own_frame_at_the_instant_the_timer_ran_out() -> None:
    replay = load(scenario("p02_forfeit_adjusted"))
    (forfeit,) = [f for f in replay.frames if any("forfeits" in m for m in f.marks)]
    penalty = forfeit.state["penalties"][-1]
    assert forfeit.record is None and forfeit.t == penalty["t"]
    assert penalty["kind"] == "forfeit"
    assert forfeit.label.startswith("-- ")


def test_a_lost_glass_gets_a_frame_when_its_sand_runs_out() -> None:
    replay = load(scenario("s11_glasses_run_out"))
    lost = [f for f in replay.frames if any("ran out of sand" in m for m in f.marks)]
    assert lost
    for frame in lost:
        dead = [g for g in frame.state["glasses"].values() if g["died_at"] == frame.t]
        assert dead and all(g["dead"] for g in dead)


def test_a_late_move_is_marked_late() -> None:
    replay = load(scenario("s20_late_adjusted"))
    assert any(" late " in f.label for f in replay.frames)
    assert any("late: the 15 s ran out" in m for f in replay.frames for m in f.marks)


def test_a_refused_move_is_marked_and_changes_nothing() -> None:
    replay = load(scenario("s04_occupied_by_living_glass_refused"))
    refused = [f for f in replay.frames if f.refused]
    assert refused
    for frame in refused:
        before = replay.frames[frame.index - 1].state
        assert any(m.startswith("refused") for m in frame.marks)
        assert {g: v["space"] for g, v in frame.state["glasses"].items()} == {
            g: v["space"] for g, v in before["glasses"].items()
        }


def test_the_state_at_a_time_lets_the_sand_run() -> None:
    replay = load(scenario("p01_opening_and_claim"))
    frame = replay.frame_of_record(6)  # b2 released at 0:23
    later = replay.at_time(frame.t + 30.0)
    for name, glass in frame.state["glasses"].items():
        if glass["running"]:
            assert later.state["glasses"][name]["sand"] == pytest.approx(glass["sand"] - 30.0)
    assert later.label == "at 0:53.2, after move 6"


@settings(max_examples=10, deadline=None)
@given(st.sampled_from([p for p in TAMSK if p.stem[0] == "p" or p.stem < "s20"]))
def test_the_state_at_a_frames_time_is_that_frames_state(path: Path) -> None:
    replay = load(path)
    for k, frame in enumerate(replay.frames[:-1]):
        if replay.frames[k + 1].t > frame.t and frame.index:
            assert replay.at_time(frame.t).state == frame.state


def test_a_torn_last_line_replays_with_a_note(tmp_path: Path) -> None:
    path = journal(tmp_path / "g.jsonl", {"game": "tamsk", "level": 2},
                   events_of("p01_opening_and_claim"))
    whole = load(path)
    with path.open("ab") as f:
        f.write(b'{"t":99.0,"ev":"rel')
    torn = load(path)
    assert any("incomplete" in n for n in torn.notes)
    assert [f.label for f in torn.frames] == [f.label for f in whole.frames]


def test_an_event_from_a_newer_version_is_skipped_with_a_note(tmp_path: Path) -> None:
    events = events_of("p01_opening_and_claim")
    events.insert(3, {"t": 3.3, "ev": "hologram", "glass": "r1"})
    path = journal(tmp_path / "g.jsonl", {"game": "tamsk", "level": 2, "journal": 2,
                                          "arena": "dome"}, events)
    replay = load(path)
    assert any("line 5: unknown event 'hologram'" in n for n in replay.notes)
    assert any("'arena' is not known" in n for n in replay.notes)
    assert any("journal format 2 is newer" in n for n in replay.notes)
    assert replay.frames[-1].state == load(scenario("p01_opening_and_claim")).frames[-1].state


def test_lines_that_cannot_be_replayed_are_skipped_with_a_note() -> None:
    events = [
        (2, {"t": 3.0, "ev": "release", "glass": "r1", "to": "a2"}),
        (3, {"t": 1.0, "ev": "ring", "player": "red"}),
        (4, {"t": "soon", "ev": "ring", "player": "red"}),
        (5, {"t": 4.0, "ev": "release", "glass": "r7", "to": "a2"}),
        (6, {"t": 5.0, "ev": "ring", "player": "black"}),
    ]
    replay = build({"game": "tamsk", "level": 2}, events)
    assert [n.split(":")[0] for n in replay.notes] == ["line 3", "line 4", "line 5"]
    assert [f.label for f in replay.frames] == ["start", "r1 a1-a2 +ring(black) @0:03.0"]


def test_a_game_replays_cannot_draw_is_a_clear_error() -> None:
    with pytest.raises(MalformedInput, match="not 'go'"):
        build({"game": "go"}, [])
    with pytest.raises(MalformedInput, match="level"):
        build({"game": "tamsk", "level": 7}, [])


def test_tantrix_frames_say_forced_fills_and_undos() -> None:
    fills = load(scenario("t13_forced_fill_then_free_move"))
    assert any(m.startswith("fills the forced space") for f in fills.frames for m in f.marks)
    undo = load(scenario("t27_undo_returns_the_turn"))
    assert any(m.startswith("takes back tile") for f in undo.frames for m in f.marks)


def test_the_discovery_loop_is_traced_as_a_loop_of_four() -> None:
    replay = load(scenario("t01_discovery_red_loop"))
    chain = replay.frames[-1].state["chains"]["red"]
    assert chain["kind"] == "loop" and len(chain["cells"]) == 4 and chain["points"] == 8


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 100_000), st.sampled_from((2, 3, 4)), st.integers(3, 56))
def test_a_traced_chain_has_the_length_the_engine_scores(seed: int, players: int,
                                                         placed: int) -> None:
    seats = ("red", "yellow", "green", "blue")[:players]
    game = random_game(random.Random(seed), seats, stop_after=placed).game
    tiles = [{"tile": p.tile, "q": p.q, "r": p.r, "rot": p.rot} for p in game.placements]
    board = board_of(tiles)
    engine = score_board({key(q, r): c for (q, r), c in board.items()}, seats)
    for colour, chain in traced(tiles, seats).items():
        assert chain["line"] == engine[colour].line
        assert chain["loop"] == engine[colour].loop
        assert chain["points"] == engine[colour].points
        assert len(chain["cells"]) in (chain["line"], chain["loop"])
        for a, b in zip(chain["cells"], chain["cells"][1:], strict=False):
            assert abs(a[0] - b[0]) + abs(a[1] - b[1]) + abs(a[0] + a[1] - b[0] - b[1]) == 2
    for colour in seats:
        found = [c for _, cells in chains(board, colour) for c in cells]
        assert len(found) == len(set(found))  # every band belongs to one chain
