"""Tantrix Strategy with hands: the table is told every tile that leaves the bag.

Knowing each hand lets the table enforce the heart of the game, the rule book's three steps of a
turn: "étape 1 : remplir les Espaces Forcés, PUIS étape 2 : jouer son Coup Libre, PUIS étape 3 :
remplir DE NOUVEAU les Espaces Forcés", with "l'obligation de remplir les Espaces Forcés si vous le
pouvez". The rules, as the scenario contract fixes them:

* ``starter``: before the first draw each player draws one tile; the highest number opens, play
  goes on in seat order from him, and the tiles go back into the bag.
* ``draw``: a player takes a tile from the bag into his hand. The bag is every tile neither
  placed nor in a hand; drawing a tile that is placed or held, or a seventh tile, is refused.
* A placement must use a tile from the placing player's hand, and he must hold 6 while the bag
  has tiles (he draws a replacement after every placement: "draw first").
* The obligation: while the player on turn holds a tile that can legally fill a forced space
  (golden rule and, in the restricted phase, the three restrictions), a free move is refused
  ("forced space first") and so is ending the turn ("a forced space can be filled"). Which space
  and which tile is his choice.
* The restricted phase lasts while the bag holds a tile; the real count decides it.

Everything else is :class:`companion.tantrix.game.Game`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from companion.tantrix.game import HAND, Game, IllegalPlacement, Placement
from companion.tantrix.tiles import TILE_COUNT

# Kinds of refusal added by hands, as they appear in a scenario's ``violations``.
NOT_IN_HAND = "not in hand"
DRAW_FIRST = "draw first"
FORCED_FIRST = "forced space first"
CAN_FILL = "a forced space can be filled"
NOT_IN_BAG = "not in the bag"
HAND_FULL = "hand full"
STARTER = "starter"


@dataclass(frozen=True)
class Fill:
    """One way the player on turn could fill a forced space now: ``tile`` on ``(q, r)``."""

    tile: int
    q: int
    r: int

    def as_list(self) -> list[int]:
        return [self.tile, self.q, self.r]


class HandsGame(Game):
    """A :class:`Game` that knows every hand and enforces the forced-space obligation.

    >>> g = HandsGame(["red", "yellow"])
    >>> g.start_draw({"red": 12, "yellow": 40})
    >>> g.turn
    'yellow'
    >>> for t in (1, 2, 3, 4, 5, 6):
    ...     g.draw("yellow", t)
    >>> g.bag, g.hand(1)
    (50, [1, 2, 3, 4, 5, 6])
    """

    def __init__(self, players: Sequence[str] = ("red", "yellow")) -> None:
        super().__init__(players)
        self._hands: list[list[int]] = [[] for _ in self.players]
        self._holder: dict[int, int] = {}  # tile -> seat holding it
        self._drawn = False  # a draw has been made: the start draw is over
        self.starter: dict[int, int] | None = None  # seat -> tile of the start draw
        # Hands as they were before each accepted placement, so undo restores them too.
        self._before: list[tuple[tuple[int, ...], ...]] = []

    # ------------------------------------------------------------------ reading

    @property
    def bag(self) -> int:
        """The real count: every tile neither placed nor in a hand."""
        return TILE_COUNT - self.placed - len(self._holder)

    def hand(self, seat: int) -> list[int]:
        """The tiles seat ``seat`` holds, sorted."""
        return sorted(self._hands[seat])

    def holder(self, tile: int) -> int | None:
        """The seat holding ``tile``, or None."""
        return self._holder.get(tile)

    @property
    def start_draw_open(self) -> bool:
        """Whether the start draw may still be made: no draw and no placement yet."""
        return self.starter is None and not self._drawn and self.placed == 0

    def needs_draw(self, seat: int) -> bool:
        """Whether ``seat`` must draw before he may place: fewer than 6 tiles, bag not empty."""
        return len(self._hands[seat]) < HAND and self.bag > 0

    def next_draw(self) -> int | None:
        """The seat that should draw next, in seat order from the one on turn, or None."""
        if self.bag == 0 or self.is_over:
            return None
        n = len(self.players)
        for i in range(n):
            seat = (self.seat + i) % n
            if len(self._hands[seat]) < HAND:
                return seat
        return None

    def seat_for(self, colour: str) -> int:
        """The seat a ``draw`` by ``colour`` goes to. In the team game two seats share a
        colour: the one on turn if he needs a tile, else the first (from the turn) that does.
        ValueError for a colour not playing."""
        if colour not in self.players:
            raise ValueError(f"{colour!r} is not playing: the seats are {', '.join(self.players)}")
        n = len(self.players)
        order = [(self.seat + i) % n for i in range(n)]
        seats = [s for s in order if self.players[s] == colour]
        needy = [s for s in seats if len(self._hands[s]) < HAND]
        return (needy or seats)[0]

    def must_fill(self) -> list[Fill]:
        """Every (tile, forced space) the player on turn could fill now, sorted."""
        if self.is_over:
            return []
        out = set()
        for tile in self._hands[self.seat]:
            for q, r in self.forced_spaces():
                for rot in range(6):
                    if self.is_legal(Placement(tile, q, r, rot)):
                        out.add(Fill(tile, q, r))
                        break
        return sorted(out, key=lambda f: (f.tile, f.q, f.r))

    # ------------------------------------------------------------------ what may be played

    def legal_placements(self, tile: int) -> list[Placement]:
        """As :meth:`Game.legal_placements`, for a tile in the hand of the player on turn only,
        and only into forced spaces while he can fill one."""
        if tile not in self._hands[self.seat] or self.needs_draw(self.seat):
            return []
        found = super().legal_placements(tile)
        if not self.free_move_used and self.must_fill():
            found = [p for p in found if self.is_forced_space(p.cell)]
        return found

    # ------------------------------------------------------------------ changing the state

    def start_draw(self, draws: Mapping[str, int] | Sequence[int]) -> None:
        """The start draw: one tile per seat (a mapping by colour, or a list in seat order for
        the team game); the highest opens. The tiles go back into the bag."""
        if self._drawn or self.placed:
            raise IllegalPlacement(STARTER, "the start draw comes before the first draw")
        if isinstance(draws, Mapping):
            if self.team:
                raise IllegalPlacement(
                    STARTER, "in the team game give the start draw as a list in seat order"
                )
            missing = [p for p in self.players if p not in draws]
            strangers = sorted(set(draws) - set(self.players))
            if missing or strangers:
                raise IllegalPlacement(
                    STARTER, "every player draws one tile: " + ", ".join(self.players)
                )
            tiles = [draws[p] for p in self.players]
        else:
            tiles = list(draws)
            if len(tiles) != len(self.players):
                raise IllegalPlacement(STARTER, f"{len(self.players)} seats, {len(tiles)} tiles")
        if len(set(tiles)) != len(tiles):
            raise IllegalPlacement(STARTER, "two players cannot draw the same tile")
        seat = max(range(len(tiles)), key=lambda i: tiles[i])
        self.seat_first(seat)
        self.starter = dict(enumerate(tiles))

    def draw(self, player: str | int, tile: int) -> int:
        """``player`` (a colour, or a seat number) takes ``tile`` from the bag; returns the
        seat. Raises :class:`IllegalPlacement` when the tile is not in the bag or the hand is
        full."""
        seat = player if isinstance(player, int) else self.seat_for(player)
        colour = self.players[seat]
        at = self.where_is(tile)
        if at is not None:
            raise IllegalPlacement(NOT_IN_BAG, f"tile {tile} already lies at ({at[0]}, {at[1]})")
        holder = self._holder.get(tile)
        if holder is not None:
            raise IllegalPlacement(
                NOT_IN_BAG, f"tile {tile} is already in {self.players[holder]}'s hand"
            )
        if len(self._hands[seat]) >= HAND:
            raise IllegalPlacement(HAND_FULL, f"{colour} already holds {HAND} tiles")
        self._hands[seat].append(tile)
        self._holder[tile] = seat
        self._drawn = True
        self._changed()  # the bag count decides the phase and the controlled cells
        return seat

    def play(self, placement: Placement) -> None:
        seat, tile = self.seat, placement.tile
        if not self.is_over and self.where_is(tile) is None and tile not in self._hands[seat]:
            held = self.hand(seat)
            raise IllegalPlacement(
                NOT_IN_HAND,
                f"tile {tile} is not in {self.turn}'s hand ("
                + (" ".join(map(str, held)) or "empty")
                + ")",
            )
        if not self.is_over and self.where_is(tile) is None and self.needs_draw(seat):
            raise IllegalPlacement(
                DRAW_FIRST,
                f"{self.turn} holds {len(self._hands[seat])} tiles: draw from the bag first",
            )
        self.check(placement)
        if not self.free_move_used and not self.is_forced_space(placement.cell):
            fills = self.must_fill()
            if fills:
                raise IllegalPlacement(FORCED_FIRST, _fill_reason(self.turn, fills))
        before = tuple(tuple(h) for h in self._hands)
        super().play(placement)
        self._before.append(before)
        self._hands[seat].remove(tile)
        del self._holder[tile]
        self._changed()

    def end_turn(self) -> None:
        fills = self.must_fill()
        if fills:
            raise IllegalPlacement(CAN_FILL, _fill_reason(self.turn, fills))
        super().end_turn()

    done = end_turn

    def undo(self) -> Placement:
        """Take back the last placement; the hands return to what they were before it (a
        replacement drawn since goes back into the bag)."""
        taken = super().undo()
        before = self._before.pop()
        self._hands = [list(h) for h in before]
        self._holder = {t: s for s, h in enumerate(self._hands) for t in h}
        self._changed()
        return taken


def _fill_reason(player: str, fills: list[Fill]) -> str:
    shown = ", ".join(f"tile {f.tile} on ({f.q}, {f.r})" for f in fills[:3])
    more = f" and {len(fills) - 3} more" if len(fills) > 3 else ""
    return f"{player} can fill a forced space: {shown}{more}"
