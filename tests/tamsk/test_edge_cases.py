"""The contract's "Edge cases" (tests/scenarios/SCENARIOS.md, "## Tamsk"), one test per
sentence: each sentence is quoted word for word in the docstring of the test (or tests) that
fails when the engine departs from it, and the last test checks that none is left without one.
Also the ring window ("a window closes at the next lift by either player", ``putback``: "the
lift is taken back"). The ``test_issue_*`` tests are the cases the audit found wrong.

Times are seconds since the start. After ``OPENING`` (see test_rules) each glass has moved once
with a ring, red is on turn at 23.2 and, with 180 s glasses, r1 runs out at 183.
"""

from __future__ import annotations

import inspect
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.tamsk import events as ev
from companion.tamsk.corrections import correction
from companion.tamsk.events import Event
from companion.tamsk.game import Game, Rules, Violation
from companion.tamsk.simulate import simulate
from companion.tamsk.words import refusal_in_words, rule_in_words
from tests.tamsk.test_rules import OPENING

#: The project's copy of the scenario contract.
CONTRACT = Path(__file__).resolve().parents[1] / "scenarios" / "SCENARIOS.md"


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


def late_red(ruleset: str = "adjusted", **rules: Any) -> Game:
    """Black turns the timer at 24 (out at 39); red lifts r1 at 36: late at 39."""
    g = opened(3, ruleset=ruleset, **rules)
    assert play(g, ev.timer15(24, "black"), ev.lift(36, "r1")) == []
    g.advance(39)
    assert [(p.player, p.kind) for p in g.penalties] == [("red", "late")]
    return g


def late_red_overtaken() -> Game:
    """Red late with r1 in his hand; black moves b2 to f4 at 40 with a ring: red's turn."""
    g = late_red()
    assert play(g, ev.release(40, "b2", "f4"), ev.ring(40.2, "black")) == []
    assert g.turn == "red" and g.in_hand == {"red": "r1"}
    return g


def black_holds_the_right(ruleset: str = "adjusted") -> Game:
    """Red passes at 30 (a penalty at level 3): black is on turn with the second-ring right."""
    g = opened(3, ruleset=ruleset)
    assert play(g, ev.pass_turn(30, "red")) == []
    assert g.turn == "black"
    return g


# ---------------------------------------------------------------- the same instant

def test_an_input_stamped_with_the_same_t_as_an_expiry_counts_as_made_just_before_it() -> None:
    """The same instant. An input stamped with the same `t` as an expiry (a glass running out,
    the 15-second timer running out) counts as made just before it: a glass released at the
    very instant its sand runs out is saved; the mover's `lift` at the timer's last instant is
    `late`, not a `forfeit`, and his `release` then is in time."""
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
    """One exception, because the opponent "may start his own move from that instant": a `lift`
    or `release` by the opponent of the player the timer runs out against, at that `t`, is his
    own move, accepted."""
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


def test_a_timer15_at_the_instant_the_timer_runs_out_is_refused_the_timer_still_runs() -> None:
    """The exception concerns only a timer running out during the turn it was turned against;
    every other input at that `t`, a `timer15` included, counts as made before the expiry (so a
    `timer15` then is refused: the timer still runs).

    Black turns the timer against red at 24 (out at 39); red moves at 30 and black is on turn
    when it runs out: red's `timer15` at 39 is refused, one a moment later is accepted."""
    g = opened(3)
    assert play(g, ev.timer15(24, "black"), ev.release(30, "r1", "b2")) == []
    [v] = play(g, ev.timer15(39, "red"))
    assert v.kind == "timer-running" and v.player == "red"
    assert g.penalties == []
    assert play(g, ev.timer15(39.5, "red")) == []
    assert g.timer.running and g.timer.against == "black" and g.timer.expires == 54.5


# ---------------------------------------------------------------- after the end


def test_once_the_game_is_over_every_further_input_is_refused_and_changes_nothing() -> None:
    """After the end. Once the game is over, every further input is refused, reported as a
    violation and changes nothing, not even a glass's sand; this includes the `release` of a
    glass lifted before the end."""
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


