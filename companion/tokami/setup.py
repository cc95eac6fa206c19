"""What a Tokami game is played with: the players in turn order, the blocks, the rounds.

The French rule book (Zoch, 1998) says there are 36 wooden blocks and that red bonus blocks are
worth nothing, but it never lists the colours. Two German reviews of the game (the Keirat review
archived at ftp.informatik.rwth-aachen.de/keirat/txt/T/Tokami.html and the entry at
brettspiele.digital/spiele/tokami) both say the 36 blocks come in *four* colours. Neither names the
colours other than red nor says how many blocks each has, so :data:`DEFAULT_BLOCKS` (nine each of
red, yellow, green and blue) is an assumption; a club with a different box states its own set in
the scenario header (``"blocks": {"red": 6, "natural": 30}``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.scenario import MalformedInput

#: The assumed block set of the 1998 Zoch box: 36 blocks, four colours, nine of each.
DEFAULT_BLOCKS: Mapping[str, int] = {"red": 9, "yellow": 9, "green": 9, "blue": 9}

#: The colour whose bonus blocks score nothing ("sauf les rouges qui ne valent rien").
WORTHLESS_COLOUR = "red"

#: "La partie se termine quand il ne reste plus que quatre blocs sur le X."
ROUND_ENDS_AT = 4

MIN_PLAYERS = 2
MAX_PLAYERS = 5


@dataclass(frozen=True)
class Setup:
    """The fixed facts of one game; :meth:`from_header` reads them from a scenario header.

    >>> Setup(("Anna", "Ben")).blocks_total
    36
    """

    players: tuple[str, ...]
    blocks: Mapping[str, int] = field(default_factory=lambda: dict(DEFAULT_BLOCKS))
    rounds: int = 1
    worthless: str | None = WORTHLESS_COLOUR
    round_ends_at: int = ROUND_ENDS_AT

    def __post_init__(self) -> None:
        problem = self.problem()
        if problem is not None:
            raise ValueError(problem)
        # Freeze the mapping so a caller's dict cannot change the game under it.
        object.__setattr__(self, "blocks", dict(self.blocks))

    @property
    def colours(self) -> tuple[str, ...]:
        """The colours in the order given (the keypad numbers them 1, 2, 3... in this order)."""
        return tuple(self.blocks)

    @property
    def blocks_total(self) -> int:
        return sum(self.blocks.values())

    def worth(self, colour: str) -> int:
        """Points of one bonus block of ``colour``: 1, or 0 for the worthless colour (red)."""
        return 0 if colour == self.worthless else 1

    def problem(self) -> str | None:
        """Why this setup cannot be played, in words, or None when it can."""
        players = self.players
        if not isinstance(players, tuple) or not all(
            isinstance(p, str) and p.strip() for p in players
        ):
            return "players must be a list of names (non-empty strings)"
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            return f"Tokami is for {MIN_PLAYERS} to {MAX_PLAYERS} players, got {len(players)}"
        if len(set(players)) != len(players):
            return "two players have the same name"
        if not isinstance(self.blocks, Mapping) or not self.blocks:
            return "blocks must map each colour to how many blocks of it there are"
        for colour, count in self.blocks.items():
            if not isinstance(colour, str) or not colour.strip():
                return "every block colour must be a non-empty name"
            if isinstance(count, bool) or not isinstance(count, int) or count < 1:
                return f"the number of {colour} blocks must be a whole number >= 1, got {count!r}"
        if isinstance(self.rounds, bool) or not isinstance(self.rounds, int) or self.rounds < 1:
            return f"rounds must be a whole number >= 1, got {self.rounds!r}"
        ends = self.round_ends_at
        if isinstance(ends, bool) or not isinstance(ends, int) or ends < 0:
            return f"round_ends_at must be a whole number >= 0, got {ends!r}"
        if self.blocks_total <= ends:
            return (
                f"{self.blocks_total} blocks are too few: a round ends as soon as only "
                f"{ends} remain on the cross"
            )
        if self.worthless is not None and self.worthless not in self.blocks:
            return f"the worthless colour {self.worthless!r} is not one of the block colours"
        return None

    @classmethod
    def from_header(cls, header: Mapping[str, Any]) -> Setup:
        """Read a ``{"game": "tokami", ...}`` header; a bad one is a :class:`MalformedInput`.

        Unknown header fields are ignored, as journals may add their own.
        """

        def bad(message: str) -> MalformedInput:
            return MalformedInput(f"header: {message}")

        players = header.get("players")
        if not isinstance(players, list):
            raise bad('"players" must list the players\' names in turn order, e.g. ["Anna", "Ben"]')
        blocks = header.get("blocks", DEFAULT_BLOCKS)
        if not isinstance(blocks, Mapping):
            raise bad('"blocks" must map each colour to its count, e.g. {"red": 9, "blue": 9}')
        if "worthless" in header:
            worthless = header["worthless"]
            if worthless is not None and not isinstance(worthless, str):
                raise bad('"worthless" must be a colour name or null')
        else:
            worthless = WORTHLESS_COLOUR if WORTHLESS_COLOUR in blocks else None
        rounds = header.get("rounds", 1)
        ends = header.get("round_ends_at", ROUND_ENDS_AT)
        try:
            return cls(tuple(players), dict(blocks), rounds, worthless, ends)
        except ValueError as exc:
            raise bad(str(exc)) from None

    def to_header(self) -> dict[str, Any]:
        """The header line that :meth:`from_header` reads back into this setup."""
        return {
            "game": "tokami",
            "players": list(self.players),
            "blocks": dict(self.blocks),
            "rounds": self.rounds,
            "worthless": self.worthless,
            "round_ends_at": self.round_ends_at,
        }
