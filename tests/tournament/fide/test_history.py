"""What the rules read from a history: initial order, meetings, colours, floats, the bye bar."""

from __future__ import annotations

import pytest

from companion.tournament.fide.history import (
    Entrant,
    FideError,
    History,
    Scoring,
    floats,
    initial_order,
    records,
    start_numbers,
)
from tests.tournament.fide.helpers import history, rnd


def test_initial_order_by_rating_then_title_then_name_c0402_2_2() -> None:
    es = [Entrant(1, "Zeman", 2000), Entrant(2, "Adam", 2100),
          Entrant(3, "Černý", 2000, title="FM"), Entrant(4, "Bureš", 2000, title="WGM"),
          Entrant(5, "Ábel", 2000), Entrant(6, "Nový", 0)]
    assert [e.id for e in initial_order(es)] == [2, 4, 3, 5, 1, 6]
    assert start_numbers(es) == {2: 1, 4: 2, 3: 3, 5: 4, 1: 5, 6: 6}


def test_the_unrated_take_the_arbiters_estimate_c0402_2_1() -> None:
    es = [Entrant(1, "A", 1500), Entrant(2, "B", 0)]
    assert [e.id for e in initial_order(es, unrated=1600)] == [2, 1]


def test_a_forfeit_is_not_a_meeting_nor_a_colour_c0402_3_4_3_5() -> None:
    recs = records(history(4, rnd("1-2 +-", "3-4 1-0")))
    assert recs[1].opponents() == set() and recs[1].colours() == []
    assert recs[3].opponents() == {4} and recs[3].colours() == ["w"]


def test_downfloat_for_the_higher_ranked_of_two_scores_c0403_1_4_2() -> None:
    h = history(4, rnd("1-3 1-0", "2-4 0-1"), rnd("1-4 1-0", "3-2 1/2"))
    fl = floats(h)
    assert fl[1] == ["none", "none"]  # 1 and 4 both had a point
    assert fl[3] == ["none", "none"]


def test_floats_between_different_scores_c0403_1_4_2() -> None:
    h = history(4, rnd("1-3 1-0", "2-4 1-0"), rnd("1-4 1-0", "2-3 1-0"))
    fl = floats(h)
    assert fl[1][1] == "down" and fl[4][1] == "up"
    assert fl[2][1] == "down" and fl[3][1] == "up"


def test_unplayed_rounds_float_only_when_they_score_above_a_loss_c0403_1_4_3() -> None:
    h = history(6, rnd("1-2 +-", "3-4 --", byes=[(5, "half"), (6, "zero")]))
    fl = floats(h)
    assert fl[1] == ["down"]  # forfeit win
    assert fl[2] == ["none"]  # forfeit loss
    assert fl[3] == fl[4] == ["none"]  # double forfeit
    assert fl[5] == ["down"]  # half-point bye
    assert fl[6] == ["none"]  # zero-point bye


def test_the_pairing_allocated_bye_is_a_downfloat_c0403_1_4_3() -> None:
    h = history(3, rnd("1-2 1-0", byes=[(3, "pab")]), scoring=Scoring(pab=0.0))
    assert floats(h)[3] == ["down"]


def test_who_may_not_get_the_bye_again_c0401_4() -> None:
    h = history(8, rnd("1-2 +-", "3-4 1-0", byes=[(5, "pab"), (6, "full"), (7, "half"),
                                                  (8, "zero")]))
    barred = {p for p, r in records(h).items() if r.bye_barred(h.scoring)}
    assert barred == {1, 5, 6}


def test_late_entry_missed_rounds_get_the_tournaments_points_c0402_2_4() -> None:
    players = (Entrant(1, "A", 2000), Entrant(2, "B", 1900), Entrant(3, "C", 1800, late_from=2))
    h = History(players, (rnd("1-2 1-0"),), 5, Scoring(late=0.5))
    recs = records(h)
    assert recs[3].slots[0].code == "H" and recs[3].score == 0.5


def test_a_player_twice_in_a_round_is_refused() -> None:
    with pytest.raises(FideError, match="round 1: player 1 is in it twice"):
        records(history(4, rnd("1-2 1-0", "1-3 1-0")))
