"""One Tokami turn as the table reports it, and its form as a journal event.

A turn ends in exactly one of five ways (rule book, "Déroulement du jeu"):

========================  ======================================================  =============
outcome                   what happened                                            event ``ev``
========================  ======================================================  =============
``Outcome.BONUS``         the block went higher and a bonus block was taken        ``bonus``
``Outcome.HIGHER``        the block went higher, no bonus taken (too risky)        ``higher``
``Outcome.FELL``          blocks fell: all are malus, plus the block in hand       ``fell``
``Outcome.NOT_HIGHER``    the block could not be placed higher: it is malus        ``not_higher``
``Outcome.DECLINED``      too risky: the player takes the forbidden block as malus ``declined``
========================  ======================================================  =============

Blocks are named by colour only: the companion cannot tell two blue blocks apart, and the score
only depends on colours.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.scenario import MalformedInput


class Outcome(enum.Enum):
    """How a turn ended; the value is the journal's ``ev`` name."""

    BONUS = "bonus"
    HIGHER = "higher"
    FELL = "fell"
    NOT_HIGHER = "not_higher"
    DECLINED = "declined"


@dataclass(frozen=True)
class Turn:
    """The outcome of one turn with the colours it involved.

    ``block`` is the block moved higher (``BONUS``, ``HIGHER``: it becomes the forbidden block
    for the next player) or the block that could not go higher (``NOT_HIGHER``). ``fallen`` and
    ``in_hand`` belong to ``FELL`` only; ``bonus`` to ``BONUS`` only. Build turns with the
    spoken constructors:

    >>> Turn.moved("blue", bonus="green").outcome
    <Outcome.BONUS: 'bonus'>
    >>> Turn.fell(["red", "blue"], in_hand="green").taken_by_hand
    ('green',)
    """

    outcome: Outcome
    block: str | None = None
    bonus: str | None = None
    fallen: tuple[str, ...] = ()
    in_hand: str | None = None

    def __post_init__(self) -> None:
        wants_block = self.outcome in (Outcome.BONUS, Outcome.HIGHER, Outcome.NOT_HIGHER)
        if wants_block != (self.block is not None):
            need = "needs" if wants_block else "has no"
            raise ValueError(f"a {self.outcome.value!r} turn {need} block")
        if (self.outcome is Outcome.BONUS) != (self.bonus is not None):
            raise ValueError("only a 'bonus' turn has, and must have, a bonus block")
        if self.outcome is not Outcome.FELL and (self.fallen or self.in_hand is not None):
            raise ValueError("only a 'fell' turn has fallen blocks or a block in hand")
        object.__setattr__(self, "fallen", tuple(self.fallen))

    # -- spoken constructors -------------------------------------------------------------------

    @classmethod
    def moved(cls, block: str, bonus: str | None = None) -> Turn:
        """The ``block`` went higher; ``bonus`` is the colour of the bonus block taken, if any."""
        if bonus is None:
            return cls(Outcome.HIGHER, block=block)
        return cls(Outcome.BONUS, block=block, bonus=bonus)

    @classmethod
    def fell(cls, fallen: Sequence[str], in_hand: str | None = None) -> Turn:
        """Blocks fell off the cross; ``in_hand`` is the block the player had already taken out."""
        return cls(Outcome.FELL, fallen=tuple(fallen), in_hand=in_hand)

    @classmethod
    def not_higher(cls, block: str) -> Turn:
        """The player took ``block`` out but could not put it back higher."""
        return cls(Outcome.NOT_HIGHER, block=block)

    @classmethod
    def declined(cls) -> Turn:
        """The player found every block too risky and takes the forbidden block as malus."""
        return cls(Outcome.DECLINED)

    # -- what the turn takes off the cross -----------------------------------------------------

    @property
    def taken_by_hand(self) -> tuple[str, ...]:
        """Blocks the player chose and took out; none of them may be the forbidden block.

        The block moved higher counts too (it must exist and may not be the forbidden one, even
        though it goes back on the cross), and a bonus must be another block than it.
        """
        if self.outcome is Outcome.BONUS:
            assert self.block is not None and self.bonus is not None
            return (self.block, self.bonus)
        if self.outcome in (Outcome.HIGHER, Outcome.NOT_HIGHER):
            assert self.block is not None
            return (self.block,)
        if self.outcome is Outcome.FELL and self.in_hand is not None:
            return (self.in_hand,)
        return ()

    def describe(self, forbidden: str | None = None) -> str:
        """A short line for a screen or a log: ``"blue higher, bonus green"``."""
        if self.outcome is Outcome.BONUS:
            return f"{self.block} higher, bonus {self.bonus}"
        if self.outcome is Outcome.HIGHER:
            return f"{self.block} higher, no bonus"
        if self.outcome is Outcome.FELL:
            hand = f" + {self.in_hand} in hand" if self.in_hand else ""
            return f"fell: {' '.join(self.fallen)}{hand}"
        if self.outcome is Outcome.NOT_HIGHER:
            return f"{self.block} not higher"
        return f"declined, took {forbidden or 'the forbidden block'}"

    # -- journal form -------------------------------------------------------------------------

    def to_event(self) -> dict[str, Any]:
        """The journal event for this turn (without ``t`` or ``player``, which the caller adds)."""
        event: dict[str, Any] = {"ev": self.outcome.value}
        if self.block is not None:
            event["block"] = self.block
        if self.bonus is not None:
            event["bonus"] = self.bonus
        if self.outcome is Outcome.FELL:
            event["fallen"] = list(self.fallen)
            if self.in_hand is not None:
                event["in_hand"] = self.in_hand
        return event

    @classmethod
    def from_event(cls, event: Mapping[str, Any], line: int | None = None) -> Turn:
        """Read a turn event; a wrong shape is a :class:`MalformedInput` naming ``line``.

        Whether the colours exist in this game is a rule question, left to the game.
        """
        name = event.get("ev")
        try:
            outcome = Outcome(name)
        except ValueError:
            raise MalformedInput(f"unknown Tokami event {name!r}", line) from None

        def colour(key: str, required: bool) -> str | None:
            value = event.get(key)
            if value is None and not required:
                return None
            if not isinstance(value, str):
                need = "needs" if required else "takes"
                raise MalformedInput(
                    f"a {name!r} event {need} {key!r}: a block colour as a string", line
                )
            return value

        if outcome is Outcome.BONUS:
            return cls(outcome, block=colour("block", True), bonus=colour("bonus", True))
        if outcome in (Outcome.HIGHER, Outcome.NOT_HIGHER):
            return cls(outcome, block=colour("block", True))
        if outcome is Outcome.FELL:
            fallen = event.get("fallen")
            if not isinstance(fallen, list) or not all(isinstance(c, str) for c in fallen):
                raise MalformedInput(
                    "a 'fell' event needs 'fallen': the colours of the blocks that fell, "
                    'e.g. ["blue", "red"]',
                    line,
                )
            return cls(outcome, fallen=tuple(fallen), in_hand=colour("in_hand", False))
        return cls(outcome)
