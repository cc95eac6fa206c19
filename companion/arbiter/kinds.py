"""What a game provides to the arbiter station and page (filled in by the arbiter refactor)."""

from __future__ import annotations

from typing import Protocol


class ArbiterGame(Protocol):
    """A game's arbiter facet."""
