"""`companion tournament ...`: a club evening from the first player to the standings, the file
kept safe, TRF-2016 out and back (and through bbpPairings when it is installed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.tournament import engine, store
from companion.tournament.model import TournamentError, from_dict
from companion.tournament.trf import parse_trf, to_trf
from tests.tournament import helpers
from tests.tournament.helpers import run

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve"]


def make(tmp_path: Path, system: str = "swiss", rounds: int = 3, game: str = "tamsk",
         names: list[str] = NAMES) -> Path:
    d = str(tmp_path)
    assert run(["tournament", "new", "Club Cup", "--game", game, "--system", system,
                "--rounds", str(rounds), "--dir", d]) == 0
    for i, name in enumerate(names):
        assert run(["tournament", "add-player", "Club Cup", name, "--rating", str(1800 - 10 * i),
                    "--club", "Brno", "--dir", d]) == 0
    return tmp_path / "Club-Cup.tournament.json"


def pair(tmp_path: Path, *extra: str) -> int:
    return run(["tournament", "pair", "Club Cup", "--dir", str(tmp_path), *extra])


def finish_round(tmp_path: Path, result: str = "1-0") -> None:
    t = store.load(tmp_path / "Club-Cup.tournament.json")
    current = t.current
    assert current is not None
    for g in current.games:
        if g.second is not None:
            assert run(["tournament", "result", "Club Cup", "--dir", str(tmp_path), "--round",
                        str(current.number), "--table", str(g.table), result,
                        "--score", "20:25"]) == 0


def test_a_swiss_evening_pairs_records_and_ranks(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = make(tmp_path)
    assert pair(tmp_path) == 0
    out = capsys.readouterr().out
    assert "round 1 of 3" in out and "table  1  Ann (moves first) - Cid" in out
    assert "table  2  Dee (moves first) - Bob" in out
    assert "bye       Eve" in out
    finish_round(tmp_path)
    assert pair(tmp_path) == 0
    t = store.load(path)
    met = [frozenset((g.first, g.second)) for r in t.played for g in r.games if g.second]
    assert len(met) == len(set(met))
    capsys.readouterr()
    assert run(["tournament", "standings", "Club Cup", "--dir", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    assert "Points" in text and "Rings margin (rings)" in text


def test_the_next_round_waits_for_every_result(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    make(tmp_path)
    assert pair(tmp_path) == 0
    before = (tmp_path / "Club-Cup.tournament.json").read_text()
    assert pair(tmp_path) == 2
    assert "round 1 has no result yet at table(s) 1, 2" in capsys.readouterr().err
    assert (tmp_path / "Club-Cup.tournament.json").read_text() == before


def test_a_round_robin_follows_the_berger_table(tmp_path: Path) -> None:
    path = make(tmp_path, "round-robin", 3, names=NAMES[:4])
    for _ in range(3):
        assert pair(tmp_path) == 0
        finish_round(tmp_path, "draw")
    t = store.load(path)
    assert [[(g.first, g.second) for g in r.games] for r in t.played] == [
        [(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]
    assert pair(tmp_path) == 2  # all rounds paired


def test_no_player_joins_after_round_one(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    make(tmp_path)
    pair(tmp_path)
    assert run(["tournament", "add-player", "Club Cup", "Zed", "--dir", str(tmp_path)]) == 2
    assert "cannot join" in capsys.readouterr().err


def test_results_come_in_from_the_tables_journals(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    path = make(tmp_path, "round-robin", 3, names=["Ann", "Bob", "Cid", "Dee"])
    pair(tmp_path)
    j1 = helpers.tamsk(tmp_path / "t1.jsonl", "Ann", "Dee", round_no=1, table=1)
    j2 = helpers.tamsk(tmp_path / "t2.jsonl", "Bob", "Cid", round_no=None, table=2)
    assert run(["tournament", "import", "Club Cup", str(j1), str(j2),
                "--dir", str(tmp_path)]) == 0
    t = store.load(path)
    assert [g.result.winner if g.result else None for g in t.played[0].games] == ["first"] * 2
    assert t.played[0].games[0].result is not None
    assert t.played[0].games[0].result.source == "journal t1.jsonl"


def test_a_journal_whose_players_are_not_paired_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make(tmp_path, "round-robin", 3, names=["Ann", "Bob", "Cid", "Dee"])
    pair(tmp_path)
    j = helpers.tamsk(tmp_path / "t.jsonl", "Ann", "Bob")
    assert run(["tournament", "import", "Club Cup", str(j), "--dir", str(tmp_path)]) == 2
    assert "not paired in round 1" in capsys.readouterr().err


def test_standings_from_journals_alone(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    j1 = helpers.tantrix(tmp_path / "a.jsonl", "Ann", "Bob")
    assert run(["tournament", "standings", "--journals", str(j1), "--csv",
                str(tmp_path / "s.csv")]) == 0
    assert "tp (tournament points)" in (tmp_path / "s.csv").read_text()
    j2 = helpers.tamsk(tmp_path / "b.jsonl", "Ann", "Bob")
    assert run(["tournament", "standings", "--journals", str(j1), str(j2)]) == 2
    assert "different games" in capsys.readouterr().err


@pytest.mark.parametrize("bad", [
    "{", "[]", '{"kind": "companion-tournament", "version": 1}',
    '{"kind": "companion-tournament", "version": 1, "name": "X", "game": "tamsk", '
    '"system": "swiss", "rounds": 3, "players": [{"number": 2, "name": "A", "rating": 0}]}',
    '{"kind": "companion-tournament", "version": 1, "name": "X", "game": "tamsk", '
    '"system": "swiss", "rounds": 3, "players": [{"number": 1, "name": "A", "rating": 0}], '
    '"played": [{"number": 1, "games": [{"table": 1, "first": 1, "second": 1}]}]}',
])
def test_a_hostile_tournament_file_is_refused_with_one_line(
    tmp_path: Path, bad: str, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "X.tournament.json").write_text(bad)
    assert run(["tournament", "show", "X", "--dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_the_file_is_replaced_atomically(tmp_path: Path) -> None:
    path = make(tmp_path)
    assert not list(tmp_path.glob("*.tmp"))
    assert from_dict(json.loads(path.read_text())).players[0].club == "Brno"


def test_trf_round_trips_every_result_and_bye(tmp_path: Path) -> None:
    path = make(tmp_path)
    pair(tmp_path)
    finish_round(tmp_path)
    pair(tmp_path)
    finish_round(tmp_path, "draw")
    t = store.load(path)
    name, rounds, players = parse_trf(to_trf(t))
    assert (name, rounds) == ("Club Cup", 3)
    by_number = {p.number: p for p in players}
    for r in t.played:
        for g in r.games:
            if g.second is None:
                assert by_number[g.first].rounds[r.number] == (0, "-", "U")
                continue
            assert g.result is not None
            a, b = g.result.codes()
            assert by_number[g.first].rounds[r.number] == (g.second, "w", a)
            assert by_number[g.second].rounds[r.number] == (g.first, "b", b)
    assert [p.rating for p in players] == [p.rating for p in t.players]


def test_bbppairings_output_is_read_and_checked() -> None:
    assert engine.parse_pairs("3\n1 4\n5 0\n2 3\n") == [(1, 4), (2, 3), (5, None)]
    with pytest.raises(TournamentError, match="announced 3"):
        engine.parse_pairs("3\n1 2\n")


@pytest.mark.skipif(engine.find() is None, reason="bbpPairings is not on the PATH")
def test_bbppairings_pairs_our_trf(tmp_path: Path) -> None:
    path = make(tmp_path)
    pair(tmp_path)
    finish_round(tmp_path)
    assert pair(tmp_path, "--engine", "bbpPairings") == 0
    t = store.load(path)
    met = [frozenset((g.first, g.second)) for r in t.played for g in r.games if g.second]
    assert len(met) == len(set(met))


def test_without_bbppairings_the_engine_option_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make(tmp_path)
    assert pair(tmp_path, "--engine", "bbpPairings", "--engine-path",
                str(tmp_path / "no-such-program")) == 2
    assert "bbpPairings could not run" in capsys.readouterr().err


def test_the_round_sheet_prints_pairings_results_and_standings(tmp_path: Path) -> None:
    make(tmp_path)
    pair(tmp_path)
    finish_round(tmp_path)
    out = tmp_path / "round1.html"
    assert run(["tournament", "sheet", "Club Cup", "--round", "1", "--html", str(out),
                "--dir", str(tmp_path)]) == 0
    page = out.read_text()
    assert "Club Cup: round 1 of 3" in page and "<th>Moves first</th>" in page
    assert "1–0 (20:25)" in page and "— bye —" in page
    assert "<small>rings</small>" in page and "@media print" in page


def test_a_withdrawn_player_is_not_paired_again(tmp_path: Path) -> None:
    path = make(tmp_path)
    pair(tmp_path)
    finish_round(tmp_path)
    assert run(["tournament", "withdraw", "Club Cup", "Eve", "--dir", str(tmp_path)]) == 0
    pair(tmp_path)
    t = store.load(path)
    assert 5 not in {x for g in t.played[1].games for x in (g.first, g.second)}


@pytest.mark.parametrize("name", ["", "   ", "42", "A\x1b[2Jname", "x" * 61])
def test_a_player_name_that_cannot_be_printed_is_refused(
    tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    make(tmp_path)
    assert run(["tournament", "add-player", "Club Cup", name, "--dir", str(tmp_path)]) == 2
    assert capsys.readouterr().err.count("\n") == 1