@pytest.mark.parametrize("refused", ["before the end", "after the end"])
@pytest.mark.parametrize("ends", ["release", "putback"])
def test_each_input_after_the_end_is_its_own_violation(refused: str, ends: str) -> None:
    """Each input after the end is its own violation: a `release` or `putback` is reported
    even when the lift it ends was refused (after the end or before it).

    Black lifts b2 out of turn: before the end at 30, or after it at 32; the arbiter ends the
    game at 31; the release (or putback) of b2 at 33 is reported again, as after the end."""
    g = opened(3)
    if refused == "before the end":
        assert kinds(play(g, ev.lift(30, "b2"), ev.end(31))) == ["out-of-turn"]
    else:
        assert kinds(play(g, ev.end(31), ev.lift(32, "b2"))) == ["game-over"]
    sand = g.sand("b2", 40)
    done = ev.release(33, "b2", "f4") if ends == "release" else ev.putback(33, "b2")
    [v] = play(g, done)
    assert v.kind == "game-over" and v.t == 33 and v.player == "black"
    assert len(g.violations) == 2
    assert g.glasses["b2"].space == "g3" and g.sand("b2", 40) == pytest.approx(sand)


def test_a_later_end_changes_nothing() -> None:
    """A later `end` changes nothing."""
    g = opened(3)
    play(g, ev.end(30))
    outcome = g.outcome
    assert play(g, ev.end(40)) == []
    assert g.outcome == outcome and g.outcome is not None and g.outcome.t == 30


def test_once_over_is_true_turn_means_nothing() -> None:
    """Once `over` is true, `turn` means nothing."""
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
    """Checked at the lift. The rules that refuse a move (whose turn it is, a dead glass, one
    glass at a time, each glass once in the first three moves) are checked at its `lift`."""
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
    """A refused lift is one violation; the `release` or `putback` that ends it is not a move
    and is not reported again, but the glass's sand follows the turn."""
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
    """In the first three moves a glass already moved may move only when none of the player's
    unused glasses can, and only if its own space is known."""
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
    """A refused release (occupied, not adjacent, its own space) ends the lift; only a late
    mover whose opponent is already on turn keeps his move open and may still complete it."""
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
    assert play(g, ev.release(42, "r1", "b2")) == []  # and may still complete it
    assert g.glasses["r1"].space == "b2" and g.moves[-1].late
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


@pytest.mark.parametrize("set_down", ["release", "putback"])
def test_a_glass_that_runs_out_in_the_hand_is_lost_where_it_stood_the_lift_ends(
    set_down: str,
) -> None:
    """A glass that runs out in the hand is lost where it stood: the lift ends without a move
    (a late move with it); the `release` or `putback` that then sets it down is not a move and
    is not reported."""
    g = short_r1(30)  # r1 out at 33
    play(g, ev.lift(30, "r1"))
    g.advance(34)
    assert g.glasses["r1"].dead and g.glasses["r1"].space == "a2" and g.in_hand == {}
    down = ev.release(35, "r1", "b2") if set_down == "release" else ev.putback(35, "r1")
    assert play(g, down) == []  # not a move, not reported
    assert g.violations == []
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
    """If the 15-second timer then runs out before the player lifts another glass, it is a
    `forfeit`."""
    g = short_r1(30)  # r1 out at 33
    play(g, ev.timer15(24, "black"), ev.lift(30, "r1"))
    g.advance(40)
    assert [(p.player, p.kind, p.t) for p in g.penalties] == [("red", "forfeit", 39)]
    assert g.turn == "black"


# ---------------------------------------------------------------- late and overtaken


def test_late_and_overtaken_the_late_mover_still_completes_his_late_move_with_its_ring() -> None:
    """Late and overtaken. If the opponent completes his move (or is passed) before the late
    mover lets go, the late mover still completes his late move, with its ring; it does not use
    up the turn he then has.

    (The issue's fifth case: the late move was dropped and its release counted as red's next
    move.)"""
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


