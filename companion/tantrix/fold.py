"""Tantrix replays: the inputs folded through :class:`companion.tantrix.game.Game`.

Each input goes to the engine exactly as ``companion simulate`` sends it (``place`` to
:meth:`Game.play`, ``done`` to :meth:`Game.end_turn`, ``undo`` to :meth:`Game.undo`, nothing
after ``end``; the arbiter's ``correct`` lines as it applies them, even after ``end``); a
refused placement or correction becomes a violation. After each line of the notation the
state is the contract's object (:func:`companion.tantrix.simulate.state`), plus each player's
scoring chain for the picture to trace.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.i18n import N_, _
from companion.remark import Remark
from companion.replay.chains import traced
from companion.replay.model import (
    Frame,
    Line,
    RefoldTimeline,
    Replay,
    Usable,
    unknown_header_fields,
)
from companion.replay.model import usable_events as model_usable
from companion.scenario import MalformedInput, NumberedEvent
from companion.tantrix import solo
from companion.tantrix.cellnames import CellNames
from companion.tantrix.corrections import Ledger
from companion.tantrix.events import parse_placement
from companion.tantrix.game import Game, IllegalPlacement
from companion.tantrix.notation import group, line_kind, line_words
from companion.tantrix.notation import text as line_text
from companion.tantrix.simulate import make_game, mode_of, play_event, state, who
from companion.tantrix.words import refusal_in_words, rule_in_words

RULE_FIELDS = ("game", "players", "hands", "mode", "target", "puzzle")


def players_of(header: dict[str, Any]) -> tuple[str, ...]:
    """The seats from the header; MalformedInput when they cannot be played."""
    players = header.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise MalformedInput(
            'the header needs "players": a list of 2 to 4 colours, e.g. ["red", "yellow"]', 1
        )
    try:
        Game(players)
    except ValueError as exc:
        raise MalformedInput(f'header "players": {exc}', 1) from None
    return tuple(players)


def usable_events(events: Sequence[NumberedEvent], notes: list[str]) -> list[Usable]:
    """The Tantrix inputs a replay can fold (see :func:`companion.replay.model.usable_events`)."""
    return model_usable(
        events, notes, line_kind, ("place", "done", "undo", "end", "note", "starter", "draw")
    )


@dataclass
class _Table:
    """The engine and what the fold adds around it: refusals and the ``end`` flag."""

    game: Game
    violations: list[dict[str, Any]] = field(default_factory=list)
    ended: bool = False
    ledger: Ledger | None = None  # the arbiter's corrections

    def apply(self, obj: dict[str, Any], t: float, line: int) -> tuple[Any, ...] | None:
        """Play one input; returns the cell filled by an accepted placement."""
        kind = obj["ev"]
        if self.ended and kind != "correct":
            return None
        if self.ledger is None:
            self.ledger = Ledger(self.game.players)
        player = who(self.game, obj)
        try:
            self.game, refused = play_event(self.game, self.ledger, obj, line)
        except MalformedInput as exc:  # a draw in a game without hands, say
            refused = IllegalPlacement("malformed", str(exc))
        if self.ledger.result is not None:
            self.ended = True
        if refused is not None:
            self.violations.append(
                {"t": t, "player": player, "kind": refused.kind, "detail": refused.detail,
                 "line": line}
            )
            return None
        if kind == "end":
            self.ended = True
        if kind == "place":
            return parse_placement(obj, line).cell
        return None

    def state(self) -> dict[str, Any]:
        out = state(self.game)
        out["ended"] = self.ended
        out["violations"] = list(self.violations)
        if self.ledger is not None:
            out = self.ledger.finish(out)
        out["chains"] = traced(out["tiles"], self.game.players)
        return out


def _mode_word(mode: str) -> str:
    """``solitaire`` as the menu names the mode (``Solitaire``), in lower case as in English."""
    word = _(mode.capitalize())
    return word.lower() if word != mode.capitalize() else mode


class _GameNames:
    """The cells' names of a whole game, for its remarks: the replay's picture draws the
    cells of the whole game on one board that does not move from frame to frame, with the row
    letters and column numbers of :class:`~companion.tantrix.cellnames.CellNames` of those
    cells (:mod:`companion.tantrix.picture`), so a remark names a cell as every frame's board
    does. The naming is known once the fold has seen every cell; a remark made before says its
    cells through this object, which the fold completes at the end (:meth:`know`). The
    remarks stay English with exact coordinates (``fills the forced space (1, 0)``) for the
    notation file; only what a reader is shown names the cells.
    """

    def __init__(self) -> None:
        self.names = CellNames()
        self._written: dict[tuple[int, int], Remark] = {}

    def know(self, cells: set[tuple[int, int]]) -> None:
        self.names = CellNames.of(cells)

    def cell(self, english: str) -> str:
        """``(1, 0)`` -> ``c4``."""
        return self.names.in_text(english)

    def refusal(self, english: str) -> str:
        """A refusal's detail in the players' language, its cells named."""
        return refusal_in_words(english, self.names)

    def written(self, q: int, r: int) -> Remark:
        """Cell ``(q, r)`` as a line of the notation writes it (``(1,0)``), its name when a
        replay shows the line (``c4``): one remark a cell, shared by every line naming it."""
        found = self._written.get((q, r))
        if found is None:
            found = Remark.via(lambda _text: self.names.name(q, r), f"({q},{r})", english=True)
            self._written[(q, r)] = found
        return found

    def at(self, q: int, r: int) -> Remark:
        """Cell ``(q, r)`` as a remark's value: ``(q, r)`` in English, its name when shown."""
        return Remark.via(self.cell, f"({q}, {r})", english=True)


