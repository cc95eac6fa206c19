"""Tantrix on the arbiter's page: the table's records folded by the engine, its board, its result.

A Tantrix table is played from the keypad alone, so the mirror only plays each record through
the game's own engine, exactly as the table and ``companion simulate`` do
(:func:`companion.tantrix.table.apply_event`), and gives the ``simulate`` state (tiles, forced
spaces, bag and phase, each colour's score) with the refused inputs. The board is the replay's
picture (:mod:`companion.tantrix.picture`) without its side panel; a two-player game gives a
result record (the score decides). There is no arbiter mode at a Tantrix table and no
``companion dispute`` for its journals.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from companion.arbiter import keypad
from companion.arbiter.kinds import GameResult
from companion.scenario import MalformedInput
from companion.tantrix.simulate import make_game, who

if TYPE_CHECKING:
    pass

NAME = "tantrix"
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
        self.t = 0.0
        self.ended = False
        self.violations: list[dict[str, Any]] = []
        self._state: dict[str, Any] | None = None

    def apply(self, record: Mapping[str, Any]) -> None:
        """Play one record as ``companion simulate`` does (nothing after an ``end``)."""
        from companion.tantrix.simulate import apply_event

        if self.ended:
            return
        self.t = keypad.record_time(record, self.t)
        player = who(self.game, record)
        try:
            refused = apply_event(self.game, record)
        except (MalformedInput, ValueError, TypeError):
            return
        if refused is not None:
            self.violations.append({"t": self.t, "player": player, "kind": refused.kind,
                                    "detail": refused.detail})
        self.ended = record.get("ev") == "end"
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
            self._state = out
        return self._state

    def snapshot(self) -> dict[str, Any]:
        return self.state()

    def card(self, out: dict[str, Any], *, elapsed: float, online: bool, board: str) -> None:
        keypad.keypad_card(out, NAME, self.state(), self.header, elapsed=elapsed, online=online,
                           board=board)


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
    return keypad.snapshot_card(out, NAME, state, header, elapsed=elapsed, online=online,
                                board=board)


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
    """Each laid tile's and open forced space's cell, ``(q,r)`` as the notation and a
    correction name it, small under its centre (the arbiter's board only)."""
    from companion.replay.palette import Ink
    from companion.replay.shapes import Group, Text

    cells = [(int(t["q"]), int(t["r"])) for t in state.get("tiles", [])]
    cells += [(int(q), int(r)) for q, r in state.get("forced", [])]
    out = []
    for q, r in cells:
        x, y = layout.centre((q, r))
        out.append(Group((("coord", f"{q},{r}"),),
                         (Text(x, y + layout.side * 0.55, f"({q},{r})", Ink.TEXT, 1, "mm"),)))
    return out


def page_script() -> str:
    return _SCRIPT


def correction_fields() -> str:
    return ""


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



# A keypad game has no dispute report and no arbiter mode at the table (yet).
dispute = keypad.no_dispute
station = keypad.no_station


_SCRIPT = r"""
function tantrixLines(t) {
  const s = t.tantrix;
  const out = [t.over ? line(result(t), {"data-turn": ""})
    : line(`turn: ${named(t, t.turn)}` + (s.free_move_used ? " (free move played)" : ""),
           {"data-turn": t.turn}, COLOURS[t.turn])];
  out.push(line(`${s.placed} tiles placed, bag ${s.bag} (${s.phase} phase)`,
                {"data-bag": s.bag, "data-phase": s.phase}));
  const forced = (s.forced || []).map(([q, r]) => `(${q}, ${r})`).join(" ");
  out.push(line(`forced spaces: ${forced || "none"}`, {"data-forced": (s.forced || []).length}));
  for (const [p, sc] of Object.entries(s.scores || {}))
    out.push(line(`${named(t, p)}: ${sc.points} points (line ${sc.line}, loop ${sc.loop})`,
                  {"data-score": p, "data-points": sc.points}, COLOURS[p]));
  return out;
}
CARDS.tantrix = (box, t) => { if (t.tantrix) keypadCard(box, t, tantrixLines(t)); };
"""
