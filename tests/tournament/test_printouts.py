"""The arbiter's printouts (``companion tournament sheet --kind ...``): each shows what a FIDE
arbiter looks for on it, read from the page ready to print and from the terminal's text, on a
Swiss with a bye every round, a forfeit and ties, and a round robin with a tie, a forfeit and a
double forfeit."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date
from html.parser import HTMLParser

import pytest

from companion import i18n
from companion.tournament import printouts
from companion.tournament.model import Result, Settings
from companion.tournament.printouts import (
    Printout,
    amount,
    cross_table,
    html_page,
    pairing_list,
    result_list,
    standings_list,
    text,
    wall_chart,
)
from tests.tournament.printed import SWISS, TIE, WIN_FIRST, _fold, round_robin, swiss

DAY = date(2026, 11, 28)
#: Entry number -> name (starting numbers are the same here: the ratings' order).
NAME = {i + 1: name for i, (name, _rating) in enumerate(SWISS)}


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    i18n.use("en")
    yield
    i18n.reset()


class Cells(HTMLParser):
    """The printed page's tables: each a list of rows, each row the texts of its cells (a
    cell's second line, a wall chart's running total, after a ``|``)."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self.heads: list[list[str]] = []
        self._cell: list[str] | None = None
        self._in: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._in.append(tag)
        if tag == "table":
            self.tables.append([])
            self.heads.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell = []
        elif tag == "small" and self._cell is not None and "td" in self._in:
            self._cell.append("|")

    def handle_endtag(self, tag: str) -> None:
        if self._in and self._in[-1] == tag:
            self._in.pop()
        if tag in ("td", "th") and self._cell is not None:
            joined = "".join(self._cell)
            if tag == "th":
                self.heads[-1].append(joined)
            else:
                self.tables[-1][-1].append(joined)
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def read(p: Printout) -> Cells:
    page = Cells()
    page.feed(html_page(p))
    for table in page.tables:  # the header row holds no td
        table[:] = [row for row in table if row]
    return page


def rows_by_start(p: Printout, table: int = 0) -> dict[str, list[str]]:
    return {row[0]: row for row in read(p).tables[table]}


# ------------------------------------------------------------------------------ pairing list


def test_the_pairing_list_gives_board_table_start_numbers_names_and_points_before_the_round(
) -> None:
    page = read(pairing_list(swiss(), 3, printed=DAY))
    assert page.heads[0] == ["Board", "Table", "No.", "Moves first", "Pointsbefore the round",
                             "Pointsbefore the round", "Moves second", "No."]
    # after two rounds: Zoë 2, =Bob 2, Jiří ½, Anne-Sophie 1 (the first mover on the left)
    assert page.tables[0] == [["1", "1", "2", "Zoë Müller", "2", "2", "=Bob", "5"],
                              ["2", "2", "1", "Jiří Novák", "½", "1", "Anne-Sophie Lefèvre",
                               "4"]]


def test_the_pairing_list_gives_the_bye_with_the_points_before_the_round() -> None:
    page = read(pairing_list(swiss(), 3, printed=DAY))
    assert page.tables[1] == [["3", "Łukasz Żak", "½", "bye (1)"]]


def test_round_1_pairs_everybody_on_no_points() -> None:
    page = read(pairing_list(swiss(), 1))
    assert {row[4] for row in page.tables[0]} | {row[5] for row in page.tables[0]} == {"0"}
    assert page.tables[1] == [["5", "=Bob", "0", "bye (1)"]]


# ------------------------------------------------------------------------------ result list


def test_the_result_list_gives_each_board_s_result_the_first_mover_s_side_first() -> None:
    page = read(result_list(swiss(), 1))
    assert page.tables[0] == [["1", "1", "Jiří Novák", "½-½ (28:28)", "Łukasz Żak", "3"],
                              ["2", "4", "Anne-Sophie Lefèvre", "-+", "Zoë Müller", "2"]]
    assert page.tables[1] == [["5", "=Bob", "bye (1)", "1"]]


def test_the_result_list_says_how_many_results_are_not_in_yet() -> None:
    p = result_list(swiss(last_result=False), 3)
    assert read(p).tables[0][1][3] == ""
    assert "1 result is not in yet." in p.legend


# ------------------------------------------------------------------------------ standings


