"""`companion simulate` on Tantrix files: the contract's output, bad lines, the readable summary."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.scenario import MalformedInput, parse_lines
from companion.tantrix.simulate import simulate, summary

HEADER = '{"game": "tantrix", "players": ["red", "yellow"]}'


def run(*lines: str, header: str = HEADER) -> dict[str, object]:
    s = parse_lines([header, *lines])
    return simulate(s.header, s.events)


def malformed(*lines: str, header: str = HEADER) -> MalformedInput:
    with pytest.raises(MalformedInput) as info:
        run(*lines, header=header)
    return info.value


def test_output_has_every_contract_field() -> None:
    out = run('{"ev": "place", "tile": 1, "q": 0, "r": 0, "rot": 0, "t": 1.5}')
    for field in (
        "game",
        "placed",
        "bag",
        "phase",
        "turn",
        "forced",
        "controlled",
        "scores",
        "over",
        "winner",
        "violations",
    ):
        assert field in out
    assert out["game"] == "tantrix"
    assert out["scores"] == {
        "red": {"line": 1, "loop": 0, "points": 1},
        "yellow": {"line": 1, "loop": 0, "points": 1},
    }


def test_violations_echo_time_player_kind_and_detail() -> None:
    out = run(
        '{"ev": "place", "tile": 1, "q": 0, "r": 0, "rot": 0, "t": 1}',
        '{"ev": "place", "tile": 2, "q": 1, "r": 0, "rot": 0, "t": 4.5}',
    )
    assert out["violations"] == [
        {
            "t": 4.5,
            "player": "red",
            "kind": "second free move",
            "detail": "red has had his free move; (1, 0) is not a forced space",
            "line": 3,
        }
    ]


def test_unknown_fields_in_header_and_events_are_ignored() -> None:
    out = run(
        '{"ev": "place", "tile": 1, "q": 0, "r": 0, "rot": 0, "seq": 1, "hash": "ab", "src": "x"}',
        '{"ev": "done", "wall": "2024-01-01T00:00:00Z", "prev": "ab"}',
        header='{"game": "tantrix", "players": ["red", "yellow"], "seq": 0, "note": "x"}',
    )
    assert out["placed"] == 1 and out["turn"] == "yellow" and out["violations"] == []


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"ev": "pass"}', "unknown event 'pass'"),
        ('{"tile": 1}', 'every event needs "ev"'),
        ('{"ev": "place", "q": 0, "r": 0, "rot": 0}', 'needs "tile"'),
        ('{"ev": "place", "tile": 0, "q": 0, "r": 0, "rot": 0}', '"tile" must be between 1 and 56'),
        (
            '{"ev": "place", "tile": 57, "q": 0, "r": 0, "rot": 0}',
            '"tile" must be between 1 and 56',
        ),
        ('{"ev": "place", "tile": "5", "q": 0, "r": 0, "rot": 0}', '"tile" must be an integer'),
        ('{"ev": "place", "tile": true, "q": 0, "r": 0, "rot": 0}', '"tile" must be an integer'),
        ('{"ev": "place", "tile": 5, "q": 0.5, "r": 0, "rot": 0}', '"q" must be an integer'),
        ('{"ev": "place", "tile": 5, "q": 0, "r": 0}', 'needs "rot"'),
        ('{"ev": "place", "tile": 5, "q": 0, "r": 0, "rot": 6}', '"rot" must be between 0 and 5'),
        ('{"ev": "place", "tile": 5, "q": 0, "r": 9999999, "rot": 0}', '"r" must be between'),
        ('{"ev": "done", "t": -1}', "finite number"),
    ],
)
def test_a_malformed_event_names_its_line(line: str, message: str) -> None:
    exc = malformed('{"ev": "done", "t": 0}', line)
    assert exc.line == 3
    assert message in exc.message


def test_time_going_backwards_is_malformed() -> None:
    exc = malformed('{"ev": "done", "t": 5}', '{"ev": "done", "t": 4}')
    assert exc.line == 3 and "backwards" in exc.message


def test_lines_after_end_are_still_checked_for_form() -> None:
    exc = malformed('{"ev": "end"}', '{"ev": "place", "tile": 99, "q": 0, "r": 0, "rot": 0}')
    assert exc.line == 3


@pytest.mark.parametrize(
    "players",
    [
        '["red"]',
        '["red", "yellow", "green", "blue", "red"]',
        '["red", "red"]',
        '["red", "pink"]',
        '"red"',
        "null",
        "[1, 2]",
    ],
)
def test_bad_players_in_the_header_are_malformed(players: str) -> None:
    exc = malformed('{"ev": "done"}', header=f'{{"game": "tantrix", "players": {players}}}')
    assert exc.line == 1 and "players" in exc.message


def test_the_cli_exits_2_on_a_malformed_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(HEADER + '\n{"ev": "place", "tile": 60, "q": 0, "r": 0, "rot": 0}\n')
    assert main(["simulate", str(path), "--json"]) == 2
    assert "line 2" in capsys.readouterr().err


def test_the_cli_prints_the_json_object(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "ok.jsonl"
    path.write_text(HEADER + '\n{"ev": "place", "tile": 1, "q": 0, "r": 0, "rot": 0}\n')
    assert main(["simulate", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["placed"] == 1


def test_summary_shows_state_scores_map_tiles_and_refusals() -> None:
    out = run(
        '{"ev": "place", "tile": 1, "q": 1, "r": -1, "rot": 1}', '{"ev": "done"}',
        '{"ev": "place", "tile": 7, "q": 1, "r": 0, "rot": 0}', '{"ev": "done"}',
        '{"ev": "place", "tile": 4, "q": 0, "r": 1, "rot": 3, "t": 9}',
        '{"ev": "place", "tile": 4, "q": 0, "r": 1, "rot": 1}',
    )  # fmt: skip
    text = summary(out)
    assert "3 tiles placed, bag 41 (restricted phase)" in text
    assert "red to play (free move played)" in text
    assert "Forced spaces: (0, 0)" in text
    assert "Controlled cells: (-1, 1), (0, -1)" in text
    assert "restriction 1" in text and "t=9 red" in text
    assert " 7 at (1, 0) rot 0  B Y R Y R B" in text
    assert "!!" in text and "xx" in text  # the map marks forced and controlled cells


def test_summary_of_a_finished_game_names_the_winner() -> None:
    path = (
        Path(__file__).parent.parent / "scenarios" / "tantrix" / "t34_full_game_three_players.jsonl"
    )
    s = parse_lines(path.read_text().splitlines())
    text = summary(simulate(s.header, s.events))
    assert "Game over: red wins" in text


def test_a_note_in_a_journal_changes_nothing() -> None:
    out = run(
        '{"ev": "place", "tile": 1, "q": 0, "r": 0, "rot": 0}',
        '{"ev": "note", "text": "resumed after a power cut"}',
    )
    assert out["placed"] == 1 and out["turn"] == "red" and out["violations"] == []
