"""Arbiter mode at a keypad table (Tantrix, Tokami): the arbiter's signed corrections over MQTT.

The keypad of a Tantrix or Tokami table is the players' (every key is a move), so arbiter mode
there has no keypad menu: corrections come as signed commands from the arbiter's page (or
``companion tournament correct`` on his laptop), through the same
:class:`~companion.arbiter.commands.CommandGate` as Tamsk's (signature, table, game, nonce,
age). A correction the gate lets through is journaled as the game's ``correct`` record and
played by the table's fold (:meth:`submit` of the table): one the rules refuse is journaled too
(a replay refuses it again, with the same reason) and answered with that reason.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.arbiter.actions import Action
from companion.arbiter.station import ArbiterStation, ClockLike, Outcome, TableLike


class NoMenu:
    """A keypad menu that never takes a key: the keypad stays the players'."""

    active = False

    def press(self, key: str, now: float) -> tuple[bool, list[Action]]:
        return False, []

    def screen(self, now: float | None = None) -> list[str]:
        return []

    def redraw_at(self, now: float) -> float | None:
        return None

    def settle(self, now: float) -> None:
        return None


class KeypadStation(ArbiterStation):
    """Signed corrections at a keypad table; ``parse`` is the game's ``parse_correction``
    (a :class:`~companion.scenario.MalformedInput` for a correction of the wrong shape);
    ``words`` says a refusal of the rules (English) in the table's language."""

    def __init__(
        self,
        table: TableLike,
        clock: ClockLike,
        parse: Callable[[Mapping[str, Any]], Any],
        words: Callable[[str], str] = str,
    ) -> None:
        self.parse = parse
        self.words = words
        super().__init__(table, clock)

    def make_menu(self) -> NoMenu:
        return NoMenu()

    def game_open(self) -> bool:
        """A game of the table's own kind in play (a Tantrix solo game takes no corrections)."""
        return getattr(self.table, "game", None) is not None

    def check_correction(self, body: dict[str, Any]) -> None:
        self.parse(body)

    def carry_out(self, body: dict[str, Any], t_mono: float, nonce: str | None) -> Outcome:
        """Journal the correction and play it; the table's ``last_refusal`` says whether the
        rules refused it (it is journaled either way, as every input is)."""
        self.submit(t_mono, body)
        refusal = getattr(self.table, "last_refusal", None)
        if refusal is not None:
            return Outcome(False, self.words(str(getattr(refusal, "detail", refusal))), nonce)
        return Outcome(True, f"{body['what']}: done", nonce)
