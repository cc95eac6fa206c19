"""The rule machine: random Tamsk games of every level, ruleset and start, legal and illegal
inputs, inputs stamped exactly at expiry instants, late moves, passes, putbacks, ``end`` and
inputs after the end, with the engine's invariants checked after every step.

A small budget runs with the suite; ``RULE_MACHINE_EXAMPLES=2000 make rule-machine`` runs a
large one (bench/README.md gives the figure last run).
"""

from __future__ import annotations

import os
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from companion.tamsk import events as ev
from companion.tamsk.board import CAPACITY, NEIGHBOURS, RINGS_PER_PLAYER, SPACES
from companion.tamsk.events import GLASSES, PLAYERS, Event
from companion.tamsk.game import Game, Rules

EXAMPLES = int(os.environ.get("RULE_MACHINE_EXAMPLES", "60"))
STEPS = int(os.environ.get("RULE_MACHINE_STEPS", "40"))

glasses = st.sampled_from(GLASSES)
players = st.sampled_from(PLAYERS)
spaces = st.none() | st.sampled_from(SPACES)
pick = st.integers(0, 10**6)
#: Small steps of time, with zero (several inputs at one instant) and long waits (glasses out).
gaps = st.sampled_from([0.0, 0.0, 0.05, 0.5, 1.0, 2.5, 7.0, 15.0, 40.0])

OVER_KEYS = (
    "rings_left",
    "spaces",
    "rings_unplaced",
    "penalties",
    "winner",
    "reason",
    "over_at",
    "moves",
    "in_hand",
    "bonus_rings",
    "passes",
)


class TamskMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.game = Game()
        self.rules = Rules()
        self.events: list[Event] = []
        self.t = 0.0
        self.over_state: dict[str, Any] | None = None
        self.dead_at: dict[str, str | None] = {}

    @initialize(
        level=st.sampled_from([1, 2, 3]),
        ruleset=st.sampled_from(["adjusted", "original"]),
        start=st.sampled_from(["standard", "free"]),
        period=st.sampled_from([12.0, 30.0, 180.0]),
        timer=st.sampled_from([5.0, 15.0]),
    )
    def start(self, level: int, ruleset: str, start: str, period: float, timer: float) -> None:
        periods = {g: period + i for i, g in enumerate(GLASSES)}
        self.rules = Rules(level, ruleset, start, periods, timer)
        self.game = Game(self.rules)

    # ------------------------------------------------------------ feeding inputs

    def feed(self, event: Event) -> None:
        g = self.game
        before = len(g.violations)
        snap_before = g.snapshot() if g.over else None
        sands = {n: (x.sand, x.ref, x.running) for n, x in g.glasses.items()}
        v = g.apply(event)
        self.events.append(event)
        # every refused input reported exactly once
        assert len(g.violations) == before + (v is not None)
        if v is not None:
            assert g.violations[-1] is v
        if snap_before is not None and event.kind not in ("note", "end"):
            assert v is not None and v.kind == "game-over", (event, v)
            for name, x in g.glasses.items():  # not even a glass's sand
                if not x.dead:
                    assert (x.sand, x.ref, x.running) == sands[name]

    def stamp(self, gap: float) -> float:
        self.t += gap
        return self.t

    @rule(gap=gaps, n=pick, ring=st.booleans(), lift=st.booleans())
    def legal_move(self, gap: float, n: int, ring: bool, lift: bool) -> None:
        g = self.game
        if g.over:
            return
        player = g.turn
        held = g.in_hand.get(player)
        able = [held] if held else g.movable(player)
        if not able:
            return
        glass = able[n % len(able)]
        dests = g.destinations(glass) or [None]  # type: ignore[list-item]
        to = dests[(n // 7) % len(dests)]
        t = self.stamp(gap)
        if lift and not held:
            self.feed(ev.lift(t, glass))
        self.feed(ev.release(t + (0.1 if lift else 0.0), glass, to))
        self.t = max(self.t, t + (0.1 if lift else 0.0))
        if ring:
            self.feed(ev.ring(self.t, player))

    @rule(gap=gaps, glass=glasses)
    def lift(self, gap: float, glass: str) -> None:
        self.feed(ev.lift(self.stamp(gap), glass))

    @rule(gap=gaps, glass=glasses, to=spaces)
    def release(self, gap: float, glass: str, to: str | None) -> None:
        self.feed(ev.release(self.stamp(gap), glass, to))

    @rule(gap=gaps, glass=glasses, n=pick)
    def release_next_door(self, gap: float, glass: str, n: int) -> None:
        here = self.game.glasses[glass].space
        options = sorted(NEIGHBOURS[here]) if here else list(SPACES)
        self.feed(ev.release(self.stamp(gap), glass, options[n % len(options)]))

    @rule(gap=gaps, glass=glasses)
    def putback(self, gap: float, glass: str) -> None:
        self.feed(ev.putback(self.stamp(gap), glass))

    @rule(gap=gaps, player=players, space=spaces)
    def ring(self, gap: float, player: str, space: str | None) -> None:
        self.feed(ev.ring(self.stamp(gap), player, space))

    @rule(gap=gaps, player=players)
    def timer15(self, gap: float, player: str) -> None:
        self.feed(ev.timer15(self.stamp(gap), player))

    @rule(gap=gaps, player=players)
    def pass_turn(self, gap: float, player: str) -> None:
        self.feed(ev.pass_turn(self.stamp(gap), player))

    @rule(gap=gaps)
    def wait(self, gap: float) -> None:
        self.feed(ev.note(self.stamp(gap), "wait"))

    @rule(kind=st.sampled_from(["lift", "release", "ring", "pass", "move"]), n=pick)
    def at_an_expiry(self, kind: str, n: int) -> None:
        """An input stamped exactly at the next expiry (a glass or the timer running out)."""
        deadline = self.game.next_deadline()
        if deadline == float("inf"):
            return
        self.t = deadline
        glass = GLASSES[n % 6]
        player = PLAYERS[n % 2]
        if kind == "lift":
            self.feed(ev.lift(self.t, glass))
        elif kind == "release":
            self.feed(ev.release(self.t, glass, self.game.glasses[glass].space))
        elif kind == "ring":
            self.feed(ev.ring(self.t, player))
        elif kind == "pass":
            self.feed(ev.pass_turn(self.t, player))
        else:
            self.legal_move(0.0, n, False, False)

    @rule(n=pick, overtaken=st.booleans(), ring=st.booleans(), extra=spaces)
    def late_move(self, n: int, overtaken: bool, ring: bool, extra: str | None) -> None:
        """The opponent turns the timer; the mover lifts, lets it run out (late), the opponent
        maybe moves meanwhile, then the late move is completed, with its ring and a second
        ring."""
        g = self.game
        if g.over or g.rules.level < 3 or g.timer.running:
            return
        mover = g.turn
        other = "black" if mover == "red" else "red"
        self.feed(ev.timer15(self.stamp(0.5), other))
        able = g.movable(mover)
        if g.over or not able or g.turn != mover:
            return
        glass = able[n % len(able)]
        self.feed(ev.lift(self.stamp(1.0), glass))
        self.t = max(self.t, g.timer.expires) if g.timer.running else self.t
        self.feed(ev.note(self.stamp(0.2), "late"))
        if overtaken and not g.over and g.turn == other:
            self.legal_move(0.1, n // 3, ring, True)
        dests = g.destinations(glass) or [None]  # type: ignore[list-item]
        self.feed(ev.release(self.stamp(0.3), glass, dests[n % len(dests)]))
        if ring:
            self.feed(ev.ring(self.stamp(0.1), mover))
        self.feed(ev.ring(self.stamp(0.1), mover, extra))
        self.feed(ev.ring(self.stamp(0.1), other, extra))

    @rule(gap=gaps, n=pick, space=spaces, first=st.booleans())
    def second_ring(self, gap: float, n: int, space: str | None, first: bool) -> None:
        """A legal move then the holder's rings, in either order of regular and second."""
        g = self.game
        if g.over:
            return
        player = g.turn
        self.legal_move(gap, n, False, n % 2 == 0)
        if first and g.moves and g.moves[-1].player == player:
            self.feed(ev.ring(self.stamp(0.1), player, g.moves[-1].to))
        self.feed(ev.ring(self.stamp(0.1), player, space))
        self.feed(ev.ring(self.stamp(0.1), player))

    @precondition(lambda self: len(self.game.moves) >= 6 or self.game.over)
    @rule(gap=gaps)
    def end(self, gap: float) -> None:
        self.feed(ev.end(self.stamp(gap)))

    # ------------------------------------------------------------ invariants

    @invariant()
    def rings_are_conserved_and_never_negative(self) -> None:
        g = self.game
        assert all(n >= 0 for n in g.rings_left.values())
        on = sum(g.rings_on.values())
        assert sum(g.rings_left.values()) + on + g.rings_unplaced == 2 * RINGS_PER_PLAYER

    @invariant()
    def no_space_over_capacity(self) -> None:
        for space, n in self.game.rings_on.items():
            assert 0 < n <= CAPACITY[space], (space, n)

    @invariant()
    def sand_within_the_period(self) -> None:
        g = self.game
        for x in g.glasses.values():
            assert 0.0 <= x.sand_at(g.t) <= x.period + 1e-9

    @invariant()
    def a_dead_glass_never_moves(self) -> None:
        for name, x in self.game.glasses.items():
            if x.dead:
                if name in self.dead_at:
                    assert x.space == self.dead_at[name]
                else:
                    self.dead_at[name] = x.space

    @invariant()
    def nothing_changes_after_the_game_is_over(self) -> None:
        g = self.game
        if not g.over:
            return
        snap = g.snapshot()
        state = {k: snap[k] for k in OVER_KEYS}
        state["spaces_of"] = {n: x["space"] for n, x in snap["glasses"].items()}
        if self.over_state is None:
            self.over_state = state
        assert state == self.over_state

    @invariant()
    def folding_the_events_gives_the_live_state(self) -> None:
        again = Game(self.rules)
        for event in self.events:
            again.apply(event)
        assert again.snapshot() == self.game.snapshot()

    @invariant()
    def the_screens_live_state_is_the_full_state_with_the_records_counted(self) -> None:
        """What the table draws ten times a second (``history=False``) says everything the
        full state says, except the records that only grow: those are counted, and only the
        latest penalty is given (so a frame costs the same at move 500 as at move 5)."""
        full = self.game.snapshot()
        live = self.game.snapshot(history=False)
        records = ("penalties", "violations", "passes", "bonus_rings", "corrections", "undone")
        assert live.pop("history") == {k: len(full[k]) for k in records}
        assert live.pop("penalties") == full["penalties"][-1:]
        assert live == {k: v for k, v in full.items() if k not in records}


TamskMachine.TestCase.settings = settings(
    max_examples=EXAMPLES,
    stateful_step_count=STEPS,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
test_rule_machine = TamskMachine.TestCase
