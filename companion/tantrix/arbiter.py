"""Tantrix on the arbiter's page: the table's records folded by the engine, its board, its result.

A Tantrix table is played from the keypad alone, so the mirror only plays each record through
the game's own engine, exactly as the table and ``companion simulate`` do
(:func:`companion.tantrix.simulate.play_event`, the arbiter's corrections included), and gives
the ``simulate`` state (tiles, forced spaces, bag and phase, each colour's score) with the
refused inputs. The board is the replay's picture (:mod:`companion.tantrix.picture`) without its
side panel, each cell named as the table's map names it; a two-player game gives a result record
(the score decides, or the arbiter's result correction). Arbiter mode at the table takes the
arbiter's signed corrections (:mod:`companion.arbiter.keypad_station`; with hands only the result
correction); there is no ``companion dispute`` for its journals.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from companion.arbiter import keypad
from companion.arbiter.keypad_station import KeypadStation
from companion.arbiter.kinds import GameResult
from companion.i18n import N_, _
from companion.scenario import MalformedInput
from companion.tantrix.cellnames import CellNames
from companion.tantrix.correction_words import correction_refusal_in_words
from companion.tantrix.corrections import Ledger, parse_correction
from companion.tantrix.simulate import make_game, who

if TYPE_CHECKING:
    from companion.arbiter.station import ClockLike

NAME = "tantrix"
#: The unit of a result's margin (one's score minus the opponent's), for the standings.
MARGIN_UNIT = "score points"
#: The Tantrix picture without the replay's side panel (the page lists the same facts as text).
BOARD_SIZE = (524, 540)


class TantrixMirror:
    """A Tantrix game rebuilt from its journal records."""

    kind = NAME

    def __init__(self, header: Mapping[str, Any]) -> None:
        players = header.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise ValueError('the journal header has no "players" list of colours')
        self.header = dict(header)
        try:
            self.game = make_game(header)
        except MalformedInput as exc:
            raise ValueError(str(exc)) from None
        self.ledger = Ledger(self.game.players)  # the arbiter's corrections
        self.t = 0.0
        self.ended = False
        self.violations: list[dict[str, Any]] = []
        self._state: dict[str, Any] | None = None

    def apply(self, record: Mapping[str, Any]) -> None:
        """Play one record as ``companion simulate`` does (after an ``end`` only the arbiter's
        corrections)."""
        from companion.tantrix.simulate import play_event

        if self.ended and record.get("ev") != "correct":
            return
        self.t = keypad.record_time(record, self.t)
        player = who(self.game, record)
        try:
            self.game, refused = play_event(self.game, self.ledger, record)
        except (MalformedInput, ValueError, TypeError):
            return
        if refused is not None:
            self.violations.append({"t": self.t, "player": player, "kind": refused.kind,
                                    "detail": refused.detail})
        self.ended = self.ended or record.get("ev") == "end" or self.ledger.result is not None
        self._state = None

    def state(self) -> dict[str, Any]:
        """The ``simulate`` output for the game so far (kept until the next record)."""
        if self._state is None:
            from companion.tantrix.simulate import state

            out = state(self.game)
            out["t"] = self.t
            out["ended"] = self.ended
            out["over"] = bool(out["over"]) or self.ended
            out["violations"] = list(self.violations)
            self._state = self.ledger.finish(out)
        return self._state

    def snapshot(self) -> dict[str, Any]:
        return self.state()

    def card(self, out: dict[str, Any], *, elapsed: float, online: bool, board: str) -> None:
        keypad.keypad_card(out, NAME, self.state(), self.header, elapsed=elapsed, online=online,
                           board=board, words=refused_words)
        out[NAME]["cells"] = cell_names(out[NAME])


def mirror(header: Mapping[str, Any]) -> TantrixMirror | None:
    try:
        return TantrixMirror(header)
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
    if not keypad.snapshot_card(out, NAME, state, header, elapsed=elapsed, online=online,
                                board=board, words=refused_words):
        return False
    out[NAME]["cells"] = cell_names(out[NAME])
    return True


def refused_words(state: Mapping[str, Any], player: str, detail: str) -> tuple[str, str]:
    """A refused input on the page in the arbiter's language, its cells named as the table's
    map names them now (the layout of ``state``), never by axial coordinates."""
    names = CellNames.of_view(state)
    return _(player), correction_refusal_in_words(detail, names)


def board_svg(card: Mapping[str, Any], *, label: str) -> str | None:
    """The replay's board (tiles in their colours, forced spaces red with ``!``, controlled
    cells grey, each player's scoring chain traced), without its side panel."""
    state = card.get(NAME)
    if not isinstance(state, dict):
        return None
    from companion.replay.chains import traced
    from companion.replay.model import Frame
    from companion.replay.shapes import to_svg
    from companion.tantrix import picture

    full = dict(state)
    full["chains"] = traced(list(state.get("tiles", [])), list(state.get("players", [])))
    frame = Frame(1, float(state.get("t", 0.0)), label, full)
    layout = picture.layout_for(frame)
    return to_svg([*picture.board(full, layout), *coordinates(full, layout)], BOARD_SIZE,
                  title=label)


