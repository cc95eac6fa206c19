"""`companion simulate` for Tokami: the scenario contract (docs/tokami.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion import cli
from companion.scenario import MalformedInput, parse_lines
from companion.tokami.simulate import simulate, summary

HEADER = '{"game": "tokami", "players": ["Anna", "Ben"]}'


def run(*lines: str, header: str = HEADER) -> dict[str, Any]:
    scenario = parse_lines([header, *lines])
    return simulate(scenario.header, scenario.events)


def malformed(*lines: str, header: str = HEADER) -> MalformedInput:
    with pytest.raises(MalformedInput) as info:
        run(*lines, header=header)
    return info.value


def test_the_output_has_every_contract_field() -> None:
    result = run('{"t": 1, "ev": "bonus", "block": "blue", "bonus": "green"}')
    for key in (
        "game", "round", "rounds", "turn", "scores", "held", "blocks_left", "on_cross",
        "forbidden", "over", "winner", "violations", "corrections", "history", "standings",
    ):
        assert key in result, key
    assert result["game"] == "tokami"
    assert result["scores"]["Anna"] == {"total": 1, "rounds": [1]}
    assert result["history"] == [
        {"player": "Anna", "round": 1, "ev": "bonus", "block": "blue", "bonus": "green"}
    ]
    json.dumps(result)  # plain JSON data all the way down


def test_a_refused_turn_is_a_violation_with_time_player_kind_and_detail() -> None:
    result = run('{"t": 4.5, "ev": "higher", "player": "Ben", "block": "blue"}')
    assert result["violations"] == [
        {"t": 4.5, "player": "Ben", "kind": "out of turn", "detail": "it is Anna's turn, not Ben's"}
    ]
    assert result["turns"] == 0


def test_a_violation_without_player_names_the_player_on_turn() -> None:
    result = run('{"t": 1, "ev": "declined"}')
    assert result["violations"][0]["player"] == "Anna"


def test_t_may_be_omitted() -> None:
    result = run('{"ev": "higher", "block": "blue"}', '{"ev": "higher", "block": "red"}')
    assert result["turns"] == 2
    assert result["t"] == 0.0


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ('{"t": 1, "ev": "jump"}', "unknown event 'jump'"),
        ('{"t": 1, "block": "blue"}', 'no "ev"'),
        ('{"t": 1, "ev": "bonus", "block": "blue"}', "'bonus'"),
        ('{"t": 1, "ev": "higher", "block": 3}', "'block'"),
        ('{"t": 1, "ev": "fell", "fallen": "blue"}', "'fallen'"),
        ('{"t": 1, "ev": "fell", "fallen": ["blue"], "in_hand": 2}', "'in_hand'"),
        ('{"t": 1, "ev": "higher", "block": "blue", "player": 7}', '"player"'),
        ('{"t": "soon", "ev": "higher", "block": "blue"}', '"t"'),
    ],
)
def test_a_malformed_event_names_its_line(line: str, words: str) -> None:
    error = malformed('{"t": 0.5, "ev": "higher", "block": "red"}', line)
    assert error.line == 3
    assert words in error.message


def test_time_going_backwards_is_malformed() -> None:
    error = malformed(
        '{"t": 5, "ev": "higher", "block": "red"}', '{"t": 4, "ev": "higher", "block": "red"}'
    )
    assert error.line == 3


@pytest.mark.parametrize(
    ("header", "words"),
    [
        ('{"game": "tokami"}', '"players"'),
        ('{"game": "tokami", "players": ["Anna"]}', "2 to 5 players"),
        ('{"game": "tokami", "players": ["A", "B"], "blocks": [9, 9]}', '"blocks"'),
        ('{"game": "tokami", "players": ["A", "B"], "blocks": {"red": -1, "blue": 9}}', "red"),
        ('{"game": "tokami", "players": ["A", "B"], "rounds": "two"}', "rounds"),
        ('{"game": "tokami", "players": ["A", "B"], "worthless": 3}', "worthless"),
    ],
)
def test_a_bad_header_is_malformed(header: str, words: str) -> None:
    error = malformed(header=header)
    assert words in error.message
    assert error.message.startswith("header:")


def test_unknown_fields_are_ignored() -> None:
    plain = run('{"t": 1, "ev": "fell", "fallen": ["blue"]}')
    journal = run(
        '{"t": 1, "ev": "fell", "fallen": ["blue"], "seq": 1, "prev": "0", "hash": "ab", '
        '"wall": "2024-05-01T20:00:00Z", "src": "keypad", "mood": "grim"}',
        header='{"game": "tokami", "players": ["Anna", "Ben"], "seq": 0, "src": "keypad"}',
    )
    assert journal == plain


def test_the_summary_tells_standings_and_refusals() -> None:
    result = run(
        '{"t": 1, "ev": "bonus", "block": "blue", "bonus": "green"}',
        '{"t": 2, "ev": "fell", "fallen": ["red", "red"]}',
        '{"t": 3, "ev": "declined"}',
        '{"t": 4, "ev": "end"}',
    )
    text = summary(result)
    assert "Anna wins" in text
    assert "Anna    1" in text and "Ben    -2" in text
    assert "1 input(s) refused" in text and "no forbidden block" in text


def test_cli_prints_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scenario = tmp_path / "game.jsonl"
    scenario.write_text(HEADER + '\n{"t": 1, "ev": "higher", "block": "blue"}\n')
    assert cli.main(["simulate", str(scenario), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["forbidden"] == "blue"


def test_cli_exits_2_naming_the_line_of_a_malformed_event(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = tmp_path / "game.jsonl"
    scenario.write_text("# a comment\n" + HEADER + '\n{"t": 1, "ev": "higher"}\n')
    assert cli.main(["simulate", str(scenario)]) == 2
    assert "line 3" in capsys.readouterr().err
