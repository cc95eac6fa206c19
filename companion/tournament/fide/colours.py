"""Colour preferences and colour allocation of the FIDE (Dutch) system (C.04.3, 2026).

A player's colours are those of the games he played over the board, in order (C.04.2 3.4:
unplayed rounds are left out, as if they had come first). From them (C.04.3 1.6-1.7):

- the colour difference: whites minus blacks;
- an **absolute** preference when the difference is above +1 or below -1, or the two latest
  games had the same colour (for the other colour; the difference decides when both apply);
- a **strong** preference when the difference is +1 or -1 (for the colour that evens it);
- a **mild** one when it is 0 (for the other colour than in his last game);
- none before his first game.

Allocation for a pair (C.04.3 5.2), the first rule that decides:

1. grant both preferences;
2. grant the stronger preference (both absolute, which only topscorers may meet with: the
   wider colour difference);
3. alternate the colours to the most recent round in which one had white and the other black
   (the played sequences compared from their ends);
4. grant the preference of the higher ranked player (C.04.3 1.2: score, then TPN);
5. the higher ranked player gets the initial colour if his TPN is odd, the other if even.

Standard library only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

ABSOLUTE, STRONG, MILD, NONE = 3, 2, 1, 0


@dataclass(frozen=True)
class Preference:
    colour: Literal["w", "b"] | None
    strength: int  # ABSOLUTE, STRONG, MILD or NONE

    @property
    def absolute(self) -> bool:
        return self.strength == ABSOLUTE


def difference(colours: Sequence[str]) -> int:
    """C.04.3 1.6: games with white minus games with black."""
    return sum(1 if c == "w" else -1 for c in colours)


def other(colour: str) -> Literal["w", "b"]:
    return "b" if colour == "w" else "w"


def preference(colours: Sequence[str]) -> Preference:
    """C.04.3 1.7, from the colours of the games played (``w``/``b``), oldest first."""
    if not colours:
        return Preference(None, NONE)
    cd = difference(colours)
    if cd > 1:
        return Preference("b", ABSOLUTE)
    if cd < -1:
        return Preference("w", ABSOLUTE)
    if len(colours) >= 2 and colours[-1] == colours[-2]:
        return Preference(other(colours[-1]), ABSOLUTE)
    if cd == 1:
        return Preference("b", STRONG)
    if cd == -1:
        return Preference("w", STRONG)
    return Preference(other(colours[-1]), MILD)


@dataclass(frozen=True)
class Side:
    """What colour allocation needs of one player of a pair."""

    id: int
    colours: tuple[str, ...]
    score: float
    number: int  # TPN


def higher(a: Side, b: Side) -> Side:
    """The higher ranked of two (C.04.3 1.2: score, then the smaller TPN)."""
    return a if (-a.score, a.number) < (-b.score, b.number) else b


def allocate(a: Side, b: Side, first_colour: Literal["white", "black"] = "white",
             ) -> tuple[int, int, int]:
    """C.04.3 5.2: ``(white id, black id, rule)`` where rule is the article (1-5 of 5.2) that
    decided."""
    pa, pb = preference(a.colours), preference(b.colours)

    def give(player: Side, colour: str) -> tuple[int, int]:
        rival = b if player is a else a
        return (player.id, rival.id) if colour == "w" else (rival.id, player.id)

    # 5.2.1 both preferences granted (one player without a preference counts as granted)
    if pa.colour != pb.colour:
        if pa.colour is not None:
            return (*give(a, pa.colour), 1)
        assert pb.colour is not None
        return (*give(b, pb.colour), 1)
    # here both want the same colour, or neither has a preference
    if pa.colour is not None:
        # 5.2.2 the stronger preference; both absolute: the wider colour difference
        if pa.strength != pb.strength:
            strong = a if pa.strength > pb.strength else b
            return (*give(strong, pa.colour), 2)
        if pa.absolute:
            da, db = abs(difference(a.colours)), abs(difference(b.colours))
            if da != db:
                return (*give(a if da > db else b, pa.colour), 2)
        # 5.2.3 alternate to the most recent round where they had different colours
        for ca, cb in zip(reversed(a.colours), reversed(b.colours), strict=False):
            if ca != cb:
                return (*give(a, other(ca)), 3)
        # 5.2.4 the higher ranked player's preference
        top = higher(a, b)
        return (*give(top, pa.colour), 4)
    # 5.2.5 neither has played: the initial colour to the higher ranked if his TPN is odd
    top = higher(a, b)
    initial = "w" if first_colour == "white" else "b"
    return (*give(top, initial if top.number % 2 else other(initial)), 5)
