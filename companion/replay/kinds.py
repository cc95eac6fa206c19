"""What a game provides to ``companion replay``: the :class:`ReplayGame` facet.

A game kind's replay facet is its package's ``replay`` module (``companion.<game>.replay``,
found through :mod:`companion.registry`), whose module-level functions are the methods below.
The replay machinery (model, text, pictures, GIF, HTML, chart, command line) calls a game only
through them, so it names no game and imports none.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from companion import registry

if TYPE_CHECKING:
    from PIL import Image

    from companion.replay.model import Frame, Replay
    from companion.replay.shapes import Shape
    from companion.scenario import NumberedEvent


class ReplayGame(Protocol):
    """A game's replay facet."""

    def fold(
        self, header: dict[str, Any], events: list[NumberedEvent], notes: list[str]
    ) -> Replay:
        """The game's inputs folded through its own engine into frames, one per notation
        line (bad inputs skipped with a note in ``notes``; a header that cannot be played is
        :class:`companion.scenario.MalformedInput`)."""
        ...

    def title(self, replay: Replay) -> str:
        """Who played, for headings and pictures (``Ada (red) v Ben (black)``)."""
        ...

    def player(self, replay: Replay, name: str) -> str:
        """A player as the state names him (``red``, or a Tokami player's name), said as the
        replay's words say him in the players' language (``červený``)."""
        ...

    def text_lines(self, replay: Replay, state: Mapping[str, Any]) -> list[str]:
        """One frame's state of ``replay`` as lines of text for a terminal (the board, clocks,
        scores), named as the game's pictures name things (a Tantrix replay's cells)."""
        ...

    def picture(self, replay: Replay, frame: Frame) -> Image.Image:
        """One frame as a palette image (every frame of a game shares one palette)."""
        ...

    def svg(self, replay: Replay, frame: Frame) -> str:
        """One frame as a standalone SVG document."""
        ...

    def static(self, replay: Replay) -> list[Shape]:
        """The shapes every frame of the HTML viewer shares (drawn once; may be empty)."""
        ...

    def dynamics(self, replay: Replay) -> list[list[Shape]]:
        """Each frame's own shapes for the HTML viewer, in frame order."""
        ...

    def size(self, replay: Replay) -> tuple[int, int]:
        """The viewer's picture size (width, height)."""
        ...

    def axis(self, replay: Replay) -> list[float]:
        """Where each frame sits on the chart's x axis (its time, as a rule)."""
        ...

    def chart(self, replay: Replay) -> str:
        """The whole game as an SVG chart with the viewer's cursor (``id="cursor"``)."""
        ...


def replay_games() -> dict[str, ReplayGame]:
    """The registered games that can be replayed, by name."""
    found: dict[str, ReplayGame] = {}
    for name, kind in sorted(registry.kinds().items()):
        facet = kind.replay()
        if facet is not None:
            found[name] = facet
    return found


def replay_game(game: object) -> ReplayGame | None:
    """The replay facet of the game called ``game`` (None: unknown, or not replayable)."""
    kind = registry.kinds().get(game) if isinstance(game, str) else None
    return None if kind is None else kind.replay()


def of(game: str) -> ReplayGame:
    """The replay facet of a game a :class:`Replay` was built for."""
    facet = replay_game(game)
    if facet is None:
        raise ValueError(f"{game!r} games cannot be replayed")
    return facet
