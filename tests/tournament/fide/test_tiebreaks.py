"""C.07 tie-breaks against values computed by hand, then against ``tiebreak-core`` (PyPI) on
random tournaments.

The Swiss case: six players, four rounds; 1-2 1-0, 3-4 1/2, 5 wins against 6 by forfeit;
1-3 1/2, 2-5 0-1, 4 takes a half-point bye, 6 the pairing-allocated bye; 1-5 1-0, 3-6 1-0,
2-4 1/2; 1-4 0-1, 5-3 1/2, 2 the pairing-allocated bye, 6 withdrawn. Final scores 1: 2.5,
2: 1.5, 3: 2.5, 4: 2.5, 5: 2.5, 6: 1.0. 6's last round is a requested bye in the last round
(category 5), so his opponents count him at 1.5 (16.3); 4's half-point bye is followed by
games (category 3). The values below are worked by hand in the comments.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.tournament.fide import tiebreaks as tb
from companion.tournament.fide.history import (
    Bye,
    Entrant,
    FideError,
    Game,
    History,
    Round,
    records,
)

A, B, C, D, E, F = 1, 2, 3, 4, 5, 6
SWISS = History(
    tuple(Entrant(i, n, rating=r, number=i) for i, n, r in
          [(A, "A", 2000), (B, "B", 1900), (C, "C", 1800), (D, "D", 1700), (E, "E", 1600),
           (F, "F", 0)]),
    (Round((Game(A, B, "1-0"), Game(C, D, "1/2"), Game(E, F, "+-"))),
     Round((Game(A, C, "1/2"), Game(B, E, "0-1")), (Bye(D, "half"), Bye(F, "pab"))),
     Round((Game(A, E, "1-0"), Game(C, F, "1-0"), Game(B, D, "1/2"))),
     Round((Game(A, D, "0-1"), Game(E, C, "1/2")), (Bye(B, "pab"), Bye(F, "absent")))),
    4)


def test_buchholz_sums_the_opponents_scores_8_1() -> None:
    # A: B 1.5 + C 2.5 + E 2.5 + D 2.5; B: A, E, D and his bye's dummy at his own 1.5;
    # F: dummies at his own 1.0 (forfeit loss, bye, withdrawal) and C 2.5
    v = tb.values(SWISS, "BH", edition="2024")
    assert v == {A: 9.0, B: 9.0, C: 9.0, D: 9.0, E: 9.0, F: 5.5}


def test_the_2026_dummy_is_capped_16_4() -> None:
    # D's half-point bye: dummy min(2.5, 0.5 x 4 rounds) = 2.0 -> 8.5; E's forfeit win:
    # dummy min(2.5, F's score as his opponents see it, 1.5) = 1.5 -> 8.0
    v = tb.values(SWISS, "BH", edition="2026")
    assert (v[D], v[E], v[A]) == (8.5, 8.0, 9.0)


def test_a_withdrawal_counts_as_a_draw_for_the_opponents_16_3() -> None:
    # C played F: F has 1.0 but counts 1.5 for C (his last-round absence is a draw)
    assert tb.values(SWISS, "BH")[C] == 2.5 + 2.5 + 1.5 + 2.5


def test_buchholz_cut_1_cuts_a_voluntary_unplayed_round_first_14_1_16_5() -> None:
    # A cuts his lowest (B 1.5); D cuts his half-point bye's dummy, not B's 1.5;
    # F cuts one of his voluntary rounds (1.0), keeping the bye's 1.0 and C's 2.5
    v = tb.values(SWISS, "BH-C1", edition="2024")
    assert (v[A], v[D], v[F]) == (7.5, 6.5, 4.5)


def test_median_buchholz_cuts_the_lowest_and_the_highest_14_3() -> None:
    v = tb.values(SWISS, "BH-M1", edition="2024")
    assert (v[A], v[D], v[F]) == (5.0, 4.0, 2.0)


def test_sonneborn_berger_9_1() -> None:
    # A: B 1.5 x 1 + C 2.5 x 1/2 + E 2.5 x 1 + D x 0 = 5.25
    # D (2024): C 2.5 x 1/2 + dummy 2.5 x 1/2 + B 1.5 x 1/2 + A 2.5 x 1 = 5.75
    # D (2026): the dummy capped at 2.0: 5.5; E (2026): forfeit dummy 1.5 x 1 + B 1.5 +
    # C 2.5 x 1/2 = 4.25
    assert tb.values(SWISS, "SB", edition="2024")[A] == 5.25
    assert tb.values(SWISS, "SB", edition="2024")[D] == 5.75
    v = tb.values(SWISS, "SB", edition="2026")
    assert (v[D], v[E], v[B], v[F]) == (5.5, 4.25, 2.75, 1.0)


def test_wins_with_or_without_playing_7_1_and_over_the_board_7_2() -> None:
    assert tb.values(SWISS, "WIN") == {A: 2, B: 1, C: 1, D: 1, E: 2, F: 1}
    assert tb.values(SWISS, "WON") == {A: 2, B: 0, C: 1, D: 1, E: 1, F: 0}


def test_games_played_with_black_7_3() -> None:
    # E's forfeit in round 1 is no game
    assert tb.values(SWISS, "BPG") == {A: 0, B: 1, C: 2, D: 3, E: 2, F: 1}


def test_progressive_score_7_5() -> None:
    assert tb.values(SWISS, "PS") == {A: 7.5, B: 2.0, C: 6.0, D: 5.5, E: 7.5, F: 3.0}


def test_average_rating_of_opponents_rounded_10_1() -> None:
    # C: D 1700, A 2000, E 1600 (F unrated, left out): 5300 / 3 = 1766.7 -> 1767
    v = tb.values(SWISS, "ARO")
    assert (v[A], v[C], v[E]) == (1750, 1767, 1900)
    assert tb.values(SWISS, "ARO", unrated=1000)[C] == (1700 + 2000 + 1000 + 1600 + 2) // 4


ROUND_ROBIN = History(
    tuple(Entrant(i, f"P{i}", 2000 - 10 * i, number=i) for i in range(1, 5)),
    (Round((Game(1, 4, "1-0"), Game(2, 3, "1/2"))),
     Round((Game(4, 3, "0-1"), Game(1, 2, "1/2"))),
     Round((Game(2, 4, "+-"), Game(3, 1, "0-1")))),
    3)


def test_koya_counts_points_against_the_upper_half_9_2() -> None:
    # scores 2.5, 2, 1.5, 0; the limit is half of 3: 1: 1/2 (2) + 1 (3); 2: 1/2 + 1/2;
    # 3: 1/2 (2) + 0 (1); 4: nothing against them
    assert tb.values(ROUND_ROBIN, "KS", round_robin=True) == {1: 1.5, 2: 1.0, 3: 0.5, 4: 0.0}


def test_a_forfeit_is_a_game_in_a_round_robin_15_2() -> None:
    # 2's forfeit win over 4 counts as a game against 4 (0 points) in SB
    v = tb.values(ROUND_ROBIN, "SB", round_robin=True)
    assert v == {1: 2.5, 2: 2.0, 3: 1.0, 4: 0.0}


def test_direct_encounter_when_all_tied_players_met_6_2() -> None:
    h = History(tuple(Entrant(i, f"P{i}", number=i) for i in range(1, 5)),
                (Round((Game(1, 2, "1-0"), Game(3, 4, "1-0"))),
                 Round((Game(2, 3, "1-0"), Game(4, 1, "1-0"))),
                 Round((Game(3, 1, "1-0"), Game(2, 4, "0-1")))), 3)
    # scores 1: 1, 2: 1, 3: 2, 4: 2; 3 and 4 met (3 won): 3 first; 1 and 2 met (1 won)
    rows = tb.standings(h, ["DE"])
    assert [(r.player, r.rank) for r in rows] == [(3, 1), (4, 2), (1, 3), (2, 4)]


def test_direct_encounter_when_not_all_met_6_3() -> None:
    # 1, 2, 3, 4 end on 3 points; among them 1 beat 2, 3 and 4, 2-3 drew, 4 met neither 2
    # nor 3. 1 has 3 and the others at most 1.5, 1.5 and 2 whatever their missing games
    # would have given: 1 ranks first. Among 2, 3, 4 again: nobody is sure to be ahead.
    g = [["1-2 1-0", "3-5 1-0", "4-6 1-0", "7-8 1-0"],
         ["1-3 1-0", "2-5 1-0", "4-7 1-0", "6-8 0-1"],
         ["1-4 1-0", "2-3 1/2", "5-6 1/2", "7-8 1/2"],
         ["1-5 0-1", "2-7 1-0", "3-8 1-0", "4-6 1/2"],
         ["1-6 0-1", "2-8 1/2", "3-7 1/2", "4-5 1/2"]]
    rounds = tuple(Round(tuple(Game(int(x.split()[0].split("-")[0]),
                                    int(x.split()[0].split("-")[1]), x.split()[1])
                               for x in r)) for r in g)
    h = History(tuple(Entrant(i, f"P{i}", number=i) for i in range(1, 9)), rounds, 5)
    rows = tb.standings(h, ["DE"])
    assert [(r.player, r.rank, r.points) for r in rows[:4]] == [
        (1, 1, 3.0), (2, 2, 3.0), (3, 2, 3.0), (4, 2, 3.0)]


def test_tie_breaks_apply_in_order_to_those_still_tied_4_2() -> None:
    rows = tb.standings(SWISS, ["BH", "SB"], edition="2026")
    assert [(r.player, r.rank) for r in rows] == [(A, 1), (C, 1), (D, 3), (E, 4), (B, 5),
                                                  (F, 6)]
    assert rows[0].values == (9.0, 5.25)


def test_each_games_own_columns_as_tie_breaks() -> None:
    rows = tb.standings(SWISS, ["game:rings"], extra={"game:rings": {A: 3, C: 7}})
    assert [r.player for r in rows][:2] == [C, A]
    with pytest.raises(FideError, match="no values given for the tie-break game:time"):
        tb.standings(SWISS, ["game:time"])


def test_unknown_or_repeated_codes_are_refused() -> None:
    with pytest.raises(FideError, match="unknown tie-break XX"):
        tb.check_codes(["XX"])
    with pytest.raises(FideError, match="listed twice"):
        tb.check_codes(["BH", "BH"])


def test_every_tie_break_has_a_title_unit_and_legend() -> None:
    for code, t in tb.TIEBREAKS.items():
        assert t.code == code and t.title and t.unit and code in tb.CODES
        assert "C.07" in t.legend


# -------------------------------------------------------- a second opinion: tiebreak-core

tc = pytest.importorskip("tiebreak_core")
_KIND = {"U": "pairing_bye", "F": "pairing_bye", "+": "forfeit_win", "-": "forfeit_loss",
         "H": "requested_bye", "Z": "requested_bye"}
_NAME = {"BH": "buchholz", "BH-C1": "buchholz_cut1", "BH-M1": "median_buchholz",
         "SB": "sonneborn_berger", "WIN": "wins", "WON": "won", "BPG": "games_black",
         "PS": "progressive", "ARO": "aro"}


def _theirs(h: History, code: str, edition: str) -> dict[int, float]:
    recs = records(h)
    data = {}
    for p, r in recs.items():
        games = []
        for s in r.slots:
            colour = {"w": "white", "b": "black"}.get(s.colour, "white")
            if s.played:
                assert s.opponent is not None
                games.append(tc.GameRecord(s.opponent, recs[s.opponent].entrant.rating,
                                           s.points, colour, s.round, kind="played"))
            else:
                kind = _KIND[s.code]
                opp = s.opponent if kind.startswith("forfeit") and s.opponent else -1
                rating = recs[opp].entrant.rating if opp != -1 else 0
                games.append(tc.GameRecord(opp, rating, s.points, colour, s.round, kind=kind))
        data[p] = tc.PlayerTiebreakData(p, r.entrant.rating, r.score, games)
    return {p: tc.calculate_strict(data[p], data, _NAME[code], total_rounds=len(h.rounds),
                                   ruleset="fide-" + edition) for p in data}


@st.composite
def swiss_histories(draw: st.DrawFn) -> History:
    n = draw(st.integers(4, 12))
    rounds = draw(st.integers(3, 6))  # tiebreak-core never cuts the last value (its own guard)
    players = tuple(Entrant(i, f"P{i}", draw(st.sampled_from([0, 1500, 1800, 2100])),
                            number=i) for i in range(1, n + 1))
    out = []
    for _ in range(rounds):
        order = draw(st.permutations(range(1, n + 1)))
        away = draw(st.integers(0, 2))
        byes = [Bye(p, draw(st.sampled_from(["half", "zero", "absent", "full"])))
                for p in order[:away]]
        rest = list(order[away:])
        if len(rest) % 2:
            byes.append(Bye(rest.pop(), "pab"))
        games = tuple(Game(rest[i], rest[i + 1],
                           draw(st.sampled_from(["1-0", "0-1", "1/2", "+-", "-+", "--"])))
                      for i in range(0, len(rest), 2))
        out.append(Round(games, tuple(byes)))
    return History(players, tuple(out), rounds)


@settings(max_examples=int(os.environ.get("FIDE_EXAMPLES", "0")) or 40, deadline=None,
          derandomize=not os.environ.get("FIDE_EXAMPLES"),
          suppress_health_check=[HealthCheck.too_slow])
@given(swiss_histories(), st.sampled_from(["2024", "2026"]))
def test_the_same_values_as_tiebreak_core(h: History, edition: str) -> None:
    for code in _NAME:
        mine = tb.values(h, code, edition=edition)  # type: ignore[arg-type]
        theirs = _theirs(h, code, edition)
        assert {p: round(v, 6) for p, v in mine.items()} == {
            p: round(v, 6) for p, v in theirs.items()}, code
