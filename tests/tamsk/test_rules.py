"""The Tamsk rules, one test per rule, played through the Python API.

Each test plays a few moves the way they happen at the table (``release`` = the glass set down
and turned over, ``ring`` = a ring dropped) and checks what the rule book and the scenario
contract say must follow. Times are seconds since the start; the standard start has r1 a1,
r2 d7, r3 g1, b1 d1, b2 g4, b3 a4, and red moves first.
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.tamsk import events as ev
from companion.tamsk.board import CAPACITY, CORNERS, NEIGHBOURS, SPACES, TOTAL_RINGS
from companion.tamsk.events import Event
from companion.tamsk.game import Game, Rules, Violation

#: Each glass moved once off its corner with a ring: red 29, black 29 rings left; with 180 s
#: glasses they run out at r1 183, b3 187, r3 191, b1 195, r2 199, b2 203. Red is on turn.
OPENING = (
    ev.release(3, "r1", "a2"), ev.ring(3.2, "red"),
    ev.release(7, "b3", "b5"), ev.ring(7.2, "black"),
    ev.release(11, "r3", "f1"), ev.ring(11.2, "red"),
    ev.release(15, "b1", "e1"), ev.ring(15.2, "black"),
    ev.release(19, "r2", "c6"), ev.ring(19.2, "red"),
    ev.release(23, "b2", "g3"), ev.ring(23.2, "black"),
)  # fmt: skip


def game(level: int = 3, **rules: Any) -> Game:
    return Game(Rules(level=level, **rules))


def play(g: Game, *events: Event) -> list[Violation]:
    """Apply the events in order; return what the rules refused."""
    refused = []
    for e in events:
        v = g.apply(e)
        if v is not None:
            refused.append(v)
    return refused


def opened(level: int = 3, **rules: Any) -> Game:
    g = game(level, **rules)
    assert play(g, *OPENING) == []
    return g


# ---------------------------------------------------------------- the board


def test_board_has_37_spaces_named_a1_to_g4() -> None:
    assert len(SPACES) == 37
    assert SPACES[0] == "a1" and SPACES[-1] == "g4"
    assert [s for s in SPACES if s[0] == "d"] == [f"d{r}" for r in range(1, 8)]


def test_capacities_are_four_in_the_centre_then_three_two_one() -> None:
    assert CAPACITY["d4"] == 4
    assert {s for s, c in CAPACITY.items() if c == 3} == {"c3", "c4", "d3", "d5", "e3", "e4"}
    assert sum(1 for c in CAPACITY.values() if c == 2) == 12
    assert sum(1 for c in CAPACITY.values() if c == 1) == 18
    assert TOTAL_RINGS == 64


def test_neighbours_follow_the_shifted_columns() -> None:
    # y = row + max(0, i - 3): left of d the rows line up, right of d they shift by one.
    assert NEIGHBOURS["d4"] == {"c3", "c4", "d3", "d5", "e3", "e4"}
    assert NEIGHBOURS["c2"] == {"b1", "b2", "c1", "c3", "d2", "d3"}
    assert NEIGHBOURS["e2"] == {"d2", "d3", "e1", "e3", "f1", "f2"}
    assert NEIGHBOURS["e1"] == {"d1", "d2", "e2", "f1"}
    assert all(a in NEIGHBOURS[b] for a in SPACES for b in NEIGHBOURS[a])


def test_corners_have_three_neighbours() -> None:
    assert NEIGHBOURS["a1"] == {"a2", "b1", "b2"}
    assert NEIGHBOURS["g4"] == {"f4", "f5", "g3"}
    assert all(len(NEIGHBOURS[c]) == 3 for c in CORNERS)


# ---------------------------------------------------------------- moves


def test_red_moves_first() -> None:
    g = game(1)
    [v] = play(g, ev.release(1, "b3", "a3"))
    assert v.kind == "out-of-turn"
    assert g.glasses["b3"].space == "a4" and g.turn == "red"


def test_turns_alternate() -> None:
    g = game(1)
    assert play(g, ev.release(1, "r1", "a2")) == []
    assert g.turn == "black"
    assert play(g, ev.release(2, "b3", "a3")) == []
    assert g.turn == "red"


def test_move_to_an_adjacent_vacant_space() -> None:
    g = game(1)
    assert play(g, ev.release(1, "r3", "f2"), ev.release(2, "b1", "e1")) == []
    assert g.glasses["r3"].space == "f2" and g.glasses["b1"].space == "e1"


def test_move_to_a_space_that_is_not_adjacent_is_refused() -> None:
    g = game(1)
    [v] = play(g, ev.release(1, "r2", "e5"))  # d7 touches c6, d6, e6 only
    assert v.kind == "not-adjacent"
    assert g.glasses["r2"].space == "d7" and g.turn == "red"


def test_move_onto_a_living_glass_is_refused() -> None:
    g = game(1)
    play(g, ev.release(1, "r1", "b2"), ev.release(2, "b3", "a3"), ev.release(3, "r1", "b3"))
    [v] = play(g, ev.release(4, "b3", "b3"))
    assert v.kind == "occupied"
    assert g.glasses["b3"].space == "a3" and g.turn == "black"


def test_move_onto_a_dead_glass_is_refused() -> None:
    g = opened(2, periods={"b1": 10})  # b1 turned at 15, dead at 25 on e1
    [v] = play(g, ev.release(30, "r3", "e1"))
    assert v.kind == "occupied"
    assert g.glasses["r3"].space == "f1" and g.turn == "red"


def test_move_onto_full_space_loses() -> None:
    g = game(1)
    play(g, ev.release(1, "r1", "a2"), ev.ring(1.2, "red"))  # a2 holds one ring: full
    play(g, ev.release(2, "b3", "a3"), ev.release(3, "r1", "b2"))
    assert play(g, ev.release(4, "b3", "a2")) == []
    assert g.outcome is not None
    assert (g.outcome.winner, g.outcome.reason) == ("red", "full-space")


def test_dead_glass_never_moves_again() -> None:
    g = opened(2, periods={"b1": 10})
    play(g, ev.release(31, "r3", "f2"))
    [v] = play(g, ev.release(35, "b1", "e2"))
    assert v.kind == "dead-glass"
    assert g.glasses["b1"].dead and g.glasses["b1"].space == "e1" and g.turn == "black"


def test_first_three_moves_use_three_different_glasses() -> None:
    g = game(2)
    play(g, ev.release(3, "r1", "a2"), ev.release(7, "b3", "b5"))
    [v] = play(g, ev.release(100, "r1", "a3"))
    assert v.kind == "first-three-moves"
    assert g.glasses["r1"].space == "a2" and g.turn == "red"
    assert play(g, ev.release(101, "r3", "f1")) == []


def test_first_three_moves_rule_applies_at_level_3() -> None:
    g = game(3)
    play(g, ev.release(3, "r1", "a2"), ev.release(7, "b3", "b5"))
    [v] = play(g, ev.release(100, "r1", "a3"))
    assert v.kind == "first-three-moves"


def test_first_three_moves_rule_does_not_apply_at_level_1() -> None:
    g = game(1)
    moves = (ev.release(1, "r1", "a2"), ev.release(2, "b3", "a3"), ev.release(3, "r1", "b3"))
    assert play(g, *moves) == []
    assert g.glasses["r1"].space == "b3"


def test_out_of_turn_move_is_refused_but_its_sand_follows_the_turn() -> None:
    g = opened(2)
    [v] = play(g, ev.release(50, "b2", "g2"))  # red is on turn; b2 had 153 s above
    assert v.kind == "out-of-turn"
    assert g.glasses["b2"].space == "g3" and g.turn == "red"
    assert g.sand("b2", 50) == pytest.approx(27.0)


def test_refused_lift_is_reported_once_and_its_release_still_turns_the_glass() -> None:
    g = opened(2)
    refused = play(g, ev.lift(50, "b2"), ev.release(50.5, "b2", "g2"))
    assert [v.t for v in refused] == [50]
    assert g.sand("b2", 50.5) == pytest.approx(27.5)
    assert g.glasses["b2"].space == "g3"


def test_release_without_a_lift_counts_as_lifted_at_the_same_instant() -> None:
    g = game(2)
    assert play(g, ev.release(3, "r1", "a2")) == []
    assert g.turn == "black"


# ---------------------------------------------------------------- sand


def test_first_turn_gives_the_full_calibrated_period() -> None:
    g = game(2, periods={"r1": 176.5})
    play(g, ev.release(3, "r1", "a2"))
    assert g.sand("r1", 3) == pytest.approx(176.5)
    assert g.sand("r1", 13) == pytest.approx(166.5)


def test_turning_a_glass_over_leaves_period_minus_sand() -> None:
    g = opened(2, periods={"r1": 176.5})
    play(g, ev.release(50, "r1", "a3"))  # 176.5 - 47 above before: 47 after
    assert g.sand("r1", 50) == pytest.approx(47.0)


def test_glasses_start_empty_and_still() -> None:
    g = game(2)
    assert all(x.sand_at(0) == 0 and not x.running for x in g.glasses.values())


def test_level_1_glasses_are_plain_pieces_without_sand() -> None:
    g = game(1)
    play(g, ev.release(1, "r1", "a2"))
    assert g.sand("r1", 100) == 0 and not g.glasses["r1"].running


def test_glass_dies_when_its_sand_runs_out_and_stays_on_its_space() -> None:
    g = opened(2)
    g.advance(184)
    r1 = g.glasses["r1"]
    assert r1.dead and r1.died_at == pytest.approx(183.0) and r1.space == "a2"
    assert g.sand("r1") == 0


def test_input_at_the_instant_a_glass_runs_out_comes_first() -> None:
    g = opened(2)
    assert play(g, ev.release(183, "r1", "b2")) == []
    assert not g.glasses["r1"].dead
    assert g.sand("r1", 183) == pytest.approx(180.0)


# ---------------------------------------------------------------- rings


def test_mover_drops_his_ring_on_the_space_of_the_glass_he_moved() -> None:
    g = game(2)
    assert play(g, ev.release(3, "r1", "a2"), ev.ring(5.5, "red")) == []
    assert g.rings_on == {"a2": 1} and g.rings_left["red"] == 31


def test_only_one_ring_per_move() -> None:
    g = game(2)
    [v] = play(g, ev.release(3, "r1", "a2"), ev.ring(3.2, "red"), ev.ring(3.4, "red"))
    assert v.t == 3.4 and g.rings_left["red"] == 31


def test_ring_after_the_opponent_lifted_is_refused() -> None:
    g = game(2)
    refused = play(g, ev.release(3, "r1", "a2"), ev.lift(5, "b3"), ev.ring(5.2, "red"))
    assert [v.kind for v in refused] == ["ring-window-closed"]
    assert g.rings_left["red"] == 32 and g.rings_on == {}


def test_claim_then_own_move() -> None:
    g = game(2)
    assert play(g, ev.release(3, "r1", "a2"), ev.ring(4, "black")) == []
    assert g.rings_on == {"a2": 1} and g.rings_left["black"] == 31
    assert play(g, ev.release(6, "b3", "b5"), ev.ring(6.2, "black")) == []
    assert g.rings_left["black"] == 30 and g.turn == "red"


def test_no_claim_once_the_mover_dropped_his_ring() -> None:
    g = game(2)
    [v] = play(g, ev.release(3, "r1", "b2"), ev.ring(3.2, "red"), ev.ring(4, "black"))
    assert v.player == "black"
    assert g.rings_on == {"b2": 1} and g.rings_left["black"] == 32


def test_no_claim_after_the_claimer_lifted() -> None:
    g = game(2)
    [v] = play(g, ev.release(3, "r1", "a2"), ev.lift(5, "b3"), ev.ring(5.2, "black"))
    assert v.kind == "ring-window-closed"


def test_ring_on_a_full_space_is_refused() -> None:
    g = opened(3)  # a2 holds red's ring: full
    play(g, ev.pass_turn(30, "red"), ev.release(33, "b2", "f4"), ev.ring(33.2, "black"))
    [v] = play(g, ev.ring(33.5, "black", "a2"))
    assert v.kind == "space-full"
    assert g.rings_on["a2"] == 1 and g.rings_left["black"] == 28


# ---------------------------------------------------------------- the 15-second timer


@pytest.mark.parametrize("level", [1, 2])
def test_timer15_only_at_level_3(level: int) -> None:
    g = game(level)
    [v] = play(g, ev.release(3, "r1", "a2"), ev.timer15(4, "red"))
    assert v.kind == "no-timer"
    g.advance(60)
    assert g.penalties == [] and g.turn == "black"


def test_timer15_only_by_the_player_not_on_turn() -> None:
    g = game(3)
    [v] = play(g, ev.release(3, "r1", "a2"), ev.timer15(4, "black"))
    assert v.kind == "own-turn" and not g.timer.running


def test_timer15_not_while_it_runs() -> None:
    g = game(3)
    play(g, ev.release(3, "r1", "a2"), ev.timer15(5, "red"), ev.release(6, "b3", "b5"))
    [v] = play(g, ev.timer15(8, "black"))
    assert v.kind == "timer-running"


def test_timer15_runs_out_after_the_move_without_penalty() -> None:
    g = game(3)
    play(g, ev.release(3, "r1", "a2"), ev.timer15(5, "red"), ev.release(6, "b3", "b5"))
    g.advance(30)  # ran out at 20, in red's turn, not the one it was turned against
    assert g.penalties == [] and g.turn == "red"


def test_calibrated_timer15_period() -> None:
    g = game(3, timer_period=14.2)
    play(g, ev.release(3, "r1", "a2"), ev.timer15(4, "red"))
    g.advance(18.1)
    assert g.penalties == []
    g.advance(18.3)
    [penalty] = g.penalties
    assert penalty.kind == "forfeit" and penalty.t == pytest.approx(18.2)


def test_forfeit_when_no_glass_is_lifted_before_the_timer_runs_out() -> None:
    g = opened(3)
    play(g, ev.timer15(30, "black"))
    g.advance(46)
    assert [(p.player, p.kind, p.t) for p in g.penalties] == [("red", "forfeit", 45.0)]
    assert g.turn == "black"


def test_late_move_is_completed_with_its_ring() -> None:
    g = opened(3)
    play(g, ev.timer15(24, "black"), ev.lift(36, "r1"))
    assert play(g, ev.release(41, "r1", "b2"), ev.ring(41.2, "red")) == []
    assert [(p.player, p.kind, p.t) for p in g.penalties] == [("red", "late", 39.0)]
    assert g.glasses["r1"].space == "b2" and g.rings_on["b2"] == 1


def test_opponent_may_move_from_the_instant_the_timer_runs_out() -> None:
    g = opened(3)
    play(g, ev.timer15(24, "black"), ev.lift(36, "r1"))
    assert play(g, ev.lift(39.5, "b2")) == []  # red still holds r1
    assert play(g, ev.release(40, "r1", "b2"), ev.release(41, "b2", "f4")) == []
    assert g.turn == "red"


def test_lift_at_the_instant_the_timer_runs_out_is_late_not_forfeit() -> None:
    g = game(3)
    play(g, ev.release(3, "r1", "a2"), ev.timer15(4, "red"), ev.lift(19, "b3"))
    play(g, ev.release(20, "b3", "b5"))
    assert [(p.kind, p.t) for p in g.penalties] == [("late", 19.0)]


def test_release_at_the_instant_the_timer_runs_out_is_in_time() -> None:
    g = game(3)
    play(g, ev.release(3, "r1", "a2"), ev.timer15(4, "red"), ev.release(19, "b3", "b5"))
    g.advance(25)
    assert g.penalties == []


# ---------------------------------------------------------------- penalties


@pytest.mark.parametrize("offence", ["forfeit", "pass"])
def test_adjusted_penalty_gives_a_second_ring_on_any_space_not_full(offence: str) -> None:
    g = opened(3, ruleset="adjusted")
    play(g, ev.release(30, "r1", "b2"), ev.ring(30.2, "red"))  # b2: 1 of 2, red's glass on it
    play(g, ev.release(31, "b2", "f4"), ev.ring(31.2, "black"))
    if offence == "forfeit":
        play(g, ev.timer15(32, "black"))  # red has not lifted by 47
    else:
        play(g, ev.pass_turn(32, "red"))
    assert play(g, ev.release(50, "b3", "b4"), ev.ring(50.2, "black")) == []
    assert play(g, ev.ring(50.5, "black", "b2")) == []
    assert g.rings_on["b2"] == 2 and g.rings_left["black"] == 26


def test_adjusted_second_ring_only_once() -> None:
    g = opened(3)
    play(g, ev.pass_turn(30, "red"), ev.release(33, "b2", "f4"), ev.ring(33.2, "black"))
    assert play(g, ev.ring(33.5, "black", "c4")) == []
    assert len(play(g, ev.ring(34, "black", "d4"))) == 1


def test_second_ring_right_lasts_one_turn() -> None:
    g = opened(3)
    play(g, ev.pass_turn(30, "red"), ev.release(33, "b2", "f4"), ev.ring(33.2, "black"))
    play(g, ev.lift(35, "r1"))
    [v] = play(g, ev.ring(35.5, "black", "d4"))
    assert v.kind == "ring-window-closed"


@pytest.mark.parametrize("offence", ["forfeit", "late", "pass"])
def test_original_penalty_makes_the_opponent_move_twice(offence: str) -> None:
    g = opened(3, ruleset="original")
    if offence == "forfeit":
        play(g, ev.timer15(24, "black"))  # red has not lifted by 39
    elif offence == "late":
        play(g, ev.timer15(24, "black"), ev.lift(36, "r1"), ev.release(40, "r1", "b2"))
    else:
        play(g, ev.pass_turn(24, "red"))
    assert play(g, ev.release(45, "b2", "f4"), ev.ring(45.2, "black")) == []
    assert g.turn == "black"
    assert len(play(g, ev.ring(45.5, "black", "d4"))) == 1  # no second ring in these rules
    assert play(g, ev.release(48, "b2", "f3")) == []
    assert g.turn == "red"
    assert [p.kind for p in g.penalties] == [offence]


def test_voluntary_pass_at_level_3_is_a_penalty() -> None:
    g = opened(3)
    assert play(g, ev.pass_turn(30, "red")) == []
    assert [(p.player, p.kind, p.t) for p in g.penalties] == [("red", "pass", 30)]
    assert g.turn == "black"


@pytest.mark.parametrize("level", [1, 2])
def test_voluntary_pass_is_refused_while_the_player_can_move(level: int) -> None:
    g = game(level)
    [v] = play(g, ev.pass_turn(1, "red"))
    assert v.kind == "must-move"
    assert g.turn == "red" and g.penalties == []


# ---------------------------------------------------------------- passing and the end


def blocked_red() -> Game:
    """Free start, level 3: r3 in corner a1 walled in by b1 (a2), b2 (b1) and r1 (b2); r1 and
    r2 are 20 s glasses, dead at 23 and 25, so from 25 red cannot move."""
    g = game(3, start="free", periods={"r1": 20, "r2": 20})
    play(
        g,
        ev.release(1, "r3", "a1"), ev.release(2, "b1", "a2"), ev.release(3, "r1", "b2"),
        ev.release(4, "b2", "b1"), ev.release(5, "r2", "d4"), ev.release(6, "b3", "g4"),
    )  # fmt: skip
    return g


def test_blocked_player_passes_automatically_without_penalty() -> None:
    g = blocked_red()
    g.advance(24)
    assert g.turn == "red"
    g.advance(25)
    assert g.turn == "black" and g.penalties == []
    play(g, ev.release(27, "b3", "g3"))
    assert g.turn == "black"


def test_pass_from_a_blocked_player_is_accepted() -> None:
    g = blocked_red()
    play(g, ev.release(27, "b3", "g3"))
    assert play(g, ev.pass_turn(28, "red")) == []
    assert g.penalties == []


def test_game_ends_when_nobody_can_move() -> None:
    five = {name: 5.0 for name in ("r1", "r2", "r3", "b1", "b2", "b3")}
    g = game(2, start="free", periods=five)
    play(
        g,
        ev.release(1, "r1", "a1"), ev.release(2, "b1", "g1"), ev.release(3, "r2", "d1"),
        ev.release(4, "b2", "d7"), ev.release(5, "r3", "a4"), ev.release(5.5, "b3", "g4"),
    )  # fmt: skip
    g.advance(10.4)
    assert not g.over
    g.advance(10.5)  # b3, the last living glass, runs out
    assert g.outcome is not None and g.outcome.ended_by == "no-moves"


def test_fewer_rings_left_wins() -> None:
    g = game(3)
    play(g, ev.release(3, "r1", "a2"), ev.ring(3.2, "red"), ev.release(7, "b3", "b5"))
    play(g, ev.end(50))
    assert g.outcome is not None
    assert (g.outcome.winner, g.outcome.reason) == ("red", "rings")


def test_level_1_equal_rings_is_a_tie() -> None:
    g = game(1)
    play(g, ev.release(1, "r1", "a2"), ev.ring(1.2, "red"))
    play(g, ev.release(2, "b3", "a3"), ev.ring(2.2, "black"), ev.end(3))
    assert g.outcome is not None and g.outcome.winner == "tie"


def test_time_tiebreak_the_last_living_glass_wins() -> None:
    g = opened(2, periods={"b2": 170})  # b2 out at 193: black's last is b1 at 195, red's r2 199
    play(g, ev.end(60))
    assert g.outcome is not None
    assert (g.outcome.winner, g.outcome.reason) == ("red", "time-tiebreak")


def test_time_tiebreak_counts_dead_glasses_by_when_they_died() -> None:
    g = opened(2, periods={"b2": 170})
    play(g, ev.end(250))
    assert g.outcome is not None and g.outcome.winner == "red"
    assert g.glasses["r2"].died_at == pytest.approx(199.0)
    assert g.glasses["b1"].died_at == pytest.approx(195.0)


def test_time_tiebreak_within_1ms_goes_to_the_owner_of_the_glass_before() -> None:
    g = opened(2, periods={"b2": 175.9995})  # b2 198.9995, r2 199.0; before them b1 at 195
    play(g, ev.end(60))
    assert g.outcome is not None and g.outcome.winner == "black"


def test_time_tiebreak_exactly_1ms_apart_counts_as_within() -> None:
    g = opened(2, periods={"b2": 175.999})
    play(g, ev.end(60))
    assert g.outcome is not None and g.outcome.winner == "black"


def test_end_reports_the_result_as_of_its_time() -> None:
    g = opened(2)
    play(g, ev.end(100))
    snap = g.snapshot()
    assert snap["t"] == 100 and snap["over"]
    assert snap["glasses"]["r1"]["sand"] == pytest.approx(83.0)


# ---------------------------------------------------------------- free start, unknown spaces


def test_free_start_places_glasses_anywhere_free_with_time_running() -> None:
    g = game(3, start="free")
    assert all(x.space is None for x in g.glasses.values())
    assert play(g, ev.release(1, "r1", "d4"), ev.ring(1.2, "red")) == []
    assert g.glasses["r1"].space == "d4" and g.rings_on == {"d4": 1}
    assert g.sand("r1", 11) == pytest.approx(170.0)
    [v] = play(g, ev.release(2, "b1", "d4"))
    assert v.kind == "occupied"


def test_free_start_places_all_three_glasses_before_moving_one() -> None:
    g = game(1, start="free")
    play(g, ev.release(1, "r1", "a1"), ev.release(2, "b1", "g1"))
    [v] = play(g, ev.release(3, "r1", "a2"))
    assert v.kind == "first-three-moves"


def test_release_without_a_space_skips_position_rules() -> None:
    g = game(3)
    assert play(g, ev.release(3, "r1"), ev.ring(3.2, "red"), ev.release(7, "b3")) == []
    assert g.glasses["r1"].space is None
    assert g.rings_left["red"] == 31 and g.turn == "red"
    assert g.sand("r1", 13) == pytest.approx(170.0)


def test_unknown_spaces_still_time_turns_and_penalties() -> None:
    g = game(3)
    play(g, ev.release(3, "r1"), ev.timer15(4, "red"))
    g.advance(20)
    assert [(p.player, p.kind) for p in g.penalties] == [("black", "forfeit")]
    assert g.turn == "red"


# ---------------------------------------------------------------- known engine bugs


def late_then_refused_release() -> Game:
    """Red lifts r1 at 36 against black's timer (out at 39): late; his release on c4 (not next
    to a2) at 41 is refused."""
    g = opened(3)
    play(g, ev.timer15(24, "black"), ev.lift(36, "r1"))
    [v] = play(g, ev.release(41, "r1", "c4"))
    assert v.kind == "not-adjacent"
    return g


def test_late_mover_completes_his_move_after_a_refused_release() -> None:
    g = late_then_refused_release()
    assert play(g, ev.release(42, "r1", "b2")) == []
    assert g.glasses["r1"].space == "b2"


def test_turns_alternate_after_an_abandoned_late_move() -> None:
    g = late_then_refused_release()
    play(g, ev.release(44, "b2", "f4"))
    assert play(g, ev.lift(46, "r3"), ev.release(47, "r3", "f2")) == []
    assert g.turn == "black"