def coordinates(state: Mapping[str, Any], layout: Any) -> list[Any]:
    """Each laid tile's and open forced space's cell named as the table's map names it
    (``c4``: :class:`~companion.tantrix.cellnames.CellNames` of this layout), small under its
    centre (the arbiter's board only); the engine's ``q,r`` stays in the shape's data, for
    machines."""
    from companion.replay.palette import Ink
    from companion.replay.shapes import Group, Text

    names = CellNames.of_view(state)
    cells = [(int(t["q"]), int(t["r"])) for t in state.get("tiles", [])]
    cells += [(int(q), int(r)) for q, r in state.get("forced", [])]
    out = []
    for q, r in cells:
        x, y = layout.centre((q, r))
        out.append(Group((("coord", f"{q},{r}"),),
                         (Text(x, y + layout.side * 0.55, names.name(q, r), Ink.TEXT, 1, "mm"),)))
    return out


def cell_names(state: Mapping[str, Any]) -> dict[str, list[int]]:
    """Every cell a correction may name (the tiles, the forced spaces and the ring of free
    cells around them) by its name on the table's map, with its engine ``[q, r]``: the page's
    correction form takes the name the arbiter reads under a tile and sends ``q`` and ``r``."""
    from companion.tantrix.geometry import neighbour

    names = CellNames.of_view(state)
    taken = {(int(t["q"]), int(t["r"])) for t in state.get("tiles", [])}
    taken |= {(int(q), int(r)) for q, r in state.get("forced", [])}
    cells = set(taken) or {(0, 0)}
    for c in taken:
        cells.update(neighbour(c, side) for side in range(6))
    return {names.name(q, r): [q, r] for q, r in sorted(cells)}


def page_script() -> str:
    """The card's script, its words in the arbiter's language (``TANTRIX_WORDS``)."""
    from companion.i18n import pgettext

    words = {
        "free_move": _(" (free move played)"),
        "placed": _("{placed} tiles placed, bag {bag} ({phase} phase)"),
        "forced": _("forced spaces: {cells}"),
        "points": _("{player}: {points} points (line {line}, loop {loop})"),
        "phases": {"restricted": pgettext("phase", "restricted"),
                   "final": pgettext("phase", "final")},
        "colours": {c: _(c) for c in ("red", "yellow", "green", "blue")},
    }
    from companion.arbiter.web import script_json

    return _SCRIPT.replace("__TANTRIX_WORDS__", script_json(words))


def correction_fields() -> str:
    return _FIELDS


_FIELDS = r"""
 <label title="[[take-back: a mis-entered tile leaves the table; move: the tile was laid
elsewhere (or turned otherwise, or was another tile); turn: whose turn it is; result: the
arbiter decides the game (with hands only result)]]">[[what]] <select name="what">
  <option>take-back</option><option>move</option><option>turn</option><option>result</option>
  </select></label>
 <label title="[[the tile's number, as on its back: 1 to 56 (take-back: empty for the last
tile placed; move: the tile to move)]]">[[tile]]
  <input name="tile" size="3" placeholder="17" data-field="number"></label>
 <label title="[[where the tile really is (move): the cell as named under each tile on the
table's board and on the table's map (row letter, column number)]]">[[cell]]
  <input name="cell" size="4" placeholder="c4" data-field="cell"></label>
 <label title="[[how the tile is turned, 0 to 5 steps of 60 degrees clockwise (move)]]">[[rot]]
  <input name="rot" size="2" placeholder="0" data-field="number"></label>
 <label title="[[when it was really another tile: that tile's number (move; empty
otherwise)]]">[[new tile]]
  <input name="new_tile" size="3" placeholder="" data-field="number"></label>
 <label title="[[the colour whose turn it is now: red, yellow, green or blue (turn)]]">[[player]]
  <input name="player" size="6" placeholder="yellow" data-field="text"></label>
 <label title="[[a playing colour, or tie (result)]]">[[winner]]
  <input name="winner" size="6" placeholder="red" data-field="text"></label>
 <label title="[[the result is a forfeit, not the arbiter's ruling on the board
(result)]]">[[forfeit]]
  <input name="forfeit" type="checkbox" value="1" data-field="flag"></label>
"""

