"""Arbiter corrections in the Tamsk fold: one test per rule of companion.tamsk.corrections."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.scenario import MalformedInput
from companion.tamsk import events as ev
from companion.tamsk.board import RINGS_PER_PLAYER
from companion.tamsk.corrections import UNDOABLE, correction
from companion.tamsk.events import parse_event
from companion.tamsk.game import Game, Rules
from tests.tamsk.strategies import event_sequences, rules


def opening(level: int = 3, ruleset: str = "adjusted") -> Game:
    """Red a1-a2 with his ring, black d1-c1: red to move, 1 ring on a2."""
    game = Game(Rules(level=level, ruleset=ruleset))
    assert game.apply(ev.release(3.0, "r1", "a2")) is None
    assert game.apply(ev.ring(3.5, "red")) is None
    assert game.apply(ev.release(6.0, "b1", "c1")) is None
    return game


def fix(t: float, what: str, **fields: object) -> ev.Event:
    return correction(t, what, "test ruling", **fields)


# ---------------------------------------------------------------------- who may correct


def test_only_the_arbiter_may_correct() -> None:
    game = opening()
    before = game.snapshot()
    body = {"ev": "correct", "what": "turn", "player": "black", "reason": "x", "by": "red"}
    v = game.apply(parse_event(body, 7.0))
    assert v is not None and v.kind == "not-arbiter"
    after = game.snapshot()
    assert after["turn"] == before["turn"] and after["corrections"] == []


def test_a_correction_without_a_reason_is_malformed() -> None:
    with pytest.raises(MalformedInput, match="reason"):
        parse_event({"ev": "correct", "what": "confirm", "by": "arbiter", "reason": " "}, 1.0, 4)


def test_an_unknown_correction_is_malformed_with_its_line() -> None:
    with pytest.raises(MalformedInput) as info:
        parse_event({"ev": "correct", "what": "teleport", "reason": "x", "by": "arbiter"}, 1.0, 9)
    assert info.value.line == 9


def test_a_correction_is_written_back_as_the_journal_wrote_it() -> None:
    body = {"t": 5.0, "ev": "correct", "what": "space", "glass": "r1", "space": None,
            "reason": "sensor", "by": "arbiter", "auth": "pin"}
    assert parse_event(body, 5.0).to_dict() == {**body}


# ---------------------------------------------------------------------- sand


def test_sand_correction_sets_the_upper_part_and_it_runs_on() -> None:
    game = opening()
    assert game.apply(fix(10.0, "sand", glass="r1", sand=60.0)) is None
    assert game.sand("r1", 10.0) == 60.0
    assert game.sand("r1", 25.0) == pytest.approx(45.0)


def test_sand_zero_means_the_glass_ran_out_then() -> None:
    game = opening()
    assert game.apply(fix(10.0, "sand", glass="b1", sand=0.0)) is None
    assert game.glasses["b1"].dead and game.glasses["b1"].died_at == 10.0


def test_a_lost_glass_given_sand_lives_again() -> None:
    game = opening()
    game.apply(fix(10.0, "sand", glass="b1", sand=0.0))
    assert game.apply(fix(11.0, "sand", glass="b1", sand=30.0)) is None
    g = game.glasses["b1"]
    assert not g.dead and g.running and g.died_at is None
    assert game.sand("b1", 21.0) == pytest.approx(20.0)


def test_sand_beyond_the_period_is_refused() -> None:
    game = opening()
    v = game.apply(fix(10.0, "sand", glass="r1", sand=181.0))
    assert v is not None and v.kind == "correction"
    assert game.corrections == []


def test_level_one_glasses_hold_no_sand() -> None:
    game = opening(level=1)
    v = game.apply(fix(10.0, "sand", glass="r1", sand=10.0))
    assert v is not None and "plain pieces" in v.detail


# ---------------------------------------------------------------------- space


def test_space_correction_moves_a_glass_without_a_move() -> None:
    game = opening()
    turn, moves = game.turn, len(game.moves)
    assert game.apply(fix(10.0, "space", glass="b1", space="c2")) is None
    assert game.space_of("b1") == "c2" and game.occupant("c2") == "b1"
    assert game.occupant("c1") is None
    assert game.turn == turn and len(game.moves) == moves


def test_space_correction_onto_another_glass_is_refused() -> None:
    game = opening()
    v = game.apply(fix(10.0, "space", glass="b1", space="a2"))
    assert v is not None and "taken by r1" in v.detail
    assert game.space_of("b1") == "c1"


def test_a_glass_set_to_an_unknown_space_makes_positions_unknown() -> None:
    game = opening()
    game.apply(fix(10.0, "space", glass="b1", space=None))
    assert not game.positions_known() and game.space_of("b1") is None
    game.apply(fix(11.0, "space", glass="b1", space="c1"))
    assert game.positions_known()


def test_an_open_ring_window_follows_the_corrected_glass() -> None:
    game = Game(Rules(level=3))
    game.apply(ev.release(3.0, "r1", "a2"))
    game.apply(fix(3.2, "space", glass="r1", space="b2"))
    assert game.apply(ev.ring(3.4, "red")) is None
    assert game.rings_on == {"b2": 1}


# ---------------------------------------------------------------------- rings


def test_add_ring_takes_it_from_the_players_supply() -> None:
    game = opening()
    assert game.apply(fix(10.0, "add-ring", player="black", space="d4")) is None
    assert game.rings_on["d4"] == 1 and game.rings_left["black"] == RINGS_PER_PLAYER - 1


def test_add_ring_on_a_full_space_is_refused() -> None:
    game = opening()  # a2 holds one ring and its capacity is one
    v = game.apply(fix(10.0, "add-ring", player="black", space="a2"))
    assert v is not None and "full" in v.detail


def test_remove_ring_gives_it_back() -> None:
    game = opening()
    assert game.apply(fix(10.0, "remove-ring", player="red", space="a2")) is None
    assert "a2" not in game.rings_on and game.rings_left["red"] == RINGS_PER_PLAYER


def test_remove_ring_from_an_empty_space_is_refused() -> None:
    game = opening()
    v = game.apply(fix(10.0, "remove-ring", player="red", space="d4"))
    assert v is not None and "no ring on d4" in v.detail


def test_remove_an_unplaced_ring() -> None:
    game = Game(Rules(level=3))
    game.apply(ev.release(3.0, "r1"))  # released where nobody knows
    game.apply(ev.ring(3.5, "red"))
    assert game.rings_unplaced == 1
    assert game.apply(fix(4.0, "remove-ring", player="red", space=None)) is None
    assert game.rings_unplaced == 0 and game.rings_left["red"] == RINGS_PER_PLAYER


# ---------------------------------------------------------------------- undo


def test_undo_takes_back_the_last_input_as_if_it_never_happened() -> None:
    game = opening()
    without = Game(Rules(level=3))
    without.apply(ev.release(3.0, "r1", "a2"))
    without.apply(ev.ring(3.5, "red"))
    without.advance(10.0)
    assert game.apply(fix(10.0, "undo", target_t=6.0, target_ev="release")) is None
    mine, theirs = game.snapshot(), without.snapshot()
    for key in ("turn", "glasses", "rings_left", "spaces", "timer15", "penalties", "violations"):
        assert mine[key] == theirs[key], key
    assert game.undone == [{"t": 6.0, "ev": "release", "glass": "b1", "to": "c1"}]


def test_undo_again_takes_back_the_input_before() -> None:
    game = opening()
    game.apply(fix(10.0, "undo"))
    game.apply(fix(11.0, "undo"))
    assert game.rings_left["red"] == RINGS_PER_PLAYER and game.space_of("r1") == "a2"
    assert [u["ev"] for u in game.undone] == ["release", "ring"]


def test_undo_with_a_stale_target_is_refused() -> None:
    game = opening()
    v = game.apply(fix(10.0, "undo", target_t=3.5, target_ev="ring"))
    assert v is not None and "not at t=3.5" in v.detail
    assert game.space_of("b1") == "c1"


def test_undo_rejudges_what_came_after() -> None:
    """Undo the ring: a later correction that needed it is refused on the re-fold."""
    game = Game(Rules(level=3))
    game.apply(ev.release(3.0, "r1", "a2"))
    game.apply(ev.ring(3.5, "red"))
    game.apply(fix(4.0, "remove-ring", player="red", space="a2"))
    game.apply(fix(4.0, "add-ring", player="red", space="a2"))
    assert game.apply(fix(5.0, "undo", target_ev="ring")) is None
    assert game.rings_left["red"] == RINGS_PER_PLAYER - 1  # the add-ring alone
    assert any(v.kind == "correction" for v in game.violations)  # the removal, re-judged


def test_nothing_to_undo_is_refused() -> None:
    game = Game(Rules(level=3))
    v = game.apply(fix(1.0, "undo"))
    assert v is not None and "no input" in v.detail


def test_undo_an_end_of_game_resumes_it() -> None:
    game = opening()
    game.apply(ev.end(8.0))
    assert game.over
    game.apply(fix(9.0, "undo", target_ev="end"))
    assert not game.over and game.turn == "red"


# ---------------------------------------------------------------------- penalties


def test_penalty_on_the_player_on_turn_ends_his_turn_and_gives_a_second_ring() -> None:
    game = opening()  # red on turn
    assert game.apply(fix(10.0, "penalty", player="red", kind="forfeit")) is None
    assert game.turn == "black"
    assert game.snapshot()["bonus_ring"] == "black"
    assert game.penalties[-1].kind == "forfeit"


def test_penalty_original_rules_skips_the_offenders_next_turn() -> None:
    game = opening(ruleset="original")
    game.apply(fix(10.0, "penalty", player="black", kind="late"))  # black is not on turn
    assert "black" in game.skip_next and game.turn == "red"


def test_cancel_penalty_strikes_it_and_its_pending_consequence() -> None:
    game = opening()
    game.apply(fix(10.0, "penalty", player="red", kind="forfeit"))
    assert game.apply(fix(11.0, "cancel-penalty", index=0, penalty_t=10.0)) is None
    assert game.penalties == [] and game.snapshot()["bonus_ring"] is None


def test_cancel_a_penalty_that_is_not_there_is_refused() -> None:
    game = opening()
    v = game.apply(fix(11.0, "cancel-penalty", index=0))
    assert v is not None and "no penalty number 0" in v.detail


def test_pass_penalty_only_at_level_three() -> None:
    game = opening(level=2)
    v = game.apply(fix(10.0, "penalty", player="red", kind="pass"))
    assert v is not None and "level 3" in v.detail


def test_turn_correction_gives_the_turn() -> None:
    game = opening()
    assert game.apply(fix(10.0, "turn", player="black")) is None
    assert game.turn == "black"
    assert game.apply(ev.release(11.0, "b2", "f4")) is None


# ---------------------------------------------------------------------- results


def test_declared_result_ends_the_game_confirmed() -> None:
    game = opening()
    assert game.apply(fix(10.0, "result", winner="black")) is None
    snap = game.snapshot()
    assert snap["over"] and snap["winner"] == "black" and snap["reason"] == "arbiter"
    assert snap["confirmed"]


def test_forfeit_result_says_so() -> None:
    game = opening()
    game.apply(fix(10.0, "result", winner="red", forfeit=True))
    assert game.outcome is not None and game.outcome.reason == "forfeit"


def test_confirm_needs_a_finished_game() -> None:
    game = opening()
    v = game.apply(fix(10.0, "confirm"))
    assert v is not None and "not over" in v.detail
    game.apply(ev.end(11.0))
    assert game.apply(fix(12.0, "confirm")) is None and game.confirmed


def test_next_round_closes_a_finished_game() -> None:
    game = opening()
    assert game.apply(fix(10.0, "next-round", round=2)) is not None
    game.apply(fix(11.0, "result", winner="tie"))
    assert game.apply(fix(12.0, "next-round", round=2)) is None
    assert game.snapshot()["next_round"] == 2


# ---------------------------------------------------------------------- invariants


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules, event_sequences(max_size=30), st.integers(0, 29))
def test_undo_equals_the_fold_without_that_input(r: Rules, events: list, cut: int) -> None:
    """Undo after the k-th input leaves the state of a fold of the inputs before it."""
    inputs = [e for e in events if e.kind in UNDOABLE]
    if not inputs:
        return
    k = min(cut, len(inputs) - 1)
    upto = events[: events.index(inputs[k]) + 1]
    at = upto[-1].t
    game = Game(r)
    game.apply_all(upto)
    game.apply(correction(at, "undo", "property"))
    plain = Game(r)
    plain.apply_all(upto[:-1])
    plain.advance(at)
    mine, theirs = game.snapshot(), plain.snapshot()
    for key in ("turn", "glasses", "rings_left", "spaces", "timer15", "penalties", "over"):
        assert mine[key] == theirs[key], key


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules, event_sequences(max_size=30))
def test_a_refused_correction_changes_nothing(r: Rules, events: list) -> None:
    game = Game(r)
    game.apply_all(events)
    t = game.t
    before = game.snapshot()
    v = game.apply(correction(t, "remove-ring", "property", player="red", space="d4"))
    if v is None:
        return
    after = game.snapshot()
    for key in ("turn", "glasses", "rings_left", "spaces", "timer15", "penalties", "corrections"):
        assert before[key] == after[key], key
