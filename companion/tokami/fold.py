"""Tokami replays: the turns folded through :class:`companion.tokami.game.Game`.

Each input goes to the engine exactly as ``companion simulate`` sends it (a turn to
:meth:`Game.play` with the ``player`` it names, ``undo`` to :meth:`Game.undo`, ``end`` to
:meth:`Game.stop`, the arbiter's ``correct`` lines to its ledger); a turn the rules refuse
becomes a violation and changes nothing. After each line of the notation (one turn a line) the
state is the contract's object, the very one ``companion simulate`` prints for the game up to
that line, so the last frame *is* the simulation's result.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.i18n import N_
from companion.remark import Remark
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
from companion.tokami.corrections import Ledger, parse_correction
from companion.tokami.game import Game, IllegalTurn, Played
from companion.tokami.notation import group, line_kind, line_words
from companion.tokami.notation import text as line_text
from companion.tokami.setup import Setup
from companion.tokami.simulate import CONTROL_EVENTS, EVENTS
from companion.tokami.turns import Turn
from companion.tokami.words import refusal_in_words, rule_in_words, turn_in_words

RULE_FIELDS = ("game", "players", "blocks", "rounds", "worthless", "round_ends_at")


def setup_of(header: Mapping[str, Any]) -> Setup:
    """The game's setup from the header; MalformedInput (line 1) when it cannot be played."""
    try:
        return Setup.from_header(header)
    except MalformedInput as exc:
        raise MalformedInput(exc.message, 1) from None


def usable_events(events: Sequence[NumberedEvent], notes: list[str]) -> list[Usable]:
    """The Tokami inputs a replay can fold (see :func:`companion.replay.model.usable_events`)."""
    return model_usable(events, notes, line_kind, EVENTS)


@dataclass
class _Table:
    """The engine and what ``companion simulate`` adds around it: refusals and undos."""

    game: Game
    t: float = 0.0
    violations: list[dict[str, Any]] = field(default_factory=list)
    corrections: list[dict[str, Any]] = field(default_factory=list)
    ledger: Ledger = field(default_factory=Ledger)  # the arbiter's corrections

    def apply(self, obj: Mapping[str, Any], t: float, line: int) -> None:
        """Play one input the way :func:`companion.tokami.simulate.simulate` does."""
        self.t = t
        name = obj["ev"]
        by = obj.get("player")
        try:
            if name == "note":  # a remark (the table's "game over" with its result): no turn
                pass
            elif name == "end":
                self.game.stop()
            elif name == "resign":
                if by not in self.game.setup.players:
                    raise IllegalTurn("malformed", f"{by!r} is not playing this game")
                self.game.resign(str(by))
            elif name == "correct":
                try:
                    fix = parse_correction(obj, line)
                except MalformedInput as exc:
                    raise IllegalTurn("malformed", exc.message) from None
                self.game = self.ledger.correct(self.game, fix, t)
            elif name == "undo":
                undone = self.game.undo()
                self.corrections.append(
                    {
                        "t": t,
                        "player": by,
                        "undid": {
                            "player": undone.player,
                            "round": undone.round,
                            **undone.turn.to_event(),
                        },
                    }
                )
            else:
                self.game.play(Turn.from_event(obj, line), by=by)
        except IllegalTurn as refused:
            self.violations.append(
                {
                    "t": t,
                    "player": by or self.game.turn,
                    "kind": refused.kind,
                    "detail": refused.detail,
                }
            )

    def state(self) -> dict[str, Any]:
        """The contract's object (``companion simulate --json`` for the game so far)."""
        out = self.game.as_dict()
        out["t"] = self.t
        out["history"] = [
            {"player": p.player, "round": p.round, **p.turn.to_event()} for p in self.game.history
        ]
        out["corrections"] = [dict(c) for c in self.corrections]
        out["violations"] = [dict(v) for v in self.violations]
        return self.ledger.finish(out)


def _scores(state: Mapping[str, Any]) -> str:
    return ", ".join(f"{p} {s}" for p, s in state["standings"])


def _turn_said(played: Played) -> Remark:
    """A played turn as :meth:`Turn.describe` says it, said in the players' language by
    :func:`turn_in_words` where a replay shows it."""
    return Remark.via(lambda _text: turn_in_words(played.turn, played.forbidden),
                      played.turn.describe(played.forbidden))


