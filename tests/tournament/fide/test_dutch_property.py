"""Random tournaments paired round by round with the Dutch adapter, every round judged.

6-60 players (some unrated, some entering late), draws, forfeits (one-sided and double),
requested half and zero-point byes, withdrawals, a pairing-allocated bye worth 1, 1/2 or 0.
Every round the adapter returns is checked by :mod:`companion.tournament.fide.criteria`: no
absolute criterion broken (the round's shape, C1, C2, C3, C4), the bye to the lowest score
possible (C5), no more downfloaters from the top scoregroup than needed (C6), colours as
C.04.3 5.2 allocates them. When the adapter says no legal pairing exists, a brute-force
search over small fields confirms it.

The suite runs a small budget; ``FIDE_EXAMPLES=200`` (and more time) runs a large one.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.tournament.fide.criteria import Context, check_round
from companion.tournament.fide.dutch import NoLegalPairing, pair_dutch
from companion.tournament.fide.history import (
    Bye,
    Entrant,
    Game,
    History,
    Round,
    Scoring,
    available,
    numbered,
)

EXAMPLES = int(os.environ.get("FIDE_EXAMPLES", "0"))
RESULTS = ["1-0"] * 8 + ["0-1"] * 6 + ["1/2"] * 5 + ["+-", "-+", "--"]


def _brute_force_possible(history: History, requested: list[Bye]) -> bool:
    ctx = Context.of(history)
    players = available(history, requested)

    def match(rest: list[int]) -> bool:
        if not rest:
            return True
        a = rest[0]
        return any(ctx.compatible(a, b) and match([x for x in rest[1:] if x != b])
                   for b in rest[1:])

    if len(players) % 2 == 0:
        return match(players)
    return any(ctx.bye_ok(p) and match([x for x in players if x != p]) for p in players)


def _play(data: st.DataObject, n_min: int, n_max: int) -> None:
    n = data.draw(st.integers(n_min, n_max), label="players")
    rounds = data.draw(st.integers(3, 6), label="rounds")
    scoring = Scoring(pab=data.draw(st.sampled_from([1.0, 0.5, 0.0]), label="bye points"),
                      late=data.draw(st.sampled_from([0.0, 0.5]), label="late points"))
    entrants = []
    for i in range(1, n + 1):
        rating = data.draw(st.sampled_from([0, 1400, 1650, 1800, 1950, 2100, 2300]))
        late = data.draw(st.sampled_from([1] * 9 + [2, 3]))
        entrants.append(Entrant(i, f"P{i}", rating, late_from=late))
    history = numbered(History(tuple(entrants), (), rounds, scoring,
                               data.draw(st.sampled_from(["white", "black"]))))
    withdrawn: set[int] = set()
    for _round in range(rounds):
        for p in data.draw(st.lists(st.integers(1, n), max_size=2, unique=True)):
            withdrawn.add(p)
        requested = [Bye(p, "absent") for p in sorted(withdrawn)]
        asked = data.draw(st.lists(st.integers(1, n), max_size=2, unique=True))
        requested += [Bye(p, data.draw(st.sampled_from(["half", "zero"])))
                      for p in asked if p not in withdrawn]
        try:
            pairing = pair_dutch(history, requested)
        except NoLegalPairing:
            assert len(available(history, requested)) <= 14
            assert not _brute_force_possible(history, requested)
            return
        found = check_round(history, pairing)
        judged = [b for b in found if not b.fact]
        assert judged == [], [str(b.text) for b in judged]
        games = tuple(Game(g.white, g.black, data.draw(st.sampled_from(RESULTS)))
                      for g in pairing.games)
        history = History(history.players, (*history.rounds,
                                             Round(games, pairing.as_round().byes)),
                          rounds, scoring, history.first_colour)


@settings(max_examples=EXAMPLES or 12, deadline=None, derandomize=not EXAMPLES,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_small_fields_every_round_keeps_the_dutch_criteria(data: st.DataObject) -> None:
    _play(data, 6, 14)


@settings(max_examples=EXAMPLES or 3, deadline=None, derandomize=not EXAMPLES,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_large_fields_every_round_keeps_the_dutch_criteria(data: st.DataObject) -> None:
    _play(data, 15, 60)


def test_the_brute_force_agrees_on_an_impossible_round() -> None:
    players = tuple(Entrant(i, f"P{i}", 2000 - i, number=i) for i in range(1, 5))
    games = [Round((Game(1, 2, "1-0"), Game(3, 4, "1-0"))),
             Round((Game(1, 3, "1/2"), Game(2, 4, "1/2"))),
             Round((Game(1, 4, "0-1"), Game(2, 3, "0-1")))]
    h = History(players, tuple(games), 5)
    assert not _brute_force_possible(h, [])
    try:
        pair_dutch(h)
    except NoLegalPairing:
        return
    raise AssertionError("a round with no legal pairing was paired")