def _refused(violation: Mapping[str, Any], naming: _GameNames) -> Remark:
    """``refused: <the rules' detail> (<rule>)``, the detail and the rule said by the game's
    words (the rule's code stays English in the notation)."""
    return Remark(N_("refused: {detail} ({kind})"),
                  detail=Remark.via(naming.refusal, str(violation["detail"]), english=True),
                  kind=Remark.via(rule_in_words, str(violation["kind"])))


def _cells(state: dict[str, Any]) -> set[tuple[int, int]]:
    cells = {(t["q"], t["r"]) for t in state["tiles"]}
    cells |= {(q, r) for q, r in state["forced"]}
    cells |= {(q, r) for q, r in state["controlled"]}
    return cells


def fold(header: dict[str, Any], events: list[NumberedEvent], notes: list[str]) -> Replay:
    """Replay a Tantrix game line by line."""
    mode = mode_of(header)
    if mode != "strategy":
        return fold_solo(mode, header, events, notes)
    players = players_of(header)
    notes.extend(unknown_header_fields(header, RULE_FIELDS))
    usable = usable_events(events, notes)
    objs = [obj for _, obj, _ in usable]
    records = group(objs, [line_kind(o) for o in objs])
    table = _Table(make_game(header))
    first = table.state()
    frames = [Frame(0, 0.0, Remark(N_("start")), first,
                    (Remark(N_("{player} to play"), player=Remark(players[0])),))]
    lines: list[Line] = []
    cells: set[tuple[int, int]] = set()
    naming = _GameNames()
    t = 0.0
    for k, record in enumerate(records):
        game = table.game
        player = game.turn
        refused_before = len(table.violations)
        forced_before = len(game.forced_spaces())
        phase_before = game.phase
        marks: list[str] = []
        filled = None
        for i in record.events:
            line, obj, t = usable[i]
            if obj["ev"] == "place" and not table.ended:
                cell = (obj["q"], obj["r"])
                fills = game.is_forced_space(cell)
            else:
                fills = False
            undone = game.placements[-1] if obj["ev"] == "undo" and game.placements else None
            cell_filled = table.apply(obj, t, line)
            if cell_filled is not None:
                filled = cell_filled
                if fills:
                    marks.append(Remark(N_("fills the forced space {cell}"),
                                        cell=naming.at(*cell_filled)))
            if undone is not None and len(table.violations) == refused_before:
                marks.append(Remark(N_("takes back tile {tile} from {cell}"),
                                    tile=undone.tile, cell=naming.at(undone.q, undone.r)))
        for v in table.violations[refused_before:]:
            marks.append(_refused(v, naming))
        now = table.state()
        forced = len(now["forced"])
        if forced != forced_before:
            marks.append(Remark(N_("{n} forced space on the table") if forced == 1
                                else N_("{n} forced spaces on the table"), n=forced))
        if phase_before != now["phase"]:
            marks.append(Remark(N_("the bag is empty: final phase, no more restrictions"))
                         if now["phase"] == "final" else
                         Remark(N_("the bag is empty: {phase} phase, no more restrictions"),
                                phase=now["phase"]))
        if now["over"] and not any(m.startswith("game over") for f in frames for m in f.marks):
            w = now["winner"]
            # "red 16, yellow 12", each colour a word a replay says in the players' language
            # (the remark's own template joins them; it needs no entry in the catalogs)
            scores = list(now["scores"].items())
            points = Remark(", ".join(f"{{p{k}}} {s['points']}" for k, (_p, s) in
                                      enumerate(scores)),
                            **{f"p{k}": Remark(p) for k, (p, _s) in enumerate(scores)})
            marks.append(Remark(N_("game over: a tie ({points})"), points=points) if w == "tie"
                         else Remark(N_("game over: {player} wins ({points})"),
                                     player=Remark(w), points=points))
        group_objs = [objs[i] for i in record.events]
        label = line_words(group_objs, record.kind, player=player, exact=False,
                          cell=naming.written)
        text = line_text(group_objs, record.kind, player=player, exact=True)
        frames.append(
            Frame(
                len(frames),
                t,
                str(label),
                now,
                tuple(marks),
                record=k + 1,
                highlight=filled,
                refused=len(table.violations) > refused_before,
                words=label,
            )
        )
        lines.append(Line(text, "; ".join(marks), move=filled is not None))  # a tile laid
        cells |= _cells(now)
    naming.know(cells)
    return Replay(
        "tantrix",
        header,
        [(line, obj) for line, obj, _ in usable],
        frames,
        lines,
        notes,
        cells=sorted(cells),
        timeline=RefoldTimeline(
            lambda: _Table(make_game(header)), usable, [r.events[-1] + 1 for r in records]
        ),
    )


