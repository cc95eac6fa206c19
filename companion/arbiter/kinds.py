"""What a game provides to the arbiter station, page, results and disputes.

The arbiter's machinery (:mod:`~companion.arbiter.view`, :mod:`~companion.arbiter.publisher`,
:mod:`~companion.arbiter.web`, :mod:`~companion.arbiter.results`,
:mod:`~companion.arbiter.dispute`, :mod:`~companion.arbiter.station`) names no game: it asks
the registry for the game's *arbiter facet*, the module ``companion.<kind>.arbiter``
(:meth:`companion.registry.GameKind.arbiter`), which satisfies :class:`ArbiterGame`. A game
without that module has no arbiter support: its tables are shown without a board, give no
result records, and ``companion dispute`` says so.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from companion import registry

if TYPE_CHECKING:
    from companion.arbiter.actions import Action
    from companion.arbiter.station import ArbiterStation, ClockLike

#: Game seconds a refused input or a penalty stays on the page's alert list.
RECENT_S = 20.0


class Mirror(Protocol):
    """One game's engine on the arbiter's side, fed its journal records one by one (the page's
    view and a table's publisher both keep one per game)."""

    def apply(self, record: Mapping[str, Any]) -> None:
        """Play one journal record after the header (one the game cannot read changes nothing)."""
        ...

    def snapshot(self) -> dict[str, Any]:
        """The game's state for the table's retained MQTT snapshot (``"over"``, and when it is,
        ``"winner"``, ``"reason"``, ``"confirmed"``, mark a result to publish)."""
        ...

    def card(self, out: dict[str, Any], *, elapsed: float, online: bool, board: str) -> None:
        """Fill the page's card for the table: ``out`` gets the game's fields and its alerts
        (appended to ``out["alerts"]``). ``elapsed``: seconds since the last record arrived (the
        clock runs on while ``online`` and the game is not over); ``board``: the address of the
        table's board picture, for a game that draws one (:meth:`ArbiterGame.board_svg`)."""
        ...


class KeypadMenu(Protocol):
    """A game's arbiter menu on the table's keypad (a pure state machine)."""

    @property
    def active(self) -> bool:
        """Whether the keypad belongs to the arbiter now."""
        ...

    def press(self, key: str, now: float) -> tuple[bool, list[Action]]:
        """One key: whether the menu took it, and what the station is to do."""
        ...

    def screen(self, now: float | None = None) -> list[str]:
        """The table's screen at ``now`` (a count-down shows the time left) while the arbiter
        has the keypad."""
        ...

    def redraw_at(self, now: float) -> float | None:
        """When the screen next changes with no key pressed (a count-down), else None."""
        ...

    def settle(self, now: float) -> None:
        """Catch up with time passed without a key (a screen left alone may give the keypad
        back)."""
        ...


@dataclass(frozen=True)
class GameResult:
    """A finished two-player game's result, as the game's rules decide it."""

    colours: list[str]  # the players, the one who moved first first
    winner: str | None  # a colour, "tie", or None
    reason: str
    forfeit: bool
    score: dict[str, int]
    margin: dict[str, int]  # for the standings' tie-break (bigger is better)
    confirmed: bool
    over_at: float | None


class ArbiterGame(Protocol):
    """A game's arbiter facet: the module ``companion.<kind>.arbiter``."""

    # ------------------------------------------------------------------ the live page
    def mirror(self, header: Mapping[str, Any]) -> Mirror | None:
        """An engine to fold this journal's records into, or None when the header cannot be
        set up (the table is then shown without its game)."""
        ...

    def snapshot_card(
        self,
        out: dict[str, Any],
        state: Mapping[str, Any],
        header: Mapping[str, Any],
        *,
        elapsed: float,
        online: bool,
        board: str,
    ) -> bool:
        """Fill ``out`` from a table's retained snapshot (before its records have arrived), as
        :meth:`Mirror.card` does; False when the snapshot cannot be shown that way."""
        ...

    def board_svg(self, card: Mapping[str, Any], *, label: str) -> str | None:
        """The board of a table's card (:meth:`Mirror.card`) as a standalone SVG document, or
        None when the game's board is drawn by the page itself (or the card has no game)."""
        ...

    def page_script(self) -> str:
        """JavaScript for the page: registers ``CARDS[kind] = (box, t) => ...``, drawing the
        game's part of a table's card."""
        ...

    def correction_fields(self) -> str:
        """The correction form's fields for this game (HTML; "" when it takes none from the
        page). A field with ``data-field`` is sent (``data-field="number"``: as a number)."""
        ...

    # ------------------------------------------------------------------ results
    def result(self, state: Mapping[str, Any]) -> GameResult | None:
        """The result of a game folded by ``simulate``; None when the game keeps no result
        records; ValueError (saying why) when this game has none yet."""
        ...

    # ------------------------------------------------------------------ disputes
    def dispute(
        self,
        header: Mapping[str, Any],
        events: list[tuple[int, dict[str, Any]]],
        *,
        moment: float,
        lo: float,
        hi: float,
    ) -> list[str] | None:
        """``companion dispute``: the account of the records from ``lo`` to ``hi`` (game
        seconds); None when the game tells no disputes; ValueError for a header it cannot set
        up."""
        ...

    # ------------------------------------------------------------------ at the table
    def station(self, table: Any, clock: ClockLike) -> ArbiterStation | None:
        """Arbiter mode at the table (PIN, keypad menu, corrections, signed commands), or None
        when the game has none."""
        ...


def arbiter_for(name: object) -> ArbiterGame | None:
    """The arbiter facet of the game called ``name`` (a journal header's ``"game"``); None for
    an unknown game or one without arbiter support."""
    try:
        kind = registry.get(name)
    except registry.UnknownGame:
        return None
    return kind.arbiter()


__all__ = [
    "RECENT_S",
    "ArbiterGame",
    "GameResult",
    "KeypadMenu",
    "Mirror",
    "arbiter_for",
]
