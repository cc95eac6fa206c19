"""The contract's "Edge cases" (SCENARIOS.md, "## Tamsk"), one test per sentence, named after
it, and the ring window ("a window closes at the next lift by either player", ``putback``: "the
lift is taken back"). The ``test_issue_*`` tests are the cases the audit found wrong.

Times are seconds since the start. After ``OPENING`` (see test_rules) each glass has moved once
with a ring, red is on turn at 23.2 and, with 180 s glasses, r1 runs out at 183.
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.tamsk import events as ev
from companion.tamsk.corrections import correction
from companion.tamsk.events import Event
from companion.tamsk.game import Game, Rules, Violation
from companion.tamsk.simulate import simulate
from tests.tamsk.test_rules import OPENING


def game(level: int = 3, **rules: Any) -> Game:
    return Game(Rules(level=level, **rules))


def play(g: Game, *events: Event) -> list[Violation]:
    return [v for v in (g.apply(e) for e in events) if v is not None]


def opened(level: int = 3, **rules: Any) -> Game:
    g = game(level, **rules)
    assert play(g, *OPENING) == []
    return g


def kinds(vs: list[Violation]) -> list[str]:
    return [v.kind for v in vs]


def late_red() -> Game:
    """Black turns the timer at 24 (out at 39); red lifts r1 at 36: late at 39."""
    g = opened(3)
    assert play(g, ev.timer15(24, "black"), ev.lift(36, "r1")) == []
    g.advance(39)
    assert [(p.player, p.kind) for p in g.penalties] == [("red", "late")]
    return g


def black_holds_the_right(ruleset: str = "adjusted") -> Game:
    """Red passes at 30 (a penalty at level 3): black is on turn with the second-ring right."""
    g = opened(3, ruleset=ruleset)
    assert play(g, ev.pass_turn(30, "red")) == []
    assert g.turn == "black"
    return g


# ---------------------------------------------------------------- the same instant


def test_an_input_stamped_with_the_same_t_as_an_expiry_counts_as_made_just_before_it() -> None:
    g = opened(3)
    play(g, ev.timer15(24, "black"))
    assert play(g, ev.lift(39, "r1")) == []  # at the timer's last instant: before it
    g.advance(40)
    assert [p.kind for p in g.penalties] == ["late"]


def test_a_glass_released_at_the_very_instant_its_sand_runs_out_is_saved() -> None:
    g = game(2, periods={"r1": 20})
    play(g, ev.release(3, "r1", "a2"), ev.release(7, "b3", "b5"), ev.release(11, "r3", "f1"))
    play(g, ev.release(15, "b1", "e1"), ev.release(19, "r2", "c6"), ev.release(20, "b2", "g3"))
    assert play(g, ev.release(23, "r1", "b2")) == []  # r1 runs out at 23: saved
    assert not g.glasses["r1"].dead and g.glasses["r1"].space == "b2"
    assert g.sand("r1", 23) == pytest.approx(20.0)


def test_the_movers_lift_at_the_timers_last_instant_is_late_not_a_forfeit() -> None:
    g = opened(3)
    play(g, ev.timer15(24, "black"), ev.lift(39, "r1"))
    g.advance(40)
    assert [(p.kind, p.t) for p in g.penalties] == [("late", 39)]


def test_the_movers_release_at_the_timers_last_instant_is_in_time() -> None:
    g = opened(3)
    play(g, ev.timer15(24, "black"), ev.lift(36, "r1"))
    assert play(g, ev.release(39, "r1", "b2")) == []
    g.advance(45)
    assert g.penalties == [] and g.turn == "black"


@pytest.mark.parametrize("how", ["lift", "release"])
def test_a_lift_or_release_by_the_opponent_at_that_t_is_his_own_move_accepted(how: str) -> None:
    g = late_red_at_39_with_black_moving(how)
    assert g.turn == "red"
    assert g.glasses["b2"].space == "f4"


def late_red_at_39_with_black_moving(how: str) -> Game:
    g = opened(3)
    play(g, ev.timer15(24, "black"), ev.lift(36, "r1"))
    if how == "lift":
        assert play(g, ev.lift(39, "b2"), ev.release(40, "b2", "f4")) == []
    else:
        assert play(g, ev.release(39, "b2", "f4")) == []
    assert play(g, ev.release(41, "r1", "b2")) == []  # red completes his late move
    return g


def test_issue_opponent_lift_at_the_timers_last_instant_is_not_refused_nor_voided() -> None:
    g = opened(3)
    play(g, ev.timer15(24, "black"))  # red never lifts: forfeit at 39
    assert play(g, ev.lift(39, "b2"), ev.release(41, "b2", "f4"), ev.ring(41.2, "black")) == []
    assert [(p.player, p.kind, p.t) for p in g.penalties] == [("red", "forfeit", 39)]
    assert g.glasses["b2"].space == "f4" and g.rings_on["f4"] == 1
    assert g.turn == "red" and g.violations == []


# ---------------------------------------------------------------- after the end


def test_once_the_game_is_over_every_further_input_is_refused_and_changes_nothing() -> None:
    g = opened(3)
    play(g, ev.end(30))
    before = g.snapshot()
    inputs = (
        ev.lift(31, "r1"),
        ev.release(32, "r1", "b2"),
        ev.ring(33, "red"),
        ev.ring(33.5, "black", "d4"),
        ev.timer15(34, "black"),
        ev.pass_turn(35, "red"),
        ev.putback(36, "b1"),
    )
    refused = play(g, *inputs)
    assert kinds(refused) == ["game-over"] * len(inputs)
    after = g.snapshot()
    for key in ("rings_left", "spaces", "turn", "penalties", "winner", "reason", "in_hand"):
        assert after[key] == before[key], key


def test_after_the_end_not_even_a_glasss_sand_changes() -> None:
    g = opened(3)
    play(g, ev.end(30))
    sand = g.sand("b2", 40)
    [v] = play(g, ev.release(35, "b2", "f4"))
    assert v.kind == "game-over"
    assert g.sand("b2", 40) == pytest.approx(sand)


def test_this_includes_the_release_of_a_glass_lifted_before_the_end() -> None:
    """The issue's first case: such a release was taken as a move after the end."""
    g = opened(3)
    play(g, ev.lift(30, "r1"), ev.end(31))
    sand = g.sand("r1", 40)
    [v] = play(g, ev.release(32, "r1", "b2"), ev.ring(32.2, "red"))[:1]
    assert v.kind == "game-over"
    assert g.glasses["r1"].space == "a2" and "b2" not in g.rings_on
    assert g.sand("r1", 40) == pytest.approx(sand)
    assert g.moves[-1].glass == "b2" and len(g.moves) == 6


