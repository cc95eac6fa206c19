"""Pictures of a whole game: one per frame, or an animated GIF.

Two timings: one picture per move (``per_move_ms`` each, the last held longer), or real time
sped up ``speed`` times, with extra pictures between moves (at most ``fps`` a second of the
GIF) so that the sand and the 15-second timer are seen running. GIF delays are counted in
hundredths of a second; real-time delays are cut at the hundredths of the *running* total, so
rounding never adds up, and a picture that would show for less than 20 ms (browsers slow such
frames down) is left out, its time going to the picture before it.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from companion.replay.kinds import of
from companion.replay.model import Frame, Replay

PER_MOVE_MS = 700
LAST_MS = 3000
MIN_MS = 20
MAX_MS = 655_350  # a GIF delay is 16 bits of hundredths
#: Real-time GIFs never hold more pictures than this (memory on a Pi: ~0.4 MB each).
MAX_PICTURES = 600


def picture(replay: Replay, frame: Frame) -> Image.Image:
    """One frame of this game as a palette image (pure: the frame and the game's layout in)."""
    return of(replay.game).picture(replay, frame)


def svg(replay: Replay, frame: Frame) -> str:
    """One frame as a standalone SVG document."""
    return of(replay.game).svg(replay, frame)


@dataclass(frozen=True)
class Plan:
    """Which frames an animation shows and for how long (milliseconds, multiples of 10)."""

    frames: list[Frame]
    durations: list[int]


def per_move(replay: Replay, per_move_ms: int = PER_MOVE_MS, last_ms: int = LAST_MS) -> Plan:
    """Every frame for ``per_move_ms``; the last one for ``last_ms``."""
    step = _centis(per_move_ms)
    durations = [step] * len(replay.frames)
    durations[-1] = _centis(max(last_ms, per_move_ms))
    return Plan(list(replay.frames), durations)


def _centis(ms: float) -> int:
    return int(max(MIN_MS, min(MAX_MS, round(ms / 10) * 10)))


def real_time(replay: Replay, speed: float, fps: float = 2.0, last_ms: int = LAST_MS) -> Plan:
    """Real time ``speed`` times faster, with pictures between moves at up to ``fps``."""
    if not speed > 0:
        raise ValueError(f"the speed must be above 0, got {speed!r}")
    if not fps > 0:
        raise ValueError(f"fps must be above 0, got {fps!r}")
    frames = replay.frames
    span = replay.duration
    step = max(0.1, speed / fps)  # game seconds between two pictures
    if span / step + len(frames) > MAX_PICTURES:
        step = max(step, span / max(1, MAX_PICTURES - len(frames)))
    wanted: list[float] = []
    owners: list[int] = []
    for k, frame in enumerate(frames[:-1]):
        t = frame.t + step
        while t < frames[k + 1].t - step / 2:
            wanted.append(t)
            owners.append(k)
            t += step
    between = replay.at_times(wanted) if wanted else []
    timeline: list[Frame] = []
    j = 0
    for k, frame in enumerate(frames):
        timeline.append(frame)
        while j < len(between) and owners[j] == k:
            b = between[j]
            timeline.append(
                Frame(frame.index, b.t, frame.label, b.state, frame.marks, frame.record,
                      frame.highlight, frame.refused)
            )
            j += 1
    t0 = timeline[0].t
    starts = [round((f.t - t0) / speed * 100) for f in timeline]
    last = len(timeline) - 1
    shown: list[tuple[int, int]] = []  # (picture, its start in hundredths)
    for k, begin in enumerate(starts):
        if not shown or begin - shown[-1][1] >= MIN_MS // 10:
            shown.append((k, begin))
        elif k == last and len(shown) > 1:
            shown[-1] = (k, shown[-1][1])  # the final position replaces the one just before
        elif k == last:
            shown.append((k, begin))
    durations = [
        (shown[i + 1][1] - shown[i][1]) * 10 if i + 1 < len(shown) else last_ms
        for i in range(len(shown))
    ]
    durations = [max(MIN_MS, min(MAX_MS, d)) for d in durations]
    return Plan([timeline[k] for k, _ in shown], durations)


def encode(images: Sequence[Image.Image], durations: Sequence[int]) -> bytes:
    """An animated GIF (looping) of palette images that share one palette."""
    out = io.BytesIO()
    images[0].save(
        out,
        format="GIF",
        save_all=True,
        append_images=list(images[1:]),
        duration=list(durations),
        loop=0,
        optimize=False,
    )
    return out.getvalue()


def write_gif(replay: Replay, path: str | Path, *, speed: float | None = None,
              fps: float = 2.0, per_move_ms: int = PER_MOVE_MS) -> Plan:
    """Draw the game into an animated GIF at ``path``; returns what it showed."""
    plan = real_time(replay, speed, fps) if speed else per_move(replay, per_move_ms)
    images = [picture(replay, f) for f in plan.frames]
    Path(path).write_bytes(encode(images, plan.durations))
    return plan


def write_pngs(replay: Replay, folder: str | Path) -> list[Path]:
    """One PNG per frame: ``frame-000.png`` (the start), ``frame-001.png``..."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    width = max(3, len(str(len(replay.frames) - 1)))
    paths = []
    for frame in replay.frames:
        path = folder / f"frame-{frame.index:0{width}d}.png"
        picture(replay, frame).save(path, format="PNG")
        paths.append(path)
    return paths