def test_the_standings_print_the_chosen_tie_breaks_in_order_with_title_unit_and_legend(
) -> None:
    p = standings_list(swiss(), 3, printed=DAY)
    page = read(p)
    assert page.heads[0] == ["Rank", "No.", "Name", "Rating", "Pointsgame points",
                             "Buchholzpoints", "Sonneborn-Bergerpoints", "Rings marginrings",
                             "Playedgames"]
    # =Bob and Zoë 2½, Łukasz and Jiří 1½ and Anne-Sophie 1: Buchholz splits the first two
    assert [(r[0], r[2], r[4], r[5], r[6]) for r in page.tables[0]] == [
        ("1", "=Bob", "2½", "5½", "4.25"), ("2", "Zoë Müller", "2½", "5", "3.75"),
        ("3", "Łukasz Żak", "1½", "5½", "2.25"), ("4", "Jiří Novák", "1½", "5", "1.75"),
        ("5", "Anne-Sophie Lefèvre", "1", "3½", "1")]
    assert "Buchholz (points): the sum of the opponents' scores (C.07 8.1)" in p.legend
    assert ("Rings margin (rings): opponent's rings left minus one's own, summed over the games"
            in p.legend)


def test_games_played_count_neither_byes_nor_forfeits() -> None:
    rows = rows_by_start(standings_list(swiss(), 3))
    played = {row[2]: row[-1] for row in rows.values()}
    assert played == {"Jiří Novák": "3", "Zoë Müller": "2", "Łukasz Żak": "2",
                      "Anne-Sophie Lefèvre": "1", "=Bob": "2"}


def test_the_standings_after_a_round_count_only_the_rounds_up_to_it() -> None:
    page = read(standings_list(swiss(), 1))
    assert {r[2]: r[4] for r in page.tables[0]} == {
        "Zoë Müller": "1", "=Bob": "1", "Jiří Novák": "½", "Łukasz Żak": "½",
        "Anne-Sophie Lefèvre": "0"}
    assert page.heads and "after round 1" in standings_list(swiss(), 1).title


# ------------------------------------------------------------------------------ cross table

#: What the other player's cell says of the same game.
MIRROR = {"1": {"0"}, "0": {"1"}, "½": {"½"}, "+": {"-"}, "-": {"+", "-"}, "·": {"·"}}


def test_the_cross_table_is_symmetric() -> None:
    t = round_robin()
    page = read(cross_table(t, 3))
    grid = {row[0]: row[3:7] for row in page.tables[0]}  # No., Name, Rating, then 1..4
    for a in "1234":
        assert grid[a][int(a) - 1] == "×"
        for b in "1234":
            if a != b:
                assert grid[b][int(a) - 1] in MIRROR[grid[a][int(b) - 1]]
    shown = {"1": "1", "0": "0", "=": "½", "+": "+", "-": "-"}
    for r in t.played:  # each game's result in both cells: the first mover's and the second's
        for g in r.games:
            assert g.result is not None
            first, second = g.result.codes()
            assert grid[str(g.first)][g.second - 1] == shown[first]
            assert grid[str(g.second)][g.first - 1] == shown[second]


def test_the_cross_table_shows_each_result_by_starting_number() -> None:
    page = read(cross_table(round_robin(), 3))
    assert [row[1:7] for row in page.tables[0]] == [
        ["Ann", "1900", "×", "0", "0", "½"],
        ["Bob", "1800", "1", "×", "+", "-"],
        ["Cid", "1700", "1", "-", "×", "0"],
        ["Dee", "1600", "½", "-", "1", "×"]]


def test_the_cross_table_gives_points_tie_breaks_and_rank() -> None:
    page = read(cross_table(round_robin(), 3))
    assert page.heads[0][7:] == ["Pointsgame points", "Rings marginrings",
                                 "Time tie-breakgames", "Rank"]
    assert {row[1]: (row[7], row[-1]) for row in page.tables[0]} == {
        "Ann": ("½", "4"), "Bob": ("2", "1"), "Cid": ("1", "3"), "Dee": ("1½", "2")}


def test_a_double_round_robin_cell_holds_both_games_in_round_order() -> None:
    t = _fold("Duo", "round-robin", 2, (("Ann", 0), ("Bob", 0)), [
        ([(1, 2, WIN_FIRST)], []), ([(2, 1, TIE)], [])], Settings(double=True))
    page = read(cross_table(t))
    assert [row[2:4] for row in page.tables[0]] == [["×", "1 ½"], ["0 ½", "×"]]
    assert "double round robin" in cross_table(t).sub


def test_a_game_not_played_yet_is_a_dot() -> None:
    page = read(cross_table(swiss(last_result=False), 3))
    grid = {row[0]: row[3:8] for row in page.tables[0]}  # No., Name, Rating, then 1..5
    assert grid["1"][3] == "·" and grid["4"][0] == "·"  # round 3: Jiří - Anne-Sophie


# ------------------------------------------------------------------------------ wall chart


def test_the_wall_chart_gives_each_round_s_opponent_colour_result_and_running_total() -> None:
    t = swiss()
    page = read(wall_chart(t, 3))
    rows = {row[0]: row for row in page.tables[0]}
    assert rows["1"][3:6] == ["3○ ½|½", "2● 0|½", "4○ 1|1½"]
    assert rows["2"][3:6] == ["4● +|1", "1○ 1|2", "5○ ½|2½"]
    assert rows["4"][3:6] == ["2○ -|0", "U 1|1", "1● 0|1"]
    assert rows["5"][3:6] == ["U 1|1", "3● 1|2", "2● ½|2½"]