def test_a_later_end_changes_nothing() -> None:
    g = opened(3)
    play(g, ev.end(30))
    outcome = g.outcome
    assert play(g, ev.end(40)) == []
    assert g.outcome == outcome and g.outcome is not None and g.outcome.t == 30


def test_once_over_is_true_turn_means_nothing() -> None:
    g = opened(3)
    play(g, ev.end(30))
    # neither the player "on turn" nor the other may do anything
    assert kinds(play(g, ev.release(31, "r1", "b2"), ev.release(32, "b2", "f4"))) == [
        "game-over",
        "game-over",
    ]


# ---------------------------------------------------------------- checked at the lift


@pytest.mark.parametrize("case", ["out-of-turn", "dead-glass", "two-glasses"])
def test_the_rules_that_refuse_a_move_are_checked_at_its_lift(case: str) -> None:
    g = opened(3, periods={"r1": 20}) if case == "dead-glass" else opened(3)
    if case == "out-of-turn":
        [v] = play(g, ev.lift(30, "b2"))
    elif case == "dead-glass":
        g.advance(30)  # r1 ran out at 23
        [v] = play(g, ev.lift(30, "r1"))
    else:
        play(g, ev.lift(30, "r1"))
        [v] = play(g, ev.lift(31, "r3"))
    assert v.kind == case and v.t in (30, 31)


def test_each_glass_once_in_the_first_three_moves_is_checked_at_the_lift() -> None:
    g = game(2)
    play(g, ev.release(3, "r1", "a2"), ev.release(7, "b3", "b5"))
    [v] = play(g, ev.lift(8, "r1"))
    assert v.kind == "first-three-moves" and v.t == 8


