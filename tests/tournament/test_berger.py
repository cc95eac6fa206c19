"""Round robin: the FIDE Berger tables (Handbook C.05, Annex 1), byes for odd numbers."""

from __future__ import annotations

import itertools

import pytest

from companion.tournament.berger import berger_round, berger_table, rounds_needed

# The published tables, "first mover - second mover", one string per round. Compared on
# 2026-11-25 with the tables as published for arbiters (Chris Fox, "Berger Tables",
# c.w.fox.tripod.com/chess/berger.html, which reproduces FIDE C.05 Annex 1) for 4 to 12 players.
FIDE = {
    4: ["1-4 2-3", "4-3 1-2", "2-4 3-1"],
    6: ["1-6 2-5 3-4", "6-4 5-3 1-2", "2-6 3-1 4-5", "6-5 1-4 2-3", "3-6 4-2 5-1"],
    8: ["1-8 2-7 3-6 4-5", "8-5 6-4 7-3 1-2", "2-8 3-1 4-7 5-6", "8-6 7-5 1-4 2-3",
        "3-8 4-2 5-1 6-7", "8-7 1-6 2-5 3-4", "4-8 5-3 6-2 7-1"],
    10: ["1-10 2-9 3-8 4-7 5-6", "10-6 7-5 8-4 9-3 1-2", "2-10 3-1 4-9 5-8 6-7",
         "10-7 8-6 9-5 1-4 2-3", "3-10 4-2 5-1 6-9 7-8", "10-8 9-7 1-6 2-5 3-4",
         "4-10 5-3 6-2 7-1 8-9", "10-9 1-8 2-7 3-6 4-5", "5-10 6-4 7-3 8-2 9-1"],
    12: ["1-12 2-11 3-10 4-9 5-8 6-7", "12-7 8-6 9-5 10-4 11-3 1-2",
         "2-12 3-1 4-11 5-10 6-9 7-8", "12-8 9-7 10-6 11-5 1-4 2-3",
         "3-12 4-2 5-1 6-11 7-10 8-9", "12-9 10-8 11-7 1-6 2-5 3-4",
         "4-12 5-3 6-2 7-1 8-11 9-10", "12-10 11-9 1-8 2-7 3-6 4-5",
         "5-12 6-4 7-3 8-2 9-1 10-11", "12-11 1-10 2-9 3-8 4-7 5-6",
         "6-12 7-5 8-4 9-3 10-2 11-1"],
}


def parse(text: str) -> list[tuple[int, int]]:
    return [(int(a), int(b)) for a, b in (p.split("-") for p in text.split())]


@pytest.mark.parametrize("players", sorted(FIDE))
def test_even_numbers_follow_the_published_fide_berger_table(players: int) -> None:
    assert berger_table(players) == [parse(r) for r in FIDE[players]]


@pytest.mark.parametrize("players", [3, 5, 7, 9])
def test_odd_numbers_use_the_next_table_and_the_last_number_is_the_bye(players: int) -> None:
    table = berger_table(players)
    assert len(table) == players == rounds_needed(players)
    for r, games in enumerate(table, start=1):
        expected = [p for p in parse(FIDE[players + 1][r - 1]) if players + 1 not in p]
        assert games[:-1] == expected
        bye_player, nobody = games[-1]
        assert nobody is None and {bye_player, players + 1} in [set(p) for p in
                                                                parse(FIDE[players + 1][r - 1])]


@pytest.mark.parametrize("players", range(3, 11))
def test_everyone_meets_everyone_exactly_once_and_sits_out_at_most_once(players: int) -> None:
    met: list[frozenset[int]] = []
    byes: list[int] = []
    for games in berger_table(players):
        in_round = [x for a, b in games for x in (a, b) if x is not None]
        assert sorted(in_round) == list(range(1, players + 1))
        met += [frozenset((a, b)) for a, b in games if b is not None]
        byes += [a for a, b in games if b is None]
    assert sorted(met, key=sorted) == sorted(
        (frozenset(p) for p in itertools.combinations(range(1, players + 1), 2)), key=sorted)
    assert sorted(byes) == (list(range(1, players + 1)) if players % 2 else [])


@pytest.mark.parametrize("players", [4, 6, 8, 10])
def test_first_moves_are_balanced_within_one(players: int) -> None:
    first = {p: 0 for p in range(1, players + 1)}
    for games in berger_table(players):
        for a, _ in games:
            first[a] += 1
    assert set(first.values()) <= {players // 2 - 1, players // 2}


def test_a_round_outside_the_table_is_refused() -> None:
    with pytest.raises(ValueError, match="rounds 1 to 3"):
        berger_round(4, 4)
    with pytest.raises(ValueError, match="players"):
        berger_round(1, 1)
