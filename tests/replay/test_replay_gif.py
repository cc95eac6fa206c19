"""Animated GIFs and picture folders of a whole game: frame count and timing."""

from __future__ import annotations

import io
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image

from companion.replay import load
from companion.replay.gif import (
    LAST_MS,
    MIN_MS,
    per_move,
    picture,
    real_time,
    stream,
    write_gif,
    write_pngs,
)
from tests.replay.games import TANTRIX, scenario


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


# ---------------------------------------------------------------- streamed, frame for frame


def pillow_gif(images: list[Image.Image], durations: list[int]) -> bytes:
    """The GIF as it was written before streaming: Pillow's ``save_all`` holding every frame."""
    out = io.BytesIO()
    images[0].save(out, format="GIF", save_all=True, append_images=images[1:],
                   duration=durations, loop=0, optimize=False)
    return out.getvalue()


def shown(data: bytes) -> list[tuple[bytes, int]]:
    """What a viewer shows: each picture's RGB pixels and for how long, a picture equal to the
    one before it counted as one picture held for both times."""
    out: list[tuple[bytes, int]] = []
    with Image.open(io.BytesIO(data)) as im:
        assert im.info.get("loop") == 0
        for k in range(im.n_frames):
            im.seek(k)
            pixels = im.convert("RGB").tobytes()
            ms = int(im.info["duration"])
            if out and out[-1][0] == pixels:
                out[-1] = (pixels, out[-1][1] + ms)
            else:
                out.append((pixels, ms))
    return out


def streamed(images: list[Image.Image], durations: list[int]) -> bytes:
    out = io.BytesIO()
    stream(iter(images), iter(durations), out)
    return out.getvalue()


@pytest.mark.parametrize("name", ["p01_opening_and_claim", "p02_forfeit_adjusted"])
@pytest.mark.parametrize("speed", [None, 10.0])
def test_a_streamed_gif_shows_the_same_pictures_as_the_whole_game_in_memory(
    name: str, speed: float | None
) -> None:
    replay = load(scenario(name))
    plan = real_time(replay, speed) if speed else per_move(replay)
    images = [picture(replay, f) for f in plan.frames]
    old = shown(pillow_gif(images, plan.durations))
    new = shown(streamed(images, plan.durations))
    assert len(new) == len(old)
    assert [ms for _, ms in new] == [ms for _, ms in old]
    assert all(a == b for (a, _), (b, _) in zip(new, old, strict=True))


def test_a_tantrix_gif_streams_frame_for_frame_too() -> None:
    replay = load(TANTRIX[0])
    plan = per_move(replay)
    images = [picture(replay, f) for f in plan.frames]
    assert shown(streamed(images, plan.durations)) == shown(pillow_gif(images, plan.durations))


def test_identical_pictures_in_a_row_become_one_held_for_their_summed_time() -> None:
    replay = load(scenario("p01_opening_and_claim"))
    a, b = picture(replay, replay.frames[0]), picture(replay, replay.frames[3])
    images, durations = [a, a, a, b, b, a], [100, 200, 300, 400, 500, 600]
    data = streamed(images, durations)
    with Image.open(io.BytesIO(data)) as im:
        assert im.n_frames == 3
    assert [ms for _, ms in shown(data)] == [600, 900, 600]
    assert shown(data) == shown(pillow_gif(images, durations))


def test_a_gif_of_no_picture_is_refused() -> None:
    with pytest.raises(ValueError, match="at least one picture"):
        stream(iter([]), iter([]), io.BytesIO())


def test_a_long_game_is_drawn_one_picture_at_a_time(tmp_path: Path) -> None:
    """No more than two pictures are alive while a GIF is written (the memory bound that lets
    an 800-move game be drawn on a 512 MB Pi)."""
    replay = load(scenario("p01_opening_and_claim"))
    plan = per_move(replay)
    alive: list[int] = []
    live = 0

    def pictures() -> Iterator[Image.Image]:
        nonlocal live
        for f in plan.frames:
            im = picture(replay, f)
            live += 1
            alive.append(live)
            weakref.finalize(im, lambda: _dec())
            yield im
            del im

    def _dec() -> None:
        nonlocal live
        live -= 1

    with open(tmp_path / "g.gif", "wb") as out:
        stream(pictures(), plan.durations, out)
    assert len(alive) == len(plan.frames)
    assert max(alive) <= 2