def test_a_late_move_kept_open_by_a_refused_release_stays_open_once_the_turn_comes_round() -> None:
    """A late move that a refused release kept open stays open in the same way, also once the
    turn has come round to him.

    Red's release of r1 on c4 at 41 is refused while black is on turn; black moves at 44; at 45
    red sets r1 down on b2: his late move, with its ring, and he is still on turn."""
    g = late_red()
    assert kinds(play(g, ev.release(41, "r1", "c4"))) == ["not-adjacent"]
    assert play(g, ev.release(44, "b2", "f4"), ev.ring(44.2, "black")) == []
    assert g.turn == "red" and g.in_hand == {"red": "r1"}
    assert play(g, ev.release(45, "r1", "b2"), ev.ring(45.2, "red")) == []
    assert g.moves[-1].glass == "r1" and g.moves[-1].late and g.moves[-1].ring == "own"
    assert g.glasses["r1"].space == "b2" and g.rings_on["b2"] == 1
    assert g.turn == "red"  # the late move did not use up this turn


@pytest.mark.parametrize("how", ["lift", "release"])
def test_on_that_turn_while_he_still_holds_the_late_glass_a_lift_of_another_is_refused(
    how: str,
) -> None:
    """On that turn, while he still holds the late glass, a `lift` of another glass is refused
    (one glass at a time); once a release of the late glass has been refused, a `lift` of
    another glass gives the late move up (not reported; the glass stays where it stood).

    Here he still holds r1 (no release of it refused): the lift of r3 (or its release without
    a lift) is refused, r1 stays in his hand and its release then completes the late move. The
    issue: the late move was silently given up and r3's move accepted."""
    g = late_red_overtaken()
    other = ev.lift(41, "r3") if how == "lift" else ev.release(41, "r3", "f2")
    [v] = play(g, other)
    assert v.kind == "two-glasses" and v.player == "red"
    assert refusal_in_words(v.detail) == "r1 is already being moved: one glass per move"
    assert g.in_hand == {"red": "r1"} and g.glasses["r3"].space == "f1" and g.turn == "red"
    if how == "lift":
        assert play(g, ev.putback(41.5, "r3")) == []  # ends the refused lift: not reported
    assert play(g, ev.release(42, "r1", "b2"), ev.ring(42.2, "red")) == []
    assert g.moves[-1].glass == "r1" and g.moves[-1].late and g.turn == "red"
    assert play(g, ev.release(43, "r3", "f2")) == []
    assert g.turn == "black" and len(g.violations) == 1


@pytest.mark.parametrize("how", ["lift", "release"])
def test_once_a_release_of_the_late_glass_was_refused_a_lift_of_another_gives_it_up(
    how: str,
) -> None:
    """On that turn, while he still holds the late glass, a `lift` of another glass is refused
    (one glass at a time); once a release of the late glass has been refused, a `lift` of
    another glass gives the late move up (not reported; the glass stays where it stood)."""
    g = late_red()
    assert kinds(play(g, ev.release(40, "r1", "c4"))) == ["not-adjacent"]  # black on turn
    assert play(g, ev.release(41, "b2", "f4"), ev.ring(41.2, "black")) == []
    assert g.turn == "red" and g.in_hand == {"red": "r1"}
    other = [ev.lift(42, "r3"), ev.release(43, "r3", "f2")]
    assert play(g, *(other if how == "lift" else other[1:])) == []
    assert len(g.violations) == 1
    assert g.glasses["r1"].space == "a2" and "red" not in g.in_hand
    assert g.glasses["r3"].space == "f2" and g.turn == "black"
    assert [m.glass for m in g.moves[-2:]] == ["b2", "r3"]


def test_the_timer_running_out_on_that_turn_before_he_lifted_a_glass_for_it_is_a_forfeit() -> None:
    """If the 15-second timer runs out on that turn before he has lifted a glass for it, it is a
    `forfeit`: the late move is not that turn's move.

    Red still holds his late r1 when black turns the timer against him at 41 (out at 56)."""
    g = late_red_overtaken()
    assert play(g, ev.timer15(41, "black")) == []
    g.advance(57)
    assert [(p.player, p.kind, p.t) for p in g.penalties] == [
        ("red", "late", 39),
        ("red", "forfeit", 56),
    ]
    assert g.turn == "black" and g.in_hand == {"red": "r1"}
    assert play(g, ev.release(58, "r1", "b2")) == []  # the late move is still his to complete
    assert g.moves[-1].late and g.turn == "black"


# ---------------------------------------------------------------- which ring is which