def test_a_refused_lift_is_one_violation_its_release_is_not_reported_again() -> None:
    g = opened(3)
    [v] = play(g, ev.lift(30, "b2"))
    assert play(g, ev.release(31, "b2", "f4")) == []
    assert g.violations == [v] and g.glasses["b2"].space == "g3" and g.turn == "red"


def test_the_putback_that_ends_a_refused_lift_is_not_reported_again() -> None:
    g = opened(3)
    [v] = play(g, ev.lift(30, "b2"))
    assert play(g, ev.putback(31, "b2")) == []
    assert g.violations == [v]


def test_after_a_refused_lift_the_glasss_sand_follows_the_turn() -> None:
    g = opened(3)
    play(g, ev.lift(30, "b2"), ev.release(31, "b2", "f4"))
    # b2 turned at 23 (180 above), turned again at 31: 180 - 172 = 8 above
    assert g.sand("b2", 31) == pytest.approx(8.0)


def blocked_unused_glasses(to: str | None) -> Game:
    """Level 2: red moved r1 to ``to``; black moved b3; the spaces around r2 (d7) and r3 (g1)
    are filled with rings by the arbiter, so red's unused glasses cannot move."""
    g = game(2)
    play(g, ev.release(3, "r1", to), ev.release(7, "b3", "b5"))
    for s in ("c6", "e6", "d6", "d6", "f2", "f2", "g2", "f1"):
        assert play(g, correction(8, "add-ring", "setup", player="black", space=s)) == []
    assert g.turn == "red"
    return g


def test_in_the_first_three_moves_a_moved_glass_may_move_only_when_no_unused_glass_can() -> None:
    g = blocked_unused_glasses("a2")
    assert play(g, ev.release(9, "r1", "a3")) == []
    free = game(2)
    play(free, ev.release(3, "r1", "a2"), ev.release(7, "b3", "b5"))
    [v] = play(free, ev.release(9, "r1", "a3"))
    assert v.kind == "first-three-moves"


def test_in_the_first_three_moves_a_moved_glass_may_move_only_if_its_own_space_is_known() -> None:
    g = blocked_unused_glasses(None)
    [v] = play(g, ev.lift(9, "r1"))
    assert v.kind == "first-three-moves"


# ---------------------------------------------------------------- a refused release


@pytest.mark.parametrize(
    ("glass", "to", "kind"),
    [("r3", "e1", "occupied"), ("r1", "c4", "not-adjacent"), ("r1", "a2", "no-move")],
)
def test_a_refused_release_ends_the_lift(glass: str, to: str, kind: str) -> None:
    g = opened(3)
    play(g, ev.lift(30, glass))
    [v] = play(g, ev.release(31, glass, to))
    assert v.kind == kind
    assert g.in_hand == {} and g.turn == "red"
    [again] = play(g, ev.putback(32, glass))  # nothing is lifted any more
    assert again.kind == "not-lifted"


def test_only_a_late_mover_whose_opponent_is_on_turn_keeps_his_move_open() -> None:
    g = late_red()  # black on turn
    [v] = play(g, ev.release(41, "r1", "c4"))
    assert v.kind == "not-adjacent" and g.in_hand == {"red": "r1"}
    # once red is on turn again, a refused release ends his late move
    g = late_red()
    play(g, ev.release(40, "b2", "f4"))
    assert g.turn == "red"
    [v] = play(g, ev.release(41, "r1", "c4"))
    assert v.kind == "not-adjacent" and g.in_hand == {}


# ---------------------------------------------------------------- a glass that runs out in the hand


def short_r1(period: float = 40) -> Game:
    g = game(3, periods={"r1": period})
    play(g, *OPENING)  # r1 turned at 3: runs out at 3 + period
    return g


def test_a_glass_that_runs_out_in_the_hand_is_lost_where_it_stood_the_lift_ends() -> None:
    g = short_r1(30)  # r1 out at 33
    play(g, ev.lift(30, "r1"))
    g.advance(34)
    assert g.glasses["r1"].dead and g.glasses["r1"].space == "a2" and g.in_hand == {}
    assert play(g, ev.release(35, "r1", "b2")) == []  # not a move, not reported again
    assert g.glasses["r1"].space == "a2" and g.turn == "red" and len(g.moves) == 6
    assert play(g, ev.release(36, "r3", "f2")) == []
    assert g.turn == "black"


