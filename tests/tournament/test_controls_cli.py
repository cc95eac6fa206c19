"""The arbiter's controls on the night, through the command line, each a signed record the
history shows: late entries, requested byes, withdraw and reinstate, unpair, a manual pairing,
a swap and a colour change warned of the FIDE criteria they break, a round robin's lots and
double round; the tie-breaks chosen per tournament; bbpPairings (a stand-in) through round 1,
a withdrawal and a forfeit; TRF-2016 out and back in (`import-trf`) to the same standings."""

from __future__ import annotations

import json
import stat
import sys
from pathlib import Path

import pytest

from companion.tournament import store
from companion.tournament.fide import trf as fide_trf
from companion.tournament.model import Tournament, fold
from companion.tournament.standings import standings
from tests.tournament import helpers
from tests.tournament.helpers import run

STANDIN = Path(__file__).parent / "fide" / "standin_bbp.py"
CUP = "Podzimní Tamsk"
FILE = "Podzimn-Tamsk.tournament.jsonl"
#: The 9-player Swiss of issue 26: accented names, ratings, titles, an unrated player.
PLAYERS = (
    ("Zoë Müller", ["--rating", "2210", "--title", "WFM", "--sex", "w", "--federation", "GER",
                    "--fide-id", "24601234", "--birth", "1994/03/02"]),
    ("Łukasz Żółć", ["--rating", "2305", "--title", "FM", "--sex", "m", "--federation", "POL",
                     "--fide-id", "1134567", "--birth", "1988"]),
    ("Jiří Novák", ["--rating", "2150", "--sex", "m", "--federation", "CZE",
                    "--fide-id", "305678"]),
    ("Anaïs Lefèvre", ["--rating", "1980", "--sex", "w", "--federation", "FRA"]),
    ("Søren Ødegård", ["--rating", "2050", "--sex", "m", "--federation", "DEN"]),
    ("Ewa Ślusarczyk", ["--rating", "1875", "--sex", "w", "--federation", "POL"]),
    ("Ondřej Čech", ["--sex", "m", "--federation", "CZE"]),  # unrated
    ("Ines Ibáñez", ["--rating", "1760", "--sex", "w", "--federation", "ESP"]),
)
LATE = ("Mikuláš Dvořák", ["--rating", "2100", "--sex", "m", "--federation", "SVK"])
TIEBREAKS = "BH-C1,BH,SB,DE,WON,BPG,ARO,PS"


@pytest.fixture
def home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    return helpers.laptop(monkeypatch, tmp_path)


@pytest.fixture
def bbp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The stand-in for bbpPairings as a program (it reads the TRF as bbpPairings does)."""
    exe = tmp_path / "bin" / "bbpPairings"
    exe.parent.mkdir()
    exe.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{STANDIN}" "$@"\n', encoding="utf-8")
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("STANDIN_LOG", str(tmp_path / "standin.jsonl"))
    return exe


def load(path: Path) -> Tournament:
    from companion.tournament.cli import arbiter_public

    return store.load(path, arbiter_public({}))


def cli(folder: Path, verb: str, *args: str, name: str = CUP) -> int:
    return run(["tournament", verb, name, "--dir", str(folder), *args])


def results(folder: Path, path: Path, typed: dict[int, str] | None = None) -> None:
    """Every game of the last round: the given boards as typed, the others won by the first
    mover."""
    t = load(path)
    r = t.played[-1]
    for g in r.games:
        text = (typed or {}).get(g.board, "1-0")
        assert cli(folder, "result", "--round", str(r.number), "--board", str(g.board),
                   text, name=t.name) == 0


def small_swiss(folder: Path, n: int = 6, *extra: str) -> Path:
    assert run(["tournament", "new", "Club Cup", "--game", "tamsk", "--system", "swiss",
                "--rounds", "4", "--dir", str(folder), *extra]) == 0
    for i in range(n):
        assert run(["tournament", "add-player", "Club Cup", f"P{i + 1}", "--rating",
                    str(2000 - 10 * i), "--dir", str(folder)]) == 0
    return folder / "Club-Cup.tournament.jsonl"


def answered(folder: Path) -> set[tuple[int, int]]:
    """The stand-in engine's last answer: its pairs, white first, by start number."""
    log = [json.loads(line) for line in (folder / "standin.jsonl").read_text().splitlines()]
    return {(a, b) for a, b in log[-1]["answer"]}


