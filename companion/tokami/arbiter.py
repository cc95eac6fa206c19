"""Tokami on the arbiter's page: the table's records folded by the engine, and its score sheet.

A Tokami table is played from the keypad alone, so the mirror only plays each record through
the game's own engine, exactly as the table and ``companion simulate`` do
(:func:`companion.tokami.table.play_event`, the arbiter's corrections included), and gives the
``simulate`` state (standings with the arbiter's adjustments, round, blocks left, the forbidden
block) with the refused inputs. The board is the replay's score sheet
(:mod:`companion.tokami.picture`). Arbiter mode at the table takes the arbiter's signed
corrections (:mod:`companion.arbiter.keypad_station`). Tokami keeps no result records and has
no ``companion dispute``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from companion.arbiter import keypad
from companion.arbiter.keypad_station import KeypadStation
from companion.arbiter.kinds import GameResult
from companion.i18n import N_, _
from companion.scenario import MalformedInput
from companion.tokami.corrections import Ledger, parse_correction
from companion.tokami.game import Game
from companion.tokami.setup import Setup
from companion.tokami.words import correction_refusal_in_words, played_in_words

if TYPE_CHECKING:
    from companion.arbiter.station import ClockLike

NAME = "tokami"
#: The header's fields the score sheet needs, shown with the state.
HEADER_FIELDS = ("worthless", "round_ends_at")
#: The latest turns the arbiter's board lists, numbered as a ``turn`` correction names them
#: (the snapshot stays small however long the game).
RECENT_TURNS = 8
#: Pixels a numbered turn's row takes under the score sheet.
TURN_ROW = 16


class TokamiMirror:
    """A Tokami game rebuilt from its journal records."""

    kind = NAME

    def __init__(self, header: Mapping[str, Any]) -> None:
        try:
            setup = Setup.from_header(header)
        except MalformedInput as exc:
            raise ValueError(exc.message) from None
        self.header = dict(header)
        self.game = Game(setup)
        self.ledger = Ledger()  # the arbiter's corrections
        self.t = 0.0
        self.violations: list[dict[str, Any]] = []
        self._state: dict[str, Any] | None = None

    def apply(self, record: Mapping[str, Any]) -> None:
        """Play one record as ``companion simulate`` does."""
        from companion.tokami.table import play_event

        self.t = keypad.record_time(record, self.t)
        by = record.get("player")
        player = by if isinstance(by, str) else self.game.turn
        try:
            self.game, refused = play_event(self.game, self.ledger, record)
        except (MalformedInput, ValueError, TypeError):
            return
        if refused is not None:
            self.violations.append({"t": self.t, "player": player, "kind": refused.kind,
                                    "detail": refused.detail})
        self._state = None

    def state(self) -> dict[str, Any]:
        """The ``simulate`` output for the game so far (kept until the next record)."""
        if self._state is None:
            out = self.game.as_dict()
            out["t"] = self.t
            history = self.game.history
            first = max(0, len(history) - RECENT_TURNS)
            out["recent_turns"] = [[n, played_in_words(played)] for n, played in
                                   enumerate(history[first:], start=first + 1)]
            out["violations"] = list(self.violations)
            self._state = self.ledger.finish(out)
        return self._state

    def snapshot(self) -> dict[str, Any]:
        return self.state()

    def card(self, out: dict[str, Any], *, elapsed: float, online: bool, board: str) -> None:
        keypad.keypad_card(out, NAME, self.state(), self.header, elapsed=elapsed, online=online,
                           board=board, header_fields=HEADER_FIELDS, words=refused_words)


def mirror(header: Mapping[str, Any]) -> TokamiMirror | None:
    try:
        return TokamiMirror(header)
    except ValueError:
        return None


def snapshot_card(
    out: dict[str, Any],
    state: Mapping[str, Any],
    header: Mapping[str, Any],
    *,
    elapsed: float,
    online: bool,
    board: str,
) -> bool:
    return keypad.snapshot_card(out, NAME, state, header, elapsed=elapsed, online=online,
                                board=board, header_fields=HEADER_FIELDS, words=refused_words)


def refused_words(state: Mapping[str, Any], player: str, detail: str) -> tuple[str, str]:
    """A refused turn (or correction) on the page in the arbiter's language; the player is a
    name, kept as it is."""
    return player, correction_refusal_in_words(detail)


def board_svg(card: Mapping[str, Any], *, label: str) -> str | None:
    """The replay's score sheet (whose turn, the standings with the blocks each player holds,
    the blocks left on the cross with the forbidden one ringed, the refused inputs)."""
    state = card.get(NAME)
    if not isinstance(state, dict):
        return None
    from companion.replay.model import Frame
    from companion.replay.shapes import to_svg
    from companion.tokami import picture

    header = {k: state[k] for k in ("players", "blocks", "rounds", *HEADER_FIELDS)
              if k in state}
    setup = picture.setup_of(state, header)
    frame = Frame(1, float(state.get("t", 0.0)), label or "live", state)
    sheet = picture.shapes(frame, setup=setup, title=", ".join(state["players"]))
    width, height = picture.size_of(state)
    rows = coordinates(state, height)
    size = (width, height + TURN_ROW * len(rows) + (picture.MARGIN if rows else 0))
    return to_svg([*sheet, *rows], size, title=frame.shown)


def coordinates(state: Mapping[str, Any], top: float) -> list[Any]:
    """The latest turns under the sheet, each with its number (``turn N``), as a ``turn``
    correction's ``index`` names it (the arbiter's board only)."""
    from companion.replay.palette import Ink
    from companion.replay.shapes import Group, Text
    from companion.tokami import picture

    out = []
    for row, item in enumerate(state.get("recent_turns") or []):
        if not (isinstance(item, list) and len(item) == 2):
            continue
        n, text = item
        y = top + row * TURN_ROW
        shown = _("turn {n}. {turn}").format(n=n, turn=text)[:90]
        out.append(Group((("coord", f"turn {n}"),),
                         (Text(picture.MARGIN, y, shown, Ink.TEXT, 1),)))
    return out


def page_script() -> str:
    """The card's script, its words in the arbiter's language (``TOKAMI_WORDS``)."""
    from companion.arbiter.web import script_json
    from companion.i18n import _

    words = {
        "round": _("round {round} of {rounds}, {left} blocks left on the cross"),
        "forbidden": _("forbidden block: {block}"),
    }
    return _SCRIPT.replace("__TOKAMI_WORDS__", script_json(words))


def correction_fields() -> str:
    return _FIELDS


_FIELDS = r"""
 <label title="[[turn: a mis-typed turn, replaced by what really happened; note: the