def test_a_late_move_ends_with_a_glass_that_runs_out_in_the_hand() -> None:
    g = short_r1(40)  # r1 out at 43
    play(g, ev.timer15(24, "black"), ev.lift(36, "r1"))
    g.advance(44)
    assert [p.kind for p in g.penalties] == ["late"]
    assert g.in_hand == {} and "red" not in g.late
    assert play(g, ev.release(45, "r1", "b2")) == []
    assert g.glasses["r1"].space == "a2" and len(g.moves) == 6


def test_glass_out_in_the_hand_then_the_timer_out_before_another_lift_is_a_forfeit() -> None:
    g = short_r1(30)  # r1 out at 33
    play(g, ev.timer15(24, "black"), ev.lift(30, "r1"))
    g.advance(40)
    assert [(p.player, p.kind, p.t) for p in g.penalties] == [("red", "forfeit", 39)]
    assert g.turn == "black"


# ---------------------------------------------------------------- late and overtaken


def test_late_and_overtaken_the_late_mover_still_completes_his_late_move_with_its_ring() -> None:
    """The issue's fifth case: the late move was dropped and its release counted as red's
    next move."""
    g = late_red()
    assert play(g, ev.lift(39.5, "b2"), ev.release(40, "b2", "f4"), ev.ring(40.2, "black")) == []
    assert g.turn == "red" and g.in_hand == {"red": "r1"}
    assert play(g, ev.release(41, "r1", "b2"), ev.ring(41.2, "red")) == []
    assert g.glasses["r1"].space == "b2" and g.rings_on["b2"] == 1
    assert g.moves[-1].late


def test_an_overtaken_late_move_does_not_use_up_the_turn_he_then_has() -> None:
    g = late_red()
    play(g, ev.release(40, "b2", "f4"), ev.release(41, "r1", "b2"))
    assert g.turn == "red"
    assert play(g, ev.release(42, "r3", "f2")) == []
    assert g.turn == "black"


def test_late_and_passed_the_late_mover_still_completes_his_late_move() -> None:
    g = late_red()
    assert play(g, ev.pass_turn(40, "black")) == []  # a penalty pass: red on turn
    assert g.turn == "red"
    assert play(g, ev.release(41, "r1", "b2"), ev.ring(41.2, "red")) == []
    assert g.turn == "red" and g.glasses["r1"].space == "b2"


# ---------------------------------------------------------------- which ring is which


def test_a_ring_without_space_goes_over_his_own_glass_while_that_window_is_open() -> None:
    g = opened(3)
    play(g, ev.release(30, "r1", "b2"))
    assert play(g, ev.ring(30.2, "red")) == []
    assert g.moves[-1].ring == "own"


def test_a_ring_without_space_otherwise_claims_the_opponents() -> None:
    g = opened(3)
    play(g, ev.release(30, "r1", "b2"))
    assert play(g, ev.ring(30.2, "black")) == []
    assert g.moves[-1].ring == "claimed" and g.rings_left["black"] == 28


def test_a_ring_whose_space_is_that_of_the_glass_just_moved_is_that_glasss_ring() -> None:
    g = black_holds_the_right()
    play(g, ev.release(33, "b2", "f4"))
    assert play(g, ev.ring(33.2, "black", "f4")) == []
    assert g.moves[-1].ring == "own" and g.bonus_available("black")


def test_issue_holder_ring_with_that_space_then_ring_without_space_both_stand() -> None:
    """The issue's fourth case: the regular ring was refused."""
    g = black_holds_the_right()
    play(g, ev.release(33, "b2", "f4"))
    assert play(g, ev.ring(33.2, "black", "f4"), ev.ring(33.4, "black")) == []
    assert g.rings_on["f4"] == 2 and g.rings_left["black"] == 27
    assert g.bonus_rings == [{"t": 33.2, "player": "black", "space": "f4"}]
    assert not g.bonus_available("black")


