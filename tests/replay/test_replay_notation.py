"""The notation: a game as text a person reads and a program reads back to the same game."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion import notation
from companion.cli import main as companion_main
from companion.replay import load
from companion.scenario import MalformedInput
from companion.simulate import load as load_file
from companion.simulate import simulator_for
from companion.tamsk import notation as tamsk_notation
from companion.tantrix.autoplay import random_game
from tests.replay.games import TAMSK, TANTRIX, journal, scenario, tamsk_events, times

CONTRACT = {"t", "ev", "glass", "to", "player", "space", "text", "tile", "q", "r", "rot"}
TAMSK_HEADER = {"game": "tamsk", "level": 3, "ruleset": "adjusted"}


def contract_fields(events: list[tuple[int, Any]]) -> list[dict[str, Any]]:
    """The inputs as the rules see them (a journal's wall clock and source left out)."""
    return [{k: v for k, v in dict(e).items() if k in CONTRACT} for _, e in events]


def final_state(header: dict[str, Any], events: list[tuple[int, Any]]) -> dict[str, Any]:
    result = simulator_for(header["game"]).simulate(header, events)
    for v in result.get("violations", []):
        v.pop("line", None)  # where a refusal was written differs between the two files
    return result


def round_trip(header: dict[str, Any], events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    text = notation.write(header, events)
    return [dict(e) for _, e in notation.parse(text).events]


# ---------------------------------------------------------------------------------- times


@given(times)
def test_a_time_written_exactly_reads_back_as_the_same_number(t: float) -> None:
    assert notation.parse_time(notation.format_time(t)) == t


def test_times_read_as_minutes_and_seconds() -> None:
    assert notation.format_time(83.4) == "1:23.4"
    assert notation.format_time(3.0) == "0:03.0"
    # what the clock showed, then the journal's exact seconds for the round trip
    assert notation.format_time(3.057305) == "0:03.0(3.057305)"
    assert notation.parse_time("0:03.0(3.057305)") == 3.057305
    assert notation.parse_time("1:23.4") == 83.4
    assert notation.parse_time("83.4") == 83.4


def test_times_for_people_are_tenths_rounded_down_like_a_clock() -> None:
    assert notation.format_time(14.96, exact=False) == "0:14.9"
    assert notation.format_time(83.0, exact=False) == "1:23.0"


def test_exact_seconds_that_do_not_show_as_the_written_tenths_are_refused() -> None:
    with pytest.raises(ValueError, match="does not show as"):
        notation.parse_time("0:03.1(3.057305)")


def test_seconds_after_minutes_must_be_below_sixty() -> None:
    with pytest.raises(ValueError, match="below 60"):
        notation.parse_time("1:75")


# ---------------------------------------------------------------------------------- Tamsk lines


def parse_body(game: str, body: str) -> list[dict[str, Any]]:
    text = f'[game "{game}"]\n{body}\n'
    return [dict(e) for _, e in notation.parse(text).events]


def test_a_move_with_its_ring_reads_as_in_the_rule_book() -> None:
    assert parse_body("tamsk", "1. r1 b2-c3 +ring @1:23") == [
        {"t": 83.0, "ev": "release", "glass": "r1", "to": "c3"},
        {"t": 83.0, "ev": "ring", "player": "red"},
    ]


def test_a_ring_dropped_by_the_opponent_is_a_claim() -> None:
    events = parse_body("tamsk", "b3 a4-b5 +ring(red)@0:08 @0:07")
    assert events[-1] == {"t": 8.0, "ev": "ring", "player": "red"}


def test_the_second_ring_names_its_space() -> None:
    events = parse_body("tamsk", "r2 c6-c5 +ring +ring:d4@0:48.5 @0:46")
    assert events[-1] == {"t": 48.5, "ev": "ring", "player": "red", "space": "d4"}


def test_the_15_second_timer_is_T15_with_the_player_who_turned_it() -> None:
    assert parse_body("tamsk", "8. red T15 @0:28") == [
        {"t": 28.0, "ev": "timer15", "player": "red"}
    ]


def test_the_lift_time_is_kept_when_the_glass_was_lifted_earlier() -> None:
    events = parse_body("tamsk", "r1 a1-b2 @0:03.5 lift@0:03.1")
    assert events == [
        {"t": 3.1, "ev": "lift", "glass": "r1"},
        {"t": 3.5, "ev": "release", "glass": "r1", "to": "b2"},
    ]


def test_an_unknown_space_and_a_free_start_placement() -> None:
    assert parse_body("tamsk", "r1 a1-? @0:05")[0] == {"t": 5.0, "ev": "release", "glass": "r1"}
    assert parse_body("tamsk", "r1 b2 @0:05")[0]["to"] == "b2"


def test_passes_putbacks_notes_and_the_end_each_have_a_line() -> None:
    body = 'black pass @1:00\nb1 lift @1:01\nb1 putback @1:02\nnote "hi; there" @1:03\nend @1:04'
    assert [e["ev"] for e in parse_body("tamsk", body)] == [
        "pass", "lift", "putback", "note", "end"
    ]
    assert parse_body("tamsk", 'note "hi; there" @1:03')[0]["text"] == "hi; there"


def test_comments_and_the_words_for_people_are_ignored() -> None:
    plain = parse_body("tamsk", "r3 g1-f2 +ring @0:36.2")
    noisy = parse_body("tamsk", "; a comment line\n7. r3 g1-f2 late +ring @0:36.2  ; red late")
    assert plain == noisy


def test_a_bad_line_is_refused_with_its_line_number() -> None:
    with pytest.raises(MalformedInput) as caught:
        notation.parse('[game "tamsk"]\n\n1. r1 a1-b2 @0:03\n2. r9 a1-b2 @0:04\n')
    assert caught.value.line == 4
    with pytest.raises(MalformedInput, match="needs its time"):
        notation.parse('[game "tamsk"]\nr1 a1-b2 +ring\n')
    with pytest.raises(MalformedInput, match="not a space"):
        notation.parse('[game "tamsk"]\nr1 a1-g7 @1\n')


def test_the_header_comes_first_and_names_the_game() -> None:
    with pytest.raises(MalformedInput, match="name the game"):
        notation.parse("[level 3]\nr1 a1-b2 @0:03\n")
    with pytest.raises(MalformedInput, match="before the moves"):
        notation.parse('[game "tamsk"]\nr1 a1-b2 @0:03\n[level 2]\n')


def test_header_values_are_json() -> None:
    sc = notation.parse('[game "tamsk"]\n[level 2]\n[names {"red": "Zoë"}]\n')
    assert sc.header == {"game": "tamsk", "level": 2, "names": {"red": "Zoë"}}


# ---------------------------------------------------------------------------------- Tantrix


def test_a_tantrix_placement_reads_tile_cell_rotation() -> None:
    assert parse_body("tantrix", "red #23 (1,-2) r3 @0:42 done@0:44") == [
        {"ev": "place", "tile": 23, "q": 1, "r": -2, "rot": 3, "t": 42.0},
        {"ev": "done", "t": 44.0},
    ]


def test_tantrix_times_are_optional_and_stay_absent() -> None:
    assert parse_body("tantrix", "#1 (0,0) r5 done") == [
        {"ev": "place", "tile": 1, "q": 0, "r": 0, "rot": 5},
        {"ev": "done"},
    ]


# ---------------------------------------------------------------------------------- round trips


@pytest.mark.parametrize("path", TAMSK + TANTRIX, ids=lambda p: p.stem)
def test_every_scenario_reads_back_to_the_same_inputs_and_state(path: Path) -> None:
    loaded = load_file(path).scenario
    text = load(path).notation()
    back = notation.parse(text)
    assert contract_fields(list(back.events)) == contract_fields(loaded.events)
    assert final_state(back.header, list(back.events)) == final_state(
        loaded.header, loaded.events
    )


def test_a_journal_reads_back_without_its_wall_clock_and_hash_chain(tmp_path: Path) -> None:
    events = [dict(e) for _, e in load_file(scenario("p02_forfeit_adjusted")).scenario.events]
    header = {"game": "tamsk", "level": 3, "names": {"red": "Ada"}}
    path = journal(tmp_path / "g.jsonl", header, events)
    recorded = load_file(path).scenario
    text = load(path).notation()
    assert "wall" not in text and "hash" not in text
    back = notation.parse(text)
    assert contract_fields(list(back.events)) == contract_fields(recorded.events)
    assert back.header["names"] == {"red": "Ada"}
    assert final_state(back.header, list(back.events)) == final_state(
        recorded.header, recorded.events
    )


@settings(max_examples=60, deadline=None)
@given(tamsk_events(), st.sampled_from((1, 2, 3)), st.sampled_from(("adjusted", "original")))
def test_any_tamsk_record_reads_back_exactly(
    events: list[dict[str, Any]], level: int, ruleset: str
) -> None:
    header = {"game": "tamsk", "level": level, "ruleset": ruleset}
    assert round_trip(header, events) == events


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from((2, 3, 4)))
def test_any_tantrix_game_reads_back_exactly(seed: int, players: int) -> None:
    seats = ["red", "yellow", "green", "blue"][:players]
    game = random_game(random.Random(seed), seats, stop_after=20)
    events = [{**e, "t": float(i)} if i % 3 else dict(e) for i, e in enumerate(game.events)]
    header = {"game": "tantrix", "players": seats}
    assert round_trip(header, events) == events


def test_an_input_this_version_cannot_write_is_kept_raw() -> None:
    newer = {"t": 4.0, "ev": "hologram", "glass": "r1", "beam": [1, 2]}
    text = notation.dumps(TAMSK_HEADER, [(tamsk_notation.text([newer], "raw"), "")])
    assert [dict(e) for _, e in notation.parse(text).events] == [newer]
    assert notation.group("tamsk", [newer])[0].kind == "raw"


def test_simulate_reads_notation_like_the_scenario_it_came_from(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = scenario("p02_forfeit_adjusted")
    text_file = tmp_path / "game.txt"
    text_file.write_text(load(source).notation(), encoding="utf-8")
    assert companion_main(["simulate", str(source), "--json"]) == 0
    from_jsonl = json.loads(capsys.readouterr().out)
    assert companion_main(["simulate", str(text_file), "--json"]) == 0
    from_text = json.loads(capsys.readouterr().out)
    assert from_text == from_jsonl


def test_notation_and_jsonl_files_are_told_apart() -> None:
    assert notation.looks_like_notation('; comment\n[game "tamsk"]\n')
    assert not notation.looks_like_notation('# comment\n{"game": "tamsk"}\n')
    assert not notation.looks_like_notation('["not", "an", "object"]\n')


def test_a_game_counts_its_moves_not_its_timer_and_end_lines() -> None:
    replay = load(scenario("p02_forfeit_adjusted"))
    timer_lines = [line for line in replay.lines if "T15" in line.text or "--" in line.text]
    assert timer_lines, "the scenario has a timer line"
    assert replay.moves == replay.records - sum(1 for line in replay.lines if not line.move)
    assert all(not line.move for line in timer_lines)
    assert replay.moves < replay.records


def test_the_summary_and_the_replay_say_the_same_time_for_a_penalty() -> None:
    from companion.tamsk.simulate import _clock

    assert _clock(64.17) == notation.format_time(64.17, exact=False) == "1:04.1"
