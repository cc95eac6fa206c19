"""Swiss rounds: score groups, no rematch, first-move balance, byes (pure; no I/O).

The rules, in the order they are applied (``docs/tournament.md`` gives the reasons):

1. **Ranking.** Players are ranked by points (a bye counts as a win), then by rating, then by
   starting number. Withdrawn players are not paired.
2. **The bye.** With an odd number of players, the lowest-ranked player who has not yet had a
   bye sits out and scores a win; if all have had one, the lowest-ranked player does. The bye
   goes to the lowest such player for whom the others can still all be paired.
3. **No rematch.** Two players never meet twice. This is absolute: if no pairing of the round
   avoids a rematch, :class:`PairingError` says so (the tournament has more rounds than its
   players allow) rather than pairing anyone twice.
4. **Score groups.** The highest-ranked player still unpaired is paired first, preferring an
   opponent with the same points, then with the closest points (a player who cannot be paired in
   his group "floats" to the next one).
5. **Top half against bottom half.** Inside a score group of ``g`` players the ideal opponent of
   the player ranked ``i`` is the one ranked ``i + g/2`` (as the Dutch system pairs S1 against
   S2), so leaders do not meet each other before they have to.
6. **First move.** Each player's preference comes from his history: having had the first move
   twice more than the second (or twice in a row) he must have the second (absolute); one more
   first than second moves: he should (strong); equal: he should alternate (mild). Two players
   with the same absolute preference are not paired together when any other pairing exists.
7. **Who moves first.** If the two preferences differ, both are met; if they agree, the stronger
   preference wins, then the higher-ranked player. With no history (round 1) the higher-ranked
   player moves first on odd boards and second on even boards.

The search is a depth-first walk over the candidates in that order of preference, so the first
complete pairing found is the most preferred one; it stops after :data:`MAX_STEPS` steps with a
:class:`PairingError` (a club tournament never needs that many).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from companion.tournament.berger import Pair

FIRST = "w"  # TRF's colour letters: "w" moved first, "b" second
SECOND = "b"
MAX_STEPS = 200_000


class PairingError(ValueError):
    """No pairing satisfies the absolute rules (with why)."""


@dataclass(frozen=True)
class SwissPlayer:
    """What pairing needs to know of one player."""

    number: int
    score: float
    rating: int = 0
    opponents: frozenset[int] = frozenset()
    colours: tuple[str, ...] = ()  # FIRST or SECOND per game played (byes left out), in order
    had_bye: bool = False


@dataclass(frozen=True)
class Preference:
    colour: str | None
    strength: int  # 0 none, 1 mild, 2 strong, 3 absolute


def preference(p: SwissPlayer) -> Preference:
    """The player's first-move preference from his history (rule 6)."""
    if not p.colours:
        return Preference(None, 0)
    diff = p.colours.count(FIRST) - p.colours.count(SECOND)
    last2 = p.colours[-2:]
    if diff >= 2 or last2 == (FIRST, FIRST):
        return Preference(SECOND, 3)
    if diff <= -2 or last2 == (SECOND, SECOND):
        return Preference(FIRST, 3)
    if diff == 1:
        return Preference(SECOND, 2)
    if diff == -1:
        return Preference(FIRST, 2)
    return Preference(SECOND if p.colours[-1] == FIRST else FIRST, 1)


def first_mover(a: SwissPlayer, b: SwissPlayer, *, board: int) -> tuple[SwissPlayer, SwissPlayer]:
    """``(first, second)`` for a pairing of ``a`` (ranked higher) and ``b`` (rule 7)."""
    pa, pb = preference(a), preference(b)
    if pa.colour is None and pb.colour is None:
        return (a, b) if board % 2 == 1 else (b, a)
    if pa.colour != pb.colour:
        if pa.colour is not None:
            return (a, b) if pa.colour == FIRST else (b, a)
        return (b, a) if pb.colour == FIRST else (a, b)
    winner = b if pb.strength > pa.strength else a
    other = a if winner is b else b
    return (winner, other) if pa.colour == FIRST else (other, winner)


def _clash(a: SwissPlayer, b: SwissPlayer) -> bool:
    pa, pb = preference(a), preference(b)
    return pa.strength == 3 and pb.strength == 3 and pa.colour == pb.colour


def rank(players: Sequence[SwissPlayer]) -> list[SwissPlayer]:
    """Rule 1."""
    return sorted(players, key=lambda p: (-p.score, -p.rating, p.number))


@dataclass
class _Search:
    strict: bool
    steps: int = 0
    pairs: list[tuple[SwissPlayer, SwissPlayer]] = field(default_factory=list)

    def candidates(self, top: SwissPlayer, rest: list[SwissPlayer]) -> list[SwissPlayer]:
        group = [p for p in rest if p.score == top.score]
        ideal = (len(group) + 1) // 2  # rule 5: ``top`` is index 0 of its whole group
        def key(q: SwissPlayer) -> tuple[float, int, int, int]:
            pos = group.index(q) + 1 if q in group else len(rest)
            return (abs(top.score - q.score), int(_clash(top, q)), abs(pos - ideal),
                    rest.index(q))
        allowed = [q for q in rest if q.number not in top.opponents
                   and (not self.strict or not _clash(top, q))]
        return sorted(allowed, key=key)

    def run(self, rest: list[SwissPlayer]) -> bool:
        if not rest:
            return True
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise PairingError("the pairing search took too long: pair this round by hand")
        top, others = rest[0], rest[1:]
        for q in self.candidates(top, others):
            self.pairs.append((top, q))
            if self.run([p for p in others if p is not q]):
                return True
            self.pairs.pop()
        return False


def _pair_all(ranked: list[SwissPlayer]) -> list[tuple[SwissPlayer, SwissPlayer]] | None:
    for strict in (True, False):
        search = _Search(strict)
        if search.run(ranked):
            return search.pairs
    return None


def swiss_round(players: Sequence[SwissPlayer]) -> list[Pair]:
    """The next round's pairings, board 1 first (``(first, second)`` starting numbers); a bye
    is ``(number, None)`` and comes last."""
    numbers = [p.number for p in players]
    if len(set(numbers)) != len(numbers):
        raise PairingError("two players have the same starting number")
    if len(players) < 2:
        raise PairingError("a round needs at least two players")
    ranked = rank(players)
    byes: list[SwissPlayer | None] = [None]
    if len(ranked) % 2:
        # rule 2: never a second bye while someone has had none (FIDE C.2 is absolute too)
        fresh = [p for p in reversed(ranked) if not p.had_bye]
        byes = list(fresh) if fresh else list(reversed(ranked))
    for bye in byes:
        pairs = _pair_all([p for p in ranked if p is not bye])
        if pairs is None:
            continue
        out: list[Pair] = []
        for board, (a, b) in enumerate(pairs, start=1):
            first, second = first_mover(a, b, board=board)
            out.append((first.number, second.number))
        if bye is not None:
            out.append((bye.number, None))
        return out
    raise PairingError("every pairing of this round would make two players meet again "
                       "(rule 3): the tournament has more rounds than its players allow")
