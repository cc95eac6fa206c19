"""Tokami's replay facet (:class:`companion.replay.kinds.ReplayGame`): the fold of
:mod:`companion.tokami.fold`; the score sheet, its text and the totals chart of
:mod:`companion.tokami.picture`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image

from companion.replay.model import Frame, Replay
from companion.replay.shapes import Shape
from companion.tokami import picture as drawing
from companion.tokami.fold import fold
from companion.tokami.picture import axis, chart, title

__all__ = ["axis", "chart", "dynamics", "fold", "picture", "player", "size", "static", "svg",
           "text_lines", "title"]


def player(replay: Replay, name: str) -> str:
    """A player as the replay names him: by his name, as the header writes it."""
    return name


def text_lines(replay: Replay, state: Mapping[str, Any]) -> list[str]:
    return drawing.text_lines(state)


def picture(replay: Replay, frame: Frame) -> Image.Image:
    return drawing.picture(replay, frame)


def svg(replay: Replay, frame: Frame) -> str:
    return drawing.picture_svg(replay, frame)


def static(replay: Replay) -> list[Shape]:
    return []


def dynamics(replay: Replay) -> list[list[Shape]]:
    return [drawing.dynamic(replay, f) for f in replay.frames]


def size(replay: Replay) -> tuple[int, int]:
    return drawing.size_of(replay.frames[0].state)
