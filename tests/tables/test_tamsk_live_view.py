"""The Tamsk table's view, drawn ten times a second, costs the same at move 500 as at move 5."""

from __future__ import annotations

import json
from pathlib import Path

from companion.clock import FakeClock
from companion.config import defaults
from companion.hw.display import pick_screen
from companion.tamsk import events as ev
from companion.tamsk.game import Rules
from companion.tamsk.table import Table


def test_the_view_counts_the_records_that_only_grow_instead_of_listing_them(
    tmp_path: Path,
) -> None:
    table = Table(FakeClock(), tmp_path, config=defaults(), sound=lambda p: None)
    table.start_game(Rules(level=3))
    game = table.game
    assert game is not None
    off_turn = "black" if game.turn == "red" else "red"
    size = len(json.dumps(table.view()))
    for k in range(200):
        assert game.apply(ev.pass_turn(0.01 * (k + 1), off_turn)) is not None  # refused
    view = table.view()
    assert view["history"]["violations"] == len(game.violations) == 200
    assert "violations" not in view
    assert len(json.dumps(view)) <= size + 16  # only numbers changed


def test_the_screen_still_shows_the_latest_penalty(tmp_path: Path) -> None:
    table = Table(FakeClock(), tmp_path, config=defaults(), sound=lambda p: None)
    table.start_game(Rules(level=3))
    game = table.game
    assert game is not None
    for k in range(3):  # the timer runs out on the player on turn three times
        game.apply(ev.timer15(20.0 * k, "black" if game.turn == "red" else "red"))
        game.advance(20.0 * k + 16.0)
    assert len(game.penalties) == 3
    view = table.view()
    assert view["penalties"] == [game.penalties[-1].to_dict()]
    assert view["history"]["penalties"] == 3
    full = dict(game.snapshot())
    live_picture = pick_screen(view, (128, 64), "1")
    full_picture = pick_screen({**view, "penalties": full["penalties"]}, (128, 64), "1")
    assert live_picture.tobytes() == full_picture.tobytes()
