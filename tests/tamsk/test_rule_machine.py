"""The rule machine: random Tamsk games of every level, ruleset and start, legal and illegal
inputs, inputs stamped exactly at expiry instants, late moves, passes, putbacks, ``end`` and
inputs after the end, with the engine's invariants checked after every step.

Beside the invariants, the machine keeps its own model of two rules, from what the engine shows
(whose hand holds which glass, the moves and their rings), and checks every input against it:
holding a glass forbids lifting another (one glass at a time; a late mover who let go of his
late glass after a refused release may give it up), and the claim comes before the claimant's
own move (a ring is accepted as a claim only while the claimant has not lifted a glass since the
move claimed was lifted; a ``putback`` gives the right back).

A small budget runs with the suite; ``RULE_MACHINE_EXAMPLES=2000 make rule-machine`` runs a
large one (bench/README.md gives the figure last run).
"""

from __future__ import annotations

import copy
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
from companion.tamsk.events import END, GLASSES, LIFT, PLAYERS, PUTBACK, RELEASE, Event, owner
from companion.tamsk.game import Game, Move, Rules

EXAMPLES = int(os.environ.get("RULE_MACHINE_EXAMPLES", "60"))
STEPS = int(os.environ.get("RULE_MACHINE_STEPS", "40"))

glasses = st.sampled_from(GLASSES)
players = st.sampled_from(PLAYERS)
spaces = st.none() | st.sampled_from(SPACES)
pick = st.integers(0, 10**6)
#: Small steps of time, with zero (several inputs at one instant) and long waits (glasses out).
gaps = st.sampled_from([0.0, 0.0, 0.05, 0.5, 1.0, 2.5, 7.0, 15.0, 40.0])

