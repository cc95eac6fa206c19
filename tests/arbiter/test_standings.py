"""Standings: points, then margin, then head-to-head; CSV, TRF-16 and the round sheet."""

from __future__ import annotations

import csv
import io

from companion.arbiter.standings import (
    Pairing,
    number_rounds,
    pairing_from_result,
    round_sheet,
    standings,
    to_csv,
    to_trf,
)


def game(rnd: int, table: int, first: str, second: str, codes: str, margin: int) -> Pairing:
    """One game; ``margin`` is the first player's (the second's is its opposite)."""
    a, b = codes.split("/")
    return Pairing(rnd, table, "tamsk", first, second, (a, b), (margin, -margin))


def test_points_come_first() -> None:
    rows = standings([game(1, 1, "Ann", "Bob", "1/0", 2), game(1, 2, "Cid", "Dee", "=/=", 0)])
    assert [(r.name, r.points) for r in rows] == [("Ann", 1), ("Cid", 0.5), ("Dee", 0.5),
                                                 ("Bob", 0)]


def test_a_forfeit_win_counts_a_point() -> None:
    rows = standings([game(1, 1, "Ann", "Bob", "-/+", 0)])
    assert rows[0].name == "Bob" and rows[0].points == 1


def test_equal_points_are_split_by_margin() -> None:
    rows = standings([game(1, 1, "Ann", "Bob", "1/0", 1), game(1, 2, "Cid", "Dee", "1/0", 5)])
    assert [r.name for r in rows[:2]] == ["Cid", "Ann"]


def test_head_to_head_decides_between_players_equal_on_points_and_margin() -> None:
    games = [
        game(1, 1, "Ann", "Bob", "0/1", -1),  # Bob beats Ann
        game(2, 1, "Bob", "Cid", "1/0", 2),
        game(2, 2, "Ann", "Dee", "1/0", 2),
        game(3, 1, "Ann", "Cid", "1/0", 2),
        game(3, 2, "Bob", "Dee", "0/1", 0),  # lost on the time tie-break: margin 0
    ]
    rows = standings(games)
    assert [(r.name, r.points, r.margin) for r in rows[:2]] == [("Bob", 2, 3), ("Ann", 2, 3)]
    assert (rows[0].h2h, rows[1].h2h) == (1.0, 0.0)
    assert (rows[0].rank, rows[1].rank) == (1, 2)


def test_players_equal_on_everything_share_the_rank() -> None:
    rows = standings([game(1, 1, "Zed", "Amy", "1/0", 2), game(2, 1, "Amy", "Zed", "1/0", 2),
                      game(3, 1, "Zed", "Amy", "=/=", 0)])
    assert [(r.name, r.points, r.margin, r.rank) for r in rows] == [
        ("Amy", 1.5, 0, 1), ("Zed", 1.5, 0, 1)]


def test_standings_as_csv() -> None:
    games = [game(1, 1, "Ann", "Bob", "1/0", 2)]
    text = to_csv(standings(games), games)
    table = list(csv.DictReader(io.StringIO(text)))
    assert table[0] == {"rank": "1", "name": "Ann", "points (game points)": "1",
                        "margin (rings)": "2", "head_to_head (game points)": "0",
                        "played (games)": "1"}


def test_every_standings_column_says_its_unit() -> None:
    tamsk = game(1, 1, "Ann", "Bob", "1/0", 2)
    tantrix = Pairing(2, 1, "tantrix", "Ann", "Bob", ("1", "0"), (5, -5))
    assert to_csv([], [tamsk]).splitlines()[0] == (
        "rank,name,points (game points),margin (rings),head_to_head (game points),"
        "played (games)")
    assert "margin (score points)" in to_csv([], [tantrix])
    assert "margin (rings or score points)" in to_csv([], [tamsk, tantrix])


def test_trf_lines_put_each_field_in_its_columns() -> None:
    rows = standings([game(1, 1, "Ann", "Bob", "1/0", 2), game(2, 1, "Bob", "Ann", "=/=", 0)])
    lines = to_trf(rows, tournament="Club cup").splitlines()
    assert lines[0] == "012 Club cup"
    ann = next(line for line in lines if "Ann" in line)
    assert ann[0:3] == "001" and ann[4:8] == "   1" and ann[14:17] == "Ann"
    assert ann[80:84] == " 1.5" and ann[85:89] == "   1"
    assert ann[91:95] == "   2" and ann[96] == "w" and ann[98] == "1"  # round 1
    assert ann[101:105] == "   2" and ann[106] == "b" and ann[108] == "="  # round 2


def test_the_round_sheet_lists_the_round_and_the_standings() -> None:
    games = [game(1, 2, "Ann", "Bob", "1/0", 2), game(1, 1, "Cid", "Dee", "=/=", 0),
             game(2, 1, "Ann", "Cid", "0/1", 1)]
    page = round_sheet(games, standings(games), round_no=1, tournament="Cup <1>")
    assert "Cup &lt;1&gt;: round 1" in page
    assert page.index("Cid") < page.index("Ann")  # table 1 first
    assert "½–½" in page and "Standings" in page and "round 2" not in page


def test_a_result_record_without_a_round_still_counts() -> None:
    """A game started without --round (every real game before tournaments) is not refused."""
    record = {"game": "tamsk", "table": 1, "round": None,
              "players": [{"colour": "red", "name": "A"}, {"colour": "black", "name": "B"}],
              "trf": {"red": "1", "black": "0"}, "margin": {"red": 1, "black": -1}}
    assert pairing_from_result(record).round == 0
    rows = standings([pairing_from_result(record)])
    assert [(r.name, r.points) for r in rows] == [("A", 1.0), ("B", 0.0)]
    record["round"] = 3
    assert pairing_from_result(record).codes == ("1", "0")


def test_games_without_a_round_take_each_players_first_free_round() -> None:
    games = number_rounds([game(0, 1, "Ann", "Bob", "1/0", 1), game(1, 2, "Cid", "Dee", "1/0", 1),
                           game(0, 1, "Ann", "Cid", "1/0", 1)])
    assert [g.round for g in games] == [1, 1, 2]
    trf = to_trf(standings(games))
    assert all(len(line) > 100 for line in trf.splitlines() if line.startswith("001")
               and ("Ann" in line or "Cid" in line))
