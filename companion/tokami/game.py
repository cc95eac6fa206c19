"""The Tokami score keeper: who is on turn, what each player holds, the blocks left, the score.

The companion does not see the cross; the table tells it how each turn ended (a
:class:`~companion.tokami.turns.Turn`) and :class:`Game` applies the rule book to it:

- a bonus block is worth 1 point, except red, worth 0;
- a malus block is worth -1, red included;
- a bonus of a colour at once discards all the player's malus blocks of that colour (they go back
  in the box; malus taken later stay);
- the block just placed higher is forbidden to the next player, neither to move nor as a bonus;
  a player who finds every block too risky takes that forbidden block as malus;
- the round ends when only four blocks remain on the cross; the scores of several rounds add up,
  and the highest total wins.

A turn the rules refuse raises :class:`IllegalTurn` with a reason a player can read, and changes
nothing. :meth:`Game.undo` takes back the last turn (the journal records the undo as an event of
its own; nothing is ever erased).

>>> game = Game(Setup(("Anna", "Ben")))
>>> game.play(Turn.fell(["blue"], in_hand="green"))
>>> game.play(Turn.moved("red", bonus="blue"))
>>> game.score("Anna"), game.score("Ben"), game.blocks_left
(-2, 1, 33)
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.tokami.setup import Setup
from companion.tokami.turns import Outcome, Turn


class IllegalTurn(ValueError):
    """An input the rules refuse; ``kind`` is a short label, ``detail`` says why in words."""

    def __init__(self, kind: str, detail: str) -> None:
        self.kind = kind
        self.detail = detail
        super().__init__(detail)


@dataclass
class Hand:
    """The blocks one player has in front of him this round, by colour.

    ``discarded`` counts malus blocks a bonus of their colour sent back to the box: they no longer
    count, but the companion remembers them so every block of the set is accounted for.
    """

    bonus: dict[str, int]
    malus: dict[str, int]
    discarded: dict[str, int]

    @classmethod
    def empty(cls, colours: tuple[str, ...]) -> Hand:
        return cls({c: 0 for c in colours}, {c: 0 for c in colours}, {c: 0 for c in colours})


@dataclass(frozen=True)
class Played:
    """A turn as it was accepted: who played it, in which round, and what it was."""

    player: str
    round: int
    turn: Turn
    forbidden: str | None  # the forbidden block when it was played (a decline took this colour)

    def describe(self) -> str:
        return f"{self.player}: {self.turn.describe(self.forbidden)}"


@dataclass
class _State:
    """Everything a turn can change; a copy of it is kept per turn so undo is exact."""

    round: int
    seat: int
    on_cross: dict[str, int]
    hands: dict[str, Hand]
    forbidden: str | None = None
    closed_rounds: list[dict[str, int]] = field(default_factory=list)
    over: bool = False
    reason: str | None = None
    resigned: str | None = None  # the player who gave the game up


class Game:
    """A Tokami game being scored: players in turn order, rounds, blocks on the cross.

    ``play(turn)`` applies the turn of the player on turn (``by=`` may name who the input says
    played, and is checked); ``undo()`` takes it back; ``stop()`` ends the game where it stands.
    """

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self._state = self._fresh_round(1, 0, [])
        self._undo: list[_State] = []
        self._stopped_from: _State | None = None
        #: Accepted turns that were not undone, oldest first (like python-chess's move_stack).
        self.history: list[Played] = []

    # -- the facts of the game ---------------------------------------------------------------

    @property
    def players(self) -> tuple[str, ...]:
        return self.setup.players

    @property
    def colours(self) -> tuple[str, ...]:
        return self.setup.colours

    # -- where the game stands ---------------------------------------------------------------

    @property
    def round(self) -> int:
        """The round being played, from 1 (the last round once the game is over)."""
        return self._state.round

    @property
    def turn(self) -> str | None:
        """The player on turn, or None once the game is over."""
        return None if self._state.over else self.players[self._state.seat]

    @property
    def on_cross(self) -> Mapping[str, int]:
        """How many blocks of each colour are still on the cross."""
        return dict(self._state.on_cross)

    @property
    def blocks_left(self) -> int:
        return sum(self._state.on_cross.values())

    @property
    def forbidden(self) -> str | None:
        """The colour of the block the previous player just placed higher, or None."""
        return self._state.forbidden

    def hand(self, player: str) -> Hand:
        """A copy of what ``player`` holds in the current round."""
        return copy.deepcopy(self._state.hands[self._known(player)])

    def round_score(self, player: str) -> int:
        """Points of ``player`` in the current round: bonus blocks (red 0) minus malus blocks."""
        hand = self._state.hands[self._known(player)]
        bonus = sum(n * self.setup.worth(c) for c, n in hand.bonus.items())
        return bonus - sum(hand.malus.values())

    def round_scores(self, player: str) -> list[int]:
        """Points of ``player`` in every round so far, the current (unfinished) one last."""
        self._known(player)
        scores = [closed[player] for closed in self._state.closed_rounds]
        if len(scores) < self._state.round:
            scores.append(self.round_score(player))
        return scores

    def score(self, player: str) -> int:
        """The total of ``player``'s rounds: "on peut jouer en plusieurs manches"."""
        return sum(self.round_scores(player))

    def standings(self) -> list[tuple[str, int]]:
        """Players with their totals, best first; equal totals keep the turn order."""
        return sorted(((p, self.score(p)) for p in self.players), key=lambda ps: -ps[1])

    def is_over(self) -> bool:
        return self._state.over

    @property
    def reason(self) -> str | None:
        """Why the game is over: ``"rounds"`` (all rounds played), ``"stopped"`` or
        ``"resigned"``."""
        return self._state.reason

    def winner(self) -> str | None:
        """The player with the most points once the game is over, ``"tie"``, or None before."""
        if not self._state.over:
            return None
        playing = [p for p in self.players if p != self._state.resigned] or list(self.players)
        best = max(self.score(p) for p in playing)
        leaders = [p for p in playing if self.score(p) == best]
        return leaders[0] if len(leaders) == 1 else "tie"

    # -- changing it -------------------------------------------------------------------------

    def check(self, turn: Turn, by: str | None = None) -> None:
        """Raise :class:`IllegalTurn` if the rules refuse ``turn`` now; change nothing."""
        state = self._state
        if state.over:
            raise IllegalTurn("game over", self._over_words())
        player = self.players[state.seat]
        if by is not None and by != player:
            if by not in self.players:
                raise IllegalTurn("unknown player", f"{by!r} is not playing this game")
            raise IllegalTurn("out of turn", f"it is {player}'s turn, not {by}'s")
        named = list(turn.taken_by_hand) + list(turn.fallen)
        if turn.outcome is Outcome.DECLINED:
            if state.forbidden is None:
                raise IllegalTurn(
                    "no forbidden block",
                    "no block was just placed higher, so there is no forbidden block to take: "
                    "take a block out, and enter 'not higher' with its colour if it will not go up",
                )
            named.append(state.forbidden)
        for colour in named:
            if colour not in state.on_cross:
                raise IllegalTurn(
                    "unknown colour",
                    f"there are no {colour} blocks in this game "
                    f"(colours: {', '.join(self.colours)})",
                )
        if turn.outcome is Outcome.FELL and not turn.fallen:
            raise IllegalTurn(
                "nothing fell",
                "a fall needs at least one fallen block; a block that would not go higher is "
                "'not higher'",
            )
        for colour in self.colours:
            by_hand = turn.taken_by_hand.count(colour)
            wanted = by_hand + turn.fallen.count(colour)
            if turn.outcome is Outcome.DECLINED and colour == state.forbidden:
                wanted += 1
            there = state.on_cross[colour]
            if wanted > there:
                raise IllegalTurn("too many blocks", self._too_many_words(colour, wanted, turn))
            usable = there - (1 if colour == state.forbidden else 0)
            if by_hand > usable:
                raise IllegalTurn("forbidden block", self._forbidden_words(player, colour, turn))

    def is_legal(self, turn: Turn, by: str | None = None) -> bool:
        try:
            self.check(turn, by)
        except IllegalTurn:
            return False
        return True

    def play(self, turn: Turn, by: str | None = None) -> None:
        """Apply the turn of the player on turn; an :class:`IllegalTurn` leaves all as it was."""
        self.check(turn, by)
        before = copy.deepcopy(self._state)
        state = self._state
        player = self.players[state.seat]
        hand = state.hands[player]
        played = Played(player, state.round, turn, state.forbidden)

        if turn.outcome is Outcome.BONUS:
            assert turn.bonus is not None
            self._take(turn.bonus, hand.bonus)
            # "Un bloc bonus permet de se débarrasser de tous les blocs malus ayant la même
            # couleur."
            hand.discarded[turn.bonus] += hand.malus[turn.bonus]
            hand.malus[turn.bonus] = 0
        elif turn.outcome is Outcome.FELL:
            for colour in (*turn.fallen, *([turn.in_hand] if turn.in_hand else [])):
                self._take(colour, hand.malus)
        elif turn.outcome is Outcome.NOT_HIGHER:
            assert turn.block is not None
            self._take(turn.block, hand.malus)
        elif turn.outcome is Outcome.DECLINED:
            assert state.forbidden is not None
            self._take(state.forbidden, hand.malus)
        # Only a block that went higher is forbidden to the next player.
        state.forbidden = turn.block if turn.outcome in (Outcome.BONUS, Outcome.HIGHER) else None
        state.seat = (state.seat + 1) % len(self.players)
        if self.blocks_left <= self.setup.round_ends_at:
            self._close_round()

        self._undo.append(before)
        self.history.append(played)

    def undo(self) -> Played:
        """Take back the last turn still standing (even one that ended a round or the game)."""
        if self._stopped_from is not None:
            raise IllegalTurn("game over", "the game was stopped; a stopped game stays as it was")
        if not self._undo:
            raise IllegalTurn("nothing to undo", "no turn has been played yet, nothing to undo")
        self._state = self._undo.pop()
        return self.history.pop()

    def stop(self) -> None:
        """End the game where it stands (the players call it a day): the totals decide."""
        if self._state.over:
            return
        self._stopped_from = copy.deepcopy(self._state)
        self._state.over = True
        self._state.reason = "stopped"

    def resign(self, player: str) -> None:
        """``player`` gives the game up where it stands: the others' totals decide the winner.
        Like a stopped game, a resigned one stays as it was (no undo)."""
        self._known(player)
        if self._state.over:
            raise IllegalTurn("game over", self._over_words())
        self._stopped_from = copy.deepcopy(self._state)
        self._state.over = True
        self._state.reason = "resigned"
        self._state.resigned = player

    # -- reports -----------------------------------------------------------------------------

    def as_dict(self) -> dict[str, Any]:
        """The game as plain data: the output fields of the scenario contract."""
        state = self._state
        return {
            "game": "tokami",
            "players": list(self.players),
            "blocks": dict(self.setup.blocks),
            "rounds": self.setup.rounds,
            "round": state.round,
            "turn": self.turn,
            "turns": len(self.history),
            "scores": {
                p: {"total": self.score(p), "rounds": self.round_scores(p)} for p in self.players
            },
            "held": {
                p: {
                    "bonus": dict(h.bonus),
                    "malus": dict(h.malus),
                    "discarded": dict(h.discarded),
                }
                for p, h in state.hands.items()
            },
            "blocks_left": self.blocks_left,
            "on_cross": dict(state.on_cross),
            "forbidden": state.forbidden,
            "over": state.over,
            "winner": self.winner(),
            "reason": state.reason,
            "standings": [[p, s] for p, s in self.standings()],
            **({"resigned": state.resigned} if state.resigned is not None else {}),
        }

    # -- inside --------------------------------------------------------------------------------

    def _fresh_round(self, number: int, seat: int, closed: list[dict[str, int]]) -> _State:
        colours = self.setup.colours
        return _State(
            round=number,
            seat=seat,
            on_cross=dict(self.setup.blocks),
            hands={p: Hand.empty(colours) for p in self.setup.players},
            closed_rounds=closed,
        )

    def _close_round(self) -> None:
        """The cross is down to four blocks: score the round, then start the next or finish.

        The rule book does not say who starts a new round; play simply goes on clockwise, so the
        player after the one who ended the round starts it. Held blocks go back on the cross.
        """
        state = self._state
        closed = [*state.closed_rounds, {p: self.round_score(p) for p in self.players}]
        if state.round < self.setup.rounds:
            self._state = self._fresh_round(state.round + 1, state.seat, closed)
        else:
            state.closed_rounds = closed
            state.over = True
            state.reason = "rounds"

    def _take(self, colour: str, pile: dict[str, int]) -> None:
        self._state.on_cross[colour] -= 1
        pile[colour] += 1

    def _known(self, player: str) -> str:
        if player not in self.players:
            raise KeyError(f"{player!r} is not playing this game")
        return player

    def _over_words(self) -> str:
        if self._state.reason == "stopped":
            return "the game was stopped; no more turns are counted"
        if self._state.reason == "resigned":
            return f"{self._state.resigned} resigned; no more turns are counted"
        return f"the game is over after {self.setup.rounds} round(s); no more turns are counted"

    def _too_many_words(self, colour: str, wanted: int, turn: Turn) -> str:
        there = self._state.on_cross[colour]
        if turn.outcome is Outcome.BONUS and turn.block == turn.bonus == colour and there == 1:
            return (
                f"the bonus must be another block than the one moved higher, and only one "
                f"{colour} block is on the cross"
            )
        if there == 0:
            return f"no {colour} block is left on the cross"
        blocks = "block" if wanted == 1 else "blocks"
        return f"{wanted} {colour} {blocks} cannot come off the cross: only {there} {colour} left"

    def _forbidden_words(self, player: str, colour: str, turn: Turn) -> str:
        if turn.outcome is Outcome.BONUS and turn.block == turn.bonus == colour:
            return (
                f"the bonus must be another block than the one moved, and the only other {colour} "
                f"block is the one just placed higher, forbidden to {player}"
            )
        return (
            f"the {colour} block just placed higher is forbidden to {player} (neither to move nor "
            f"as a bonus), and no other {colour} block is left on the cross"
        )
