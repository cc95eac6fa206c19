"""`companion tournament ...`: a club evening from the first player to the standings, every change
a signed record of the tournament file, refused results naming their rule, changes audited, the
file checked as `companion verify` checks a journal, TRF-2016 out and back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.journal import read_path
from companion.keys import SigningKey
from companion.tournament import store
from companion.tournament.fide import trf as fide_trf
from companion.tournament.model import Tournament
from companion.tournament.trf import to_trf
from tests.tournament import helpers
from tests.tournament.helpers import club, run

NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve")


@pytest.fixture
def home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    return helpers.laptop(monkeypatch, tmp_path)


def load(path: Path) -> Tournament:
    from companion.tournament.cli import arbiter_public

    return store.load(path, arbiter_public({}))


def pair(tmp_path: Path, *extra: str) -> int:
    return run(["tournament", "pair", "Club Cup", "--dir", str(tmp_path), *extra])


def result(tmp_path: Path, number: int, board: int, *typed: str) -> int:
    return run(["tournament", "result", "Club Cup", "--dir", str(tmp_path), "--round",
                str(number), "--board", str(board), *typed])


def finish_round(tmp_path: Path, typed: str = "0-1", score: str = "20:15") -> None:
    t = load(tmp_path / "Club-Cup.tournament.jsonl")
    current = t.current
    assert current is not None
    for g in current.games:
        assert result(tmp_path, current.number, g.board, typed, "--score", score) == 0


def test_a_swiss_evening_pairs_records_and_ranks(home: Path, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = club(tmp_path, system="swiss", names=NAMES)
    assert pair(tmp_path) == 0
    out = capsys.readouterr().out
    assert "round 1 of 3" in out and "board 1 (table 1)  Ann (moves first) - Cid" in out
    assert "board 2 (table 2)  Dee (moves first) - Bob" in out and "bye (1): Eve" in out
    finish_round(tmp_path)
    assert pair(tmp_path) == 0
    t = load(path)
    met = [frozenset(g.players()) for r in t.played for g in r.games]
    assert len(met) == len(set(met))
    capsys.readouterr()
    assert run(["tournament", "standings", "Club Cup", "--dir", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    assert "Points" in text and "Rings margin (rings)" in text


def test_every_change_is_one_more_signed_record_and_nothing_is_rewritten(
    home: Path, tmp_path: Path
) -> None:
    path = club(tmp_path, names=NAMES[:4])
    before = path.read_bytes()
    assert pair(tmp_path) == 0
    after = path.read_bytes()
    assert after.startswith(before)
    j = read_path(path)
    assert j.intact and j.header is not None and j.header["version"] == 2
    assert all(json.loads(line)["sig"] for line in after.decode().splitlines())
    assert [b["ev"] for _, b in j.events][-2:] == ["numbers", "pair"]


def test_the_next_round_waits_for_every_result(home: Path, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    path = club(tmp_path, system="swiss", names=NAMES)
    assert pair(tmp_path) == 0
    before = path.read_bytes()
    assert pair(tmp_path) == 2
    assert "round 1 has no result yet at board(s) 1, 2" in capsys.readouterr().err
    assert path.read_bytes() == before


def test_a_round_robin_follows_the_berger_table_on_the_starting_numbers(
    home: Path, tmp_path: Path
) -> None:
    path = club(tmp_path, names=NAMES[:4])
    for _ in range(3):
        assert pair(tmp_path) == 0
        finish_round(tmp_path, "½-½", "30:30")
    t = load(path)
    assert [[g.players() for g in r.games] for r in t.played] == [
        [(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]
    assert pair(tmp_path) == 2  # all rounds paired


def test_a_player_entered_after_round_1_is_a_late_entry(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = club(tmp_path, system="swiss", names=NAMES[:4])
    pair(tmp_path)
    assert run(["tournament", "add-player", "Club Cup", "Zed", "--dir", str(tmp_path)]) == 0
    assert "late entry: paired from round 2" in capsys.readouterr().out
    finish_round(tmp_path)
    assert pair(tmp_path) == 0
    t = load(path)
    assert t.players[5].late_from == 2 and t.entries()[5][1].kind == "late"
    assert any(5 in g.players() for g in t.played[1].games) or t.played[1].bye_of(5)


@pytest.mark.parametrize("typed,score,winner,forfeit", [
    ("1-0", "20:25", "first", False), ("0-1", "25:20", "second", False),
    ("½-½", "30:30", "tie", False), ("=", None, "tie", False), ("draw", None, "tie", False),
    ("+-", None, "first", True), ("-+", None, "second", True), ("--", None, "none", True),
    ("0-0", None, "none", True),
])
def test_results_are_typed_as_the_score_sheets_write_them(
    home: Path, tmp_path: Path, typed: str, score: str | None, winner: str, forfeit: bool
) -> None:
    path = club(tmp_path, names=NAMES[:4])
    pair(tmp_path)
    assert result(tmp_path, 1, 1, typed, *(["--score", score] if score else [])) == 0
    got = load(path).played[0].games[0].result
    assert got is not None and (got.winner, got.forfeit) == (winner, forfeit)


@pytest.mark.parametrize("typed,rule", [
    (["1-0", "--score", "30:28"], "rule tamsk-fewer-rings"),
    (["1-0", "--score", "40:-3"], "rule score-range"),
    (["+-", "--score", "20:25"], "rule forfeit-no-score"),
    (["1-0", "--reason", "time-tiebreak", "--score", "20:25"], "rule tamsk-equal-rings"),
    (["1-0", "--reason", "knockout"], "rule reason-list"),
    (["1-0", "--reason", "forfeit"], "rule forfeit-reason"),
    (["2-0"], "a result is one of"),
])
def test_a_result_the_game_does_not_allow_is_refused_naming_the_rule(
    home: Path, tmp_path: Path, typed: list[str], rule: str,
    capsys: pytest.CaptureFixture[str]
) -> None:
    path = club(tmp_path, names=NAMES[:4])
    pair(tmp_path)
    before = path.read_bytes()
    assert result(tmp_path, 1, 1, *typed) == 2
    err = capsys.readouterr().err
    assert rule in err and err.count("\n") == 1
    assert path.read_bytes() == before


def test_a_time_tiebreak_or_a_full_space_win_may_have_as_many_rings(
    home: Path, tmp_path: Path
) -> None:
    club(tmp_path, names=NAMES[:4])
    pair(tmp_path)
    assert result(tmp_path, 1, 1, "1-0", "--score", "30:30", "--reason", "time-tiebreak") == 0
    assert result(tmp_path, 1, 2, "0-1", "--score", "20:28", "--reason", "full-space") == 0


def test_a_recorded_result_is_replaced_only_with_replace_and_the_trail_shows_it(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = club(tmp_path, names=NAMES[:4])
    pair(tmp_path)
    finish_round(tmp_path)
    pair(tmp_path)
    capsys.readouterr()
    assert result(tmp_path, 1, 1, "1-0", "--score", "20:25") == 1
    assert "to change it give --replace WHY" in capsys.readouterr().err
    assert load(path).played[0].games[0].result.winner == "second"  # type: ignore[union-attr]
    assert result(tmp_path, 1, 1, "1-0", "--score", "20:25", "--replace",
                  "the score sheet was misread") == 0
    out = capsys.readouterr().out
    assert "0-1 (20:15) replaced by 1-0 (20:25)" in out
    assert "round(s) 2 were paired on the old result" in out
    assert run(["tournament", "history", "Club Cup", "--dir", str(tmp_path)]) == 0
    trail = capsys.readouterr().out.splitlines()
    assert "0-1 (20:15) -> 1-0 (20:25)" in trail[-1]
    assert "why: the score sheet was misread" in trail[-1] and "cli" in trail[-1]
    assert "(round(s) 2 were paired on the old result)" in trail[-1]


def test_a_hand_edited_file_is_refused_as_verify_refuses_it(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = club(tmp_path, names=NAMES[:4])
    pair(tmp_path)
    path.write_text(path.read_text().replace('"Bob"', '"Bobby"'))
    assert run(["tournament", "show", "Club Cup", "--dir", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "refused as `companion verify` refuses it: FAILED: ALTERED OR DAMAGED" in err
    assert err.count("\n") == 1


def test_a_rechained_file_is_refused_and_verify_names_the_first_bad_record(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = club(tmp_path, names=NAMES[:4])
    pair(tmp_path)
    finish_round(tmp_path)
    helpers.rechain(path, lambda b: {**b, "result": {**b["result"], "winner": "first"}}
                    if b.get("ev") == "result" else None)
    assert run(["tournament", "standings", "Club Cup", "--dir", str(tmp_path)]) == 1
    assert "NOT SIGNED BY THE ARBITER'S KEY" in capsys.readouterr().err
    assert run(["tournament", "verify", "Club Cup", "--dir", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "FIRST BAD RECORD: line 8" in out and out.rstrip().endswith("FAILED")


def test_a_file_signed_with_another_key_is_refused(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = club(tmp_path, names=NAMES[:4])
    other = SigningKey.generate()
    lines = helpers.records(path)
    for r in lines:
        r.pop("sig", None)
    helpers.rewrite(path, lines)
    helpers.rechain(path, lambda b: {**b, "signer": other.public.line()} if "kind" in b
                    else None)
    assert run(["tournament", "show", "Club Cup", "--dir", str(tmp_path)]) == 1
    assert "signed with another key" in capsys.readouterr().err
    pub = tmp_path / "other.pub"
    pub.write_text(other.public.line())
    assert run(["tournament", "verify", "Club Cup", "--dir", str(tmp_path), "--key",
                str(pub)]) == 1  # the right key for the header, but no record signed by it


def test_tournament_verify_reports_a_good_file_as_verify_does(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    club(tmp_path, names=NAMES[:4])
    pair(tmp_path)
    capsys.readouterr()
    assert run(["tournament", "verify", "Club Cup", "--dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "hash chain intact" in out and "every record signed by the arbiter's key" in out
    assert out.rstrip().endswith("OK")


def test_a_torn_last_line_is_left_out_and_cut_off_by_the_next_change(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = club(tmp_path, names=NAMES[:4])
    with open(path, "ab") as f:
        f.write(b'{"ev":"player","id":5,"na')
    assert run(["tournament", "show", "Club Cup", "--dir", str(tmp_path)]) == 0
    assert "incomplete" in capsys.readouterr().err
    assert pair(tmp_path) == 0
    assert read_path(path).intact


def test_the_round_sheet_shows_the_standings_after_its_own_round(
    home: Path, tmp_path: Path
) -> None:
    club(tmp_path, names=NAMES[:4])
    pair(tmp_path)
    finish_round(tmp_path, "1-0", "20:25")
    pair(tmp_path)
    finish_round(tmp_path, "1-0", "20:25")
    sheets = {}
    for n in (1, 2):
        out = tmp_path / f"round{n}.html"
        assert run(["tournament", "sheet", "Club Cup", "--round", str(n), "--html", str(out),
                    "--dir", str(tmp_path)]) == 0
        sheets[n] = out.read_text()
    assert "Club Cup: round 1 of 3" in sheets[1] and "Standings after round 1" in sheets[1]
    assert "1-0 (20:25)" in sheets[1] and "<th>Moves first</th>" in sheets[1]
    # Ann moved first and won in both rounds: 1 point after round 1, 2 after round 2
    assert "<td>Ann</td><td class='n' data-col='points'>1</td>" in sheets[1]
    assert "<td>Ann</td><td class='n' data-col='points'>2</td>" in sheets[2]


def test_a_standings_csv_cell_a_spreadsheet_would_run_is_written_as_text(
    home: Path, tmp_path: Path
) -> None:
    names = ("=HYPERLINK(\"x\")", "+Bob", "@Cid", "-Dee")
    club(tmp_path, names=names)
    pair(tmp_path)
    finish_round(tmp_path, "1-0", "20:25")
    out = tmp_path / "s.csv"
    assert run(["tournament", "standings", "Club Cup", "--csv", str(out), "--dir",
                str(tmp_path)]) == 0
    rows = [line.split(",", 2) for line in out.read_text().splitlines()[1:]]
    cells = {r[1].strip('"') for r in rows}
    assert cells == {"'=HYPERLINK(\"\"x\"\")", "'+Bob", "'@Cid", "'-Dee"}
    assert any(",-5," in line for line in out.read_text().splitlines())  # numbers stay numbers


def test_trf_round_trips_every_result_and_bye(home: Path, tmp_path: Path) -> None:
    path = club(tmp_path, system="swiss", names=NAMES)
    pair(tmp_path)
    finish_round(tmp_path)
    pair(tmp_path)
    finish_round(tmp_path, "½-½", "30:30")
    t = load(path)
    back = fide_trf.read(to_trf(t))
    assert (back.header.name, back.history.total_rounds) == ("Club Cup", 3)
    numbers = t.start_numbers()
    codes = {"first": "1-0", "second": "0-1", "tie": "1/2"}
    for r, rnd in zip(t.played, back.history.rounds, strict=True):
        assert {(numbers[b.player], b.kind) for b in r.byes} == {
            (b.player, b.kind) for b in rnd.byes}
        assert {(numbers[g.first], numbers[g.second], codes[g.result.winner])  # type: ignore[union-attr]
                for g in r.games} == {(g.white, g.black, g.result) for g in rnd.games}
    assert [e.rating for e in back.history.players] == [1800, 1790, 1780, 1770, 1760]


def test_a_withdrawn_player_is_not_paired_again(home: Path, tmp_path: Path) -> None:
    path = club(tmp_path, system="swiss", names=NAMES)
    pair(tmp_path)
    finish_round(tmp_path)
    assert run(["tournament", "withdraw", "Club Cup", "Eve", "--dir", str(tmp_path)]) == 0
    pair(tmp_path)
    t = load(path)
    assert all(5 not in g.players() for g in t.played[1].games)
    assert t.played[1].bye_of(5) is not None and t.played[1].bye_of(5).kind == "absent"  # type: ignore[union-attr]
    assert run(["tournament", "reinstate", "Club Cup", "Eve", "--dir", str(tmp_path)]) == 0


@pytest.mark.parametrize("name", ["", "   ", "42", "A\x1b[2Jname", "x" * 61])
def test_a_player_name_that_cannot_be_printed_is_refused(
    home: Path, tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    club(tmp_path, names=NAMES[:2])
    capsys.readouterr()
    assert run(["tournament", "add-player", "Club Cup", name, "--dir", str(tmp_path)]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_pair_send_without_a_broker_saves_the_round_and_says_how_to_send_it_again(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = club(tmp_path, names=NAMES[:4])
    config = tmp_path / "arbiter.toml"
    from tests.arbiter.broker import free_port

    config.write_text(f'[mqtt]\nenabled = true\nhost = "127.0.0.1"\nport = {free_port()}\n')
    assert pair(tmp_path, "--send", "--config", str(config), "--wait", "0.2") == 1
    err = capsys.readouterr().err
    assert "round 1 is saved but not sent" in err
    assert "companion tournament send 'Club Cup' --round 1" in err
    assert load(path).played[0].number == 1


def test_a_version_1_file_is_upgraded_into_a_signed_one(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = tmp_path / "old" / "Club-Cup.tournament.json"
    old.parent.mkdir()
    old.write_text(json.dumps({
        "kind": "companion-tournament", "version": 1, "name": "Club Cup", "game": "tamsk",
        "system": "swiss", "rounds": 3, "bye_points": 1.0,
        "players": [{"number": i + 1, "name": n, "rating": 0, "club": "", "withdrawn": False}
                    for i, n in enumerate(NAMES[:3])],
        "played": [{"number": 1, "games": [
            {"table": 1, "first": 1, "second": 2, "result": {
                "winner": "first", "forfeit": False, "score": [20, 25], "reason": "",
                "source": "arbiter"}},
            {"table": 2, "first": 3, "second": None, "result": None}]}]}))
    assert run(["tournament", "show", str(old)]) == 2
    assert "tournament upgrade" in capsys.readouterr().err
    assert run(["tournament", "upgrade", str(old), "--dir", str(tmp_path)]) == 0
    t = load(tmp_path / "Club-Cup.tournament.jsonl")
    g = t.played[0].games[0]
    assert g.result is not None and g.result.winner == "first"
    assert g.source is not None and g.source.kind == "upgrade"
    assert t.played[0].bye_of(3) is not None and t.system == "swiss-simple"
    assert all(c.via == "upgrade" for c in t.trail)


def test_without_bbppairings_the_engine_option_says_so(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    club(tmp_path, system="swiss", names=NAMES)
    assert pair(tmp_path, "--engine", "bbpPairings", "--engine-path",
                str(tmp_path / "no-such-program")) == 2
    assert "bbpPairings is not at" in capsys.readouterr().err


def test_writers_at_once_take_turns_on_the_file(home: Path, tmp_path: Path) -> None:
    """Six `add-player` commands run together: each takes the file's lock and reads it again,
    so all six are entered, numbered 1 to 6, in one unbroken chain."""
    import os
    import subprocess
    import sys

    club(tmp_path, names=())
    env = {**os.environ, "XDG_DATA_HOME": os.environ["XDG_DATA_HOME"]}
    runs = [subprocess.Popen([sys.executable, "-c",
                              "from companion import config; from pathlib import Path; "
                              f"config.DEFAULT_PATH = Path({str(tmp_path / 'none.toml')!r}); "
                              "from companion.cli import main; import sys; "
                              f"sys.exit(main(['tournament', 'add-player', 'Club Cup', 'P{i}', "
                              f"'--dir', {str(tmp_path)!r}]))"], env=env)
            for i in range(6)]
    assert [p.wait(60) for p in runs] == [0] * 6
    t = load(tmp_path / "Club-Cup.tournament.jsonl")
    assert sorted(p.name for p in t.players.values()) == [f"P{i}" for i in range(6)]
    assert sorted(t.players) == [1, 2, 3, 4, 5, 6]
    assert read_path(tmp_path / "Club-Cup.tournament.jsonl").intact


def test_sending_as_the_pages_own_broker_user_is_warned_of(
        home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An arbiter.toml copied before `send_username` existed: the command line would connect as
    the page's user, which a club broker (one session per user) takes from the page; it says so
    and how to mend it (the round is kept, the send fails here as no broker listens)."""
    from tests.arbiter.broker import free_port

    club(tmp_path)
    assert run(["tournament", "pair", "Club Cup", "--dir", str(tmp_path)]) == 0
    config = tmp_path / "arbiter.toml"
    config.write_text(f'[mqtt]\nenabled = true\nhost = "127.0.0.1"\nport = {free_port()}\n'
                      'username = "arbiter"\npassword = "secret"\n', encoding="utf-8")
    capsys.readouterr()
    code = run(["tournament", "send", "Club Cup", "--round", "1", "--config", str(config),
                "--wait", "1", "--dir", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 1
    assert "no send_username" in err and "arbiter" in err
    assert "broker/tables/arbiter.toml" in err