def test_the_wall_chart_s_running_totals_are_the_points_after_each_round() -> None:
    t = swiss()
    rows = {row[0]: row for row in read(wall_chart(t, 3)).tables[0]}
    start = t.start_numbers()
    for n in (1, 2, 3):
        after = t.points(upto=n)
        for pid, points in after.items():
            assert rows[str(start[pid])][2 + n].split("|")[1] == amount(points)
    assert {r[1]: r[6] for r in rows.values()} == {NAME[pid]: amount(p)
                                                    for pid, p in t.points().items()}


def test_a_game_without_its_result_has_no_running_total_yet() -> None:
    rows = {row[0]: row for row in read(wall_chart(swiss(last_result=False), 3)).tables[0]}
    assert rows["1"][5] == "4○ ·" and rows["4"][5] == "1● ·"


def test_the_wall_chart_says_what_its_marks_mean() -> None:
    p = wall_chart(swiss())
    assert any("○ for the first move or ● for the second" in line for line in p.legend)
    assert any(line.startswith("U: a bye (1); H: a requested bye") for line in p.legend)


# ------------------------------------------------------------------------------ the page


def test_every_printout_is_one_page_ready_to_print_in_the_reader_s_language() -> None:
    for kind in printouts.KINDS:
        page = html_page(printouts.printout(swiss(), kind, 3, printed=DAY))
        assert page.startswith("<!DOCTYPE html>") and '<html lang="en">' in page
        assert "@page { size: A4" in page and "@media print" in page
        assert "Podzimní Tamsk" in page and "printed Nov 28, 2026" in page


def test_a_wide_wall_chart_is_printed_across_the_page() -> None:
    t = _fold("Long", "swiss", 6, (("Ann", 0), ("Bob", 0)), [
        ([(1, 2, WIN_FIRST)] if n % 2 else [(2, 1, WIN_FIRST)], []) for n in range(1, 7)])
    assert "size: A4 landscape" in html_page(wall_chart(t))
    assert "size: A4 landscape" not in html_page(wall_chart(swiss()))


def test_names_are_printed_as_written_and_escaped() -> None:
    t = _fold("Cup <&>", "swiss", 1, (("Ann \"A\" <b>", 0), ("Bob", 0)),
              [([(1, 2, WIN_FIRST)], [])])
    page = html_page(standings_list(t))
    assert "Ann &quot;A&quot; &lt;b&gt;" in page and "Cup &lt;&amp;&gt;" in page
    assert "<b>" not in page


def test_the_text_shows_the_same_cells_as_the_page() -> None:
    for kind in printouts.KINDS:
        p = printouts.printout(swiss(), kind, 3, printed=DAY)
        shown = text(p)
        for grid in p.grids:
            for row in grid.rows:  # every cell, left to right, on one line
                cells = r"\s+".join(re.escape(c.text) for c in row if c.text)
                assert any(re.search(cells, line) for line in shown.splitlines()), row


@pytest.mark.parametrize(("lang", "sb", "day"), [("fr", "4,25", "28 nov. 2026"),
                                                  ("cs", "4,25", "28. 11. 2026")])
def test_numbers_and_dates_are_written_as_the_reader_s_language_writes_them(
        lang: str, sb: str, day: str) -> None:
    i18n.use(lang)
    p = standings_list(swiss(), 3, printed=DAY)
    assert read(p).tables[0][0][6] == sb and read(p).tables[0][0][4] == "2½"
    assert day in p.sub
    assert f'<html lang="{lang}">' in html_page(p)


def test_halves_are_written_as_score_sheets_write_them() -> None:
    assert [amount(v) for v in (0, 0.5, 2.5, -0.5, -1.5, 3.0, 4.25)] == [
        "0", "½", "2½", "-½", "-1½", "3", "4.25"]


def test_a_round_not_paired_has_no_printout() -> None:
    from companion.tournament.model import TournamentError

    for kind in printouts.KINDS:
        with pytest.raises(TournamentError, match="round 4 is not paired"):
            printouts.printout(swiss(), kind, 4)


def test_the_command_line_offers_every_printout() -> None:
    from companion.tournament.cli import SHEETS

    assert SHEETS == ("round", *printouts.KINDS)


def test_results_typed_in_any_order_print_the_same() -> None:
    """Points before a round come from the rounds before it only, not from its own results."""
    with_result, without = swiss(), swiss(last_result=False)
    assert read(pairing_list(with_result, 3)).tables == read(pairing_list(without, 3)).tables
    assert Result("first").points() == (1.0, 0.0)
