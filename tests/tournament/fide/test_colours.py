"""Colour preferences and allocation: FIDE C.04.3 (2026) 1.6, 1.7 and 5.2, one rule a test."""

from __future__ import annotations

from companion.tournament.fide.colours import (
    ABSOLUTE,
    MILD,
    NONE,
    STRONG,
    Side,
    allocate,
    difference,
    preference,
)


def test_colour_difference_is_whites_minus_blacks_1_6() -> None:
    assert difference("wwb") == 1
    assert difference("bbwb") == -2


def test_no_preference_before_the_first_game_1_7_4() -> None:
    assert preference("").strength == NONE


def test_absolute_preference_when_the_difference_passes_one_1_7_1() -> None:
    assert (preference("wbww").colour, preference("wbww").strength) == ("b", ABSOLUTE)
    assert (preference("bwbb").colour, preference("bwbb").strength) == ("w", ABSOLUTE)


def test_absolute_preference_after_the_same_colour_twice_1_7_1() -> None:
    assert (preference("bww").colour, preference("bww").strength) == ("b", ABSOLUTE)


def test_strong_preference_evens_a_difference_of_one_1_7_2() -> None:
    assert (preference("wbw").colour, preference("wbw").strength) == ("b", STRONG)
    assert (preference("b").colour, preference("b").strength) == ("w", STRONG)


def test_mild_preference_alternates_when_even_1_7_3() -> None:
    assert (preference("wb").colour, preference("wb").strength) == ("w", MILD)


def side(pid: int, colours: str, score: float = 1.0, number: int | None = None) -> Side:
    return Side(pid, tuple(colours), score, number or pid)


def test_both_preferences_granted_5_2_1() -> None:
    assert allocate(side(1, "w"), side(2, "b")) == (2, 1, 1)


def test_a_player_without_games_takes_the_other_colour_5_2_1() -> None:
    assert allocate(side(1, ""), side(2, "wb")) == (2, 1, 1)


def test_the_stronger_preference_wins_5_2_2() -> None:
    # 1 strong for black (wbw), 2 mild for black (bw): 1 gets black
    assert allocate(side(1, "wbw"), side(2, "bw")) == (2, 1, 2)


def test_two_absolute_preferences_the_wider_difference_wins_5_2_2() -> None:
    # topscorers in the last round: 1 at +2, 2 at +1 with two whites in a row
    assert allocate(side(1, "wbww"), side(2, "bww")) == (2, 1, 2)


def test_colours_alternate_to_the_last_round_they_differed_5_2_3() -> None:
    # same mild preference (black); their last two games had the same colours, the one
    # before differed (1 white, 2 black): now 1 black, 2 white
    assert allocate(side(1, "bwbw"), side(2, "wbbw")) == (2, 1, 3)


def test_histories_are_compared_from_their_last_games_5_2_3() -> None:
    # C.04.2 3.4: a player with fewer games played is compared from his last game back
    # (both want black; their last two games alike, then 1 has no more: 5.2.4 decides)
    assert allocate(side(1, "bw"), side(2, "wbbw")) == (2, 1, 4)


def test_the_higher_ranked_preference_by_score_first_5_2_4() -> None:
    # same history; 2 has more points, so he ranks higher although his TPN is larger
    assert allocate(side(1, "wb", score=1.0), side(2, "wb", score=2.0)) == (2, 1, 4)
    assert allocate(side(1, "wb", score=2.0), side(2, "wb", score=2.0)) == (1, 2, 4)


def test_odd_tpn_of_the_higher_ranked_gets_the_initial_colour_5_2_5() -> None:
    assert allocate(side(1, ""), side(5, "")) == (1, 5, 5)
    assert allocate(side(2, ""), side(6, "")) == (6, 2, 5)
    assert allocate(side(1, ""), side(5, ""), "black") == (5, 1, 5)
