"""The GIPF potential challenge (Czech rule book, "Neutralizace potenciálu"): a Tamsk game
decides whether a GIPF potential's extra move stands; a draw decides nothing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.scenario import MalformedInput, parse_lines
from companion.tamsk.challenge import Challenge, challenge_header, outcome, parse_challenge
from companion.tamsk.result_screen import result_screen
from companion.tamsk.simulate import simulate

# Level 1: red drops two rings, black one (red wins on rings), or both one (a tie).
MOVES = [
    '{"t": 1, "ev": "release", "glass": "r1", "to": "a2"}',
    '{"t": 1.2, "ev": "ring", "player": "red"}',
    '{"t": 2, "ev": "release", "glass": "b3", "to": "a3"}',
    '{"t": 2.2, "ev": "ring", "player": "black"}',
]
RED_AGAIN = ['{"t": 3, "ev": "release", "glass": "r3", "to": "f1"}',
             '{"t": 3.2, "ev": "ring", "player": "red"}']
END = ['{"t": 9, "ev": "end"}']


def play(owner: str, lines: list[str], **extra: Any) -> dict[str, Any]:
    header = {"game": "tamsk", "level": 1, **challenge_header(owner, **extra)}
    scenario = parse_lines([json.dumps(header), *lines])
    return simulate(scenario.header, scenario.events)


def test_the_owner_wins_so_the_extra_move_stands() -> None:
    state = play("red", MOVES + RED_AGAIN + END)
    assert state["winner"] == "red"
    c = state["challenge"]
    assert c["decided"] is True and c["extra_move_stands"] is True and c["new_game"] is False


def test_the_challenger_wins_so_the_potential_is_lost() -> None:
    state = play("black", MOVES + RED_AGAIN + END)
    c = state["challenge"]
    assert (c["owner"], c["challenger"]) == ("black", "red")
    assert c["decided"] is True and c["extra_move_stands"] is False
    assert "potential is lost" in c["text"]


def test_an_exact_tie_does_not_decide_and_the_table_offers_a_new_game() -> None:
    state = play("red", MOVES + END)
    assert state["winner"] == "tie"
    c = state["challenge"]
    assert c["decided"] is False and c["extra_move_stands"] is None and c["new_game"] is True
    assert "new game (attempt 2)" in c["text"]


def test_an_unfinished_game_has_decided_nothing_yet() -> None:
    c = play("red", MOVES)["challenge"]
    assert c["decided"] is False and c["new_game"] is False


def test_the_record_keeps_how_many_challenges_the_gipf_game_has_used() -> None:
    c = play("red", MOVES + END, number=2, allowed=3, attempt=2, gipf="board 3")["challenge"]
    assert (c["number"], c["allowed"], c["attempt"], c["gipf"]) == (2, 3, 2, "board 3")
    assert c["challenges_left"] == 1


def test_a_challenge_beyond_the_agreed_number_is_refused() -> None:
    with pytest.raises(ValueError, match="allows 1"):
        challenge_header("red", number=2, allowed=1)
    with pytest.raises(MalformedInput, match="challenge 2"):
        parse_challenge({"challenge": {"owner": "red", "challenger": "black", "number": 2}})


@pytest.mark.parametrize("bad", [
    {"owner": "red", "challenger": "red"}, {"owner": "blue", "challenger": "black"}, "red",
    {"owner": "red", "challenger": "black", "number": 0},
])
def test_a_malformed_challenge_header_is_refused(bad: object) -> None:
    with pytest.raises(MalformedInput):
        parse_challenge({"challenge": bad})


def test_a_game_that_is_no_challenge_has_no_challenge_field() -> None:
    scenario = parse_lines(['{"game": "tamsk", "level": 1}', *MOVES, *END])
    assert "challenge" not in simulate(scenario.header, scenario.events)


def test_the_result_screen_says_a_tie_decides_nothing() -> None:
    view = {**play("red", MOVES + END), "in_hand": None, "names": {}}
    image = result_screen(view, size=(128, 64))
    plain = result_screen({**view, "challenge": None}, size=(128, 64))
    assert image.tobytes() != plain.tobytes()
    assert outcome(Challenge("red", "black"), True, "tie")["new_game"] is True


def test_new_game_challenge_writes_the_header_fields(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "config.toml"
    config.write_text("")
    assert main(["new-game", "--config", str(config), "--journal-dir", str(tmp_path / "j"),
                 "--as-root",  # when the tests run as root: a test folder, no service appends
                 "--red", "Zoë", "--black", "Jiří", "--challenge", "black",
                 "--challenge-number", "1", "--challenges-allowed", "2", "--gipf", "club"]) == 0
    path = Path(capsys.readouterr().out.strip().splitlines()[0])
    header = json.loads(path.read_text().splitlines()[0])
    assert header["challenge"] == {"owner": "black", "challenger": "red", "number": 1,
                                   "allowed": 2, "attempt": 1, "gipf": "club"}
    assert main(["new-game", "--config", str(config), "--journal-dir", str(tmp_path / "j"),
                 "--as-root", "--challenge", "red", "--challenge-number", "3"]) == 2
    assert "allows 1" in capsys.readouterr().err


def test_the_table_shows_what_the_challenge_decided(tmp_path: Path) -> None:
    from companion.clock import FakeClock
    from companion.config import defaults
    from companion.tamsk.game import Rules
    from companion.tamsk.table import Table

    table = Table(FakeClock(), tmp_path, config=defaults())
    table.start_game(Rules(level=1), extra=challenge_header("red"))
    assert table.view()["challenge"]["text"] == "GIPF challenge: not decided yet"
    table.header["challenge"] = {"owner": "red", "challenger": "red"}  # a hand-edited header
    assert "challenge" not in table.view()