def test_a_ring_without_space_goes_over_his_own_glass_while_that_window_is_open() -> None:
    """Which ring is which. A `ring` without `space` goes over the player's own glass just
    moved while that window is open, otherwise it claims the opponent's."""
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
    """A `ring` whose `space` is the space of the glass just moved is that glass's ring, except
    that a player holding a two-ring right who drops a `ring` with that `space` and then a
    `ring` without `space` has dropped his second ring first and his regular ring after it (both
    stand)."""
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


def holder_beside_a_late_window(to: str) -> Game:
    """Red is late (black holds the second-ring right); black moves b2 to ``to`` and drops a
    ring with that space at 40.2; red sets his late r1 down on b2 at 41 without a ring: red's
    ring window is open beside black's."""
    g = late_red()
    assert play(g, ev.release(40, "b2", to), ev.ring(40.2, "black", to)) == []
    assert play(g, ev.release(41, "r1", "b2")) == []
    assert [w.move.glass for w in g.windows if not w.dropped] == ["r1"]
    return g


def test_the_holders_ring_without_space_is_his_regular_ring_while_a_late_window_is_open() -> None:
    """This holds also while the opponent's ring window is still open (a late move of his):
    that `ring` without `space` is the holder's regular ring, not a claim; if his glass's space
    cannot take it, it is refused."""
    g = holder_beside_a_late_window("f4")  # f4 holds 2
    assert play(g, ev.ring(41.5, "black")) == []
    assert g.rings_on["f4"] == 2 and "b2" not in g.rings_on
    assert g.bonus_rings == [{"t": 40.2, "player": "black", "space": "f4"}]
    assert g.moves[-1].ring is None  # red's r1: nobody claimed it
    assert play(g, ev.ring(41.7, "red")) == []  # red's own ring on b2 still may come
    assert g.rings_on["b2"] == 1


def test_the_holders_regular_ring_is_refused_if_his_glasss_space_cannot_take_it() -> None:
    """This holds also while the opponent's ring window is still open (a late move of his):
    that `ring` without `space` is the holder's regular ring, not a claim; if his glass's space
    cannot take it, it is refused."""
    g = holder_beside_a_late_window("g4")  # g4 holds 1: full with the second ring
    [v] = play(g, ev.ring(41.5, "black"))
    assert v.kind == "space-full" and "g4 is full" in v.detail
    assert "b2" not in g.rings_on and g.rings_left["black"] == 28


def test_when_the_space_of_the_glass_just_moved_is_unknown_a_holders_ring_with_space_is_his_second_ring() -> None:  # noqa: E501
    """When the space of the glass just moved is unknown, a holder's `ring` with `space` is his
    second ring."""
    g = black_holds_the_right()
    play(g, ev.release(33, "b2"))
    assert play(g, ev.ring(33.2, "black", "d4"), ev.ring(33.4, "black")) == []
    assert g.rings_on["d4"] == 1 and g.rings_unplaced == 1
    assert [r["space"] for r in g.bonus_rings] == ["d4"]


# ---------------------------------------------------------------- the claim before one's own move


def red_late_window_with_black(how: str, ruleset: str = "adjusted", **rules: Any) -> Game:
    """Red is late with r1 (lifted at 36); black, on turn from 39, does ``how`` at 39.5; red
    sets r1 down on b2 at 40 without a ring: the ring window of red's late move opens only now.

    ``how``: ``lift`` (black lifts b2), ``release`` (black's b2 to f4 without a lift before
    it, his ring on it), ``refused-lift`` (black lifts b3, already lost), ``putback`` (black
    lifts b2 and puts it back at 40.5)."""
    g = late_red(ruleset, **rules)
    if how == "lift":
        assert play(g, ev.lift(39.5, "b2")) == []
    elif how == "release":
        assert play(g, ev.release(39.5, "b2", "f4"), ev.ring(39.7, "black")) == []
    elif how == "refused-lift":
        assert g.glasses["b3"].dead
        assert kinds(play(g, ev.lift(39.5, "b3"))) == ["dead-glass"]
    elif how == "putback":
        assert play(g, ev.lift(39.5, "b2")) == []
    assert play(g, ev.release(40, "r1", "b2")) == []
    if how == "putback":
        assert play(g, ev.putback(40.5, "b2")) == []
    return g