def test_when_the_space_of_the_glass_just_moved_is_unknown_a_holders_ring_with_space_is_his_second_ring() -> None:  # noqa: E501
    g = black_holds_the_right()
    play(g, ev.release(33, "b2"))
    assert play(g, ev.ring(33.2, "black", "d4"), ev.ring(33.4, "black")) == []
    assert g.rings_on["d4"] == 1 and g.rings_unplaced == 1
    assert [r["space"] for r in g.bonus_rings] == ["d4"]


# ---------------------------------------------------------------- the second ring


def test_the_second_ring_comes_after_the_holders_own_move_while_its_window_is_open() -> None:
    g = black_holds_the_right()
    play(g, ev.release(33, "b2", "f4"), ev.ring(33.2, "black"))
    assert play(g, ev.ring(33.5, "black", "d4")) == []
    g = black_holds_the_right()
    play(g, ev.release(33, "b2", "f4"), ev.lift(35, "r1"))
    [v] = play(g, ev.ring(35.5, "black", "d4"))
    assert v.kind == "ring-window-closed"


def test_issue_a_second_ring_before_his_move_is_refused() -> None:
    g = black_holds_the_right()
    [v] = play(g, ev.ring(31, "black", "d4"))
    assert v.kind == "second-ring-early" and "d4" not in g.rings_on
    assert play(g, ev.release(33, "b2", "f4"), ev.ring(33.2, "black")) == []
    assert play(g, ev.ring(33.5, "black", "d4")) == []


def test_issue_being_late_himself_on_that_turn_does_not_take_the_right_away() -> None:
    g = black_holds_the_right()
    play(g, ev.timer15(31, "red"), ev.lift(45, "b2"))
    g.advance(46)
    assert [(p.player, p.kind) for p in g.penalties] == [("red", "pass"), ("black", "late")]
    assert g.turn == "red"
    assert play(g, ev.release(47, "b2", "f4"), ev.ring(47.2, "black")) == []
    assert play(g, ev.ring(47.5, "black", "d4")) == []
    assert g.rings_on["d4"] == 1 and g.rings_left["black"] == 27
    # red holds his own right now, for his move of this turn
    assert play(g, ev.release(50, "r1", "b2"), ev.ring(50.2, "red")) == []
    assert play(g, ev.ring(50.5, "red", "c4")) == []


# ---------------------------------------------------------------- time tie-break


def tie_game(*periods: float) -> Game:
    """Level 2, no rings: red turns r1, r3, r2 at 3, 5, 7, black b3, b1, b2 at 4, 6, 8."""
    names = ("r1", "b3", "r3", "b1", "r2", "b2")
    g = game(2, periods=dict(zip(names, periods, strict=True)))
    to = ("a2", "b5", "f1", "e1", "c6", "g3")
    play(g, *(ev.release(3 + i, n, s) for i, (n, s) in enumerate(zip(names, to, strict=True))))
    return g


def test_tiebreak_last_two_within_1ms_the_last_but_one_glass_that_ran_out_later_wins() -> None:
    g = tie_game(180, 179, 95, 96, 50, 50)  # last 183/183; then r3 100, b1 102
    play(g, ev.end(9))
    assert g.outcome is not None and (g.outcome.winner, g.outcome.reason) == (
        "black",
        "time-tiebreak",
    )


def test_tiebreak_if_those_ran_out_at_the_same_instant_too_the_glasses_before_them_decide() -> None:
    g = tie_game(180, 179, 95, 94, 43, 52)  # 183/183, 100/100, r2 50 < b2 60
    play(g, ev.end(9))
    assert g.outcome is not None and g.outcome.winner == "black"


def test_tiebreak_a_glass_never_turned_counts_as_having_run_out_before_any_other() -> None:
    g = game(2, periods={"b3": 179})
    play(g, ev.release(3, "r1", "a2"), ev.release(4, "b3", "b5"), ev.release(5, "r3", "f1"))
    play(g, ev.end(6))  # 183/183; then red's r3 (turned) against black's b1 (never turned)
    assert g.outcome is not None and g.outcome.winner == "red"