def played(t: Tournament, index: int) -> set[tuple[int, int]]:
    return {(t.numbers[g.first], t.numbers[g.second]) for g in t.played[index].games}


def evs(path: Path) -> list[str]:
    return [json.loads(line).get("ev", "") for line in path.read_text().splitlines()[1:]]


# ---------------------------------------------------------------------------- the Swiss


def test_the_default_swiss_is_the_dutch_system_numbered_by_rating(home: Path,
                                                                   tmp_path: Path) -> None:
    path = small_swiss(tmp_path, 6)
    assert cli(tmp_path, "pair", name="Club Cup") == 0
    t = load(path)
    assert t.played[0].engine == "dutch"
    assert t.numbers == {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6}
    assert [(g.first, g.second) for g in t.played[0].games] == [(1, 4), (5, 2), (3, 6)]


def test_the_simplified_swiss_only_when_chosen(home: Path, tmp_path: Path) -> None:
    assert run(["tournament", "new", "Club Cup", "--game", "tamsk", "--system", "swiss-simple",
                "--rounds", "3", "--dir", str(tmp_path)]) == 0
    for who in ("Ann", "Bob", "Cid", "Dee"):
        assert run(["tournament", "add-player", "Club Cup", who, "--dir", str(tmp_path)]) == 0
    assert cli(tmp_path, "pair", name="Club Cup") == 0
    assert load(tmp_path / "Club-Cup.tournament.jsonl").played[0].engine == "simple"


def test_bbppairings_pairs_round_1_a_withdrawal_and_a_forfeit(
    home: Path, tmp_path: Path, bbp: Path
) -> None:
    """--engine bbpPairings: round 1 (XXC), a withdrawal marked in its column, a forfeited
    game paired again (a forfeit is no meeting); the engine's pairing adopted as it gave it,
    colours included."""
    path = small_swiss(tmp_path, 5)
    engine = ["--engine", "bbpPairings", "--engine-path", str(bbp)]
    assert cli(tmp_path, "pair", *engine, name="Club Cup") == 0
    t = load(path)
    assert t.played[0].engine == "bbpPairings" and answered(tmp_path) == played(t, 0)
    assert played(t, 0) == {(1, 2), (3, 4)}  # the stand-in's pairing, not the Dutch 1-3
    results(tmp_path, path, {1: "--", 2: "--"})  # both games forfeited by both players
    assert cli(tmp_path, "withdraw", "P5", name="Club Cup") == 0
    assert cli(tmp_path, "pair", *engine, name="Club Cup") == 0
    t = load(path)
    log = [json.loads(line) for line in (tmp_path / "standin.jsonl").read_text().splitlines()]
    assert log[-2]["away"] == {"5": "Z"} and 5 not in log[-2]["to_pair"]
    assert t.played[1].bye_of(5) is not None and t.played[1].bye_of(5).kind == "absent"  # type: ignore[union-attr]
    assert answered(tmp_path) == played(t, 1)
    assert {frozenset(p) for p in played(t, 1)} == {frozenset(p) for p in played(t, 0)}


def test_bbppairings_is_found_through_the_environment(
    home: Path, tmp_path: Path, bbp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = small_swiss(tmp_path, 4)
    monkeypatch.setenv("BBP_PAIRINGS", str(bbp))
    assert cli(tmp_path, "pair", "--engine", "bbpPairings", name="Club Cup") == 0
    assert load(path).played[0].engine == "bbpPairings"


def test_an_engine_not_found_is_refused_never_replaced(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str]
) -> None:
    path = small_swiss(tmp_path, 4)
    monkeypatch.delenv("BBP_PAIRINGS", raising=False)
    monkeypatch.delenv("JAVAFO_JAR", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path / "nothing"))
    before = path.read_bytes()
    assert cli(tmp_path, "pair", "--engine", "bbpPairings", name="Club Cup") == 2
    assert "bbpPairings is not installed" in capsys.readouterr().err
    assert cli(tmp_path, "pair", "--engine", "javafo", name="Club Cup") == 2
    assert "JaVaFo is not installed" in capsys.readouterr().err
    assert path.read_bytes() == before