def test_the_claim_comes_before_the_claimants_own_move() -> None:
    """The claim comes before the claimant's own move (EN: "before making his move", "as soon
    as he moves an hour-glass, he may not play an extra ring"; FR: "avant d'effectuer son
    coup").

    Black has started his own move (b2 in his hand) when red sets down his late r1: black's
    claim of r1's ring is refused, and the refusal names the rule, in the players' language."""
    g = red_late_window_with_black("lift")
    [v] = play(g, ev.ring(41, "black"))
    assert (v.kind, v.player, v.t) == ("claim-after-own-move", "black", 41)
    assert v.detail == (
        "the claim came after your own move: r1's ring is claimed before you lift a glass"
    )
    assert "b2" not in g.rings_on and g.rings_left["black"] == 29
    assert g.moves[-1].ring is None
    assert rule_in_words(v.kind) == "claim-after-own-move"
    assert refusal_in_words(v.detail) == v.detail  # English: a template the table knows


@pytest.mark.parametrize("ruleset", ["adjusted", "original"])
@pytest.mark.parametrize(
    ("how", "claimed"),
    [("lift", False), ("release", False), ("refused-lift", True), ("putback", True)],
)
def test_the_right_to_claim_ends_when_the_claimant_lifts_a_glass_after_that_moves_lift(
    how: str, claimed: bool, ruleset: str
) -> None:
    """The right to claim a move's ring ends when the claimant lifts a glass after that move's
    lift (a `release` without `lift` counts; a refused lift does not; a `putback` gives the
    right back), in both rulesets, even when that move's window opens only later (a late move
    set down after he started his own).

    b3 runs out at 27 (turned at 7, a 20 s glass), so black's lift of it is refused."""
    g = red_late_window_with_black(how, ruleset, periods={"b3": 20})
    v = g.apply(ev.ring(41, "black"))
    if claimed:
        assert v is None and g.moves[-1].ring == "claimed" and g.rings_on["b2"] == 1
    else:
        assert v is not None and v.kind == "claim-after-own-move"
        assert "b2" not in g.rings_on


def test_the_claim_is_refused_after_the_claimants_own_move_set_down_too() -> None:
    """The right to claim a move's ring ends when the claimant lifts a glass after that move's
    lift (a `release` without `lift` counts; a refused lift does not; a `putback` gives the
    right back), in both rulesets, even when that move's window opens only later (a late move
    set down after he started his own).

    Black has made his move (b2 to f4, his ring on it) before red sets r1 down: the window of
    red's late move is open, and black may not claim it. The issue's case."""
    g = late_red()
    assert play(g, ev.lift(39.5, "b2"), ev.release(40, "b2", "f4"), ev.ring(40.2, "black")) == []
    assert play(g, ev.release(41, "r1", "b2")) == []
    [v] = play(g, ev.ring(41.5, "black"))
    assert v.kind == "claim-after-own-move"
    assert "b2" not in g.rings_on and g.rings_on["f4"] == 1


@pytest.mark.parametrize("ruleset", ["adjusted", "original"])
def test_a_ring_with_that_moves_space_is_refused_unless_it_is_the_holders_second_ring(
    ruleset: str,
) -> None:
    """Such a claim is refused, and so is a `ring` with that move's `space` unless it is the
    holder's second ring.

    Black lifts b2 before red sets his late r1 down on b2: a ring of black's on b2 is refused
    while b2 is still in his hand; after his move (b2 to f4, his ring on it) it is his second
    ring in the adjusted rules (red was late), and refused in the original rules."""
    g = late_red(ruleset)
    assert play(g, ev.lift(39.5, "b2"), ev.release(40, "r1", "b2")) == []
    [early] = play(g, ev.ring(40.5, "black", "b2"))
    assert early.kind == "claim-after-own-move"
    assert play(g, ev.release(41, "b2", "f4"), ev.ring(41.2, "black")) == []
    v = g.apply(ev.ring(41.5, "black", "b2"))
    if ruleset == "adjusted":
        assert v is None
        assert g.bonus_rings == [{"t": 41.5, "player": "black", "space": "b2"}]
        assert g.moves[-2].glass == "r1" and g.moves[-2].ring is None
    else:
        assert v is not None and v.kind == "claim-after-own-move"
        assert "b2" not in g.rings_on


