"""A pairing at the table: the arbiter's signed pairing shown on the OLED, confirmed with one key.

``companion tournament pair --send`` (or the page's manual assignment) sends each pairing of
the round to its table as a signed arbiter command (:func:`~companion.arbiter.commands.
make_pairing_command`), through the same gate as a correction: size, rate, table, nonce, time
window and the arbiter's signature. The table's :class:`PairingDesk`, for every game kind:

1. shows the pairing (tournament, round, board, who moves first and who second) in place of
   the game's screen, and answers the arbiter "shown at table N, waiting for the players";
2. ``#`` starts the game: a new journal whose header holds the tournament, ``round``,
   ``board`` and the players' names in their seats (each game maps the seats onto its own
   colours, :func:`companion.tables.merge_next_header`), and answers "started";
3. ``*`` puts the pairing away (the game's screen comes back; the arbiter can send it again).

A pairing for another game kind than the table's, or one with a bad field, is refused with the
reason (answered, and journaled as a note when a game is open). The pairing's nonce is kept in
the new game's header, so a replay of the same command after a restart is refused.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from companion import registry
from companion.arbiter.commands import CommandGate, Refused, is_pairing
from companion.arbiter.settings import arbiter_settings, table_number
from companion.i18n import _
from companion.tournament.model import MAX_NAME

log = logging.getLogger(__name__)

#: The key that starts the paired game, and the one that puts the pairing away.
CONFIRM = "#"
DISMISS = "*"


@dataclass(frozen=True)
class Pairing:
    """One game of a round, as a table receives it."""

    tournament: str
    round: int
    board: int
    first: str
    second: str
    game: str
    nonce: str = ""

    def header(self) -> dict[str, Any]:
        """The fields the paired game's journal header gets."""
        return {
            "tournament": self.tournament,
            "round": self.round,
            "board": self.board,
            "seats": [self.first, self.second],
            "pairing_nonce": self.nonce,
        }

    def screen(self) -> list[str]:
        """The OLED's lines: a title, then the items."""
        return [
            _("R{round} board {board}").format(round=self.round, board=self.board),
            _("1st {player}").format(player=self.first),
            _("2nd {player}").format(player=self.second),
            self.tournament,
            _("#: start  *: hide"),
        ]


def _text(body: Mapping[str, Any], key: str) -> str:
    value = body.get(key)
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_NAME:
        raise ValueError(f"the pairing's {key} must be a name of 1 to {MAX_NAME} characters")
    if any(ord(ch) < 32 for ch in value):
        raise ValueError(f"the pairing's {key} has control characters")
    return value.strip()


def _number(body: Mapping[str, Any], key: str) -> int:
    value = body.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 999:
        raise ValueError(f"the pairing's {key} must be a whole number from 1 to 999")
    return value


def parse_pairing(body: object, nonce: str = "") -> Pairing:
    """A pairing command's ``"pairing"`` checked field by field; ValueError says which is bad."""
    if not isinstance(body, Mapping):
        raise ValueError("the command carries no pairing")
    pairing = Pairing(
        tournament=_text(body, "tournament"),
        round=_number(body, "round"),
        board=_number(body, "board"),
        first=_text(body, "first"),
        second=_text(body, "second"),
        game=_text(body, "game"),
        nonce=nonce,
    )
    if pairing.first.casefold() == pairing.second.casefold():
        raise ValueError("a pairing needs two different players")
    return pairing


class PairingDesk:
    """Pairings for one table of any game kind (in the daemon's loop, but :meth:`screen`)."""

    def __init__(
        self,
        table: Any,
        config: Mapping[str, Any],
        clock: Any,
        *,
        start: Callable[[], Any],
        answer: Callable[[dict[str, Any]], None],
        gate: CommandGate | None = None,
    ) -> None:
        self.table = table
        self.clock = clock
        self.kind = registry.configured(config).name
        self._start = start
        self._answer = answer
        if gate is None:
            settings = arbiter_settings(config)
            try:
                arbiter_key = settings.arbiter_public()
            except ValueError:
                arbiter_key = None
            gate = CommandGate(arbiter_key, table_number(config),
                               max_age_s=settings.command_max_age_s)
        #: The table's gate (shared with its station when the hooks made both): pairings and
        #: corrections use up nonces from one set, so a command is heard once, however spelt.
        self.gate = gate
        pairing_nonce = dict(getattr(table, "header", None) or {}).get("pairing_nonce")
        if isinstance(pairing_nonce, str) and pairing_nonce:
            gate.remember(pairing_nonce)
        self.table_no = table_number(config)
        self.pending: Pairing | None = None
        self.shown = False

    def offer(self, command: Mapping[str, Any]) -> dict[str, Any]:
        """In the loop: a screened pairing command; shows it and answers the arbiter."""
        nonce = str(command.get("nonce"))
        try:
            if not is_pairing(command):
                raise Refused("malformed", "the command carries no pairing")
            if nonce == str(self.table.header.get("pairing_nonce")):
                raise Refused("replayed", f"replayed pairing refused (nonce {nonce})")
            self.gate.admit(command, None)
            pairing = parse_pairing(command.get("pairing"), nonce)
            if pairing.game != self.kind:
                raise ValueError(f"table {self.table_no} plays {self.kind}, not {pairing.game}")
        except (Refused, ValueError) as exc:
            return self._reply(False, str(exc), nonce)
        self.pending = pairing
        self.shown = True
        self.table.changed = True
        return self._reply(True, f"shown at table {self.table_no}: waiting for the players "
                                 f"to press {CONFIRM}", nonce, state="shown")

    def key(self, key: str) -> bool:
        """A keypad key while a pairing is shown: ``#`` starts the game, ``*`` hides it."""
        pairing = self.pending
        if pairing is None or not self.shown:
            return False
        if key == DISMISS:
            self.shown = False
            self.table.changed = True
            self._reply(True, "put away at the table (not started)", pairing.nonce,
                        state="hidden")
            return True
        if key != CONFIRM:
            return True  # the pairing has the keypad until it is started or put away
        self.table.next_header = pairing.header()
        try:
            path = self._start()
        except (ValueError, OSError) as exc:
            self.table.next_header = {}
            self._reply(False, f"the game could not start: {exc}", pairing.nonce)
            return True
        self.pending = None
        self.shown = False
        self.table.changed = True
        self._reply(True, f"started: round {pairing.round} board {pairing.board}, "
                          f"{pairing.first} v {pairing.second}", pairing.nonce,
                    state="started", journal=str(getattr(path, "name", path)))
        return True

    def view(self, state: dict[str, Any]) -> dict[str, Any]:
        """The table's view with the pairing on it while it is shown."""
        if self.pending is not None and self.shown:
            state["pairing"] = self.pending.screen()
        return state

    def _reply(self, ok: bool, message: str, nonce: str, **more: Any) -> dict[str, Any]:
        answer = {"ok": ok, "detail": message, "nonce": nonce, "pairing": True, **more}
        log.info("table %s pairing: %s", self.table_no, json.dumps(answer))
        self._answer(answer)
        return answer
