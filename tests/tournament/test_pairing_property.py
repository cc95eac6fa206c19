"""Random tournaments run through the tournament file's own records and fold: players (some
unrated), late entries, requested ½ and 0 byes, withdrawals and returns, draws, forfeits and
double forfeits; each round paired by :func:`companion.tournament.pairing.pair_records` (the
Dutch system) and judged by the FIDE checker on the file's neutral history: no absolute
criterion broken (the round's shape, C1-C4), the bye to the lowest score possible (C5), no
more downfloaters from the top scoregroup than needed (C6), colours as C.04.3 5.2 allocates
them. The file's points and the FIDE history's agree every round.

The suite runs a small budget; ``FIDE_EXAMPLES=200`` (and more time) runs a large one.
"""

from __future__ import annotations

import os
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.tournament import controls
from companion.tournament.fide.criteria import check_round
from companion.tournament.fide.history import records as fide_records
from companion.tournament.model import Result, Settings, Tournament, TournamentError, apply, start
from companion.tournament.model import header as make_header
from companion.tournament.neutral import history_of
from companion.tournament.pairing import as_pairing, pair_records

EXAMPLES = int(os.environ.get("FIDE_EXAMPLES", "0"))
RESULTS = ([Result("first")] * 8 + [Result("second")] * 6 + [Result("tie")] * 5
           + [Result("first", True), Result("second", True), Result("none", True)])


class Night:
    """A tournament folded record by record, as the file would be."""

    def __init__(self, rounds: int, bye_points: float, late_points: float) -> None:
        head = make_header("Random", "tamsk", "swiss", rounds,
                           Settings(bye_points=bye_points, late_points=late_points,
                                    max_byes=rounds), 1.0)
        self.t: Tournament = start(head)
        self.seq = 0

    def put(self, body: dict[str, Any]) -> None:
        self.seq += 1
        apply(self.t, {**body, "wall": 2.0, "via": "cli"}, seq=self.seq)


def _play(data: st.DataObject, n_min: int, n_max: int) -> None:
    n = data.draw(st.integers(n_min, n_max), label="players")
    rounds = data.draw(st.integers(3, 6), label="rounds")
    night = Night(rounds, data.draw(st.sampled_from([1.0, 0.5, 0.0]), label="bye points"),
                  data.draw(st.sampled_from([0.0, 0.5]), label="late points"))
    ratings = st.sampled_from([0, 1400, 1650, 1800, 1950, 2100, 2300])
    for i in range(n):
        night.put(controls.late_entry(night.t, {"name": f"P{i + 1}",
                                                "rating": data.draw(ratings)}))
    for number in range(1, rounds + 1):
        t = night.t
        if number > 1:
            for _ in range(data.draw(st.integers(0, 2), label="late entries")):
                night.put(controls.late_entry(t, {"name": f"L{len(t.players) + 1}",
                                                  "rating": data.draw(ratings)}))
        active = [p for p in t.players.values() if p.plays_in(number)]
        for p in data.draw(st.lists(st.sampled_from(active), max_size=2, unique_by=lambda p:
                                    p.id), label="withdrawn"):
            night.put(controls.withdraw(t, p, number))
        for p in [p for p in t.players.values() if p.withdrawn and p.away[-1][0] < number]:
            if data.draw(st.booleans(), label="back"):
                night.put(controls.withdraw(t, p, number, back=True))
        free = [p for p in t.players.values() if p.plays_in(number)]
        for p in data.draw(st.lists(st.sampled_from(free), max_size=2, unique_by=lambda p:
                                    p.id), label="byes") if free else []:
            night.put(controls.bye(t, p, number, data.draw(st.sampled_from([0.5, 0.0]))))
        try:
            made = pair_records(t)
        except TournamentError as exc:
            text = str(exc.message)
            assert "cannot be paired" in text or "at least two players" in text, text
            return
        for body in made[:-1]:
            night.put(body)
        before = history_of(night.t)
        proposal = as_pairing(night.t, number, made[-1])
        judged = [b for b in check_round(before, proposal) if not b.fact]
        assert judged == [], [str(b.text) for b in judged]
        night.put(made[-1])
        for g in night.t.played[-1].games:
            result = data.draw(st.sampled_from(RESULTS))
            night.put({"ev": "result", "round": number, "board": g.board,
                       "result": result.to_dict(), "source": {"kind": "arbiter"}})
        fide = {pid: rec.score for pid, rec in fide_records(history_of(night.t)).items()}
        assert fide == night.t.points()


@settings(max_examples=EXAMPLES or 10, deadline=None, derandomize=not EXAMPLES,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_small_fields_through_the_file_every_round_keeps_the_dutch_criteria(
    data: st.DataObject,
) -> None:
    _play(data, 6, 14)


@settings(max_examples=EXAMPLES or 2, deadline=None, derandomize=not EXAMPLES,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_large_fields_through_the_file_every_round_keeps_the_dutch_criteria(
    data: st.DataObject,
) -> None:
    _play(data, 15, 60)