def test_a_late_entry_scores_the_tournaments_late_points_and_renumbers_by_rating(
    home: Path, tmp_path: Path
) -> None:
    path = small_swiss(tmp_path, 4, "--late-points", "0.5")
    assert cli(tmp_path, "pair", name="Club Cup") == 0
    results(tmp_path, path)
    assert run(["tournament", "add-player", "Club Cup", "Top", "--rating", "2500", "--dir",
                str(tmp_path)]) == 0
    t = load(path)
    assert t.players[5].late_from == 2 and t.points()[5] == 0.5
    assert cli(tmp_path, "pair", name="Club Cup") == 0
    assert load(path).numbers[5] == 1  # the initial ranking again, the late entrant first


def test_a_requested_bye_is_half_or_zero_up_to_the_limit_and_not_in_a_closed_round(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = small_swiss(tmp_path, 5, "--bye-rounds-closed", "4")
    assert cli(tmp_path, "bye", "P1", "--round", "4", name="Club Cup") == 2
    assert "no requested bye is granted in round 4" in capsys.readouterr().err
    assert cli(tmp_path, "bye", "P5", name="Club Cup") == 0
    assert cli(tmp_path, "bye", "P5", "--round", "2", "--points", "0", name="Club Cup") == 2
    assert "requested bye(s) a player may take" in capsys.readouterr().err
    assert cli(tmp_path, "bye-cancel", "P5", name="Club Cup") == 0
    assert cli(tmp_path, "bye", "P5", "--points", "0", name="Club Cup") == 0
    assert cli(tmp_path, "pair", name="Club Cup") == 0
    t = load(path)
    assert t.played[0].bye_of(5) is not None and t.played[0].bye_of(5).kind == "zero"  # type: ignore[union-attr]
    assert all(b.kind != "pab" for b in t.played[0].byes)  # four left to pair: no PAB


def test_unpair_takes_the_last_round_back_only_while_no_result_is_in(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = small_swiss(tmp_path, 4)
    assert cli(tmp_path, "pair", name="Club Cup") == 0
    assert cli(tmp_path, "unpair", "--why", "a player arrived late", name="Club Cup") == 0
    assert load(path).played == []
    assert cli(tmp_path, "pair", name="Club Cup") == 0
    assert cli(tmp_path, "result", "--round", "1", "--board", "1", "1-0", name="Club Cup") == 0
    assert cli(tmp_path, "unpair", name="Club Cup") == 2
    assert "round 1 has results already" in capsys.readouterr().err


def test_a_swap_is_accepted_with_a_warning_naming_each_criterion_it_breaks(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = small_swiss(tmp_path, 4)
    assert cli(tmp_path, "pair", name="Club Cup") == 0
    results(tmp_path, path)
    assert cli(tmp_path, "pair", name="Club Cup") == 0
    t = load(path)
    met = {frozenset(g.players()) for g in t.played[0].games}
    g1 = t.played[1].games[0]
    other = next(p for p in (1, 2, 3, 4) if frozenset((g1.first, p)) in met)
    capsys.readouterr()
    assert cli(tmp_path, "repair", "--swap", str(g1.second), str(other), "--why", "test",
               name="Club Cup") == 0
    out = capsys.readouterr()
    assert "C1:" in out.err and "have already played each other" in out.err
    t = load(path)
    assert t.played[1].engine == "manual" and any("C1:" in w for w in t.played[1].warnings)


def test_a_colour_change_is_warned_of_rule_5_2(home: Path, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    path = small_swiss(tmp_path, 4)
    assert cli(tmp_path, "pair", name="Club Cup") == 0
    capsys.readouterr()
    assert cli(tmp_path, "repair", "--colours", "1", name="Club Cup") == 0
    assert "5.2" in capsys.readouterr().err
    g = load(path).played[0].games[0]
    assert (g.first, g.second) == (3, 1)


def test_a_whole_manual_pairing_and_its_bye(home: Path, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    path = small_swiss(tmp_path, 5)
    assert cli(tmp_path, "pair", name="Club Cup") == 0
    assert cli(tmp_path, "repair", "--pairs", "P1-P2, P3-P4", "--bye", "P5",
               name="Club Cup") == 0
    r = load(path).played[0]
    assert [(g.first, g.second) for g in r.games] == [(1, 2), (3, 4)]
    assert r.bye_of(5) is not None and r.bye_of(5).kind == "pab"  # type: ignore[union-attr]
    assert r.warnings == () and "warning" not in capsys.readouterr().err  # round 1: legal
    assert cli(tmp_path, "repair", "--pairs", "P1-P1", name="Club Cup") == 2
    assert "paired twice" in capsys.readouterr().err


def test_tie_breaks_are_chosen_until_round_1(home: Path, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = small_swiss(tmp_path, 4, "--tiebreaks", "BH,SB")
    assert cli(tmp_path, "settings", "--tiebreaks", "BH-C1,DE,game:rings",
               name="Club Cup") == 0
    assert load(path).settings.tiebreaks == ("BH-C1", "DE", "game:rings")
    assert cli(tmp_path, "settings", "--tiebreaks", "XX", name="Club Cup") == 2
    assert "unknown tie-break XX" in capsys.readouterr().err
    assert cli(tmp_path, "pair", name="Club Cup") == 0
    assert cli(tmp_path, "settings", "--tiebreaks", "BH", name="Club Cup") == 2
    assert "tiebreaks cannot change once round 1 is paired" in capsys.readouterr().err
    assert cli(tmp_path, "settings", "--max-byes", "2", "--city", "Brno",
               name="Club Cup") == 0


# ---------------------------------------------------------------------------- round robin


def test_a_double_round_robin_by_lot_plays_each_pair_twice_colours_reversed(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["tournament", "new", "Club Cup", "--game", "tamsk", "--system", "round-robin",
                "--rounds", "6", "--double", "--dir", str(tmp_path)]) == 0
    for who in ("Ann", "Bob", "Cid", "Dee"):
        assert run(["tournament", "add-player", "Club Cup", who, "--dir", str(tmp_path)]) == 0
    path = tmp_path / "Club-Cup.tournament.jsonl"
    assert cli(tmp_path, "lots", "--seed", "club-night", name="Club Cup") == 0
    assert "by lot (seed club-night)" in capsys.readouterr().out
    drawn = load(path).numbers
    for _ in range(6):
        assert cli(tmp_path, "pair", name="Club Cup") == 0
        results(tmp_path, path, {})
    t = load(path)
    assert t.numbers == drawn
    games = [(g.first, g.second) for r in t.played for g in r.games]
    assert sorted(games[:6]) == sorted((b, a) for a, b in games[6:])
    assert cli(tmp_path, "lots", name="Club Cup") == 2


def test_a_draw_of_lots_is_drawn_again_from_its_seed_when_the_file_is_read(
    home: Path, tmp_path: Path
) -> None:
    assert run(["tournament", "new", "Club Cup", "--game", "tamsk", "--system", "round-robin",
                "--rounds", "3", "--dir", str(tmp_path)]) == 0
    for who in ("Ann", "Bob", "Cid", "Dee"):
        assert run(["tournament", "add-player", "Club Cup", who, "--dir", str(tmp_path)]) == 0
    assert cli(tmp_path, "lots", "--seed", "s1", name="Club Cup") == 0
    lines = [json.loads(x) for x in (tmp_path / "Club-Cup.tournament.jsonl").read_text()
             .splitlines()]
    body = {k: v for k, v in lines[-1].items() if k not in ("seq", "prev", "hash", "sig")}
    forged = dict(body, numbers={k: 5 - v for k, v in body["numbers"].items()})
    events = [(i, {k: v for k, v in x.items() if k not in ("seq", "prev", "hash", "sig")})
              for i, x in enumerate(lines[1:-1], start=2)]
    fold(lines[0], [*events, (len(lines), body)])
    with pytest.raises(ValueError, match="not the draw of lots with seed s1"):
        fold(lines[0], [*events, (len(lines), forged)])


# ---------------------------------------------------------------------------- the evening


def test_the_nine_player_swiss_with_every_control_and_its_trf_read_back(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 26's evening: 9 players with accented names, 4 rounds, a withdrawal, forfeits,
    every control once; its TRF read back by import-trf gives the same standings."""
    d = tmp_path
    assert run(["tournament", "new", CUP, "--game", "tamsk", "--system", "swiss", "--rounds",
                "4", "--tiebreaks", "BH,SB", "--late-points", "0.5", "--bye-rounds-closed",
                "4", "--dir", str(d)]) == 0
    path = d / FILE
    for who, extra in PLAYERS:
        assert run(["tournament", "add-player", CUP, who, *extra, "--dir", str(d)]) == 0
    assert cli(d, "settings", "--tiebreaks", TIEBREAKS, "--city", "Brno", "--host-federation",
               "CZE", "--start-date", "2026/11/20", "--chief-arbiter", "Jana Králová",
               "--time-control", "15 min + 10 s") == 0
    assert cli(d, "bye", "Ines Ibáñez", "--round", "1", "--points", "0") == 0
    assert cli(d, "bye-cancel", "Ines Ibáñez", "--round", "1") == 0
    # round 1
    assert cli(d, "pair") == 0
    t = load(path)
    assert t.numbers[2] == 1 and t.numbers[7] == 8  # Żółć 2305 first, the unrated last
    assert cli(d, "unpair", "--why", "a player's rating was wrong") == 0
    assert cli(d, "pair") == 0
    results(d, path, {1: "½-½", 4: "+-"})
    # round 2: a late entry, a requested half-point bye, a swap
    assert run(["tournament", "add-player", CUP, LATE[0], *LATE[1], "--dir", str(d)]) == 0
    assert cli(d, "bye", "Anaïs Lefèvre", "--points", "0.5") == 0
    assert cli(d, "pair") == 0
    r2 = load(path).played[1]
    a, b = r2.games[0].second, r2.games[1].second
    assert cli(d, "repair", "--swap", str(a), str(b), "--why", "players' request") == 0
    results(d, path, {2: "0-1", 3: "-+"})
    # round 3: a withdrawal, a colour change
    assert cli(d, "withdraw", "Søren Ødegård", "--from", "3", "--why", "ill") == 0
    assert cli(d, "withdraw", "Ewa Ślusarczyk", "--why", "left the event") == 0
    assert cli(d, "pair") == 0
    assert cli(d, "repair", "--colours", "2") == 0
    results(d, path, {1: "0-1", 2: "½-½"})
    # round 4: he comes back; a whole manual pairing, then the Dutch one again
    assert cli(d, "reinstate", "Søren Ødegård", "--from", "4") == 0
    assert cli(d, "pair") == 0
    dutch = load(path).played[3]
    pairs = ",".join(f"{g.second}-{g.first}" for g in dutch.games)
    pab = next((str(x.player) for x in dutch.byes if x.kind == "pab"), None)
    assert cli(d, "repair", "--pairs", pairs, *(["--bye", pab] if pab else [])) == 0
    results(d, path, {3: "--"})
    t = load(path)
    assert len(t.played) == 4 and all(r.done for r in t.played)
    assert t.players[9].late_from == 2 and t.players[5].away == [(3, 4)]
    assert t.players[6].withdrawn
    # every control is a signed record the history shows
    capsys.readouterr()
    assert cli(d, "history") == 0
    trail = capsys.readouterr().out
    for word in ("settings:", "asks for a bye", "bye in round 1 cancelled", "unpaired",
                 "late entry 9. Mikuláš Dvořák", "paired again (by hand)", "withdrawn from "
                 "round 3", "back from round 4", "why: ill"):
        assert word in trail, word
    # the standings and the TRF, read back into another tournament
    trf = d / "cup.trf"
    assert cli(d, "standings", "--trf", str(trf)) == 0
    text = trf.read_text(encoding="utf-8")
    assert "012 Podzimní Tamsk" in text and "Łukasz Żółć" in text and "XXC white1" in text
    assert "022 Brno" in text and "102 Jana Králová" in text and "XXR 4" in text
    assert "wWFM Zoë Müller" in text and "GER    24601234 1994/03/02" in text
    back = fide_trf.read(trf.read_bytes())
    assert back.problems() == []
    other = tmp_path / "other"
    other.mkdir()
    assert run(["tournament", "import-trf", str(trf), "--game", "tamsk", "--tiebreaks",
                TIEBREAKS, "--name", "Copy", "--dir", str(other)]) == 0
    copy = load(other / "Copy.tournament.jsonl")
    assert {c.via for c in copy.trail} == {"import-trf"}
    ewa = copy.find("Ewa Ślusarczyk")
    assert ewa.withdrawn and ewa.away == [(3, None)]

    def table(t: Tournament) -> list[tuple[int, str, dict[str, float], frozenset[str]]]:
        return [(r.rank, r.name, r.values, frozenset(r.blank)) for r in standings(t).rows]

    assert table(copy) == table(t)


DATA = Path(__file__).parent / "fide" / "data"


def test_a_swiss_manager_export_is_imported_with_every_player_field(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["tournament", "import-trf", str(DATA / "swiss_manager_open.trf"), "--game",
                "tamsk", "--dir", str(tmp_path)]) == 0
    assert "6 players, 3 of 3 rounds imported" in capsys.readouterr().out
    t = load(tmp_path / "Open-Prague-2026.tournament.jsonl")
    navara = t.find("Navara, David")
    assert (navara.title, navara.sex, navara.federation, navara.fide_id, navara.birth,
            navara.rating) == ("GM", "m", "CZE", 309095, "1985/03/27", 2690)
    assert t.settings.city == "Praha" and t.settings.chief_arbiter == "IA Novák, Jan 300123"
    assert t.points() == {t.find(n).id: p for n, p in (
        ("Navara, David", 2.5), ("Král, Pavel", 1.5), ("Malá, Anna", 2.0),
        ("Šťastný, Jiří", 0.5), ("Ďurčík, Tomáš", 1.0), ("Nová, Eva", 1.5))}
    assert t.played[2].bye_of(t.find("Nová, Eva").id).kind == "pab"  # type: ignore[union-attr]
    assert {c.via for c in t.trail} == {"import-trf"}
    g = t.played[0].games[0]
    assert g.source is not None and g.source.kind == "trf"


def test_an_imported_event_is_continued_here(home: Path, tmp_path: Path) -> None:
    """bbpPairings' own C9 file: one round played, a zero-point bye; round 2 is paired here."""
    assert run(["tournament", "import-trf", str(DATA / "bbp_dutch_2025_C9.trf"), "--game",
                "tamsk", "--name", "C9", "--dir", str(tmp_path)]) == 0
    path = tmp_path / "C9.tournament.jsonl"
    t = load(path)
    assert t.played[0].bye_of(5) is not None and t.played[0].bye_of(5).kind == "zero"  # type: ignore[union-attr]
    assert cli(tmp_path, "pair", name="C9") == 0
    t = load(path)
    met = {frozenset(g.players()) for g in t.played[0].games}
    assert len(t.played) == 2 and not met & {frozenset(g.players()) for g in t.played[1].games}


def test_a_trf_that_cannot_be_read_is_one_line_and_no_file(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.trf"
    bad.write_text("012 Bad\n001    1      A                                 2000"
                   "                             1.0    1     2 w 1\n", encoding="utf-8")
    assert run(["tournament", "import-trf", str(bad), "--game", "tamsk", "--dir",
                str(tmp_path)]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert not list(tmp_path.glob("*.tournament.jsonl"))


def test_the_next_round_paired_by_hand_is_warned_of_what_it_breaks(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`pair --pairs`: when no system may pair the round (the simplified Swiss refused), the
    arbiter pairs it by hand; a rematch is accepted with C1 named."""
    path = small_swiss(tmp_path, 4)
    assert cli(tmp_path, "pair", "--pairs", "P1-P2,P3-P4", "--why", "by hand",
               name="Club Cup") == 0
    results(tmp_path, path)
    capsys.readouterr()
    assert cli(tmp_path, "pair", "--pairs", "P2-P1,P4-P3", name="Club Cup") == 0
    assert "C1:" in capsys.readouterr().err
    t = load(path)
    assert [r.engine for r in t.played] == ["manual", "manual"]
    assert any("C1:" in w for w in t.played[1].warnings)
    assert cli(tmp_path, "pair", "--bye", "P1", name="Club Cup") == 2