#: The correction fields' labels and hints (``[[...]]`` in :data:`_FIELDS`, said in the
#: arbiter's language by :func:`companion.arbiter.web.page`), marked for the catalogs.
LABELS = (
    N_("take-back: a mis-entered tile leaves the table; move: the tile was laid elsewhere "
       "(or turned otherwise, or was another tile); turn: whose turn it is; result: the "
       "arbiter decides the game (with hands only result)"),
    N_("what"),
    N_("the tile's number, as on its back: 1 to 56 (take-back: empty for the last tile "
       "placed; move: the tile to move)"),
    N_("tile"),
    N_("where the tile really is (move): the cell as named under each tile on the table's "
       "board and on the table's map (row letter, column number)"),
    N_("cell"),
    N_("how the tile is turned, 0 to 5 steps of 60 degrees clockwise (move)"),
    N_("rot"),
    N_("when it was really another tile: that tile's number (move; empty otherwise)"),
    N_("new tile"),
    N_("the colour whose turn it is now: red, yellow, green or blue (turn)"),
    N_("player"),
    N_("a playing colour, or tie (result)"),
    N_("winner"),
    N_("the result is a forfeit, not the arbiter's ruling on the board (result)"),
    N_("forfeit"),
)



def result(state: Mapping[str, Any]) -> GameResult:
    """Two players only; a game the arbiter stopped is decided by the score as it stands."""
    colours = list(state["players"])
    if len(colours) != 2:
        raise ValueError("results are kept for two-player games only")
    if not state["over"] and not state.get("ended"):
        raise ValueError("the game is not over: no result yet")
    score = {c: int(state["scores"][c]["points"]) for c in colours}
    a, b = colours
    winner = state["winner"]
    if winner is None:  # stopped by the arbiter: the score as it stands decides
        winner = a if score[a] > score[b] else b if score[b] > score[a] else "tie"
    reason = state.get("reason") or ("score" if state["over"] else "score at end")
    margin = {a: score[a] - score[b], b: score[b] - score[a]}
    forfeit = bool(state.get("forfeit"))  # an arbiter's result correction
    return GameResult(colours, winner, reason, forfeit, score, margin, True, None)



# A keypad game has no dispute report.
dispute = keypad.no_dispute


def station(table: Any, clock: ClockLike) -> KeypadStation:
    """Arbiter mode at the table: the arbiter's signed corrections (no keypad menu: the keypad
    is the players')."""

    def words(detail: str) -> str:
        game = getattr(table, "game", None)
        cells = [(p.q, p.r) for p in game.placements] + list(game.forced_spaces()) if game else []
        return correction_refusal_in_words(detail, CellNames.of(cells))

    return KeypadStation(table, clock, parse_correction, words)


_SCRIPT = r"""
const TANTRIX_WORDS = __TANTRIX_WORDS__;
KIND_WORDS.tantrix = TANTRIX_WORDS.colours;
function tantrixCell(s, q, r) {
  // The name the table's map gives cell (q, r) (the card's cells: name -> [q, r]).
  const hit = Object.entries(s.cells || {}).find(([, c]) => c[0] === q && c[1] === r);
  return hit ? hit[0] : "?";
}
function tantrixLines(t) {
  const s = t.tantrix, w = TANTRIX_WORDS;
  const out = [t.over ? line(result(t), {"data-turn": ""})
    : line(fmt(W.turn, {player: named(t, t.turn)}) + (s.free_move_used ? w.free_move : ""),
           {"data-turn": t.turn}, COLOURS[t.turn])];
  out.push(line(fmt(w.placed, {placed: s.placed, bag: s.bag, phase: w.phases[s.phase] || s.phase}),
                {"data-bag": s.bag, "data-phase": s.phase}));
  const forced = (s.forced || []).map(([q, r]) => tantrixCell(s, q, r)).join(" ");
  out.push(line(fmt(w.forced, {cells: forced || W.none}),
                {"data-forced": (s.forced || []).length}));
  for (const [p, sc] of Object.entries(s.scores || {}))
    out.push(line(fmt(w.points, {player: named(t, p), points: sc.points, line: sc.line,
                                 loop: sc.loop}),
                  {"data-score": p, "data-points": sc.points}, COLOURS[p]));
  return out;
}
CARDS.tantrix = (box, t) => { if (t.tantrix) keypadCard(box, t, tantrixLines(t)); };
"""
