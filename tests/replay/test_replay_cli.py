"""`companion replay` and `companion notation` on the command line, and the stepping keys."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.replay import load, terminal
from companion.replay.cli import main, parse_at
from companion.simulate import load as load_file
from companion.simulate import simulator_for
from tests.replay.games import journal, scenario

RIGHT, LEFT, HOME, END = "\x1b[C", "\x1b[D", "\x1b[H", "\x1b[F"


def test_without_a_terminal_every_position_is_printed_and_it_exits(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = scenario("p02_forfeit_adjusted")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    replay = load(path)
    assert out.count("-" * 72) == len(replay.frames) - 1
    assert "Tamsk start of the game" in out
    assert "Penalties: 1" in out and "15-second timer" in out
    assert out.split("-" * 72)[-1].lstrip().startswith(
        f"Tamsk after move {replay.moves} of {replay.moves}"  # the end is not a move
    )


def test_at_a_move_prints_that_one_position(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(scenario("p01_opening_and_claim")), "--at", "7"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Tamsk move 7 of 7  [1:31.0]  r1 a2-b2 +ring(black) @1:30.5")
    assert "black claims the ring on b2" in out
    assert "Rings left: red 29, black 28" in out


def test_at_a_time_runs_the_clocks_to_that_instant(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(scenario("p01_opening_and_claim")), "--at", "1:00"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Tamsk position at 1:00.0, after move 6")
    assert "r1 on a2  sand  123.0 s  running" in out  # turned at 0:03: 180 - 57


def test_at_accepts_moves_and_times() -> None:
    assert parse_at("12") == ("move", 12.0)
    assert parse_at("1:23.4") == ("time", 83.4)
    assert parse_at("83.5s") == ("time", 83.5)


def test_a_position_that_is_not_in_the_record_is_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = str(scenario("p01_opening_and_claim"))
    assert main(["replay", path, "--at", "99"]) == 2
    assert "there is no move 99" in capsys.readouterr().err
    assert main(["replay", path, "--at", "9:00"]) == 2
    assert "the record ends at 95.0 s" in capsys.readouterr().err
    with pytest.raises(SystemExit) as caught:
        main(["replay", path, "--at", "soon"])
    assert caught.value.code == 2


def test_the_move_list_names_the_cells_as_the_picture_does(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The list shows the lines of the notation, each cell by the row letter and column number
    the replay's board draws (the notation file keeps ``(0,0)``)."""
    assert main(["replay", str(scenario("t01_discovery_red_loop")), "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        "  1. red #1 b2 r5 @0:00.0 done@0:01.0",
        "  2. blue #2 b3 r4 @0:02.0 done@0:03.0",
        "  3. red #4 c3 r4 @0:04.0 done@0:05.0",
        "  4. blue #3 c2 r1 @0:06.0 done@0:07.0",
    ]


def test_keys_step_forward_and_back() -> None:
    replay = load(scenario("p01_opening_and_claim"))
    last = len(replay.frames) - 1
    assert terminal.step(0, RIGHT, last) == 1 and terminal.step(0, "n", last) == 1
    assert terminal.step(3, LEFT, last) == 2 and terminal.step(3, "p", last) == 2
    assert terminal.step(0, LEFT, last) == 0 and terminal.step(last, RIGHT, last) == last
    assert terminal.step(4, HOME, last) == 0 and terminal.step(4, END, last) == last
    assert terminal.step(4, "q", last) is None and terminal.step(4, "x", last) == 4


def test_the_stepper_shows_one_screen_per_move_and_stops_at_q() -> None:
    replay = load(scenario("p01_opening_and_claim"))
    screens: list[str] = []
    end = terminal.run(replay, [RIGHT, RIGHT, LEFT, END, "q", RIGHT], screens.append)
    assert end == len(replay.frames) - 1
    assert len(screens) == 5
    assert "move 2 of 7" in screens[2] and "move 1 of 7" in screens[3]
    assert all(s.startswith(terminal.CLEAR) and terminal.HELP in s for s in screens)


def test_pictures_gif_and_html_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(scenario("t01_discovery_red_loop"))
    gif, html, pngs = tmp_path / "g.gif", tmp_path / "g.html", tmp_path / "pngs"
    args = ["replay", path, "--png", str(pngs), "--gif", str(gif), "--html", str(html)]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "wrote 5 pictures" in out and gif.exists() and html.exists()
    assert len(list(pngs.glob("frame-*.png"))) == 5


def test_notation_writes_text_that_simulate_reads_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = scenario("p02_forfeit_adjusted")
    out_file = tmp_path / "game.txt"
    assert main(["notation", str(source), "-o", str(out_file)]) == 0
    assert "wrote" in capsys.readouterr().out
    text = out_file.read_text(encoding="utf-8")
    assert text.startswith("; companion notation 1\n[game \"tamsk\"]")
    sc = load_file(source).scenario
    back = load_file(out_file).scenario
    simulate = simulator_for("tamsk").simulate
    assert simulate(back.header, back.events) == simulate(sc.header, sc.events)
    assert main(["notation", str(source)]) == 0
    assert capsys.readouterr().out == text


def test_a_file_that_cannot_be_replayed_names_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"game": "tamsk"}\n{"t": 1, "ev": "release", "glass": "r1"\n')
    assert main(["replay", str(bad)]) == 2
    assert "line 2" in capsys.readouterr().err
    assert main(["notation", str(tmp_path / "missing.jsonl")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_a_torn_journal_replays_with_a_note_on_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    events = [dict(e) for _, e in load_file(scenario("p01_opening_and_claim")).scenario.events]
    path = journal(tmp_path / "g.jsonl", {"game": "tamsk", "level": 2}, events)
    with path.open("ab") as f:
        f.write(b'{"t":96,"ev":"ri')
    assert main(["replay", str(path), "--at", "7"]) == 0
    captured = capsys.readouterr()
    assert "note:" in captured.err and "incomplete" in captured.err
    assert "Tamsk move 7 of 7" in captured.out


def test_notation_of_a_journal_keeps_the_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    events = [dict(e) for _, e in load_file(scenario("p01_opening_and_claim")).scenario.events]
    header = {"game": "tamsk", "level": 2, "names": {"red": "Ada", "black": "Ben"}}
    path = journal(tmp_path / "g.jsonl", header, events)
    assert main(["notation", str(path)]) == 0
    text = capsys.readouterr().out
    assert '[names {"red": "Ada", "black": "Ben"}]' in text
    assert json.loads(text.split("[names ", 1)[1].split("]\n", 1)[0]) == header["names"]
