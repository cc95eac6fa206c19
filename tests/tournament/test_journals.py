"""The one verified reader of journals, through every command that reads one: a re-chained
forgery, an unsigned appended result, a game of another tournament and a result for another
table's pairing are each kept out by `tournament import`, `tournament standings --journals`,
`arbiter sign` and `dispute`; unfinished games, games not yet paired and games of another
tournament are one line each, never a failure of the whole command."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from companion import journal as journal_mod
from companion.tournament import store
from companion.tournament.model import Tournament
from tests.tournament import helpers
from tests.tournament.helpers import club, run, signed

CUP = "Club Cup"


@pytest.fixture
def evening(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Club Cup (Tamsk, Ann Bob Cid Dee) with round 1 paired: board 1 at table 1 Ann - Dee,
    board 2 at table 2 Bob - Cid; the laptop's keyring enrols tables 1-9."""
    helpers.laptop(monkeypatch, tmp_path)
    club(tmp_path)
    assert run(["tournament", "pair", CUP, "--dir", str(tmp_path)]) == 0
    (tmp_path / "in").mkdir()
    return tmp_path


def genuine(folder: Path, name: str = "t1.jsonl", table: int = 1,
            players: tuple[str, str] = ("Ann", "Dee"), tournament: str = CUP,
            round_no: int = 1, **more: object) -> Path:
    return helpers.tamsk(folder / "in" / name, *players, round_no=round_no, table=table,
                         tournament=tournament, key=signed(table), **more)  # type: ignore[arg-type]


def rechained(folder: Path) -> Path:
    """Table 1's genuine game with black's ring made red's, chained again without its key."""
    path = genuine(folder, "forged.jsonl", winner="black")
    helpers.rechain(path, lambda b: {**b, "player": "red"} if b.get("ev") == "ring" else None)
    return path


def unsigned_appended(folder: Path) -> Path:
    """Table 1's genuine game (Ann wins) with a result appended, chained but unsigned."""
    path = genuine(folder, "appended.jsonl")
    append_unsigned_result(path)
    return path


def append_unsigned_result(path: Path) -> None:
    """An arbiter's ruling that black won and a final record after it, chained onto ``path``
    but signed by no one (what a forger without the table's key can add)."""
    last = helpers.records(path)[-1]
    ruling = {"t": 9.0, "ev": "correct", "what": "result", "winner": "black", "reason": "x",
              "by": "arbiter", "auth": "pin", "wall": helpers.WALL0 + 9, "src": "arbiter"}
    line1, h1 = journal_mod.seal(ruling, last["seq"] + 1, last["hash"])
    line2, _ = journal_mod.seal({**helpers.final("black", "arbiter"), "t": 9.0},
                                last["seq"] + 2, h1)
    with open(path, "a", encoding="utf-8") as f:
        f.write(line1 + "\n" + line2 + "\n")


def other_tournament(folder: Path) -> Path:
    """A genuine game of table 1, of another event."""
    return genuine(folder, "other.jsonl", tournament="Spring Open")


def other_tables_pairing(folder: Path) -> Path:
    """Table 2's own key and number, but table 1's pairing (a compromised table 2)."""
    return genuine(folder, "stolen.jsonl", table=2, players=("Ann", "Dee"), winner="black")


ATTACKS: dict[str, tuple[Callable[[Path], Path], str]] = {
    "a re-chained forgery": (rechained, "NOT SIGNED BY TABLE 1'S ENROLLED KEY"),
    "an unsigned appended result": (unsigned_appended, "this record is not signed"),
    "a game of another tournament": (other_tournament, "a game of another tournament"),
    "a result for another table's pairing": (other_tables_pairing,
                                             "round 1 pairs Bob - Cid at table 2"),
}


def load(folder: Path) -> Tournament:
    from companion.tournament.cli import arbiter_public

    return store.load(folder / "Club-Cup.tournament.jsonl", arbiter_public({}))