def test_a_late_move_lifted_before_the_move_claimed_does_not_end_its_movers_claim() -> None:
    """A late move lifted before the move claimed does not end its mover's claim.

    Red, late, still holds r1 (lifted at 36) when black moves b2 to f4 at 40 without a ring:
    red claims that ring, then completes his late move with his own ring."""
    g = late_red()
    assert play(g, ev.lift(39.5, "b2"), ev.release(40, "b2", "f4")) == []
    assert play(g, ev.ring(40.5, "red")) == []
    assert g.moves[-1].glass == "b2" and g.moves[-1].ring == "claimed"
    assert g.rings_on["f4"] == 1 and g.rings_left["red"] == 28
    assert play(g, ev.release(41, "r1", "b2"), ev.ring(41.2, "red")) == []
    assert g.rings_on["b2"] == 1 and g.rings_left["red"] == 27


def test_a_ring_without_space_from_him_is_then_his_own_regular_ring_otherwise_refused() -> None:
    """A `ring` without `space` from him is then his own regular ring while his own window is
    open, otherwise refused.

    Black moves b2 to f4 without a ring before red sets r1 down on b2: black's first ring
    without space goes on f4, his second is refused (it would claim r1's)."""
    g = late_red()
    assert play(g, ev.release(40, "b2", "f4"), ev.release(41, "r1", "b2")) == []
    assert play(g, ev.ring(41.5, "black")) == []
    assert g.rings_on["f4"] == 1 and g.moves[-2].ring == "own"
    [v] = play(g, ev.ring(41.7, "black"))
    assert v.kind == "claim-after-own-move" and "b2" not in g.rings_on


# ---------------------------------------------------------------- the second ring


def test_the_second_ring_comes_after_the_holders_own_move_while_its_window_is_open() -> None:
    """The second ring (adjusted ruleset) comes after the holder's own move of that turn ("he
    starts his turn with his regular [move and ring], and next he may drop a second ring"),
    while that move's ring window is open; a second ring before his move is refused."""
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
    """Being late himself on that turn does not take the right away: his late move is his
    move."""
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


def test_a_new_two_ring_right_does_not_cancel_an_earlier_one_whose_window_is_open() -> None:
    """A new two-ring right does not cancel an earlier one whose move's ring window is still
    open (the opponent forfeited or passed without lifting a glass): each right is used after
    its own move, while that move's window is open.

    Red passes at 30 (black's first right), black moves b2 to f4 at 33 with his ring; red
    passes again at 34 without lifting a glass (black's second right): black drops the first
    right's ring while f4's window is open, then the second's after his next move."""
    g = black_holds_the_right()
    assert play(g, ev.release(33, "b2", "f4"), ev.ring(33.2, "black")) == []
    assert play(g, ev.pass_turn(34, "red")) == []
    assert g.turn == "black"
    assert play(g, ev.ring(34.5, "black", "d4")) == []  # the first right, after f4's move
    assert play(g, ev.release(36, "b3", "b4"), ev.ring(36.2, "black")) == []
    assert play(g, ev.ring(36.5, "black", "c4")) == []  # the second, after b4's move
    assert [(r["t"], r["space"]) for r in g.bonus_rings] == [(34.5, "d4"), (36.5, "c4")]
    assert g.rings_left["black"] == 25


# ---------------------------------------------------------------- a glass put back


def test_putback_takes_the_lift_back_no_move_is_made_and_the_window_it_closed_reopens() -> None:
    """A glass put back. A `putback` takes its lift back entirely: the ring windows that lift
    closed are open again, since no glass has moved."""
    g = opened(3)
    play(g, ev.release(30, "r1", "b2"))
    sand = g.sand("b2", 40)
    assert play(g, ev.lift(31, "b2"), ev.putback(32, "b2")) == []
    assert g.sand("b2", 40) == pytest.approx(sand) and g.glasses["b2"].space == "g3"
    assert g.turn == "black" and g.in_hand == {}
    assert play(g, ev.ring(32.5, "red")) == []
    assert g.rings_on["b2"] == 1


