"""What a game provides to ``companion replay`` (filled in by the replay refactor)."""

from __future__ import annotations

from typing import Protocol


class ReplayGame(Protocol):
    """A game's replay facet."""
