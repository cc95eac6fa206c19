"""The one standings: points (games, byes, missed rounds), then the tournament's tie-breaks (by
default each game's own columns), with units and a legend; equal players share a rank."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.tournament.model import (
    Result,
    Settings,
    Source,
    Tournament,
    fold,
    header,
)
from companion.tournament.sheets import standings_csv, standings_html, standings_text
from companion.tournament.standings import NoStandings, standings


def tournament(game: str, names: list[str], games: list[tuple[int, int, Result]], *,
               byes: list[dict[str, Any]] | None = None, tiebreaks: tuple[str, ...] = (),
               bye_points: float = 1.0) -> Tournament:
    """One round: ``games`` as (first, second, result) by entry number, then its results."""
    head = header("Cup", game, "swiss", 3, Settings(bye_points=bye_points,
                                                     tiebreaks=tiebreaks), 1.0)
    tag = {"wall": 2.0, "via": "cli"}
    records: list[dict[str, Any]] = [{"ev": "player", "id": i + 1, "name": n, **tag}
                                     for i, n in enumerate(names)]
    records.append({"ev": "numbers", "numbers": {str(i + 1): i + 1 for i in range(len(names))},
                    **tag})
    records.append({"ev": "pair", "round": 1, **tag, "byes": byes or [],
                    "games": [{"board": b + 1, "first": a, "second": c}
                              for b, (a, c, _) in enumerate(games)]})
    for b, (_, _, r) in enumerate(games):
        records.append({"ev": "result", "round": 1, "board": b + 1, "result": r.to_dict(),
                        "source": Source("arbiter").to_dict(), **tag})
    return fold(head, [(i + 2, r) for i, r in enumerate(records)])


def values(table: Any) -> dict[str, dict[str, float]]:
    return {r.name: r.values for r in table.rows}


def test_tamsk_ranks_by_points_then_rings_margin_then_time_tie_break() -> None:
    t = tournament("tamsk", ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"], [
        (1, 2, Result("first", False, (20, 25), "rings")),
        (3, 4, Result("first", False, (30, 31), "rings")),
        (5, 6, Result("first", False, (31, 31), "time-tiebreak"))])
    table = standings(t)
    assert [(r.name, r.values["points"], r.values["rings"], r.values["time"])
            for r in table.rows[:3]] == [("Ann", 1, 5, 0), ("Cid", 1, 1, 0), ("Eve", 1, 0, 1)]


def test_the_tournament_chooses_and_orders_its_tie_breaks() -> None:
    games = [(1, 2, Result("first", False, (20, 25), "rings")),
             (3, 4, Result("first", False, (31, 31), "time-tiebreak"))]
    table = standings(tournament("tamsk", ["Ann", "Bob", "Cid", "Dee"], games,
                                 tiebreaks=("game:time", "game:rings")))
    assert [c.key for c in table.columns] == ["points", "time", "rings"]
    assert [r.name for r in table.rows[:2]] == ["Cid", "Ann"]


def test_direct_encounter_is_the_points_among_the_tied_players_only() -> None:
    """C.07 6: DE has a value for the players tied on the columns before it, blank for the
    others; a win between tied players separates them."""
    t = tournament("tamsk", ["Ann", "Bob", "Cid", "Dee"], [
        (1, 2, Result("first", False, (20, 25), "rings")),
        (3, 4, Result("tie", False, (30, 30), "time-tiebreak"))], tiebreaks=("DE",))
    table = standings(t)
    rows = {r.name: r for r in table.rows}
    assert [c.key for c in table.columns] == ["points", "de"]
    assert "de" in rows["Ann"].blank and "de" in rows["Bob"].blank
    assert rows["Cid"].values["de"] == rows["Dee"].values["de"] == 0.5
    assert rows["Cid"].rank == rows["Dee"].rank == 2
    assert "DE" not in standings_text(table).splitlines()[1]


def test_tantrix_tournament_points_are_ten_plus_the_difference_within_0_and_20() -> None:
    t = tournament("tantrix", ["Ann", "Bob", "Cid", "Dee"], [
        (1, 2, Result("first", False, (30, 24), "score")),
        (3, 4, Result("first", False, (40, 12), "score"))])
    rows = values(standings(t))
    assert rows["Ann"] == {"wins": 1, "tp": 16, "diff": 6}
    assert rows["Bob"] == {"wins": 0, "tp": 4, "diff": -6}
    assert rows["Cid"]["tp"] == 20 and rows["Dee"]["tp"] == 0  # capped at 20 and 0
    assert [r.name for r in standings(t).rows][:2] == ["Cid", "Ann"]


def test_tantrix_forfeits_and_byes_give_all_20_tp() -> None:
    t = tournament("tantrix", ["Ann", "Bob", "Cid"],
                   [(1, 2, Result("second", True, None, "forfeit"))],
                   byes=[{"player": 3, "kind": "pab"}])
    rows = values(standings(t))
    assert rows["Bob"]["tp"] == 20 and rows["Ann"]["tp"] == 0 and rows["Cid"]["tp"] == 20


def test_a_bye_counts_the_tournament_s_bye_points() -> None:
    t = tournament("tamsk", ["Ann", "Bob", "Cid"],
                   [(1, 2, Result("tie", False, (30, 30), "tie"))],
                   byes=[{"player": 3, "kind": "pab"}], bye_points=0.5)
    rows = {r.name: r for r in standings(t).rows}
    assert rows["Cid"].values["points"] == 0.5 and rows["Cid"].played == 0


def test_played_counts_the_games_played_over_the_board_only() -> None:
    t = tournament("tamsk", ["Ann", "Bob", "Cid", "Dee"], [
        (1, 2, Result("first", True, None, "forfeit")),
        (3, 4, Result("none", True, None, "forfeit"))])
    rows = {r.name: r for r in standings(t).rows}
    assert [rows[n].played for n in ("Ann", "Bob", "Cid", "Dee")] == [0, 0, 0, 0]
    assert rows["Ann"].values["points"] == 1 and rows["Cid"].values["points"] == 0
    assert rows["Ann"].values["rings"] == 0  # a forfeit has no score to count


def test_tokami_rank_points_count_the_player_finished_above() -> None:
    t = tournament("tokami", ["Ann", "Ben"], [(1, 2, Result("first", False, (5, 2), "rounds"))])
    assert values(standings(t)) == {"Ann": {"rank": 1.0, "total": 5.0},
                                    "Ben": {"rank": 0.0, "total": 2.0}}


def test_players_equal_on_every_column_share_a_rank() -> None:
    t = tournament("tamsk", ["Ann", "Bob"], [(1, 2, Result("tie", False, (30, 30), "tie"))])
    assert [r.rank for r in standings(t).rows] == [1, 1]


def test_every_column_has_its_unit_and_a_legend_line() -> None:
    t = tournament("tamsk", ["Ann", "Bob"], [(1, 2, Result("first", False, (1, 3), "rings"))])
    table = standings(t)
    csv = standings_csv(table)
    assert csv.splitlines()[0] == "rank,name,points (game points),rings (rings),time (games),played"
    page = standings_html(table)
    for unit in ("game points", "rings", "games"):
        assert f"<small>{unit}</small>" in page
    assert "Rings margin (rings): opponent's rings left minus one's own" in standings_text(table)
    assert "@media print" in page


def test_a_game_without_standings_is_refused() -> None:
    t = tournament("puzzle", ["Ann", "Bob"], [(1, 2, Result("tie", False, None, "tie"))])
    with pytest.raises(NoStandings):
        standings(t)


results = st.sampled_from(["first", "second", "tie"])


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(results, st.integers(0, 32), st.integers(0, 32)), min_size=1,
                max_size=10))
def test_every_game_shares_its_points_and_its_tp(games: list[tuple[str, int, int]]) -> None:
    """One game point per game (Tamsk points, Tantrix wins), 20 TP per Tantrix game, and each
    margin is the other player's opposite."""
    names = [f"P{i}" for i in range(2 * len(games))]
    played = [(2 * i + 1, 2 * i + 2, Result(who, False, (a, b), "arbiter"))
              for i, (who, a, b) in enumerate(games)]
    tamsk = standings(tournament("tamsk", names, played))
    tantrix = standings(tournament("tantrix", names, played))
    assert sum(r.values["points"] for r in tamsk.rows) == len(games)
    assert sum(r.values["rings"] for r in tamsk.rows) == 0
    assert sum(r.values["wins"] for r in tantrix.rows) == len(games)
    assert sum(r.values["tp"] for r in tantrix.rows) == 20 * len(games)
    assert all(0 <= r.values["tp"] <= 20 * r.played for r in tantrix.rows)


def test_a_fide_tie_break_is_the_fide_module_s_on_the_file_s_history() -> None:
    """Buchholz after one round: each player's opponent's score (C.07 8.1), the pairing-
    allocated bye counted as C.07 16 does; the columns come after the points."""
    from companion.tournament.fide.tiebreaks import values
    from companion.tournament.neutral import history_of

    t = tournament("tamsk", ["Ann", "Bob", "Cid", "Dee", "Eve"], [
        (1, 2, Result("first", False, (20, 25), "rings")),
        (3, 4, Result("tie", False, (30, 30), "tie"))],
        byes=[{"player": 5, "kind": "pab"}], tiebreaks=("BH", "game:rings"))
    table = standings(t)
    assert [c.key for c in table.columns] == ["points", "bh", "rings"]
    bh = {r.name: r.values["bh"] for r in table.rows}
    assert bh == {t.players[pid].name: v for pid, v in values(history_of(t), "BH").items()}
    assert bh["Ann"] == 0.0 and bh["Bob"] == 1.0 and bh["Cid"] == bh["Dee"] == 0.5