@pytest.mark.parametrize("attack", ATTACKS)
def test_tournament_import_keeps_it_out(evening: Path, attack: str,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    make, words = ATTACKS[attack]
    journal = make(evening)
    before = (evening / "Club-Cup.tournament.jsonl").read_bytes()
    code = run(["tournament", "import", CUP, str(journal), "--dir", str(evening)])
    out = capsys.readouterr()
    assert words in out.err and "0 result(s) recorded" in out.out
    assert code == (0 if "another tournament" in attack else 1)
    assert (evening / "Club-Cup.tournament.jsonl").read_bytes() == before


@pytest.mark.parametrize("attack", ATTACKS)
def test_tournament_standings_from_journals_keeps_it_out(
    evening: Path, attack: str, capsys: pytest.CaptureFixture[str]
) -> None:
    make, words = ATTACKS[attack]
    journal = make(evening)
    good = genuine(evening, "t2.jsonl", table=2, players=("Bob", "Cid"))
    code = run(["tournament", "standings", CUP, "--journals", str(journal), str(good),
                "--dir", str(evening), "--csv", str(evening / "s.csv")])
    err = capsys.readouterr().err
    assert words in err
    assert code == (0 if "another tournament" in attack else 1)
    rows = {line.split(",")[1]: line.split(",")[2]
            for line in (evening / "s.csv").read_text().splitlines()[1:]}
    assert rows == {"Bob": "1", "Ann": "0", "Cid": "0", "Dee": "0"}  # only Bob's game counts


@pytest.mark.parametrize("attack", ATTACKS)
def test_arbiter_sign_signs_none_of_them(evening: Path, attack: str,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    make, words = ATTACKS[attack]
    journal = make(evening)
    assert run(["arbiter", "sign", str(journal), "--dir", str(evening)]) != 0
    err = capsys.readouterr().err
    assert words in err and "not signed" in err
    assert not journal.with_name(journal.name + ".result.json").exists()


@pytest.mark.parametrize("attack", ATTACKS)
def test_dispute_never_calls_them_intact(evening: Path, attack: str,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    make, words = ATTACKS[attack]
    journal = make(evening)
    assert run(["dispute", str(journal), "--at", "1", "--dir", str(evening)]) == 1
    out = capsys.readouterr().out
    assert "journal intact" not in out and "THE JOURNAL IS NOT TRUSTED" in out and words in out


def test_a_genuine_game_is_recorded_signed_and_called_intact(
    evening: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = genuine(evening)
    assert run(["tournament", "import", CUP, str(journal), "--dir", str(evening)]) == 0
    g = load(evening).played[0].games[0]
    assert g.result is not None and g.result.winner == "first"
    assert g.source is not None and g.source.kind == "journal" and g.source.table == 1
    assert g.source.game_id == helpers.records(journal)[0]["hash"]
    assert g.source.final == helpers.records(journal)[-1]["hash"]
    assert run(["arbiter", "sign", str(journal), "--dir", str(evening)]) == 0
    assert run(["dispute", str(journal), "--at", "1", "--dir", str(evening)]) == 0
    assert "journal intact" in capsys.readouterr().out


def test_a_journal_signed_by_a_table_nobody_enrolled_is_refused(
    evening: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from companion.keys import SigningKey

    journal = helpers.tamsk(evening / "in" / "stranger.jsonl", "Ann", "Dee", table=1,
                            tournament=CUP, key=SigningKey.generate())
    assert run(["tournament", "import", CUP, str(journal), "--dir", str(evening)]) == 1
    assert "signed with another key" in capsys.readouterr().err


def test_collect_records_the_good_and_says_one_line_for_each_other(
    evening: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    usb = evening / "in"
    genuine(evening, "t1.jsonl")
    genuine(evening, "t2.jsonl", table=2, players=("Bob", "Cid"), winner="black")
    genuine(evening, "unfinished.jsonl", table=3, players=("Ann", "Bob"), finished=False)
    genuine(evening, "round2.jsonl", round_no=2, players=("Dee", "Cid"))
    other_tournament(evening)
    (usb / "sub").mkdir()
    shutil.copy(usb / "t1.jsonl", usb / "sub" / "again.jsonl")  # the same game twice
    assert run(["tournament", "collect", str(usb), "--dir", str(evening)]) == 0
    out = capsys.readouterr()
    lines = out.out.splitlines() + out.err.splitlines()
    for what in ("unfinished.jsonl: skipped: the game is not finished",
                 "round2.jsonl: skipped: round 2 of Club Cup is not paired yet",
                 "other.jsonl: skipped: a game of another tournament (Spring Open)",
                 "round 1 board 1 (Ann - Dee): 1-0 (31:32) is recorded already"):
        assert sum(what in line for line in lines) == 1, what
    assert "2 result(s) recorded" in out.out
    t = load(evening)
    assert [g.result.text() if g.result else None for g in t.played[0].games] == [
        "1-0 (31:32)", "0-1 (32:31)"]
    kept = sorted(p.name for p in (evening / "journals").glob("*.jsonl"))
    assert len(kept) == 2 and "t2.jsonl" in kept  # the evidence, beside the tournament file
    assert t.played[0].games[0].source.file in kept  # type: ignore[union-attr]


def test_a_second_journal_for_a_recorded_board_needs_replace(
    evening: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = genuine(evening, "t1.jsonl")
    again = genuine(evening, "t1-replayed.jsonl", winner="black")
    assert run(["tournament", "import", CUP, str(first), "--dir", str(evening)]) == 0
    assert run(["tournament", "import", CUP, str(again), "--dir", str(evening)]) == 1
    assert "give --replace WHY" in capsys.readouterr().err
    assert run(["tournament", "import", CUP, str(again), "--dir", str(evening), "--replace",
                "the first game was played with a wrong glass"]) == 0
    t = load(evening)
    assert t.played[0].games[0].result.winner == "second"  # type: ignore[union-attr]
    change = t.trail[-1]
    assert change.old is not None and change.old.winner == "first"
    assert change.why == "the first game was played with a wrong glass"


def test_without_a_keyring_no_journal_vouches_for_itself(evening: Path) -> None:
    """A journal names its own signer; only the keyring (or --key) can say it is the table's."""
    from companion.keys import SigningKey
    from companion.tournament.journals import REFUSED, Keys, check_journal

    journal = helpers.tamsk(evening / "in" / "self.jsonl", "Ann", "Dee", table=1,
                            tournament=CUP, key=SigningKey.generate())
    checked = check_journal(journal, Keys(), [load(evening)])
    assert checked.status == REFUSED and "not enrolled" in checked.line