def test_a_putback_reopens_the_claim_window_its_lift_closed() -> None:
    """A glass put back. A `putback` takes its lift back entirely: the ring windows that lift
    closed are open again, since no glass has moved (and the right to claim with them)."""
    g = opened(3)
    play(g, ev.release(30, "r1", "b2"))
    assert play(g, ev.lift(31, "b2"), ev.putback(32, "b2")) == []
    assert play(g, ev.ring(32.5, "black")) == []  # black claims red's ring after all
    assert g.moves[-1].ring == "claimed" and g.rings_on["b2"] == 1


# ---------------------------------------------------------------- time tie-break


def tie_game(*periods: float) -> Game:
    """Level 2, no rings: red turns r1, r3, r2 at 3, 5, 7, black b3, b1, b2 at 4, 6, 8."""
    names = ("r1", "b3", "r3", "b1", "r2", "b2")
    g = game(2, periods=dict(zip(names, periods, strict=True)))
    to = ("a2", "b5", "f1", "e1", "c6", "g3")
    play(g, *(ev.release(3 + i, n, s) for i, (n, s) in enumerate(zip(names, to, strict=True))))
    return g


def test_tiebreak_two_glasses_within_1ms_run_out_at_the_same_instant_at_every_rank() -> None:
    """Time tie-break. Two glasses that ran out within 1 ms of each other count as running out
    at the same instant, at every rank.

    Last glasses 183/183; then red's r3 at 100 and black's b1 at 100.0005 (0.5 ms later: the
    same instant), so the glasses before them decide: red's r2 at 57 against black's b2 at 53."""
    g = tie_game(180, 179, 95, 94.0005, 50, 45)
    play(g, ev.end(9))
    assert g.outcome is not None
    assert (g.outcome.winner, g.outcome.reason) == ("red", "time-tiebreak")


def test_tiebreak_last_two_within_1ms_the_last_but_one_glass_that_ran_out_later_wins() -> None:
    """If the two last glasses did, the player whose last-but-one glass ran out later (by more
    than 1 ms) wins; if those also ran out within 1 ms of each other, the glasses before them
    decide in the same way, and so on."""
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
    """A glass never turned counts as having run out before any other."""
    g = game(2, periods={"b3": 179})
    play(g, ev.release(3, "r1", "a2"), ev.release(4, "b3", "b5"), ev.release(5, "r3", "f1"))
    play(g, ev.end(6))  # 183/183; then red's r3 (turned) against black's b1 (never turned)
    assert g.outcome is not None and g.outcome.winner == "red"


def test_issue_tiebreak_nothing_separates_the_players_is_a_tie_never_by_names() -> None:
    """If nothing separates the players, the game is a tie (`winner: "tie"`, `reason:
    "time-tiebreak"`); never decide by the glasses' names."""
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
    """Level 1 with equal rings: `winner: "tie"`, `reason: "tie"`."""
    g = game(1)
    play(g, ev.release(1, "r1", "a2"), ev.release(2, "b3", "a3"), ev.end(3))
    assert g.outcome is not None and (g.outcome.winner, g.outcome.reason) == ("tie", "tie")


# ---------------------------------------------------------------- the neutral timer's period


def test_the_neutral_timers_period_may_be_given_in_periods_under_timer15() -> None:
    """The neutral timer's period may be given in `periods` under the key `timer15`."""
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


# ---------------------------------------------------------------- every sentence has its test


def contract_sentences() -> list[str]:
    """The sentences of the contract's Tamsk "Edge cases", as written (bold marks and line
    breaks taken out)."""
    text = CONTRACT.read_text(encoding="utf-8")
    section = text.split("### Edge cases", 1)[1].split("\n## ", 1)[0]
    out = []
    for bullet in section.split("\n- ")[1:]:
        flat = " ".join(bullet.replace("**", "").split())
        out += re.split(r"(?<=\.)\s+(?=[A-Z])", flat)
    return out


def test_every_sentence_of_the_contracts_edge_cases_is_quoted_by_a_test_here() -> None:
    sentences = contract_sentences()
    assert len(sentences) >= 36
    module = sys.modules[__name__]
    docs = " ".join(
        " ".join((inspect.getdoc(f) or "").split())
        for name, f in inspect.getmembers(module, inspect.isfunction)
        if name.startswith("test_")
    )
    missing = [s for s in sentences if s not in docs]
    assert not missing, missing