#: The refusals of a release that come after its lift was accepted (the lift still counts).
DESTINATION_REFUSALS = ("occupied", "not-adjacent", "no-move")

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
        #: Every input after the end that changed a glass, a ring or a space (none may).
        self.changed_after_the_end: list[tuple[Event, str]] = []
        # The machine's own model of the lifts: numbered in order, each player's latest, the
        # one before it (a putback gives it back), and each move's lift.
        self.lifts = 0
        self.last_lift = {p: 0 for p in PLAYERS}
        self.lift_before = {p: 0 for p in PLAYERS}
        self.hand_lift = {p: 0 for p in PLAYERS}
        self.move_lift: dict[int, int] = {}
        #: The late glass a player let go of (a release of it refused, the move kept open).
        self.let_go: dict[str, str] = {}

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

    def at_its_instant(self, event: Event) -> Game:
        """The game as the input finds it: a copy, with time run on to the input's ``t`` as the
        engine does before an input (a glass may run out in the hand meanwhile)."""
        ahead = copy.deepcopy(self.game)
        if event.kind == END:
            ahead.advance(event.t)
        else:
            ahead.apply(ev.note(event.t, "the instant of the next input"))
        return ahead

    def feed(self, event: Event) -> None:
        g = self.game
        before = len(g.violations)
        snap_before = g.snapshot() if g.over else None
        sands = {n: (x.sand, x.ref, x.running) for n, x in g.glasses.items()}
        untouched = self.at_its_instant(event) if g.over else None
        player = owner(event.glass) if event.glass in GLASSES else None
        held = g.in_hand.get(player) if player is not None else None
        if player is not None and held not in (None, event.glass) and event.kind in (LIFT, RELEASE):
            held = self.at_its_instant(event).in_hand.get(player)
        hand_before = dict(g.in_hand)
        moves_before = len(g.moves)
        rings_before = [m.ring for m in g.moves]
        v = g.apply(event)
        self.events.append(event)
        if untouched is not None:
            self.no_input_after_the_end_changes_a_glass_ring_or_space(event, untouched)
        if player is not None:
            self.one_glass_at_a_time(event, player, held, v, moves_before)
            self.follow_the_lifts(event, player, hand_before, v, moves_before)
        self.claims_come_before_the_claimants_own_move(event, rings_before)
        # every refused input reported exactly once
        assert len(g.violations) == before + (v is not None)
        if v is not None:
            assert g.violations[-1] is v
        if snap_before is not None and event.kind not in ("note", "end"):
            assert v is not None and v.kind == "game-over", (event, v)
            for name, x in g.glasses.items():  # not even a glass's sand
                if not x.dead:
                    assert (x.sand, x.ref, x.running) == sands[name]

    # ------------------------------------------------------------ the models

    def no_input_after_the_end_changes_a_glass_ring_or_space(
        self, event: Event, untouched: Game
    ) -> None:
        """Compared with the game left alone until the input's instant (time alone may still
        run a glass out), an input after the end changed nothing."""
        g = self.game

        def seen(x: Game) -> dict[str, Any]:
            return {
                "glasses": {n: [getattr(y, k) for k in y.__slots__] for n, y in x.glasses.items()},
                "rings_left": dict(x.rings_left),
                "spaces": dict(x.rings_on),
                "rings_unplaced": x.rings_unplaced,
                "in_hand": dict(x.in_hand),
            }

        now, then = seen(g), seen(untouched)
        for key in now:
            if now[key] != then[key]:
                self.changed_after_the_end.append((event, key))

    def one_glass_at_a_time(
        self, event: Event, player: str, held: str | None, v: Any, moves_before: int
    ) -> None:
        """A player holding a glass may not lift another (a release without lift is a lift),
        unless he let go of a late glass after a refused release of it: then the lift of
        another gives the late move up."""
        g = self.game
        glass = event.glass
        if event.kind not in (LIFT, RELEASE) or held is None or held == glass:
            return
        if self.let_go.get(player) == held:
            return
        assert g.in_hand.get(player) == held, (event, held, g.in_hand)
        assert len(g.moves) == moves_before, (event, held)
        if event.kind == LIFT:
            assert v is not None, (event, held)

    def follow_the_lifts(
        self, event: Event, player: str, hand_before: dict[str, str], v: Any, moves_before: int
    ) -> None:
        """Keep the model's lifts up to date from what the engine shows."""
        g = self.game
        glass = event.glass
        if event.kind == RELEASE and hand_before.get(player) == glass:
            if v is not None and g.in_hand.get(player) == glass:
                self.let_go[player] = glass  # a refused release; the late move kept open
        counted = (
            event.kind == LIFT and v is None and g.in_hand.get(player) == glass
            and hand_before.get(player) != glass
        ) or (
            event.kind == RELEASE and hand_before.get(player) != glass
            and (
                len(g.moves) > moves_before and g.moves[-1].glass == glass
                or v is not None and v.kind in DESTINATION_REFUSALS
            )
        )
        if counted:
            self.lifts += 1
            self.lift_before[player] = self.last_lift[player]
            self.last_lift[player] = self.hand_lift[player] = self.lifts
        if (
            event.kind == PUTBACK and v is None and hand_before.get(player) == glass
            and player not in g.in_hand
            and not g.glasses[str(glass)].dead
        ):
            self.last_lift[player] = self.lift_before[player]  # the lift is taken back
        for move in g.moves[moves_before:]:
            self.move_lift[id(move)] = self.hand_lift[move.player]
        if self.let_go.get(player) is not None and g.in_hand.get(player) != self.let_go[player]:
            del self.let_go[player]

    def claims_come_before_the_claimants_own_move(
        self, event: Event, rings_before: list[str | None]
    ) -> None:
        """A ring accepted as a claim: the claimant had lifted no glass since that move's lift."""
        for move, ring in zip(self.game.moves, rings_before, strict=False):
            if ring is None and move.ring == "claimed":
                self.check_claim(event, move)

    def check_claim(self, event: Event, move: Move) -> None:
        claimant = "black" if move.player == "red" else "red"
        assert event.player == claimant, (event, move)
        assert self.last_lift[claimant] < self.move_lift[id(move)], (event, move)

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

    @rule(n=pick, let_go=st.booleans(), lift_first=st.booleans())
    def late_glass_on_his_turn(self, n: int, let_go: bool, lift_first: bool) -> None:
        """The mover is late; maybe a release of his late glass is refused (he lets go of it);
        the opponent moves; on his own turn he takes up another glass (refused while he holds
        the late one; once he let go, it gives the late move up), then sets the late glass
        down with a ring, and the opponent tries to claim it."""
        g = self.game
        if g.over or g.rules.level < 3 or g.timer.running:
            return
        mover = g.turn
        other = "black" if mover == "red" else "red"
        self.feed(ev.timer15(self.stamp(0.5), other))
        able = g.movable(mover)
        if g.over or not able or g.turn != mover or mover in g.in_hand:
            return
        glass = able[n % len(able)]
        self.feed(ev.lift(self.stamp(1.0), glass))
        self.t = max(self.t, g.timer.expires) if g.timer.running else self.t
        self.feed(ev.note(self.stamp(0.2), "late"))
        here = g.glasses[glass].space
        if let_go and here is not None:
            self.feed(ev.release(self.stamp(0.2), glass, here))  # its own space: refused
        if not g.over and g.turn == other:
            self.legal_move(0.1, n // 3, False, True)
        another = [x for x in GLASSES if owner(x) == mover and x != glass][n % 2]
        if lift_first:
            self.feed(ev.lift(self.stamp(0.3), another))
        where = g.glasses[another].space
        options = sorted(NEIGHBOURS[where]) if where else list(SPACES)
        self.feed(ev.release(self.stamp(0.3), another, options[(n // 5) % len(options)]))
        dests = g.destinations(glass) or [None]  # type: ignore[list-item]
        self.feed(ev.release(self.stamp(0.3), glass, dests[n % len(dests)]))
        self.feed(ev.ring(self.stamp(0.1), other))
        self.feed(ev.ring(self.stamp(0.1), mover))

    @precondition(lambda self: len(self.game.moves) >= 6 or self.game.over)
    @rule(gap=gaps)
    def end(self, gap: float) -> None:
        self.feed(ev.end(self.stamp(gap)))

    # ------------------------------------------------------------ invariants

    @invariant()
    def no_input_after_the_end_changes_any_glass_ring_or_space(self) -> None:
        """Each input after the end was compared with the game left alone until its instant
        (:meth:`no_input_after_the_end_changes_a_glass_ring_or_space`)."""
        assert self.changed_after_the_end == []

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
