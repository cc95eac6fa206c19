"""The FIDE (Dutch) system through the adapter: fixed histories with their expected pairings.

Expected pairings come from the rules themselves, worked by hand here, and from bbpPairings'
own fixtures for the 2026 criteria C5 and C9 (its tests ``dutch_2025_C5``/``dutch_2025_C9``,
kept as they are in ``data/``).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from companion.tournament.fide import trf
from companion.tournament.fide.dutch import NoLegalPairing, pair_dutch
from companion.tournament.fide.history import Bye, Entrant, History, Scoring
from tests.tournament.fide.helpers import history, pairs, rnd

DATA = Path(__file__).parent / "data"

BBP_C5 = (DATA / "bbp_dutch_2025_C5.trf").read_text(encoding="utf-8")

BBP_C9 = (DATA / "bbp_dutch_2025_C9.trf").read_text(encoding="utf-8")


def test_round_one_top_half_against_bottom_half_odd_tpn_with_the_initial_colour() -> None:
    # C.04.3: one homogeneous bracket, S1 = 1-4 against S2 = 5-8 in order; the last gets the
    # bye; 5.2.5 gives the initial colour to odd TPNs
    p = pair_dutch(history(9))
    assert pairs(p) == [(1, 5), (6, 2), (3, 7), (8, 4)]
    assert p.bye == 9


def test_round_one_with_black_first() -> None:
    p = pair_dutch(replace(history(8), first_colour="black"))
    assert pairs(p) == [(5, 1), (2, 6), (7, 3), (4, 8)]


def test_round_two_a_rematch_moves_both_players_down_c1() -> None:
    # 3 and 6 drew in round 1 and cannot meet again: both float to the 0-point bracket,
    # where S1 (3, 6) meets S2 (2, 4) in order; colours by 5.2: 5-1 (5.2.4: 1 ranks higher
    # and gets his black), 2-3 (both preferences), 6-4 (5.2.4: 6 has more points)
    h = history(6, rnd("1-4 1-0", "5-2 1-0", "3-6 1/2"))
    p = pair_dutch(h)
    assert pairs(p) == [(5, 1), (2, 3), (6, 4)]
    assert p.bye is None


def test_bbp_fixture_c5_the_bye_to_the_lowest_score() -> None:
    t = trf.read(BBP_C5)
    p = pair_dutch(t.history, t.requested)
    assert pairs(p) == [(1, 5), (3, 2)] and p.bye == 6


def test_bbp_fixture_c9_the_bye_to_the_fewest_unplayed_games() -> None:
    t = trf.read(BBP_C9)
    p = pair_dutch(t.history, t.requested)
    assert sorted(pairs(p)) == [(2, 1), (3, 5)] and p.bye == 4


def test_requested_byes_and_absences_are_not_paired_c0402_3_2_3_3() -> None:
    h = history(7, rnd("1-4 1-0", "5-2 1-0", "3-6 1/2", byes=[(7, "pab")]))
    p = pair_dutch(h, [Bye(1, "half"), Bye(2, "absent"), Bye(3, "zero")])
    paired = {x for g in p.games for x in (g.white, g.black)}
    assert paired == {4, 5, 6, 7} and p.bye is None


def test_a_requested_bye_does_not_bar_the_pairing_allocated_bye_c0401_4() -> None:
    # fault (2) of the library as it comes: 5 asked for a zero-point bye in round 1, is alone
    # at the bottom in round 2 and so gets the pairing-allocated bye (C5)
    h = history(5, rnd("1-2 1/2", "3-4 1/2", byes=[(5, "zero")]))
    assert pair_dutch(h).bye == 5


def test_a_zero_point_bye_is_not_a_downfloat() -> None:
    # fault (3): the float history handed over follows C.04.3 1.4.3
    from companion.tournament.fide.criteria import Context
    from companion.tournament.fide.dutch import _engine_players

    h = history(4, rnd("1-2 1-0", byes=[(3, "zero"), (4, "half")]))
    rows = {r["id"]: r for r in _engine_players(Context.of(h), [1, 2, 3, 4])}
    assert rows[3]["float_history"] == ["none"] and rows[4]["float_history"] == ["down"]
    assert rows[3]["bye_count"] == 0 and rows[4]["bye_count"] == 0


def test_colours_go_to_the_higher_score_not_the_lower_tpn_5_2_4() -> None:
    # fault (1): in round 3, 1 (1 point) meets 5 (1.5 points); both played white then black
    # and want white: 5.2.4 grants the higher ranked player's preference, and 5 ranks higher
    # by score (C.04.3 1.2) although 1 has the smaller TPN (the library gave white to 1)
    h = history(6, rnd("1-4 1-0", "5-2 1/2", "3-6 1/2"), rnd("2-1 1-0", "6-5 0-1", "4-3 1/2"))
    p = pair_dutch(h)
    assert (5, 1) in pairs(p)


def test_no_legal_pairing_is_an_error_never_byes_for_all_c4() -> None:
    # fault (4): two players who have played each other cannot be paired again
    h = history(2, rnd("1-2 1-0"), total=3)
    with pytest.raises(NoLegalPairing, match="cannot be paired"):
        pair_dutch(h)


def test_no_second_bye_for_the_only_player_left_c2() -> None:
    h = history(3, rnd("1-2 1-0", byes=[(3, "pab")]), total=3)
    with pytest.raises(NoLegalPairing, match="C2"):
        pair_dutch(h, [Bye(1, "absent"), Bye(2, "absent")])


def test_late_entries_are_paired_from_their_round() -> None:
    es = (Entrant(1, "A", 2000, number=1), Entrant(2, "B", 1900, number=2),
          Entrant(3, "C", 1800, number=3, late_from=2), Entrant(4, "D", 1700, number=4))
    h = History(es, (), 4, Scoring(late=0.5))
    r1 = pair_dutch(h)
    assert pairs(r1) == [(1, 2)] and r1.bye == 4
    from companion.tournament.fide.history import Game, Round

    h2 = replace(h, rounds=(Round((Game(1, 2, "1-0"),), (Bye(4, "pab"),)),))
    r2 = pair_dutch(h2)
    assert {x for g in r2.games for x in (g.white, g.black)} == {1, 2, 3, 4}


def test_results_must_be_in_before_the_next_round() -> None:
    from companion.tournament.fide.history import FideError, Game, Round

    h = history(4, Round((Game(1, 3, None), Game(2, 4, "1-0"))))
    with pytest.raises(FideError, match="has no result"):
        pair_dutch(h)


def test_boards_by_score_then_sum_then_tpn_c0402_3_6() -> None:
    h = history(6, rnd("1-4 1-0", "5-2 1-0", "3-6 1/2"))
    p = pair_dutch(h)
    # board 1: the pair with 1 (1 point); boards 2 and 3 both 1/2 + 0: 3 before 6
    assert pairs(p)[0] == (5, 1) and pairs(p)[1] == (2, 3)
