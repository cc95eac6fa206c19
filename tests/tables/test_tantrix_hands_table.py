"""The Tantrix table with hands, driven key by key: the start draw, every draw typed as
``number #``, and the obligation shown and enforced with its reason."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.simulate import simulate_file
from companion.tantrix.autoplay import random_hands_game
from companion.tantrix.game import Game
from tests.tables.driving import Seat, hands_up_to_a_fill, play_events, seat


@pytest.fixture
def s(tmp_path: Path) -> Iterator[Seat]:
    one = seat("tantrix", tmp_path)
    yield one
    one.table.close()


def _journal_result(s: Seat) -> dict[str, object]:
    return simulate_file(s.journal)


def test_a_whole_game_with_hands_typed_on_the_keypad_replays_without_violation(s: Seat) -> None:
    rg = random_hands_game(random.Random(7), ("red", "yellow"))
    s.table.start_game(["red", "yellow"], hands=True)
    play_events(s, rg.events)
    view = s.view
    assert view["placed"] == 56 and view["over"] and view["bag"] == 0
    out = _journal_result(s)
    assert out["violations"] == [] and out["placed"] == 56
    assert out["winner"] == rg.game.winner


def test_the_start_draw_is_typed_seat_by_seat_and_the_highest_opens(s: Seat) -> None:
    s.table.start_game(["red", "yellow"], hands=True)
    assert s.view["entry"]["stage"] == "starter" and s.view["entry"]["drawing"] == "red"
    s.press("12#")
    assert s.view["entry"]["drawing"] == "yellow"
    s.press("40#")
    assert s.view["turn"] == "yellow"
    assert s.view["entry"]["stage"] == "draw" and s.view["entry"]["drawing"] == "yellow"


def test_zero_skips_the_start_draw(s: Seat) -> None:
    s.table.start_game(["red", "yellow"], hands=True)
    s.press("0#")
    assert s.view["entry"]["stage"] == "draw" and s.view["turn"] == "red"


def test_a_tile_not_in_hand_is_refused_with_the_hand_shown(s: Seat) -> None:
    s.table.start_game(["red", "yellow"], hands=True)
    s.press("0#")
    for t in range(1, 13):
        s.press(f"{t}#")
    assert s.view["hand"] == [1, 2, 3, 4, 5, 6]
    s.press("9#")
    assert s.table.error is not None and s.table.error.startswith("not in hand")


def test_a_drawn_tile_already_held_is_refused_and_journaled(s: Seat) -> None:
    s.table.start_game(["red", "yellow"], hands=True)
    s.press("0#1#1#")
    assert s.table.error is not None and "already in red's hand" in s.table.error
    out = _journal_result(s)
    assert [v["kind"] for v in out["violations"]] == ["not in the bag"]  # type: ignore[index]


def _up_to_a_fill(s: Seat, step3: bool) -> None:
    hands_up_to_a_fill(s, step3=step3)


def test_step_1_the_screen_lists_the_fills_and_only_forced_spaces_are_offered(s: Seat) -> None:
    _up_to_a_fill(s, step3=False)
    fills = s.view["must_fill"]
    assert fills
    tile = fills[0][0]
    s.press(f"{tile}#")
    entry = s.view["entry"]
    assert entry["mode"] == "place" and entry["spot_is_forced"]
    forced = {tuple(c) for c in s.view["forced"]}
    assert all(tuple(c) in forced for c in _offered(s))


def _offered(s: Seat) -> list[tuple[int, int]]:
    spots = []
    for _ in range(s.view["entry"]["spot_count"]):
        spots.append(tuple(s.view["entry"]["spot"]))
        s.press("A")
    return spots


def test_step_1_a_tile_that_cannot_fill_is_refused_with_the_reason(s: Seat) -> None:
    _up_to_a_fill(s, step3=False)
    fillers = {f[0] for f in s.view["must_fill"]}
    others = [t for t in s.view["hand"] if t not in fillers]
    if not others:
        pytest.skip("every tile in this hand can fill")
    s.press(f"{others[0]}#")
    assert s.table.error is not None and s.table.error.startswith("forced space first")


def test_step_3_ending_the_turn_is_refused_and_journaled(s: Seat) -> None:
    _up_to_a_fill(s, step3=True)
    turn = s.view["turn"]
    s.press("D1")
    assert s.view["turn"] == turn
    assert s.table.error is not None and s.table.error.startswith("a forced space can be filled")
    out = _journal_result(s)
    assert [v["kind"] for v in out["violations"]] == [  # type: ignore[index]
        "a forced space can be filled"
    ]


def test_a_team_game_with_hands_on_the_keypad(s: Seat) -> None:
    team = ("red", "yellow", "red", "yellow")
    rg = random_hands_game(random.Random(2), team)
    s.table.start_game(list(team), hands=True)
    play_events(s, rg.events)
    out = _journal_result(s)
    assert out["violations"] == [] and out["placed"] == 56 and set(out["scores"]) == {  # type: ignore[arg-type]
        "red",
        "yellow",
    }


def test_without_hands_the_table_keeps_todays_flow(s: Seat) -> None:
    s.table.start_game(["red", "yellow"])
    assert "hand" not in s.view and s.view["entry"]["stage"] == "tile"
    assert isinstance(s.table.game, Game)


def test_tantrix_play_hands_configures_a_table_with_hands(tmp_path: Path) -> None:
    from companion.clock import FakeClock
    from companion.puzzle.cli import play_config
    from companion.tables import make_table, start_configured_game
    from companion.tantrix.hands import HandsGame

    config = play_config(["red", "yellow", "red", "yellow"], True)
    table = make_table(config, FakeClock(), tmp_path)
    try:
        start_configured_game(table, config)
        assert isinstance(table.game, HandsGame) and table.game.team  # type: ignore[attr-defined]
    finally:
        table.close()
