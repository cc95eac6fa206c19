"""The Tamsk rules as a fold over timestamped events.

A :class:`Game` is fed :class:`~companion.tamsk.events.Event` objects in time order with
:meth:`Game.apply`. It never reads a clock: time only moves when an event (or the caller, with
:meth:`Game.advance`) says so, and everything that happens by itself in between (a glass running
out, the 15-second timer running out) is worked out at the instant it happened.

A refused input returns a :class:`Violation` and changes nothing, with the single exception the
contract makes: a living glass that was really turned over keeps its turned sand, because the
companion follows the real glasses.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.tamsk.board import CAPACITY, NEIGHBOURS, RINGS_PER_PLAYER, STANDARD_START
from companion.tamsk.corrections import UNDO, apply_correction
from companion.tamsk.events import (
    CORRECT,
    END,
    GLASSES,
    LIFT,
    NOTE,
    PASS,
    PLAYERS,
    PUTBACK,
    RELEASE,
    RESIGN,
    RING,
    TIMER15,
    Event,
    opponent,
    owner,
)
from companion.tamsk.glass import Glass

LEVELS = (1, 2, 3)
RULESETS = ("adjusted", "original")
STARTS = ("standard", "free")
DEFAULT_PERIOD = 180.0
TIMER_PERIOD = 15.0
#: Two last glasses running out closer than this count as running out together.
SAME_INSTANT = 0.001
INFINITY = float("inf")


@dataclass(frozen=True, slots=True)
class Rules:
    """What was agreed before the game: level, penalty rule set, start, calibration."""

    level: int = 3
    ruleset: str = "adjusted"
    start: str = "standard"
    periods: Mapping[str, float] = field(default_factory=dict)
    timer_period: float = TIMER_PERIOD

    def period(self, glass: str) -> float:
        return float(self.periods.get(glass, DEFAULT_PERIOD))

    @property
    def timed(self) -> bool:
        """Levels 2 and 3 turn the glasses over; level 1 moves them as plain pieces."""
        return self.level >= 2


@dataclass(frozen=True, slots=True)
class Violation:
    """An input the rules refused, with a reason a player understands."""

    t: float
    player: str | None
    kind: str
    detail: str

    def to_dict(self) -> dict[str, Any]:
        return {"t": self.t, "player": self.player, "kind": self.kind, "detail": self.detail}


@dataclass(frozen=True, slots=True)
class Penalty:
    """A 15-second penalty: ``late``, ``forfeit`` or ``pass``."""

    t: float
    player: str
    kind: str

    def to_dict(self) -> dict[str, Any]:
        return {"t": self.t, "player": self.player, "kind": self.kind}


@dataclass(slots=True)
class Move:
    """An accepted move, as the notation and replays show it."""

    t: float
    player: str
    glass: str
    frm: str | None
    to: str | None
    late: bool = False
    lifted_at: float | None = None
    ring: str | None = None  # "own", or "claimed" when the opponent dropped it
    ring_at: float | None = None


@dataclass(slots=True)
class RingWindow:
    """The moment after a move when a ring may be dropped over the glass just moved."""

    move: Move
    #: The number of the move's lift (see :attr:`Game.last_lift`): a player who lifted a glass
    #: after it may no longer claim this ring ("before making his move").
    lift_no: int = 0
    dropped: bool = False
    #: When the ring dropped in it named its space: the time it was dropped (see
    #: :meth:`Game._ring`: a holder's ring with that space then one without it).
    spaced_at: float | None = None


@dataclass(slots=True)
class Bonus:
    """The right to drop a second ring (adjusted rules): on one turn of one player."""

    player: str
    turn_no: int
    window: RingWindow | None = None
    used: bool = False


@dataclass(slots=True)
class Timer15:
    running: bool = False
    started: float = 0.0
    expires: float = INFINITY
    against: str | None = None
    against_turn: int = -1


@dataclass(frozen=True, slots=True)
class Outcome:
    winner: str | None  # "red", "black", "tie"
    reason: str  # "rings", "tie", "time-tiebreak", "full-space", "resignation"
    ended_by: str  # "arbiter", "no-moves", "full-space", or the player who resigned
    t: float
    tiebreak: tuple[tuple[str, float], ...] = ()


def _full(space: str) -> str:
    n = CAPACITY[space]
    return f"{space} is full ({n} ring{'s' if n > 1 else ''})"


class Game:
    """A Tamsk game in progress.

    >>> from companion.tamsk import events as ev
    >>> game = Game(Rules(level=2))
    >>> game.apply(ev.release(3.0, "r1", "a2")) is None
    True
    >>> game.apply(ev.ring(3.2, "red")) is None
    True
    >>> game.turn, game.rings_left["red"], game.rings_on["a2"]
    ('black', 31, 1)
    """

    def __init__(self, rules: Rules | None = None) -> None:
        self.rules = rules or Rules()
        if self.rules.level not in LEVELS:
            raise ValueError(f"level must be 1, 2 or 3, not {self.rules.level!r}")
        if self.rules.ruleset not in RULESETS:
            raise ValueError(f"ruleset must be adjusted or original, not {self.rules.ruleset!r}")
        if self.rules.start not in STARTS:
            raise ValueError(f"start must be standard or free, not {self.rules.start!r}")
        free = self.rules.start == "free"
        self.glasses: dict[str, Glass] = {
            name: Glass(
                name,
                self.rules.period(name),
                None if free else STANDARD_START[name],
                placed=not free,
            )
            for name in GLASSES
        }
        self.t = 0.0
        self.rings_left = {p: RINGS_PER_PLAYER for p in PLAYERS}
        self.rings_on: dict[str, int] = {}
        self.rings_unplaced = 0  # rings dropped over a glass whose space is not known
        self.turn = "red"
        self.turn_no = 0
        self.in_hand: dict[str, str] = {}  # player -> glass lifted and not yet released
        self.lifted_at: dict[str, float] = {}
        self.late: set[str] = set()  # players completing a move after their turn passed
        #: Late movers who let go of the late glass (a release of it was refused): on their own
        #: turn a lift of another glass gives the late move up instead of being refused.
        self.let_go: set[str] = set()
        #: Every accepted lift is numbered (a release without lift too): a player's latest, and
        #: the one in his hand. "The claim comes before the claimant's own move": he may claim
        #: a move's ring only while his latest lift is older than that move's.
        self.lifts = 0
        self.last_lift: dict[str, int] = {p: 0 for p in PLAYERS}
        self.hand_lift: dict[str, int] = {}
        #: His latest lift before the one in his hand: a ``putback`` gives the right back.
        self._lift_before: dict[str, int] = {}
        self.refused_lifts: dict[str, str] = {}  # glass -> player: its release is not re-reported
        self.moves_made = {p: 0 for p in PLAYERS}
        self.used: dict[str, set[str]] = {p: set() for p in PLAYERS}
        self.windows: list[RingWindow] = []
        #: Second-ring rights (adjusted rules) still to be used; the newest last.
        self.bonuses: list[Bonus] = []
        #: The turn number each lift in hand was made in (a late move is his move of that turn).
        self.lift_turn: dict[str, int] = {}
        #: The ring windows the last accepted lift closed, so a ``putback`` can reopen them.
        self._reopen: tuple[str, list[RingWindow]] | None = None
        self.skip_next: set[str] = set()
        self.timer = Timer15()
        self.moves: list[Move] = []
        self.violations: list[Violation] = []
        self.penalties: list[Penalty] = []
        self.passes: list[dict[str, Any]] = []
        self.bonus_rings: list[dict[str, Any]] = []
        self.outcome: Outcome | None = None
        # Arbiter corrections (companion.tamsk.corrections): every input and correction in
        # effect, in order, so an undo can fold the game again without the input it takes back.
        self.history: list[Event] = []
        self.corrections: list[dict[str, Any]] = []
        self.undone: list[dict[str, Any]] = []
        self.confirmed = False
        self.next_round: int | None = None
        self._autopassed: str | None = None
        self._deadline = INFINITY
        # Kept in step with the glasses' spaces: which glass stands where, and how many glasses
        # stand somewhere unknown (a release without a space).
        self._at: dict[str, str] = {g.space: g.name for g in self.glasses.values() if g.space}
        self._unknown = 0
        self._glasses_of = {
            p: tuple(g for g in self.glasses.values() if owner(g.name) == p) for p in PLAYERS
        }

    # ------------------------------------------------------------------ queries

    @property
    def over(self) -> bool:
        return self.outcome is not None

    def space_of(self, glass: str) -> str | None:
        return self.glasses[glass].space

    def occupant(self, space: str) -> str | None:
        return self._at.get(space)

    def is_full(self, space: str) -> bool:
        return self.rings_on.get(space, 0) >= CAPACITY[space]

    def positions_known(self) -> bool:
        """Whether every glass on the board has a known space (a keypad or full sensors)."""
        return self._unknown == 0

    def in_first_three(self, player: str) -> bool:
        """Whether the player is still bound to move each of his glasses once (levels 2-3,
        or placing them in the free start)."""
        if self.rules.start == "free":
            return any(not self.glasses[g].placed for g in self._own(player))
        return self.rules.timed and self.moves_made[player] < 3

    def destinations(self, glass: str) -> list[str]:
        """The spaces a glass could legally move to now, ignoring whose turn it is.

        Empty when the glass is dead or its space is unknown.
        """
        g = self.glasses[glass]
        if g.dead:
            return []
        taken = {x.space for x in self.glasses.values() if x.space is not None}
        if not g.placed:
            return sorted(s for s in CAPACITY if s not in taken and not self.is_full(s))
        if g.space is None:
            return []
        return sorted(s for s in NEIGHBOURS[g.space] if s not in taken and not self.is_full(s))

    def movable(self, player: str) -> list[str]:
        """The player's glasses that may move now (first-three rule applied)."""
        living = [g for g in self._own(player) if not self.glasses[g].dead]
        if self.in_first_three(player):
            fresh = [g for g in living if g not in self.used[player]]
            if self.rules.start == "free":
                fresh = [g for g in living if not self.glasses[g].placed]
            able = [g for g in fresh if self.destinations(g)]
            if able or self.rules.start == "free":
                return able
        return [g for g in living if self.destinations(g)]

    def can_move(self, player: str) -> bool | None:
        """True or False, or None when it cannot be known (a glass's space is unknown).

        Called at every change of turn, so it is written for speed and stops at the first legal
        move it finds. (The first-three-moves rule never blocks a player: when none of his
        unused glasses can move, he may move a used one.)
        """
        own = self._glasses_of[player]
        for g in own:
            if not g.dead:
                break
        else:
            return False
        if self._unknown:
            return None  # a glass is somewhere on the board, nobody knows where
        if self.rules.start == "free" and self.in_first_three(player):
            return True
        taken = self._at
        rings_on = self.rings_on
        for g in own:
            if g.dead or g.space is None:
                continue
            for s in NEIGHBOURS[g.space]:
                if s not in taken and rings_on.get(s, 0) < CAPACITY[s]:
                    return True
        return False

    def next_deadline(self) -> float:
        """When something will next happen by itself (a glass or the timer running out)."""
        return self._deadline

    def sand(self, glass: str, t: float | None = None) -> float:
        return self.glasses[glass].sand_at(self.t if t is None else t)

    @property
    def bonus(self) -> Bonus | None:
        """The newest second-ring right (kept for the arbiter's corrections and the replay)."""
        return self.bonuses[-1] if self.bonuses else None

    @bonus.setter
    def bonus(self, value: Bonus | None) -> None:
        if value is None:
            self.bonuses.clear()
        else:
            self.bonuses = [b for b in self.bonuses if b.player != value.player] + [value]

    def _usable_bonus(self, player: str) -> Bonus | None:
        """The player's second-ring right he may use now: after his own move of that turn,
        while that move's ring window is open."""
        if self.over:
            return None
        for b in self.bonuses:
            if b.player == player and not b.used and b.window is not None:
                if b.window in self.windows:
                    return b
        return None

    def bonus_available(self, player: str) -> bool:
        """Whether the player holds a second-ring right now: for his move of this turn (still
        to be made) or in that move's ring window."""
        return self._usable_bonus(player) is not None or self._bonus_to_come(player) is not None

    def _bonus_to_come(self, player: str) -> Bonus | None:
        """A right whose move is still to be made (a second ring now would come too early)."""
        for b in self.bonuses:
            if b.player == player and not b.used and b.window is None:
                if self.turn == player and self.turn_no == b.turn_no:
                    return b
                if self.lift_turn.get(player) == b.turn_no:
                    return b
        return None

    # ------------------------------------------------------------------ the fold

    def apply(self, event: Event) -> Violation | None:
        """Play one input at its time. Returns the violation if the rules refuse it."""
        t = event.t
        if t < self.t:
            raise ValueError(f"event at t={t} is earlier than the game's time t={self.t}")
        if event.kind == END:
            self.history.append(event)
            self.advance(t)
            if not self.over:
                self._finish(t, "arbiter")
            return None
        self._advance(t, inclusive=False)
        self.t = t
        kind = event.kind
        if kind == NOTE:
            return None
        if kind != CORRECT and self.over:
            # After the end: refused, and nothing changes, not even a glass's sand.
            self.history.append(event)
            return self._refuse(t, event.actor, "game-over", "the game is over")
        if kind in (LIFT, RELEASE) and event.glass is not None:
            self._opponent_moves_at_expiry(t, owner(event.glass))
        if kind == CORRECT:
            assert event.correction is not None
            if event.correction.what != UNDO:
                self.history.append(event)
            return apply_correction(self, event)
        self.history.append(event)
        if kind == RELEASE:
            assert event.glass is not None
            return self._release(t, event.glass, event.to)
        if kind == LIFT:
            assert event.glass is not None
            return self._lift(t, event.glass)
        if kind == RING:
            assert event.player is not None
            return self._ring(t, event.player, event.space)
        if kind == TIMER15:
            assert event.player is not None
            return self._timer15(t, event.player)
        if kind == PASS:
            assert event.player is not None
            return self._pass(t, event.player)
        if kind == PUTBACK:
            assert event.glass is not None
            return self._putback(t, event.glass)
        if kind == RESIGN:
            assert event.player is not None
            self._declare(t, opponent(event.player), "resignation", event.player)
            return None
        raise ValueError(f"unknown event kind {kind!r}")

    def apply_all(self, events: Iterable[Event]) -> list[Violation]:
        found = []
        for event in events:
            v = self.apply(event)
            if v is not None:
                found.append(v)
        return found

    def advance(self, t: float) -> None:
        """Let time run to ``t``: glasses and the 15-second timer run out on their own."""
        if t < self.t:
            raise ValueError(f"cannot go back in time from t={self.t} to t={t}")
        self._advance(t, inclusive=True)
        self.t = t

    # ------------------------------------------------------------------ time

    def _advance(self, t: float, *, inclusive: bool) -> None:
        while self._deadline < t or (inclusive and self._deadline == t):
            at = self._deadline
            timer = self.timer
            if timer.running and timer.expires == at:
                self._timer_runs_out(at)
            else:
                for g in self.glasses.values():
                    if g.running and g.runs_out_at() == at:
                        self._glass_dies(g, at)
                        break
            self._recompute_deadline()

    def _opponent_moves_at_expiry(self, t: float, player: str) -> None:
        """The one exception to "an input at an expiry's instant comes first": the opponent of
        the player the 15-second timer runs out against "may start his own move from that
        instant", so at that ``t`` the timer runs out before his lift or release."""
        timer = self.timer
        if (
            timer.running
            and timer.expires == t
            and timer.against == opponent(player)
            and self.turn == timer.against
            and self.turn_no == timer.against_turn
        ):
            self._timer_runs_out(t)
            self._recompute_deadline()

    def _recompute_deadline(self) -> None:
        deadline = self.timer.expires if self.timer.running else INFINITY
        for g in self.glasses.values():
            if g.running:
                out = g.ref + g.sand
                if out < deadline:
                    deadline = out
        self._deadline = deadline

    def _glass_dies(self, g: Glass, at: float) -> None:
        g.die(at)
        if self.over:
            return  # the game's record is closed: a glass running out afterwards changes nothing
        player = owner(g.name)
        if self.in_hand.get(player) == g.name:
            # The sand ran out in the player's hand: lost where it stood, the lift ends without
            # a move (a late move with it); setting it down is not reported again.
            self._drop_hand(player)
            self.late.discard(player)
            self.refused_lifts[g.name] = player
        if not self.over and self.turn == player and player not in self.in_hand:
            if self.can_move(player) is False:
                self._turn_passes(at, auto_pass=player)

    def _timer_runs_out(self, at: float) -> None:
        timer = self.timer
        timer.running = False
        timer.expires = INFINITY
        against = timer.against
        if (
            self.over
            or against is None
            or self.turn != against
            or self.turn_no != timer.against_turn
        ):
            return
        if against in self.in_hand and self.lift_turn.get(against) == self.turn_no:
            kind = "late"
            self.late.add(against)
        else:
            kind = "forfeit"
        self._penalise(at, against, kind)

    def _penalise(self, at: float, offender: str, kind: str) -> None:
        self.penalties.append(Penalty(at, offender, kind))
        if self.rules.ruleset == "original":
            self.skip_next.add(offender)
        self._turn_passes(at)
        if self.rules.ruleset == "adjusted" and not self.over and self.turn == opponent(offender):
            self._prune_bonuses()
            self.bonuses.append(Bonus(opponent(offender), self.turn_no))

    def _consequence_to_come(self, at: float, offender: str, kind: str) -> None:
        """A penalty ruled (by the arbiter) against a player not on turn: its consequence is
        still to come (adjusted: the opponent, on turn, may drop a second ring; original: the
        offender's next turn is skipped)."""
        self.penalties.append(Penalty(at, offender, kind))
        if self.rules.ruleset == "original":
            self.skip_next.add(offender)
        else:
            self.bonus = Bonus(opponent(offender), self.turn_no)

    def _declare(self, t: float, winner: str, reason: str, ended_by: str) -> None:
        """The game is over at ``t`` with this result (an arbiter's ruling)."""
        self.timer.running = False
        self.timer.expires = INFINITY
        self.outcome = Outcome(winner, reason, ended_by, t)
        self._recompute_deadline()

    def _prune_bonuses(self) -> None:
        """Forget the rights that can no longer be used."""
        keep = []
        for b in self.bonuses:
            if b.used:
                continue
            if b.window is not None and b.window not in self.windows:
                continue
            if (
                b.window is None
                and b.turn_no != self.turn_no
                and self.lift_turn.get(b.player) != b.turn_no
            ):
                continue
            keep.append(b)
        self.bonuses = keep

    # ------------------------------------------------------------------ turns

    def _turn_passes(self, t: float, auto_pass: str | None = None) -> None:
        """End the current turn and give the next one, skipping and passing as the rules say."""
        if auto_pass is not None:
            self.passes.append({"t": t, "player": auto_pass, "auto": True})
            self._autopassed = auto_pass
        player = opponent(self.turn)
        for _ in range(8):
            if player in self.skip_next:
                self.skip_next.discard(player)
                self.passes.append({"t": t, "player": player, "skipped": True})
                player = opponent(player)
                continue
            self.turn = player
            self.turn_no += 1
            # A late mover whose turn comes round before he lets go still completes his late
            # move; it does not use up this turn.
            if self.can_move(player) is False and player not in self.in_hand:
                if (
                    self.can_move(opponent(player)) is False
                    and opponent(player) not in self.in_hand
                ):
                    self._finish(t, "no-moves")
                    return
                self.passes.append({"t": t, "player": player, "auto": True})
                self._autopassed = player
                player = opponent(player)
                continue
            return

    def _finish(self, t: float, ended_by: str, loser: str | None = None) -> None:
        self.timer.running = False
        self.timer.expires = INFINITY
        self._recompute_deadline()
        if loser is not None:
            self.outcome = Outcome(opponent(loser), "full-space", ended_by, t)
            return
        red, black = self.rings_left["red"], self.rings_left["black"]
        if red != black:
            self.outcome = Outcome("red" if red < black else "black", "rings", ended_by, t)
        elif not self.rules.timed:
            self.outcome = Outcome("tie", "tie", ended_by, t)
        else:
            winner, order = self._time_tiebreak()
            self.outcome = Outcome(winner, "time-tiebreak", ended_by, t, order)

    def _time_tiebreak(self) -> tuple[str, tuple[tuple[str, float], ...]]:
        """The player whose last glass runs out last wins; if the two last glasses run out
        within 1 ms of each other, the last-but-one glasses decide, and so on. A glass never
        turned counts as running out before any other. Nothing separates them: a tie (never
        the glasses' names)."""
        out = {name: g.final_time() for name, g in self.glasses.items()}
        order = tuple(sorted(out.items(), key=lambda item: (item[1], item[0])))

        def when(name: str) -> float:
            g = self.glasses[name]
            return out[name] if (g.running or g.dead) else -INFINITY

        ranked = {p: sorted((when(g) for g in self._own(p)), reverse=True) for p in PLAYERS}
        for red, black in zip(ranked["red"], ranked["black"], strict=True):
            if red == black:
                continue
            if abs(red - black) > SAME_INSTANT + 1e-9:
                return ("red" if red > black else "black"), order
        return "tie", order

    # ------------------------------------------------------------------ inputs

    def _refuse(self, t: float, player: str | None, kind: str, detail: str) -> Violation:
        v = Violation(t, player, kind, detail)
        self.violations.append(v)
        return v

    def _lift_problem(self, player: str, glass: str) -> tuple[str, str] | None:
        """Why this player may not start moving this glass now (or None)."""
        g = self.glasses[glass]
        if self.over:
            return "game-over", "the game is over"
        if g.dead:
            return "dead-glass", f"{glass} has run out of sand: a lost glass may never move again"
        if self.turn != player:
            return "out-of-turn", f"it is {self.turn}'s turn, not {player}'s"
        held = self.in_hand.get(player)
        if held is not None and held != glass:
            return "two-glasses", f"{held} is already being moved: one glass per move"
        if self.in_first_three(player):
            if self.rules.start == "free" and g.placed and glass in self.used[player]:
                return (
                    "first-three-moves",
                    f"place your other hourglasses first: {glass} is already on the board",
                )
            if glass in self.used[player] and glass not in self.movable(player):
                others = [x for x in self._own(player) if x not in self.used[player]]
                return (
                    "first-three-moves",
                    f"each player's first three moves use his three glasses: move "
                    f"{' or '.join(others)}, not {glass} again",
                )
        return None

    def _give_up_late_move(self, player: str, glass: str) -> None:
        """A late mover on turn again who let go of his late glass (a release of it was refused)
        and takes up another glass has given his late move up: the new move is judged on its
        own. While he still holds the late glass, the other lift is refused (one glass at a
        time, :meth:`_lift_problem`)."""
        held = self.in_hand.get(player)
        if (
            player in self.late
            and player in self.let_go
            and held is not None
            and held != glass
            and self.turn == player
        ):
            self._drop_hand(player)
            self.late.discard(player)

    def _lift(self, t: float, glass: str) -> Violation | None:
        player = owner(glass)
        self._give_up_late_move(player, glass)
        if self.in_hand.get(player) == glass:
            if player in self.late:
                return None  # picked up again to finish a late move
            return self._refuse(t, player, "already-lifted", f"{glass} is already lifted")
        problem = self._lift_problem(player, glass)
        if problem is not None:
            self.refused_lifts[glass] = player
            return self._refuse(t, player, *problem)
        self.in_hand[player] = glass
        self.lifted_at[player] = t
        self.lift_turn[player] = self.turn_no
        self._count_lift(player)
        self.refused_lifts.pop(glass, None)
        closed = list(self.windows)
        self._close_windows()
        self._reopen = (glass, closed)
        return None

    def _putback(self, t: float, glass: str) -> Violation | None:
        player = owner(glass)
        if self.refused_lifts.pop(glass, None) is not None:
            return None
        if self.in_hand.get(player) != glass:
            return self._refuse(t, player, "not-lifted", f"{glass} was not lifted")
        # The lift is taken back: so is the end of his right to claim that it made.
        self.last_lift[player] = self._lift_before.get(player, self.last_lift[player])
        self._drop_hand(player)
        self.late.discard(player)
        if self._reopen is not None and self._reopen[0] == glass:
            # The lift is taken back: the ring windows it closed are open again.
            self.windows = self._reopen[1] + [w for w in self.windows if w not in self._reopen[1]]
        self._reopen = None
        if self.turn == player and self.can_move(player) is False:
            self._turn_passes(t, auto_pass=player)
        return None

    def _drop_hand(self, player: str) -> None:
        self.in_hand.pop(player, None)
        self.lifted_at.pop(player, None)
        self.lift_turn.pop(player, None)
        self.hand_lift.pop(player, None)
        self._lift_before.pop(player, None)
        self.let_go.discard(player)

    def _count_lift(self, player: str) -> None:
        """An accepted lift (or a release without lift): number it, as his latest lift."""
        self.lifts += 1
        self._lift_before[player] = self.last_lift[player]
        self.last_lift[player] = self.lifts
        self.hand_lift[player] = self.lifts

    def may_claim(self, player: str, window: RingWindow) -> bool:
        """Whether ``player`` may still claim the ring of this window's move (his opponent's):
        "the claim comes before the claimant's own move", so not once he has lifted a glass
        after that move's lift (a late move of his lifted before it keeps his right)."""
        return window.move.player != player and self.last_lift[player] < window.lift_no

    def _turn_over_refused(self, t: float, glass: str) -> None:
        """A refused move still turned a real glass over: follow its sand."""
        g = self.glasses[glass]
        if self.rules.timed and not g.dead and not self.over:
            g.turn_over(t)
            self._recompute_deadline()

    def _release(self, t: float, glass: str, to: str | None) -> Violation | None:
        player = owner(glass)
        self._give_up_late_move(player, glass)
        g = self.glasses[glass]
        if self.refused_lifts.pop(glass, None) is not None:
            # The lift was refused and reported; the glass was put down again.
            self._turn_over_refused(t, glass)
            return None
        late = player in self.late and self.in_hand.get(player) == glass
        if self.in_hand.get(player) != glass:
            problem = self._lift_problem(player, glass)
            if problem is not None:
                self._turn_over_refused(t, glass)
                return self._refuse(t, player, *problem)
            # A release with no lift before it counts as lifted at the same instant.
            self._close_windows()
            self.lifted_at[player] = t
            self.lift_turn[player] = self.turn_no
            self._count_lift(player)
        self._reopen = None
        problem = self._destination_problem(glass, to)
        if problem is not None:
            self._turn_over_refused(t, glass)
            if late and self.turn != player:
                # A late mover whose opponent is on turn keeps his move open: he may complete
                # it. He has let go of the glass, so on his own turn a lift of another glass
                # gives the late move up.
                self.let_go.add(player)
            else:
                self._drop_hand(player)
                self.late.discard(player)
            return self._refuse(t, player, *problem)
        frm = g.space
        lifted_at = self.lifted_at.get(player, t)
        lift_turn = self.lift_turn.get(player, self.turn_no)
        lift_no = self.hand_lift.get(player, self.lifts)
        self._drop_hand(player)
        self.late.discard(player)
        if self.rules.timed:
            g.turn_over(t)
            self._recompute_deadline()
        if g.space is not None:
            del self._at[g.space]
        elif g.placed:
            self._unknown -= 1
        if to is not None:
            self._at[to] = glass
        else:
            self._unknown += 1
        g.placed = True
        g.space = to
        self.moves_made[player] += 1
        self.used[player].add(glass)
        self._autopassed = None
        move = Move(t, player, glass, frm, to, late=late, lifted_at=lifted_at)
        self.moves.append(move)
        window = RingWindow(move, lift_no)
        self.windows.append(window)
        for b in self.bonuses:
            if b.player == player and b.turn_no == lift_turn and b.window is None:
                b.window = window  # his own move of that turn (a late one too)
        if to is not None and self.is_full(to):
            self._finish(t, "full-space", loser=player)
            return None
        if not late:
            self._turn_passes(t)
        elif self.turn == player and player not in self.in_hand and self.can_move(player) is False:
            self._turn_passes(t, auto_pass=player)
        return None

    def _destination_problem(self, glass: str, to: str | None) -> tuple[str, str] | None:
        g = self.glasses[glass]
        if to is None:
            return None
        holder = self.occupant(to)
        if holder == glass:
            return "no-move", f"{glass} must move to another space than {to}"
        if holder is not None:
            state = "a lost glass" if self.glasses[holder].dead else "a glass"
            return "occupied", f"{to} is taken by {holder} ({state}): move to a vacant space"
        if g.placed and g.space is not None and to not in NEIGHBOURS[g.space]:
            return "not-adjacent", f"{to} is not next to {g.space}: move one space at a time"
        return None

    def _close_windows(self) -> None:
        """A new move starts: the ring windows of earlier moves close."""
        self.windows.clear()

    def _ring(self, t: float, player: str, space: str | None) -> Violation | None:
        if self.over:
            return self._refuse(t, player, "game-over", "the game is over")
        if self.rings_left[player] <= 0:
            return self._refuse(t, player, "no-rings-left", f"{player} has no rings left")
        own = next((w for w in self.windows if w.move.player == player and not w.dropped), None)
        claims = [w for w in self.windows if w.move.player != player and not w.dropped]
        claim = next((w for w in claims if self.may_claim(player, w)), None)
        # An open window whose ring he may no longer claim: he has lifted a glass since.
        too_late = next((w for w in claims if not self.may_claim(player, w)), None)
        bonus = self._usable_bonus(player)
        if space is None and own is None and bonus is not None:
            first = bonus.window
            assert first is not None
            if first.dropped and first.move.ring == "own" and first.spaced_at is not None:
                # He dropped a ring with that space and now one without: the first was his
                # second ring, this one his regular ring; both stand.
                target = first.move.to
                if target is not None and self.is_full(target):
                    return self._refuse(t, player, "space-full", _full(target))
                bonus.used = True
                self.rings_left[player] -= 1
                if target is None:
                    self.rings_unplaced += 1
                else:
                    self.rings_on[target] = self.rings_on.get(target, 0) + 1
                self.bonus_rings.append({"t": first.spaced_at, "player": player, "space": target})
                first.move.ring_at = t
                return None
        if space is None:
            window = own or claim
            if window is None:
                if too_late is not None:
                    return self._claim_too_late(t, player, too_late)
                if bonus is not None:
                    return self._refuse(
                        t, player, "which-space", "say where the second ring goes (its space)"
                    )
                return self._refuse(t, player, *self._why_no_ring(player))
            return self._drop_in_window(t, player, window)
        for window in (own, claim):
            if window is not None and window.move.to in (space, None):
                if window.move.to is None and bonus is not None:
                    continue
                return self._drop_in_window(t, player, window, space)
        if bonus is not None:
            if self.is_full(space):
                return self._refuse(
                    t, player, "space-full", _full(space)
                )
            bonus.used = True
            self.rings_left[player] -= 1
            self.rings_on[space] = self.rings_on.get(space, 0) + 1
            self.bonus_rings.append({"t": t, "player": player, "space": space})
            return None
        if too_late is not None and (own is None or too_late.move.to in (space, None)):
            return self._claim_too_late(t, player, too_late)
        if self._bonus_to_come(player) is not None:
            return self._refuse(
                t,
                player,
                "second-ring-early",
                "the second ring comes after your own move of this turn",
            )
        if own is not None or claim is not None:
            w = own or claim
            assert w is not None
            return self._refuse(
                t,
                player,
                "wrong-space",
                f"the ring goes over the glass just moved, on {w.move.to}, not on {space}",
            )
        return self._refuse(t, player, *self._why_no_ring(player))

    def _claim_too_late(self, t: float, player: str, window: RingWindow) -> Violation:
        """The rule books put the claim before the claimant's own move (EN "before making his
        move ... as soon as he moves an hour-glass, he may not play an extra ring"; FR "avant
        d'effectuer son coup"): he has lifted a glass since that move was lifted."""
        return self._refuse(
            t,
            player,
            "claim-after-own-move",
            f"the claim came after your own move: {window.move.glass}'s ring is claimed "
            f"before you lift a glass",
        )

    def _why_no_ring(self, player: str) -> tuple[str, str]:
        """The reason a player understands for a ring that has nowhere to go now."""
        b = self.bonus
        for w in self.windows:
            if w.dropped and w.move.player == player and w.move.ring == "own":
                return "ring-already-dropped", "you already dropped your ring for this move"
            if w.dropped and w.move.player == player and w.move.ring == "claimed":
                return "ring-claimed", "your opponent claimed the ring for this move"
            if w.dropped and w.move.player != player:
                return "ring-already-dropped", "a ring was already dropped for this move"
        if b is not None and b.player == player and b.used and b.turn_no == self.turn_no:
            return "second-ring-used", "your second ring is already dropped"
        return (
            "ring-window-closed",
            "a ring is dropped right after a move, before the next glass is lifted",
        )

    def _drop_in_window(
        self, t: float, player: str, window: RingWindow, space: str | None = None
    ) -> Violation | None:
        target = window.move.to if window.move.to is not None else space
        if target is not None and self.is_full(target):
            return self._refuse(
                t, player, "space-full", _full(target)
            )
        window.dropped = True
        if space is not None:
            window.spaced_at = t
        self.rings_left[player] -= 1
        if target is None:
            self.rings_unplaced += 1
        else:
            self.rings_on[target] = self.rings_on.get(target, 0) + 1
        window.move.ring = "own" if window.move.player == player else "claimed"
        window.move.ring_at = t
        return None

    def _timer15(self, t: float, player: str) -> Violation | None:
        if self.rules.level < 3:
            return self._refuse(
                t,
                player,
                "no-timer",
                f"the 15-second timer is only played at level 3 (this game is level "
                f"{self.rules.level})",
            )
        if self.over:
            return self._refuse(t, player, "game-over", "the game is over")
        if self.turn == player:
            return self._refuse(
                t, player, "own-turn", "the 15-second timer is turned against the player on turn"
            )
        if self.timer.running:
            left = self.timer.expires - t
            return self._refuse(
                t,
                player,
                "timer-running",
                f"the 15-second timer is still running ({left:.1f} s left)",
            )
        self.timer = Timer15(True, t, t + self.rules.timer_period, self.turn, self.turn_no)
        self._recompute_deadline()
        return None

    def _pass(self, t: float, player: str) -> Violation | None:
        if self.over:
            return self._refuse(t, player, "game-over", "the game is over")
        if self.turn != player:
            if self._autopassed == player:
                return None  # already passed for him: he cannot move
            return self._refuse(
                t, player, "out-of-turn", f"it is {self.turn}'s turn, not {player}'s"
            )
        if player in self.in_hand:
            return self._refuse(
                t, player, "moving", f"{self.in_hand[player]} is lifted: finish the move"
            )
        able = self.can_move(player)
        if able is False:
            self._turn_passes(t, auto_pass=player)
            return None
        if self.rules.level < 3:
            if able:
                return self._refuse(
                    t,
                    player,
                    "must-move",
                    f"{player} can still move ({', '.join(self.movable(player))}): "
                    f"passing is only allowed when no glass can move",
                )
            self.passes.append({"t": t, "player": player})
            self._turn_passes(t)
            return None
        self.passes.append({"t": t, "player": player, "voluntary": True})
        self._penalise(t, player, "pass")
        return None

    # ------------------------------------------------------------------ output

    def _own(self, player: str) -> tuple[str, ...]:
        return ("r1", "r2", "r3") if player == "red" else ("b1", "b2", "b3")

    def snapshot(self, t: float | None = None, *, history: bool = True) -> dict[str, Any]:
        """The state at ``t`` (default: the game's time) as the contract's JSON object.

        ``history=False`` is the live form a screen is drawn from ten times a second: the
        records that only grow (penalties, refused inputs, passes, bonus rings, corrections,
        undone moves) are not listed, only counted in ``"history"``, with the latest penalty
        as ``"penalties"``, so drawing a frame costs the same at move 500 as at move 5.
        """
        if t is not None:
            self.advance(t)
        now = self.t
        outcome = self.outcome
        timer = self.timer
        glasses = {}
        for name, g in self.glasses.items():
            glasses[name] = {
                "space": g.space,
                "sand": round(g.sand_at(now), 3),
                "running": g.running,
                "dead": g.dead,
                "died_at": g.died_at,
                "period": g.period,
                "placed": g.placed,
            }
        return {
            "game": "tamsk",
            "level": self.rules.level,
            "ruleset": self.rules.ruleset,
            "start": self.rules.start,
            "t": now,
            "over": outcome is not None,
            "winner": outcome.winner if outcome else None,
            "reason": outcome.reason if outcome else None,
            "ended_by": outcome.ended_by if outcome else None,
            "over_at": outcome.t if outcome else None,
            "tiebreak": [[g, round(at, 3)] for g, at in outcome.tiebreak] if outcome else [],
            "rings_left": dict(self.rings_left),
            "spaces": {s: self.rings_on[s] for s in sorted(self.rings_on)},
            "rings_unplaced": self.rings_unplaced,
            "glasses": glasses,
            "turn": self.turn,
            "in_hand": dict(self.in_hand),
            "timer15": {
                "running": timer.running,
                "remaining": round(max(0.0, timer.expires - now), 3) if timer.running else 0.0,
                "against": timer.against if timer.running else None,
            },
            "bonus_ring": next(
                (p for p in PLAYERS if self.bonus_available(p)),
                None,
            ),
            "skip_next": sorted(self.skip_next),
            "moves": len(self.moves),
            **(self._history() if history else self._history_counts()),
            "confirmed": self.confirmed,
            "next_round": self.next_round,
        }

    def _history(self) -> dict[str, Any]:
        return {
            "penalties": [p.to_dict() for p in self.penalties],
            "violations": [v.to_dict() for v in self.violations],
            "passes": list(self.passes),
            "bonus_rings": list(self.bonus_rings),
            "corrections": list(self.corrections),
            "undone": list(self.undone),
        }

    def _history_counts(self) -> dict[str, Any]:
        return {
            "penalties": [self.penalties[-1].to_dict()] if self.penalties else [],
            "history": {
                "penalties": len(self.penalties),
                "violations": len(self.violations),
                "passes": len(self.passes),
                "bonus_rings": len(self.bonus_rings),
                "corrections": len(self.corrections),
                "undone": len(self.undone),
            },
        }
