"""The criteria checker on manual pairings: each criterion named, by number and in words."""

from __future__ import annotations

from companion.tournament.fide.criteria import CRITERIA, check_round, warnings
from companion.tournament.fide.dutch import pair_dutch
from companion.tournament.fide.history import Bye, Game, Pairing
from tests.tournament.fide.helpers import history, rnd


def manual(round_no: int, *games: tuple[int, int], bye: int | None = None,
           requested: tuple[Bye, ...] = ()) -> Pairing:
    return Pairing(round_no, tuple(Game(w, b) for w, b in games), bye, requested, "manual")


def codes(found: list) -> list[str]:  # type: ignore[type-arg]
    return [b.code for b in found if not b.fact]


def test_c1_a_rematch_is_named() -> None:
    h = history(4, rnd("1-2 1-0", "3-4 1-0"))
    found = check_round(h, manual(2, (2, 1), (4, 3)))
    assert codes(found)[:2] == ["C1", "C1"]
    assert str(found[0].text) == "C1: P2 (2) and P1 (1) have already played each other"
    assert found[0].absolute


def test_c1_a_forfeit_is_no_rematch() -> None:
    h = history(4, rnd("1-2 +-", "3-4 -+"))
    assert "C1" not in codes(check_round(h, manual(2, (2, 1), (4, 3))))


def test_c2_a_second_pairing_allocated_bye() -> None:
    h = history(3, rnd("1-2 1-0", byes=[(3, "pab")]))
    found = check_round(h, manual(2, (1, 2), bye=3))
    assert "C2" in codes(found)


def test_c3_two_players_who_must_have_the_same_colour() -> None:
    h = history(6, rnd("1-4 1-0", "2-5 1-0", "3-6 1-0"), rnd("1-2 1/2", "5-4 1/2", "3-6 1/2"),
                total=9)
    # 1 and 3 had white twice: both must have black
    found = check_round(h, manual(3, (1, 3), (2, 4), (5, 6)))
    assert "C3" in codes(found)
    assert "both must have black" in str(next(b.text for b in found if b.code == "C3"))


def test_c3_does_not_bind_topscorers_in_the_last_round() -> None:
    h = history(6, rnd("1-4 1-0", "2-5 1-0", "3-6 1-0"), rnd("1-2 1-0", "5-4 1/2", "3-6 1-0"),
                total=3)
    assert "C3" not in codes(check_round(h, manual(3, (1, 3), (2, 4), (5, 6))))


def test_c4_a_player_left_out() -> None:
    found = check_round(history(4), manual(1, (1, 3)))
    assert codes(found) == ["C4", "C4"]


def test_the_round_a_player_paired_twice_or_while_absent() -> None:
    found = check_round(history(4), manual(1, (1, 3), (1, 2), requested=(Bye(4, "absent"),)))
    assert "round" in codes(found)
    found = check_round(history(4), manual(1, (1, 3), (2, 4), requested=(Bye(4, "absent"),)))
    assert "has a bye or is absent" in str(found[0].text)


def test_c5_the_bye_to_a_higher_score_than_needed() -> None:
    h = history(5, rnd("1-2 1-0", "3-4 1-0", byes=[(5, "zero")]))
    # 1 has a point; 2, 4 and 5 have none and could have the bye
    found = check_round(h, manual(2, (3, 2), (4, 5), bye=1))
    assert "C5" in codes(found)


def test_c6_the_top_scoregroup_floats_more_players_than_needed() -> None:
    h = history(6, rnd("1-4 1-0", "2-5 1-0", "3-6 0-1"))
    # 1, 2 and 6 lead with a point: one of them must float, here all three do
    found = check_round(h, manual(2, (1, 5), (2, 3), (6, 4)))
    assert "C6" in codes(found)


def test_5_2_colours_against_the_rules() -> None:
    h = history(4, rnd("1-3 1-0", "2-4 1-0"))
    # 1 had white: he should have black against 2, who had white too... 5.2.4: 1 ranks higher
    found = check_round(h, manual(2, (1, 2), (3, 4)))
    assert "5.2" in codes(found)


def test_warnings_name_facts_only_where_the_engine_does_better() -> None:
    h = history(4, rnd("1-3 1-0", "2-4 1-0"))
    engine = pair_dutch(h)
    assert warnings(h, engine, engine) == []
    bad = manual(2, (1, 2), (3, 4))
    found = warnings(h, bad, engine)
    # the colours break 5.2; one player misses his preference, as in the engine's pairing,
    # so C12 is no warning
    assert {b.code for b in found} == {"5.2"}


def test_the_dutch_pairing_breaks_nothing_it_can_state() -> None:
    h = history(8, rnd("1-5 1-0", "6-2 1/2", "3-7 0-1", "8-4 +-"))
    assert codes(check_round(h, pair_dutch(h))) == []


def test_every_criterion_has_words() -> None:
    assert {"round", "C1", "C2", "C3", "C4", "C5", "C6", "5.2", "C12", "C14"} <= set(CRITERIA)
