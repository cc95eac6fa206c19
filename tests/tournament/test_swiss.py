"""Swiss pairing, rule by rule (docs/tournament.md), then invariants over random tournaments."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.tournament.swiss import (
    FIRST,
    SECOND,
    PairingError,
    SwissPlayer,
    _Search,
    first_mover,
    preference,
    rank,
    swiss_round,
)


def players(n: int, **kw: object) -> list[SwissPlayer]:
    return [SwissPlayer(i, 0.0, rating=2000 - i) for i in range(1, n + 1)]


def test_round_one_pairs_the_top_half_against_the_bottom_half() -> None:
    assert swiss_round(players(8)) == [(1, 5), (6, 2), (3, 7), (8, 4)]


def test_round_one_alternates_who_moves_first_from_board_to_board() -> None:
    firsts = [a for a, _ in swiss_round(players(6))]
    assert firsts == [1, 5, 3]


def test_the_bye_goes_to_the_lowest_ranked_player_without_one() -> None:
    field = players(5)
    assert swiss_round(field)[-1] == (5, None)
    field[4] = SwissPlayer(5, 1.0, rating=1995, had_bye=True)
    field[3] = SwissPlayer(4, 0.0, rating=1996)
    assert swiss_round(field)[-1] == (4, None)


def test_everyone_has_had_a_bye_then_the_lowest_ranked_sits_out_again() -> None:
    field = [SwissPlayer(i, 1.0, rating=100 - i, had_bye=True) for i in range(1, 4)]
    assert swiss_round(field)[-1] == (3, None)


def test_no_rematch_even_when_it_breaks_the_score_group() -> None:
    a = SwissPlayer(1, 1.0, opponents=frozenset({2}), colours=(FIRST,))
    b = SwissPlayer(2, 1.0, opponents=frozenset({1}), colours=(SECOND,))
    c = SwissPlayer(3, 0.0, opponents=frozenset({4}), colours=(FIRST,))
    d = SwissPlayer(4, 0.0, opponents=frozenset({3}), colours=(SECOND,))
    pairs = swiss_round([a, b, c, d])
    assert {frozenset(p) for p in pairs} == {frozenset({1, 3}), frozenset({2, 4})} or {
        frozenset(p) for p in pairs} == {frozenset({1, 4}), frozenset({2, 3})}


def test_players_with_the_same_score_meet_first() -> None:
    field = [SwissPlayer(1, 2.0), SwissPlayer(2, 2.0), SwissPlayer(3, 1.0), SwissPlayer(4, 1.0)]
    assert {frozenset(p) for p in swiss_round(field)} == {frozenset({1, 2}), frozenset({3, 4})}


def test_when_every_pairing_is_a_rematch_the_round_is_refused() -> None:
    a = SwissPlayer(1, 1.0, opponents=frozenset({2}))
    b = SwissPlayer(2, 0.0, opponents=frozenset({1}))
    try:
        swiss_round([a, b])
    except PairingError as exc:
        assert "meet again" in str(exc)
    else:
        raise AssertionError("a rematch was paired")


def test_preferences_absolute_strong_and_mild() -> None:
    assert preference(SwissPlayer(1, 0, colours=(FIRST, FIRST))).strength == 3
    assert preference(SwissPlayer(1, 0, colours=(FIRST, SECOND, FIRST))).colour == SECOND
    assert preference(SwissPlayer(1, 0, colours=(SECOND, FIRST))) .strength == 1
    assert preference(SwissPlayer(1, 0, colours=(SECOND, FIRST))).colour == SECOND


def test_different_preferences_are_both_met() -> None:
    a = SwissPlayer(1, 1, colours=(FIRST,))
    b = SwissPlayer(2, 1, colours=(SECOND,))
    assert first_mover(a, b, board=1) == (b, a)


def test_the_stronger_preference_wins_then_the_higher_ranked() -> None:
    a = SwissPlayer(1, 1, colours=(SECOND, FIRST))  # mild: first
    b = SwissPlayer(2, 1, colours=(SECOND,))  # strong: first
    assert first_mover(a, b, board=1)[0] is b
    c = SwissPlayer(3, 1, colours=(SECOND,))
    assert first_mover(b, c, board=1)[0] is b


def play(
    n: int, rounds: int, outcomes: list[int], fields: list[list[SwissPlayer]] | None = None
) -> list[list[tuple[int, int | None]]]:
    """A whole Swiss tournament with results drawn from ``outcomes`` (0 first wins, 1 tie,
    2 second wins); ``fields`` collects the players as each round was paired."""
    score = {i: 0.0 for i in range(1, n + 1)}
    opp: dict[int, set[int]] = {i: set() for i in score}
    col: dict[int, list[str]] = {i: [] for i in score}
    bye: set[int] = set()
    history = []
    k = 0
    for _ in range(rounds):
        field = [SwissPlayer(i, score[i], 3000 - i, frozenset(opp[i]), tuple(col[i]), i in bye)
                 for i in score]
        if fields is not None:
            fields.append(field)
        pairs = swiss_round(field)
        history.append(pairs)
        for a, b in pairs:
            if b is None:
                bye.add(a)
                score[a] += 1
                continue
            o = outcomes[k % len(outcomes)]
            k += 1
            score[a] += (1.0, 0.5, 0.0)[o]
            score[b] += (0.0, 0.5, 1.0)[o]
            opp[a].add(b)
            opp[b].add(a)
            col[a].append(FIRST)
            col[b].append(SECOND)
    return history


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 14), outcomes=st.lists(st.integers(0, 2), min_size=1, max_size=40),
       data=st.data())
def test_random_tournaments_never_pair_a_rematch_nor_two_byes_to_one_player(
    n: int, outcomes: list[int], data: st.DataObject
) -> None:
    rounds = data.draw(st.integers(1, max(1, min(n - 1, 5))))
    try:
        history = play(n, rounds, outcomes)
    except PairingError:
        return  # refused rather than pairing a rematch: allowed
    met: set[frozenset[int]] = set()
    byes: list[int] = []
    for pairs in history:
        seen = [x for a, b in pairs for x in (a, b) if x is not None]
        assert sorted(seen) == list(range(1, n + 1))
        for a, b in pairs:
            if b is None:
                byes.append(a)
            else:
                assert frozenset((a, b)) not in met
                met.add(frozenset((a, b)))
    assert len(byes) == len(set(byes))


@settings(max_examples=40, deadline=None)
@given(n=st.sampled_from([6, 8, 10, 12]), outcomes=st.lists(st.integers(0, 2), min_size=1,
                                                            max_size=30))
def test_first_moves_stay_balanced_within_two_unless_no_other_pairing_exists(
    n: int, outcomes: list[int]
) -> None:
    """Rule 6: two players who must both move first (or both second) meet only when every
    other pairing of the round is a rematch; only then may a difference reach 3."""
    fields: list[list[SwissPlayer]] = []
    history = play(n, n // 2, outcomes, fields)  # a Swiss has fewer rounds than a round robin
    firsts = {i: 0 for i in range(1, n + 1)}
    seconds = dict(firsts)
    for field, pairs in zip(fields, history, strict=True):
        for a, b in pairs:
            if b is None:
                continue  # a bye is no move at all
            firsts[a] += 1
            seconds[b] += 1
        if any(abs(firsts[i] - seconds[i]) > 2 for i in firsts):
            # forced: no clash-free pairing of this round without a rematch exists
            bye = {a for a, b in pairs if b is None}
            assert not _Search(strict=True).run([p for p in rank(field) if p.number not in bye])
            return
