"""Standings per game: each game's own points and tie-breaks, with units and a legend, from the
games' journals (no key needed) and from the results a tournament records."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.tournament.record import GameRecord
from companion.tournament.sheets import standings_csv, standings_html, standings_text
from companion.tournament.standings import NoStandings, record_from_journal, standings
from tests.tournament import helpers


def test_tamsk_ranks_by_points_then_rings_margin_then_time_tie_break() -> None:
    games = [
        GameRecord(("Ann", "Bob"), "Ann", 1, 1, score={"Ann": 20, "Bob": 25}),
        GameRecord(("Cid", "Dee"), "Cid", 1, 2, score={"Cid": 30, "Dee": 31}),
        GameRecord(("Eve", "Fay"), "Eve", 1, 3, score={"Eve": 30, "Fay": 31},
                   reason="time-tiebreak"),
    ]
    table = standings("tamsk", games)
    assert [(r.name, r.values["points"], r.values["rings"], r.values["time"])
            for r in table.rows[:3]] == [("Ann", 1, 5, 0), ("Eve", 1, 1, 1), ("Cid", 1, 1, 0)]


def test_tantrix_tournament_points_are_ten_plus_the_difference_within_0_and_20() -> None:
    games = [GameRecord(("Ann", "Bob"), "Ann", 1, 1, score={"Ann": 30, "Bob": 24}),
             GameRecord(("Cid", "Dee"), "Cid", 1, 2, score={"Cid": 40, "Dee": 12})]
    rows = {r.name: r.values for r in standings("tantrix", games).rows}
    assert rows["Ann"] == {"wins": 1, "tp": 16, "diff": 6}
    assert rows["Bob"] == {"wins": 0, "tp": 4, "diff": -6}
    assert rows["Cid"]["tp"] == 20 and rows["Dee"]["tp"] == 0  # capped at 20 and 0
    assert [r.name for r in standings("tantrix", games).rows][:2] == ["Cid", "Ann"]


def test_tantrix_forfeits_and_byes_give_all_20_tp() -> None:
    games = [GameRecord(("Ann", "Bob"), "Bob", 1, 1, forfeit=True),
             GameRecord(("Cid",), "Cid", 1, 2, reason="bye")]
    rows = {r.name: r.values for r in standings("tantrix", games).rows}
    assert rows["Bob"]["tp"] == 20 and rows["Ann"]["tp"] == 0 and rows["Cid"]["tp"] == 20


def test_tokami_rank_points_count_the_players_finished_above() -> None:
    games = [GameRecord(("Ann", "Ben", "Cyd"), "Ann", score={"Ann": 5, "Ben": 2, "Cyd": 2})]
    rows = {r.name: r.values for r in standings("tokami", games).rows}
    assert rows == {"Ann": {"rank": 2.0, "total": 5.0}, "Ben": {"rank": 0.5, "total": 2.0},
                    "Cyd": {"rank": 0.5, "total": 2.0}}


def test_players_equal_on_every_column_share_a_rank() -> None:
    games = [GameRecord(("Ann", "Bob"), "tie", score={"Ann": 30, "Bob": 30})]
    assert [r.rank for r in standings("tamsk", games).rows] == [1, 1]


def test_every_column_has_its_unit_and_a_legend_line(tmp_path: Path) -> None:
    table = standings("tamsk", [GameRecord(("Ann", "Bob"), "Ann", score={"Ann": 1, "Bob": 3})])
    csv = standings_csv(table)
    assert csv.splitlines()[0] == "rank,name,points (game points),rings (rings),time (games),played"
    page = standings_html(table)
    for unit in ("game points", "rings", "games"):
        assert f"<small>{unit}</small>" in page
    assert "Rings margin (rings): opponent's rings left minus one's own" in standings_text(table)
    assert "@media print" in page


def test_a_tamsk_journal_gives_its_result_without_a_key(tmp_path: Path) -> None:
    game, record = record_from_journal(helpers.tamsk(tmp_path / "g.jsonl", "Ann", "Bob"))
    assert game == "tamsk" and record.winner == "Ann" and record.round == 1
    assert record.score == {"Ann": 31, "Bob": 32}


def test_a_tantrix_journal_gives_its_result(tmp_path: Path) -> None:
    game, record = record_from_journal(helpers.tantrix(tmp_path / "g.jsonl", "Ann", "Bob"))
    assert game == "tantrix" and record.players == ("Ann", "Bob")
    assert record.winner == "tie" and record.reason == "score at end"


def test_a_tokami_journal_gives_every_players_total(tmp_path: Path) -> None:
    path = helpers.tokami(tmp_path / "g.jsonl", ["Ann", "Ben", "Cyd"], [
        {"ev": "bonus", "block": "blue", "bonus": "green"},
        {"ev": "fell", "fallen": ["blue"], "in_hand": "green"},
        {"ev": "higher", "block": "red"}])
    game, record = record_from_journal(path)
    assert game == "tokami" and record.score == {"Ann": 1, "Ben": -2, "Cyd": 0}
    rows = {r.name: r.values["rank"] for r in standings(game, [record]).rows}
    assert rows == {"Ann": 2.0, "Cyd": 1.0, "Ben": 0.0}


def test_an_unfinished_game_gives_no_result(tmp_path: Path) -> None:
    path = helpers.write(tmp_path / "g.jsonl", {"game": "tokami", "players": ["A", "B"]},
                         [{"ev": "higher", "block": "red"}])
    with pytest.raises(NoStandings, match="not over"):
        record_from_journal(path)


def test_a_tampered_journal_is_refused(tmp_path: Path) -> None:
    path = helpers.tamsk(tmp_path / "g.jsonl", "Ann", "Bob")
    path.write_text(path.read_text().replace('"Bob"', '"Bo"'))
    with pytest.raises(NoStandings, match="damaged"):
        record_from_journal(path)


def test_a_game_without_standings_is_refused() -> None:
    with pytest.raises(NoStandings, match="no tournament standings"):
        standings("puzzle", [])


results = st.sampled_from(["first", "second", "tie"])


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(results, st.integers(0, 40), st.integers(0, 40)), min_size=1,
                max_size=20))
def test_every_game_shares_its_points_and_its_tp(games: list[tuple[str, int, int]]) -> None:
    """One game point per game (Tamsk, Tantrix wins), 20 TP per Tantrix game, and each
    margin is the other player's opposite."""
    records = []
    for i, (who, a, b) in enumerate(games):
        first, second = f"P{i % 5}", f"Q{i % 3}"
        winner = {"first": first, "second": second}.get(who, "tie")
        records.append(GameRecord((first, second), winner, score={first: a, second: b}))
    tamsk = standings("tamsk", records)
    tantrix = standings("tantrix", records)
    assert sum(r.values["points"] for r in tamsk.rows) == len(games)
    assert sum(r.values["rings"] for r in tamsk.rows) == 0
    assert sum(r.values["wins"] for r in tantrix.rows) == len(games)
    assert sum(r.values["tp"] for r in tantrix.rows) == 20 * len(games)
    assert all(0 <= r.values["tp"] <= 20 * r.played for r in tantrix.rows)
