"""Tamsk replays: the inputs folded through :class:`companion.tamsk.game.Game`, frame by frame.

The fold is the engine's own: each input goes to :meth:`Game.apply`, and between two lines of
the notation :meth:`Game.advance` lets time run to each instant where something happens by
itself (:meth:`Game.next_deadline`: a glass running out, the 15-second timer expiring), so that
a forfeit or a lost glass gets a frame of its own at the moment it happened. Time is only run
on up to an instant when the next input comes strictly later, which keeps the engine's rule
that an input at the very instant of a deadline is played before it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.i18n import N_
from companion.remark import Remark, joined
from companion.replay.model import Frame, Line, PackedState, Replay, unknown_header_fields
from companion.replay.panel import moment
from companion.scenario import MalformedInput, NumberedEvent
from companion.tamsk.events import GLASSES, KINDS, Event, parse_event
from companion.tamsk.game import Game, Rules
from companion.tamsk.notation import group, line_kind, line_words
from companion.tamsk.notation import text as line_text
from companion.tamsk.simulate import rules_from_header
from companion.tamsk.words import reason_in_words, refusal_in_words, rule_in_words

#: Header fields the Tamsk rules read.
RULE_FIELDS = ("game", "level", "ruleset", "start", "periods")
#: A fold never needs more than this many deadlines between two inputs (6 glasses, 1 timer).
_MAX_DEADLINES = 64


def usable_events(
    events: Sequence[NumberedEvent], notes: list[str]
) -> list[tuple[int, Mapping[str, Any], Event]]:
    """The inputs that can be replayed, each with its line and parsed event; every other line
    is skipped with a note saying why (unknown event kind, bad field, time going backwards)."""
    out: list[tuple[int, Mapping[str, Any], Event]] = []
    last = 0.0
    for line, obj in events:
        t = obj.get("t")
        if isinstance(t, bool) or not isinstance(t, (int, float)) or not math.isfinite(t) or t < 0:
            notes.append(f"line {line}: no valid time (\"t\", seconds): skipped")
            continue
        if t < last:
            notes.append(f"line {line}: time goes backwards (t={t} after t={last}): skipped")
            continue
        kind = obj.get("ev")
        if kind not in KINDS:
            notes.append(
                f"line {line}: unknown event {kind!r} (from a newer version?): skipped"
            )
            continue
        try:
            event = parse_event(obj, float(t), line)
        except MalformedInput as exc:
            notes.append(f"line {line}: {exc.message}: skipped")
            continue
        out.append((line, obj, event))  # read, never changed: not copied
        last = float(t)
    return out


@dataclass
class _Seen:
    """What had happened so far, to say in words what one step changed."""

    penalties: int
    violations: int
    passes: int
    bonus_rings: int
    dead: frozenset[str]
    over: bool
    bonus: str | None
    skip: frozenset[str]

    @classmethod
    def of(cls, game: Game) -> _Seen:
        b = game.bonus
        bonus = b.player if b is not None and game.bonus_available(b.player) else None
        return cls(
            len(game.penalties),
            len(game.violations),
            len(game.passes),
            len(game.bonus_rings),
            frozenset(n for n, g in game.glasses.items() if g.dead),
            game.over,
            bonus,
            frozenset(game.skip_next),
        )

    def changes(self, game: Game) -> list[tuple[str, str]]:
        """``(short, long)`` words for everything that happened since this was seen (the long
        ones are :class:`Remark` s, said in the players' language where a replay shows them)."""
        out: list[tuple[str, str]] = []
        for name in GLASSES:
            g = game.glasses[name]
            if g.dead and name not in self.dead:
                at = moment(g.died_at or game.t)
                out.append((Remark(N_("{glass} lost"), glass=name),
                            Remark(N_("{glass} ran out of sand at {at}: lost"),
                                   glass=name, at=at)))
        for p in game.penalties[self.penalties :]:
            at = moment(p.t)
            who = _player(p.player)
            if p.kind == "late":
                out.append((Remark(N_("{player} late"), player=who),
                            Remark(N_("{player} late: the 15 s ran out at {at}"),
                                   player=who, at=at)))
            elif p.kind == "forfeit":
                out.append((Remark(N_("{player} forfeit"), player=who),
                            Remark(N_("{player} forfeits the turn: the 15 s ran out at {at}"),
                                   player=who, at=at)))
            else:
                out.append((Remark(N_("{player} pass"), player=who),
                            Remark(N_("{player} passes: a penalty at level 3"), player=who)))
        for entry in game.passes[self.passes :]:
            who = _player(entry["player"])
            if entry.get("voluntary"):
                continue  # said by its penalty
            if entry.get("auto"):
                out.append((Remark(N_("{player} blocked"), player=who),
                            Remark(N_("{player} cannot move: passes"),
                                                     player=who)))
            elif entry.get("skipped"):
                out.append((Remark(N_("{player} skipped"), player=who),
                            Remark(N_("{player}'s turn is skipped (original rules)"),
                                   player=who)))
            else:
                out.append((Remark(N_("{player} pass"), player=who),
                            Remark(N_("{player} passes"), player=who)))
        now = _Seen.of(game)
        if now.bonus is not None and now.bonus != self.bonus:
            out.append(
                (
                    Remark(N_("{player} 2 rings"), player=_player(now.bonus)),
                    Remark(N_("{player} may drop a second ring on any space not full"),
                           player=_player(now.bonus)),
                )
            )
        for player in sorted(now.skip - self.skip):
            out.append((Remark(N_("{player} skips next"), player=_player(player)),
                        Remark(N_("{player}'s next turn will be skipped"),
                               player=_player(player))))
        for r in game.bonus_rings[self.bonus_rings :]:
            out.append((Remark(N_("2nd ring {space}"), space=r["space"]),
                        Remark(N_("{player}'s second ring on {space}"),
                               player=_player(r["player"]), space=r["space"])))
        for v in game.violations[self.violations :]:
            out.append((Remark(N_("refused {kind}"), kind=Remark.via(rule_in_words, v.kind)),
                        Remark(N_("refused: {detail} ({kind})"),
                               detail=Remark.via(refusal_in_words, v.detail),
                               kind=Remark.via(rule_in_words, v.kind))))
        if game.over and not self.over and game.outcome is not None:
            o = game.outcome
            if o.winner == "tie":
                out.append((Remark(N_("game over: tie")), Remark(N_("game over: a tie"))))
            else:
                out.append((Remark(N_("{player} wins"), player=_player(str(o.winner))),
                            Remark(N_("game over: {player} wins ({reason})"),
                                   player=_player(str(o.winner)),
                                   reason=Remark.via(reason_in_words, o.reason))))
        return out


def _player(player: str) -> str:
    """A player's colour as a word of the game (``červený`` in Czech), else as it is."""
    return Remark(player, context="player") if player in ("red", "black") else player


class _Sand:
    """Each glass's sand as the corner points of its line over time (for the chart).

    Points are read from the engine's glasses just before and just after every input and at
    every deadline, so the line between two points is exact; points on a straight stretch are
    dropped as they come.
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        self.points: dict[str, list[tuple[float, float]]] = {g: [] for g in GLASSES}
        if game.rules.timed:
            self.sample(0.0)

    def sample(self, t: float) -> None:
        if not self.game.rules.timed:
            return
        for name, glass in self.game.glasses.items():
            _add(self.points[name], (t, round(glass.sand_at(t), 4)))


def _add(points: list[tuple[float, float]], p: tuple[float, float]) -> None:
    if points and points[-1] == p:
        return
    if len(points) >= 2:
        (t1, s1), (t2, s2) = points[-2], points[-1]
        t3, s3 = p
        if t1 < t2 < t3 and abs((s2 - s1) * (t3 - t2) - (s3 - s2) * (t2 - t1)) < 1e-6:
            points[-1] = p
            return
        if t1 == t2 == t3 and min(s1, s3) <= s2 <= max(s1, s3):
            points[-1] = p
            return
    points.append(p)


def _origin(game: Game, glass: str) -> str | None:
    g = game.glasses[glass]
    if not g.placed:
        return None
    return g.space or "?"


class TamskTimeline:
    """The state at any time, by folding the inputs again from the start."""

    def __init__(self, rules: Rules, events: list[Event], record_ends: list[int]) -> None:
        self.rules = rules
        self.events = events
        self.record_ends = record_ends  # index after the last input of each notation line

    def at_time(self, t: float) -> Frame:
        return self.at_times([t])[0]

    def at_times(self, times: list[float]) -> list[Frame]:
        """Frames at each of ``times`` (in increasing order), in one fold from the start."""
        game = Game(self.rules)
        applied = 0
        out: list[Frame] = []
        for t in times:
            while applied < len(self.events) and self.events[applied].t <= t:
                game.apply(self.events[applied])
                applied += 1
            game.advance(max(t, game.t))
            done = sum(1 for end in self.record_ends if end <= applied)
            # the label and the move number are the Replay's (:meth:`Replay.at_times`)
            out.append(Frame(-1, game.t, "", PackedState(game.snapshot()), record=done or None))
        return out


def fold(header: dict[str, Any], events: list[NumberedEvent], notes: list[str]) -> Replay:
    """Replay a Tamsk game line by line (see the module's docstring)."""
    rules = rules_from_header(header)
    notes.extend(unknown_header_fields(header, RULE_FIELDS))
    usable = usable_events(events, notes)
    objs = [obj for _, obj, _ in usable]
    records = group(objs, [line_kind(o) for o in objs])
    game = Game(rules)
    sand = _Sand(game)
    frames = [Frame(0, 0.0, Remark(N_("start")), PackedState(game.snapshot()),
                    (Remark(N_("the game starts")),))]
    lines: list[Line] = []
    for k, record in enumerate(records):
        evs = [usable[i][2] for i in record.events]
        first = evs[0].t
        pending: list[str] = []
        for _ in range(_MAX_DEADLINES):
            deadline = game.next_deadline()
            if not deadline < first:
                break
            seen = _Seen.of(game)
            was_over = game.over
            game.advance(deadline)
            sand.sample(deadline)
            said = seen.changes(game)
            if said and not was_over:
                words = joined(["-- ", joined([s for s, _ in said], ", "),
                                f" @{moment(deadline)}"])
                frames.append(
                    Frame(
                        len(frames),
                        deadline,
                        str(words),
                        PackedState(game.snapshot()),
                        tuple(long for _, long in said),
                        words=words,
                    )
                )
                pending += [long for _, long in said]
        seen = _Seen.of(game)
        release = next((e for e in evs if e.kind == "release"), None)
        origin = _origin(game, release.glass) if release is not None and release.glass else "?"
        moves_before = len(game.moves)
        claims: list[str] = []
        for event in evs:
            recent = game.moves[-2:]
            claimed = [m.ring == "claimed" for m in recent]
            sand.sample(event.t)
            game.apply(event)
            sand.sample(event.t)
            for m, was in zip(recent, claimed, strict=True):
                if m.ring == "claimed" and not was:
                    claims.append(Remark(N_("{player} claims the ring on {space}"),
                                         player=_player(str(event.player)),
                                         space=m.to or "?"))
        last = evs[-1].t
        following = usable[records[k + 1].events[0]][2].t if k + 1 < len(records) else None
        if following is None or following > last:
            game.advance(last)
            sand.sample(last)
        moved = len(game.moves) > moves_before
        move = game.moves[-1] if moved else None
        said = seen.changes(game)
        marks = tuple(claims + [long for _, long in said])
        label = line_words(
            [objs[i] for i in record.events],
            record.kind,
            origin=origin,
            exact=False,
            late=bool(move and move.late),
        )
        frames.append(
            Frame(
                len(frames),
                last,
                str(label),
                PackedState(game.snapshot()),
                marks,
                record=k + 1,
                highlight=(move.frm, move.to) if move else None,
                refused=len(game.violations) > seen.violations,
                words=label,
            )
        )
        text = line_text(
            [objs[i] for i in record.events],
            record.kind,
            origin=origin,
            exact=True,
            late=bool(move and move.late),
        )
        lines.append(Line(text, "; ".join(pending + list(marks)), move=moved))
    record_ends = [r.events[-1] + 1 for r in records]
    return Replay(
        "tamsk",
        header,
        [(line, obj) for line, obj, _ in usable],
        frames,
        lines,
        notes,
        sand={g: p for g, p in sand.points.items() if p},
        periods={**{g: rules.period(g) for g in GLASSES}, "timer15": rules.timer_period},
        timeline=TamskTimeline(rules, [e for _, _, e in usable], record_ends),
    )
