"""Animated GIFs and picture folders of a whole game: frame count and timing."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from companion.replay import load
from companion.replay.gif import (
    LAST_MS,
    MIN_MS,
    per_move,
    real_time,
    write_gif,
    write_pngs,
)
from tests.replay.games import scenario


def read_gif(path: Path) -> list[int]:
    """The delay of every frame of a GIF, as a viewer reads them."""
    durations = []
    with Image.open(path) as im:
        for k in range(im.n_frames):
            im.seek(k)
            durations.append(int(im.info["duration"]))
    return durations


def test_one_frame_per_move_shows_every_frame_for_the_same_time(tmp_path: Path) -> None:
    replay = load(scenario("p02_forfeit_adjusted"))
    path = tmp_path / "game.gif"
    write_gif(replay, path, per_move_ms=500)
    durations = read_gif(path)
    assert len(durations) == len(replay.frames)
    assert durations[:-1] == [500] * (len(replay.frames) - 1)
    assert durations[-1] == LAST_MS


def test_real_time_lasts_the_game_divided_by_the_speed(tmp_path: Path) -> None:
    replay = load(scenario("p01_opening_and_claim"))
    path = tmp_path / "game.gif"
    plan = write_gif(replay, path, speed=10, fps=2)
    durations = read_gif(path)
    assert durations == plan.durations
    assert sum(durations[:-1]) == pytest.approx(replay.duration / 10 * 1000, abs=10)
    assert all(d >= MIN_MS and d % 10 == 0 for d in durations)
    assert durations[-1] == LAST_MS


def test_real_time_adds_pictures_between_moves_so_the_sand_is_seen_running() -> None:
    replay = load(scenario("p01_opening_and_claim"))
    plan = real_time(replay, speed=10, fps=2)
    assert len(plan.frames) > len(replay.frames)
    # the long think before move 7 (0:23 to 1:30) is shown every 5 game seconds
    between = [f for f in plan.frames if 24 < f.t < 90]
    assert len(between) >= 12
    for a, b in zip(between, between[1:], strict=False):
        sand_a = a.state["glasses"]["b2"]["sand"]
        sand_b = b.state["glasses"]["b2"]["sand"]
        assert sand_b == pytest.approx(sand_a - (b.t - a.t))


def test_pictures_too_short_to_show_are_left_out_not_shortened() -> None:
    replay = load(scenario("p01_opening_and_claim"))
    fast = real_time(replay, speed=500, fps=2)  # 4 s between moves: 8 ms, too short
    assert len(fast.frames) < len(replay.frames)
    assert all(d >= MIN_MS for d in fast.durations)
    assert fast.frames[-1].state == replay.frames[-1].state


def test_the_speed_must_be_positive() -> None:
    replay = load(scenario("p01_opening_and_claim"))
    with pytest.raises(ValueError, match="speed"):
        real_time(replay, speed=0)


def test_per_move_plan_lists_every_frame() -> None:
    replay = load(scenario("t01_discovery_red_loop"))
    plan = per_move(replay)
    assert plan.frames == replay.frames


def test_one_png_per_move(tmp_path: Path) -> None:
    replay = load(scenario("t01_discovery_red_loop"))
    paths = write_pngs(replay, tmp_path / "pics")
    assert [p.name for p in paths] == [f"frame-{k:03d}.png" for k in range(len(replay.frames))]
    with Image.open(paths[0]) as first, Image.open(paths[-1]) as last:
        assert first.size == last.size == (760, 540)
        assert first.tobytes() != last.tobytes()