def test_issue_tiebreak_nothing_separates_the_players_is_a_tie_never_by_names() -> None:
    g = game(2)
    play(g, ev.end(1))  # stopped before any glass was turned
    assert g.outcome is not None and (g.outcome.winner, g.outcome.reason) == (
        "tie",
        "time-tiebreak",
    )
    g = tie_game(180, 179, 95, 94, 43, 42)  # every pair runs out at the same instant
    play(g, ev.end(9))
    assert g.outcome is not None and (g.outcome.winner, g.outcome.reason) == (
        "tie",
        "time-tiebreak",
    )


def test_level_1_with_equal_rings_is_a_tie_reason_tie() -> None:
    g = game(1)
    play(g, ev.release(1, "r1", "a2"), ev.release(2, "b3", "a3"), ev.end(3))
    assert g.outcome is not None and (g.outcome.winner, g.outcome.reason) == ("tie", "tie")


# ---------------------------------------------------------------- the neutral timer's period


def test_the_neutral_timers_period_may_be_given_in_periods_under_timer15() -> None:
    header = {"game": "tamsk", "level": 3, "periods": {"timer15": 10}}
    events = [
        (2, {"t": 3, "ev": "release", "glass": "r1", "to": "a2"}),
        (3, {"t": 4, "ev": "timer15", "player": "red"}),
        (4, {"t": 20, "ev": "note", "text": "later"}),
    ]
    result = simulate(header, events)
    assert [(p["player"], p["kind"], p["t"]) for p in result["penalties"]] == [
        ("black", "forfeit", 14)
    ]


# ---------------------------------------------------------------- the ring window and putback


def test_a_window_closes_at_the_next_lift_by_the_opponent() -> None:
    g = opened(3)
    play(g, ev.release(30, "r1", "b2"), ev.lift(31, "b2"))
    assert kinds(play(g, ev.ring(31.5, "red"), ev.ring(31.6, "black"))) == [
        "ring-window-closed",
        "ring-window-closed",
    ]


def test_a_window_closes_at_the_next_lift_by_himself_when_he_moves_twice() -> None:
    g = opened(3, ruleset="original")
    play(g, ev.pass_turn(30, "red"), ev.release(31, "b2", "f4"), ev.lift(33, "b3"))
    assert g.turn == "black"
    assert kinds(play(g, ev.ring(33.5, "black"), ev.ring(33.6, "red"))) == [
        "ring-window-closed",
        "ring-window-closed",
    ]


def test_a_release_without_lift_counts_as_that_lift() -> None:
    g = opened(3)
    play(g, ev.release(30, "r1", "b2"), ev.release(31, "b2", "f4"))
    [v] = play(g, ev.ring(31.5, "red", "b2"))  # black's release closed red's window
    assert g.rings_on.get("b2", 0) == 0 and g.moves[-2].ring is None


def test_a_window_closes_at_the_next_lift_by_either_player_not_at_a_late_release() -> None:
    """The late mover's release opens his window; the opponent's move made meanwhile keeps its
    own; the next lift (here red's) closes both."""
    g = late_red()
    play(g, ev.lift(39.5, "b2"), ev.release(40, "b2", "f4"), ev.release(41, "r1", "b2"))
    assert play(g, ev.ring(41.2, "red"), ev.ring(41.3, "black")) == []
    g = late_red()
    play(g, ev.lift(39.5, "b2"), ev.release(40, "b2", "f4"), ev.release(41, "r1", "b2"))
    play(g, ev.lift(42, "r3"))
    assert kinds(play(g, ev.ring(42.2, "red"), ev.ring(42.3, "black"))) == [
        "ring-window-closed",
        "ring-window-closed",
    ]


def test_putback_takes_the_lift_back_no_move_is_made_and_the_window_it_closed_reopens() -> None:
    g = opened(3)
    play(g, ev.release(30, "r1", "b2"))
    sand = g.sand("b2", 40)
    assert play(g, ev.lift(31, "b2"), ev.putback(32, "b2")) == []
    assert g.sand("b2", 40) == pytest.approx(sand) and g.glasses["b2"].space == "g3"
    assert g.turn == "black" and g.in_hand == {}
    assert play(g, ev.ring(32.5, "red")) == []
    assert g.rings_on["b2"] == 1