arbiter's note on the game's record; score: add points to (or take them from) a player's
total]]">[[what]] <select name="what"><option>score</option><option>turn</option>
  <option>note</option></select></label>
 <label title="[[the player, by name as on the card (score)]]">[[player]]
  <input name="player" size="10" placeholder="Ada" data-field="text"></label>
 <label title="[[points to add, -100 to 100, not 0; negative takes points away (score)]]">[[points]]
  <input name="points" size="4" placeholder="-2" data-field="number"></label>
 <label title="[[the mis-typed turn's number, from 1, counting the turns that stand
(turn)]]">[[index]] <input name="index" size="3" placeholder="4" data-field="number"></label>
 <label title='[[what really happened in that turn, e.g. {"ev": "higher", "block": "blue"}
or {"ev": "bonus", "block": "blue", "bonus": "green"} (turn)]]'>[[turn]]
  <input name="turn" size="28" placeholder='{"ev": "higher", "block": "blue"}'
   data-field="json"></label>
 <label title="[[the note for the game's record, up to 500 characters (note)]]">[[text]]
  <input name="text" size="20" placeholder="" data-field="text"></label>
"""

#: The correction fields' labels and hints (``[[...]]`` in :data:`_FIELDS`, said in the
#: arbiter's language by :func:`companion.arbiter.web.page`), marked for the catalogs.
LABELS = (
    N_("turn: a mis-typed turn, replaced by what really happened; note: the arbiter's note "
       "on the game's record; score: add points to (or take them from) a player's total"),
    N_("what"),
    N_("the player, by name as on the card (score)"),
    N_("player"),
    N_("points to add, -100 to 100, not 0; negative takes points away (score)"),
    N_("points"),
    N_("the mis-typed turn's number, from 1, counting the turns that stand (turn)"),
    N_("index"),
    N_('what really happened in that turn, e.g. {"ev": "higher", "block": "blue"} or {"ev": '
       '"bonus", "block": "blue", "bonus": "green"} (turn)'),
    N_("turn"),
    N_("the note for the game's record, up to 500 characters (note)"),
    N_("text"),
)



def result(state: Mapping[str, Any]) -> GameResult | None:
    return None



# A keypad game has no dispute report.
dispute = keypad.no_dispute


def station(table: Any, clock: ClockLike) -> KeypadStation:
    """Arbiter mode at the table: the arbiter's signed corrections (no keypad menu: the keypad
    is the players')."""
    return KeypadStation(table, clock, parse_correction, correction_refusal_in_words)


_SCRIPT = r"""
const TOKAMI_WORDS = __TOKAMI_WORDS__;
function tokamiLines(t) {
  const s = t.tokami, w = TOKAMI_WORDS;
  const out = [t.over ? line(result(t), {"data-turn": ""})
    : line(fmt(W.turn, {player: t.turn}), {"data-turn": t.turn})];
  out.push(line(fmt(w.round, {round: s.round, rounds: s.rounds, left: s.blocks_left}),
                {"data-round": s.round, "data-blocks-left": s.blocks_left}));
  out.push(line(fmt(w.forbidden, {block: s.forbidden ? word(s.forbidden) : W.none}),
                {"data-forbidden": s.forbidden || ""}, COLOURS[s.forbidden]));
  (s.standings || []).forEach(([p, total], i) =>
    out.push(line(`${i + 1}. ${p}: ${total}`, {"data-standing": p, "data-total": total})));
  return out;
}
CARDS.tokami = (box, t) => { if (t.tokami) keypadCard(box, t, tokamiLines(t)); };
"""
