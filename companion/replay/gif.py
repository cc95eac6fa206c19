"""Pictures of a whole game: one per frame, or an animated GIF.

The GIF is streamed: each picture is drawn, compared with the one before and written out
before the next is drawn, so a 1,600-move game needs no more memory than a 50-move one (Pillow's
own ``save_all`` keeps every frame until the end: ~0.8 MB each). Like Pillow, a picture equal to
the one before is not written again; its time goes to the one shown.

Two timings: one picture per move (``per_move_ms`` each, the last held longer), or real time
sped up ``speed`` times, with extra pictures between moves (at most ``fps`` a second of the
GIF) so that the sand and the 15-second timer are seen running. GIF delays are counted in
hundredths of a second; real-time delays are cut at the hundredths of the *running* total, so
rounding never adds up, and a picture that would show for less than 20 ms (browsers slow such
frames down) is left out, its time going to the picture before it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from PIL import GifImagePlugin, Image, ImageChops

from companion.replay.kinds import of
from companion.replay.model import Frame, Replay

PER_MOVE_MS = 700
LAST_MS = 3000
MIN_MS = 20
MAX_MS = 655_350  # a GIF delay is 16 bits of hundredths
#: Real-time GIFs never hold more pictures than this (a GIF of a few MB at most).
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
            # the move's frame, its sand and timer run on to ``b.t``
            timeline.append(dataclasses.replace(frame, t=b.t, state=b.state))
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


def _changed_box(before: Image.Image, after: Image.Image) -> tuple[int, int, int, int] | None:
    """The box of pixels whose palette index differs (None: the same picture). The images
    share one palette, so their indices are compared as they are."""
    a = Image.frombytes("L", before.size, before.tobytes())
    b = Image.frombytes("L", after.size, after.tobytes())
    return ImageChops.difference(a, b).getbbox()


def stream(images: Iterable[Image.Image], durations: Iterable[int], out: BinaryIO) -> int:
    """Write an animated GIF (looping) of palette images sharing one palette to ``out``, one
    picture at a time; returns how many pictures were written.

    Each picture after the first is written as the box that changed since the one before (the
    way Pillow's ``save_all`` writes it); a picture equal to the one before only adds its time
    to it. Held at once: the picture shown, the next one and nothing else. A GIF cannot take
    an empty animation, so ``images`` must hold at least one picture.
    """
    pairs: Iterator[tuple[Image.Image, int]] = iter(zip(images, durations, strict=True))
    try:
        first, duration = next(pairs)
    except StopIteration:
        raise ValueError("a GIF needs at least one picture") from None
    header, _ = GifImagePlugin.getheader(first, None, {"loop": 0, "optimize": False})
    out.writelines(header)
    shown = first  # the last picture written (what a viewer has on screen)
    pending: tuple[Image.Image, tuple[int, int], int] = (first, (0, 0), duration)
    del first
    written = 0
    for image, duration in pairs:
        box = _changed_box(shown, image)
        if box is None:
            part, offset, held = pending
            pending = (part, offset, held + duration)
            continue
        _write_frame(out, *pending)
        written += 1
        pending = (image.crop(box), box[:2], duration)
        shown = image
        del image  # the next picture may be drawn while only ``shown`` is held
    _write_frame(out, *pending)
    out.write(b";")
    return written + 1


def _write_frame(out: BinaryIO, image: Image.Image, offset: tuple[int, int], ms: int) -> None:
    chunks = GifImagePlugin.getdata(image, offset, duration=min(MAX_MS, ms))
    out.writelines(chunks)
    # getdata collects into a list held by a class it defines on each call: a reference
    # cycle that only the cyclic collector frees, so empty the list now.
    chunks.clear()


def write_gif(replay: Replay, path: str | Path, *, speed: float | None = None,
              fps: float = 2.0, per_move_ms: int = PER_MOVE_MS) -> Plan:
    """Draw the game into an animated GIF at ``path``, one picture at a time; returns what it
    showed."""
    plan = real_time(replay, speed, fps) if speed else per_move(replay, per_move_ms)
    with open(path, "wb") as out:
        stream((picture(replay, f) for f in plan.frames), plan.durations, out)
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