def _marks(
    before: Mapping[str, Any],
    now: Mapping[str, Any],
    obj: Mapping[str, Any],
    undone: str | None,
    refused: list[dict[str, Any]],
) -> list[str]:
    """What the rules made of one turn, in words."""
    marks: list[str] = [Remark(N_("refused: {detail} ({kind})"),
                               detail=Remark.via(refusal_in_words, str(v["detail"])),
                               kind=Remark.via(rule_in_words, str(v["kind"])))
                        for v in refused]
    if refused:
        return marks
    ev = obj["ev"]
    if ev == "undo" and undone is not None:
        marks.append(Remark(N_("takes back {turn}"), turn=undone))
        return marks
    if ev == "end":
        marks.append(Remark(N_("the players stop: {scores}"), scores=_scores(now)))
    player = before["turn"]
    if ev not in ("undo", "end") and player is not None:
        held_before = before["held"][player]
        won = now["scores"][player]["total"] - before["scores"][player]["total"]
        if now["round"] == before["round"] and not now["over"]:
            held = now["held"][player]
            for colour, n in held["discarded"].items():
                gone = n - held_before["discarded"][colour]
                if gone:
                    marks.append(Remark(N_("discards {n} {colour} malus"), n=gone,
                                        colour=Remark(colour)))
        if ev == "declined":
            marks.append(Remark(N_("takes the forbidden {colour} block as malus"),
                                colour=Remark(before["forbidden"])))
        total = now["scores"][player]["total"]
        marks.append(Remark(N_("{player}: {points}, total {total}"), player=player,
                            points=f"{won:+d}", total=total) if won else
                     Remark(N_("{player}: no points, total {total}"), player=player,
                            total=total))
    if now["round"] > before["round"]:
        closed = now["round"] - 1
        scores = ", ".join(f"{p} {s['rounds'][closed - 1]}" for p, s in now["scores"].items())
        marks.append(Remark(N_("round {closed} over ({scores}); round {round}: {player} starts"),
                            closed=closed, scores=scores, round=now["round"],
                            player=now["turn"]))
    elif now["forbidden"] is not None and now["turn"] is not None:
        marks.append(Remark(N_("{colour} is forbidden to {player}"),
                            colour=Remark(now["forbidden"]), player=now["turn"]))
    if now["over"] and not before["over"] and now["reason"] == "rounds":
        w = now["winner"]
        marks.append(Remark(N_("game over: a tie ({scores})"), scores=_scores(now))
                     if w == "tie" else
                     Remark(N_("game over: {player} wins ({scores})"), player=w,
                            scores=_scores(now)))
    return marks


def fold(header: dict[str, Any], events: list[NumberedEvent], notes: list[str]) -> Replay:
    """Replay a Tokami game turn by turn."""
    setup = setup_of(header)
    notes.extend(unknown_header_fields(header, RULE_FIELDS))
    usable = usable_events(events, notes)
    objs = [obj for _, obj, _ in usable]
    records = group(objs, [line_kind(o) for o in objs])
    table = _Table(Game(setup))
    first = table.state()
    frames = [Frame(0, 0.0, Remark(N_("start")), first,
                    (Remark(N_("{player} to play"), player=setup.players[0]),))]
    lines: list[Line] = []
    for k, record in enumerate(records):
        (i,) = record.events
        line, obj, t = usable[i]
        before = table.state()
        refused_before = len(table.violations)
        history = table.game.history
        undone = None
        if obj["ev"] == "undo" and history:
            last = history[-1]
            undone = Remark(N_("{player}'s turn ({turn})"), player=last.player,
                            turn=_turn_said(last))
        table.apply(obj, t, line)
        now = table.state()
        refused = table.violations[refused_before:]
        marks = _marks(before, now, obj, undone, refused)
        label = line_words(obj, record.kind, exact=False)
        text = line_text(obj, record.kind, exact=True)
        frames.append(
            Frame(len(frames), t, str(label), now, tuple(marks), record=k + 1,
                  refused=bool(refused), words=label)
        )
        #: a move: a turn the rules accepted (not an undo, the end, a note or a correction)
        moved = obj["ev"] not in CONTROL_EVENTS and not refused
        lines.append(Line(text, "; ".join(marks), move=moved))
    return Replay(
        "tokami",
        header,
        [(line, obj) for line, obj, _ in usable],
        frames,
        lines,
        notes,
        timeline=RefoldTimeline(
            lambda: _Table(Game(setup)),
            usable,
            [r.events[-1] + 1 for r in records],
            stamp_time=True,  # Tokami has no running clock: the state says when it was asked
        ),
    )
