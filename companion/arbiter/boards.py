"""The keypad games on the arbiter's page: Tantrix and Tokami records folded, and drawn.

A Tamsk table is folded by :mod:`companion.arbiter.view` itself (sand runs on between records,
so the view needs the engine's clock). Tantrix and Tokami tables are played from the keypad
alone: nothing changes between two records, so a *mirror* here only plays each record through
the game's own engine, exactly as the table and ``companion simulate`` do
(:func:`companion.tantrix.table.apply_event`, :func:`companion.tokami.table.apply_event`),
and gives the state as the ``simulate`` contract's object (plus the refused inputs, each with
its game time, for the page's alerts). A record that is not an event of that game (a newer
version's, or a note a Tokami replay does not know) changes nothing, as in a replay.

The pictures are the replay's own (:mod:`companion.tantrix.picture`,
:mod:`companion.tokami.picture`), drawn from that same state object: :func:`board_svg`
is pure (a state in, an SVG string out), and Pillow is only imported when a picture is drawn.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from companion.scenario import MalformedInput

#: The games whose tables this module mirrors.
KEYPAD_GAMES = ("tantrix", "tokami")


class Mirror(Protocol):
    """A keypad game's engine, fed journal records one by one."""

    kind: str

    def apply(self, record: Mapping[str, Any]) -> None: ...

    def state(self) -> dict[str, Any]: ...


def _time(record: Mapping[str, Any], last: float) -> float:
    t = record.get("t")
    if isinstance(t, (int, float)) and not isinstance(t, bool) and t >= last:
        return float(t)
    return last


class TantrixMirror:
    """A Tantrix game rebuilt from its journal records."""

    kind = "tantrix"

    def __init__(self, header: Mapping[str, Any]) -> None:
        from companion.tantrix.game import Game

        players = header.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise ValueError('the journal header has no "players" list of colours')
        self.game = Game(players)
        self.t = 0.0
        self.ended = False
        self.violations: list[dict[str, Any]] = []
        self._state: dict[str, Any] | None = None

    def apply(self, record: Mapping[str, Any]) -> None:
        """Play one record as ``companion simulate`` does (nothing after an ``end``)."""
        from companion.tantrix.table import apply_event

        if self.ended:
            return
        self.t = _time(record, self.t)
        player = self.game.turn
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


class TokamiMirror:
    """A Tokami game rebuilt from its journal records."""

    kind = "tokami"

    def __init__(self, header: Mapping[str, Any]) -> None:
        from companion.tokami.game import Game
        from companion.tokami.setup import Setup

        try:
            setup = Setup.from_header(header)
        except MalformedInput as exc:
            raise ValueError(exc.message) from None
        self.game = Game(setup)
        self.t = 0.0
        self.violations: list[dict[str, Any]] = []
        self._state: dict[str, Any] | None = None

    def apply(self, record: Mapping[str, Any]) -> None:
        """Play one record as ``companion simulate`` does."""
        from companion.tokami.table import apply_event

        self.t = _time(record, self.t)
        by = record.get("player")
        player = by if isinstance(by, str) else self.game.turn
        try:
            refused = apply_event(self.game, record)
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
            out["violations"] = list(self.violations)
            self._state = out
        return self._state


def mirror_for(header: Mapping[str, Any]) -> Mirror | None:
    """A mirror for a Tantrix or Tokami journal's header; None for any other game or a header
    the engine cannot set up (the page then shows the table without a board)."""
    kind = header.get("game")
    try:
        if kind == "tantrix":
            return TantrixMirror(header)
        if kind == "tokami":
            return TokamiMirror(header)
    except ValueError:
        return None
    return None


# ---------------------------------------------------------------------------- pictures

#: The Tantrix picture without the replay's side panel (the page lists the same facts as text).
TANTRIX_BOARD_SIZE = (524, 540)


def board_svg(kind: str, state: Mapping[str, Any], header: Mapping[str, Any] | None = None,
              *, label: str = "") -> str:
    """The board of a keypad game as a standalone SVG document.

    Tantrix: the replay's board (tiles in their colours, forced spaces red with ``!``,
    controlled cells grey, each player's scoring chain traced), without its side panel.
    Tokami: the replay's score sheet (whose turn, the standings with the blocks each player
    holds, the blocks left on the cross with the forbidden one ringed, the refused inputs).
    """
    from companion.replay.model import Frame

    if kind == "tantrix":
        from companion.replay.chains import traced
        from companion.replay.shapes import to_svg
        from companion.tantrix import picture as tantrix_picture

        full = dict(state)
        full["chains"] = traced(list(state.get("tiles", [])), list(state.get("players", [])))
        frame = Frame(1, float(state.get("t", 0.0)), label, full)
        layout = tantrix_picture.layout_for(frame)
        return to_svg(tantrix_picture.board(full, layout), TANTRIX_BOARD_SIZE, title=label)
    if kind == "tokami":
        from companion.tokami import picture as tokami_picture

        setup = tokami_picture.setup_of(state, header)
        frame = Frame(1, float(state.get("t", 0.0)), label or "live", state)
        return tokami_picture.svg(frame, setup=setup, title=", ".join(state["players"]))
    raise ValueError(f"no board picture for {kind!r}: only {', '.join(KEYPAD_GAMES)}")
