"""Outside engines through a stand-in for bbpPairings (``standin_bbp.py``, which reads the TRF
the way bbpPairings' documentation describes and refuses what bbpPairings would); bbpPairings
itself cannot be installed here. Round 1 (``XXC``), a withdrawal, a forfeit re-paired, and every
way an engine can fail."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

import pytest

from companion.tournament.fide import engines, trf
from companion.tournament.fide.dutch import EngineFault, NoLegalPairing
from companion.tournament.fide.history import Bye, FideError
from tests.tournament.fide.helpers import history, pairs, rnd

STANDIN = Path(__file__).parent / "standin_bbp.py"


@pytest.fixture
def bbp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> engines.Engine:
    exe = tmp_path / "bin" / "bbpPairings"
    exe.parent.mkdir()
    exe.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{STANDIN}" "$@"\n', encoding="utf-8")
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("STANDIN_LOG", str(tmp_path / "log.jsonl"))
    return engines.find_bbp(str(exe))


def _log(tmp_path: Path) -> list[dict[str, object]]:
    """What the stand-in read, each time (its answers left out)."""
    lines = [json.loads(ln) for ln in (tmp_path / "log.jsonl").read_text().splitlines()]
    return [x for x in lines if "answer" not in x]


def test_round_one_is_paired_with_the_initial_colour_line(bbp: engines.Engine,
                                                          tmp_path: Path) -> None:
    p = engines.run(bbp, history(6))
    assert _log(tmp_path)[0]["initial"] == "white" and _log(tmp_path)[0]["round"] == 1
    # the engine's pairing, colours included, as it gave it (the stand-in pairs 1-2, 3-4, 5-6
    # and gives white to the odd numbers)
    assert sorted(pairs(p)) == [(1, 2), (3, 4), (5, 6)] and p.engine == "bbpPairings"


def test_a_withdrawn_player_is_marked_in_every_column_from_his_withdrawal(
        bbp: engines.Engine, tmp_path: Path) -> None:
    h = history(5, rnd("1-4 1-0", "5-2 1-0", byes=[(3, "pab")]))
    p2 = engines.run(bbp, h, [Bye(3, "absent")])
    assert _log(tmp_path)[0]["away"] == {"3": "Z"}
    assert 3 not in {x for g in p2.games for x in (g.white, g.black)} | {p2.bye}
    games = " ".join(f"{g.white}-{g.black} 1-0" for g in p2.games).split(" ")
    h3 = history(5, rnd("1-4 1-0", "5-2 1-0", byes=[(3, "pab")]),
                 rnd(*[" ".join(games[i:i + 2]) for i in range(0, len(games), 2)],
                     byes=[(3, "absent"), *([(p2.bye, "pab")] if p2.bye else [])]))
    text = trf.write_pairing_input(h3, [Bye(3, "absent")])
    three = next(ln for ln in text.split("\r\n") if ln.startswith("001    3"))
    assert three[101:109] == "0000 - Z" and three[111:119] == "0000 - Z"
    engines.run(bbp, h3, [Bye(3, "absent")])
    assert _log(tmp_path)[1]["away"] == {"3": "Z"}


def test_a_forfeited_game_may_be_paired_again(bbp: engines.Engine, tmp_path: Path) -> None:
    # C.04.2 3.5: 1 won against 2 by forfeit in round 1; in round 3 the engine pairs them
    # again, and the pairing is taken as it came (the old tool refused it as a rematch)
    h = history(6, rnd("1-2 +-", "3-4 1-0", "5-6 1-0"), rnd("1-3 1-0", "2-5 1-0", "4-6 1-0"))
    p = engines.run(bbp, h)
    assert pairs(p) == [(2, 1), (5, 4), (3, 6)]
    assert _log(tmp_path)[0]["points"] == {"1": 2.0, "2": 1.0, "3": 1.0, "4": 1.0, "5": 1.0,
                                           "6": 0.0}


def test_requested_byes_are_in_the_column_of_the_round(bbp: engines.Engine,
                                                       tmp_path: Path) -> None:
    h = history(6, rnd("1-4 1-0", "5-2 1/2", "3-6 0-1"))
    p = engines.run(bbp, h, [Bye(1, "half"), Bye(2, "zero")])
    assert _log(tmp_path)[0]["away"] == {"1": "H", "2": "Z"}
    assert {x for g in p.games for x in (g.white, g.black)} == {3, 4, 5, 6}


def test_no_legal_pairing_exit_1(bbp: engines.Engine) -> None:
    with pytest.raises(NoLegalPairing, match="no legal pairing exists for round 2"):
        engines.run(bbp, history(2, rnd("1-2 1-0"), total=3))


def test_a_malformed_file_exit_3(bbp: engines.Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STANDIN_EXIT", "3")
    with pytest.raises(FideError, match="refused the tournament file as malformed"):
        engines.run(bbp, history(4))


def test_an_engine_failure_is_named(bbp: engines.Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STANDIN_EXIT", "2")
    with pytest.raises(FideError, match=r"bbpPairings failed \(exit 2\)"):
        engines.run(bbp, history(4))


def test_a_time_out(bbp: engines.Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STANDIN_SLEEP", "30")
    with pytest.raises(FideError, match="gave no pairing within 0.5 s"):
        engines.run(bbp, history(4), timeout=0.5)


def test_an_answer_breaking_c1_is_refused(bbp: engines.Engine,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STANDIN_ANSWER", "2|1 2|3 4|")
    with pytest.raises(EngineFault, match="C1: P1 \\(1\\) and P2 \\(2\\) have already played"):
        engines.run(bbp, history(4, rnd("1-2 1-0", "3-4 1-0")))


def test_an_answer_leaving_a_player_out_is_refused(bbp: engines.Engine,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STANDIN_ANSWER", "1|1 3|")
    with pytest.raises(EngineFault, match="C4: P2 \\(2\\) is not paired"):
        engines.run(bbp, history(4, rnd("1-2 1-0", "3-4 1-0")))


def test_an_unreadable_answer_is_refused(bbp: engines.Engine,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STANDIN_ANSWER", "two pairs")
    with pytest.raises(FideError, match="not a pairing"):
        engines.run(bbp, history(4))


def test_the_stand_in_refuses_what_bbp_refuses(tmp_path: Path) -> None:
    """The stand-in is strict where bbpPairings is: no XXC before round 1 (the old writer's
    fault), start numbers not in rating order, points that do not match."""
    import subprocess

    good = trf.write_pairing_input(history(4))
    cases = {
        "no XXC": good.replace("XXC white1\r\n", ""),
        "entry order": good.replace(" 2390 ", " 2000 ", 1),
        "points": good.replace(" 0.0 ", " 1.0 ", 1),
        "no XXR": good.replace("XXR 5\r\n", ""),
    }
    for why, text in cases.items():
        src = tmp_path / "in.trf"
        src.write_text(text, encoding="utf-8", newline="")
        done = subprocess.run([sys.executable, str(STANDIN), "--dutch", str(src), "-p",
                               str(tmp_path / "out.txt")], capture_output=True, text=True,
                              check=False, env={**os.environ, "STANDIN_LOG": ""})
        assert done.returncode == 3, why


def test_bbp_is_found_through_the_environment_then_the_path(tmp_path: Path) -> None:
    exe = tmp_path / "bbpPairings"
    exe.write_text("#!/bin/sh\n", encoding="utf-8")
    exe.chmod(0o755)
    assert engines.find_bbp(environ={"BBP_PAIRINGS": str(exe)}).command[0] == str(exe)
    assert engines.find_bbp(environ={}, path=str(tmp_path)).command == (str(exe), "--dutch")
    with pytest.raises(FideError, match="not installed: give its path, set \\$BBP_PAIRINGS"):
        engines.find_bbp(environ={}, path=str(tmp_path / "nowhere"))
    with pytest.raises(FideError, match="bbpPairings is not at /no/such"):
        engines.find_bbp("/no/such", environ={})


def test_javafo_needs_its_jar_and_java(tmp_path: Path) -> None:
    jar = tmp_path / "javafo.jar"
    jar.write_bytes(b"PK")
    java = tmp_path / "java"
    java.write_text("#!/bin/sh\n", encoding="utf-8")
    java.chmod(0o755)
    eng = engines.find_javafo(environ={"JAVAFO_JAR": str(jar)}, path=str(tmp_path))
    assert eng.command == (str(java), "-ea", "-jar", str(jar)) and eng.name == "javafo"
    with pytest.raises(FideError, match="JaVaFo needs Java"):
        engines.find_javafo(str(jar), environ={}, path=str(tmp_path / "nowhere"))
    with pytest.raises(FideError, match="set \\$JAVAFO_JAR"):
        engines.find_javafo(environ={})