# ---------------------------------------------------------------------------- the solo modes


@dataclass
class _SoloTable:
    """A solo game and its refusals, folded like :class:`_Table`."""

    game: solo.Solo
    violations: list[dict[str, Any]] = field(default_factory=list)
    ended: bool = False

    def apply(self, obj: dict[str, Any], t: float, line: int) -> tuple[Any, ...] | None:
        if self.ended:
            return None
        refused = solo.apply_event(self.game, obj, line, t)
        if refused is not None:
            self.violations.append(
                {"t": t, "player": str(obj.get("player", "solo")), "kind": refused.kind,
                 "detail": refused.detail,
                 "line": line}
            )
            return None
        self.ended = obj["ev"] == "end"
        if obj["ev"] == "place":
            return parse_placement(obj, line).cell
        return None

    def state(self) -> dict[str, Any]:
        out = solo.state(self.game)
        out["ended"] = self.ended
        out["violations"] = list(self.violations)
        out["chains"] = traced(out["tiles"], list(out["scores"]))
        return out


def fold_solo(mode: str, header: dict[str, Any], events: list[NumberedEvent],
              notes: list[str]) -> Replay:
    """Replay a Solitaire, Rainbow or Gobble game line by line."""
    solo.make(mode, header, 1)  # a bad header is refused before anything else
    usable = model_usable(events, notes, line_kind, solo.EVENTS[solo.submode(mode, header)])
    objs = [obj for _, obj, _ in usable]
    records = group(objs, [line_kind(o) for o in objs])

    def start() -> _SoloTable:
        return _SoloTable(solo.make(mode, header, 1))

    table = start()
    frames = [Frame(0, 0.0, Remark(N_("start")), table.state(),
                    (Remark(N_("Tantrix {mode}"), mode=Remark.via(_mode_word, mode)),))]
    lines: list[Line] = []
    cells: set[tuple[int, int]] = set()
    naming = _GameNames()
    for k, record in enumerate(records):
        refused_before = len(table.violations)
        marks: list[str] = []
        filled = None
        gobbled = False
        t = 0.0
        for i in record.events:
            line, obj, t = usable[i]
            gobbled = gobbled or (obj["ev"] == "gobble" and not table.ended)
            got = table.apply(obj, t, line)
            filled = got if got is not None else filled
        #: a move: a tile laid, or in a Gobble race (whose scorer sees no tiles) a gobble filled
        moved = filled is not None or (gobbled and len(table.violations) == refused_before)
        for v in table.violations[refused_before:]:
            marks.append(_refused(v, naming))
        now = table.state()
        if now.get("solved") and not any("SOLVED" in m for f in frames for m in f.marks):
            marks.append(Remark(N_("SOLVED")))
        group_objs = [objs[i] for i in record.events]
        label = line_words(group_objs, record.kind, exact=False, cell=naming.written)
        frames.append(
            Frame(len(frames), t, str(label), now, tuple(marks), record=k + 1, highlight=filled,
                  refused=len(table.violations) > refused_before, words=label)
        )
        lines.append(Line(line_text(group_objs, record.kind, exact=True), "; ".join(marks),
                          move=moved))
        cells |= _cells(now)
    naming.know(cells)
    return Replay(
        "tantrix",
        header,
        [(line, obj) for line, obj, _ in usable],
        frames,
        lines,
        notes,
        cells=sorted(cells),
        timeline=RefoldTimeline(start, usable, [r.events[-1] + 1 for r in records]),
    )
