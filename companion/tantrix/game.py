"""Tantrix Strategy (2 to 4 players) as a pure state machine.

The shape follows python-chess: a :class:`Game` knows the table, whose turn it is and the rules;
:meth:`Game.legal_placements` lists what may be played, :meth:`Game.play` plays or raises
:class:`IllegalPlacement` with a reason a player can read, :meth:`Game.undo` takes a placement
back. Nothing here reads a clock, a file or a device: the daemon and ``companion simulate`` feed
it placements and read its state.

The rules, from the French rule book (Tantrix Stratégie) as fixed by the scenario contract:

* The first tile goes anywhere. Every later tile goes on an empty cell touching at least one
  tile, must not already be on the table, and every side touching a tile must match its colour
  (the golden rule).
* A *forced space* is an empty cell with three or more neighbouring tiles.
* The bag: each player holds 6 tiles and draws after each placement, so before a placement the
  bag holds ``max(0, 56 - 6 * players - placed)``. While it is above 0 the three restrictions
  apply (phase ``"restricted"``); after that never (phase ``"final"``):

  1. a placement may not leave a forced space facing three sides of one colour;
  2. a placement may not touch an existing forced space, other than by filling it;
  3. a placement may not go on a controlled cell (see :meth:`Game.controlled_cells`).

  All three apply to forced fills too.
* A turn: any number of placements into forced spaces and at most one other placement, the
  free move; :meth:`Game.end_turn` passes the turn on. Whether a player could have filled a
  forced space from his hand is not checked here: this class does not see hands
  (:class:`companion.tantrix.hands.HandsGame` does, and enforces it).
* The team game: four seats of two colours, team-mates alternating; a team scores once.
* The game ends when all 56 tiles are on the table. Each player scores his colour's longest line,
  or twice its largest loop, whichever is more; the highest score wins.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from companion.tantrix.geometry import (
    CONTROL_KEY,
    LIMIT,
    STEP_KEY,
    Cell,
    cell,
    key,
)
from companion.tantrix.scoring import Score, score_all
from companion.tantrix.tiles import (
    COLOURS,
    EDGE_BITS,
    SIDE_COLOUR,
    SIDE_NAMES,
    TILE_COUNT,
)

HAND = 6
RESTRICTED = "restricted"
FINAL = "final"

# Kinds of refusal, as they appear in a scenario's ``violations``.
GOLDEN_RULE = "golden rule"
RESTRICTION_1 = "restriction 1"
RESTRICTION_2 = "restriction 2"
RESTRICTION_3 = "restriction 3"
NOT_TOUCHING = "not touching"
OCCUPIED = "occupied"
TILE_ALREADY_PLACED = "tile already placed"
SECOND_FREE_MOVE = "second free move"
GAME_OVER = "game over"
NOTHING_TO_UNDO = "nothing to undo"


def is_team_game(players: Sequence[str]) -> bool:
    """The rule book's team variant: four seats, two colours, team-mates alternating
    (``red, yellow, red, yellow``)."""
    return (
        len(players) == 4
        and players[0] == players[2]
        and players[1] == players[3]
        and players[0] != players[1]
    )


def _key(c: Cell) -> int:
    """The packed key of a queried cell; cells beyond the engine's range can hold nothing, so
    they map to a key no tile or space ever has (rather than wrapping onto a real cell)."""
    q, r = c
    return key(q, r) if -LIMIT <= q <= LIMIT and -LIMIT <= r <= LIMIT else OUTSIDE


#: A key far outside every cell a tile can reach (neighbours of valid cells included).
OUTSIDE = key(4 * LIMIT, 0)


def _where(c: Cell) -> str:
    return f"({c[0]}, {c[1]})"


@dataclass(frozen=True, order=True)
class Placement:
    """Tile ``tile`` laid on cell ``(q, r)`` turned ``rot`` sixths clockwise."""

    tile: int
    q: int
    r: int
    rot: int = 0

    def __post_init__(self) -> None:
        for name in ("tile", "q", "r", "rot"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"{name} must be an integer, got {value!r}")
        if not 1 <= self.tile <= TILE_COUNT:
            raise ValueError(f"there is no tile {self.tile}: tiles are numbered 1 to 56")
        if not 0 <= self.rot <= 5:
            raise ValueError(f"rot must be 0 to 5 sixths of a turn, got {self.rot}")
        if not (-LIMIT <= self.q <= LIMIT and -LIMIT <= self.r <= LIMIT):
            raise ValueError(f"cell ({self.q}, {self.r}) is outside +-{LIMIT}")

    @property
    def cell(self) -> Cell:
        return (self.q, self.r)

    def as_event(self) -> dict[str, object]:
        """The scenario/journal event that records this placement."""
        return {"ev": "place", "tile": self.tile, "q": self.q, "r": self.r, "rot": self.rot}

    def __str__(self) -> str:
        return f"tile {self.tile} at ({self.q}, {self.r}) rot {self.rot}"


class IllegalPlacement(ValueError):
    """A placement (or undo) the rules refuse. ``kind`` names the rule, ``detail`` says why.

    ``str(exc)`` reads as ``"restriction 2: (1, 1) touches the forced space at (1, 0)"``.
    """

    def __init__(self, kind: str, detail: str) -> None:
        self.kind = kind
        self.detail = detail
        super().__init__(f"{kind}: {detail}")


@dataclass(frozen=True)
class _Step:
    """What one accepted placement changed, so that :meth:`Game.undo` can take it back."""

    placement: Placement
    key: int
    code: int
    turn: int
    free_used: bool


class Game:
    """A game of Tantrix Strategy between 2 to 4 colours, in seat order (first seat starts).

    >>> g = Game(["red", "yellow"])
    >>> g.play(Placement(tile=1, q=0, r=0, rot=5))
    >>> g.end_turn()
    >>> g.turn, g.placed, g.bag, g.phase
    ('yellow', 1, 43, 'restricted')
    """

    def __init__(self, players: Sequence[str] = ("red", "yellow")) -> None:
        players = tuple(players)
        if not 2 <= len(players) <= 4:
            raise ValueError(f"Tantrix Strategy is for 2 to 4 players, got {len(players)}")
        for p in players:
            if p not in COLOURS:
                raise ValueError(f"{p!r} is not a colour: choose from {', '.join(COLOURS)}")
        self.team = is_team_game(players)
        if len(set(players)) != len(players) and not self.team:
            raise ValueError(
                "each player needs his own colour (or, for the team game, four seats of two "
                "colours with team-mates alternating)"
            )
        self.players: tuple[str, ...] = players
        #: The colours in play, each once, in seat order (a team scores its colour once).
        self.colours: tuple[str, ...] = tuple(dict.fromkeys(players))
        self._board: dict[int, int] = {}  # cell key -> tile code (tile * 6 + rot)
        self._where: dict[int, int] = {}  # tile number -> cell key
        # Empty cells touching at least one tile: how many tiles, and which colours face them
        # (two bits per side of the empty cell, mask marks the sides that face a tile).
        self._count: dict[int, int] = {}
        self._mask: dict[int, int] = {}
        self._value: dict[int, int] = {}
        self._forced: set[int] = set()
        self._history: list[_Step] = []
        self._turn = 0
        self._free_used = False
        self._controlled: dict[int, int] | None = None  # cache: cell key -> controlling space
        self._scores: dict[str, Score] | None = None  # cache

    # ------------------------------------------------------------------ reading the state

    @property
    def turn(self) -> str:
        """The colour of the player on turn."""
        return self.players[self._turn]

    @property
    def seat(self) -> int:
        """The seat on turn (0-based): in the team game two seats share a colour."""
        return self._turn

    def seat_first(self, seat: int) -> None:
        """The start draw decided who opens: play begins at ``seat`` and goes on in seat
        order. Only before the first placement (ValueError otherwise)."""
        if self._history:
            raise ValueError("the opening seat is decided before the first placement")
        if not 0 <= seat < len(self.players):
            raise ValueError(f"there is no seat {seat}")
        self._turn = seat
        self._free_used = False

    @property
    def placed(self) -> int:
        """Tiles on the table."""
        return len(self._board)

    @property
    def bag(self) -> int:
        """Tiles left in the bag: every player keeps 6 in hand while the bag lasts."""
        return max(0, TILE_COUNT - HAND * len(self.players) - len(self._board))

    @property
    def phase(self) -> str:
        """``"restricted"`` while the bag holds tiles, then ``"final"`` (no restrictions)."""
        return RESTRICTED if self.bag > 0 else FINAL

    @property
    def is_over(self) -> bool:
        """All 56 tiles are on the table."""
        return len(self._board) == TILE_COUNT

    @property
    def free_move_used(self) -> bool:
        """Whether the player on turn has already made his free move."""
        return self._free_used

    @property
    def placements(self) -> list[Placement]:
        """Accepted placements still on the table, in the order they were played."""
        return [s.placement for s in self._history]

    def __iter__(self) -> Iterator[Placement]:
        return iter(self.placements)

    def tile_at(self, c: Cell) -> tuple[int, int] | None:
        """``(tile, rot)`` on cell ``c``, or None when it is empty."""
        code = self._board.get(_key(c))
        return None if code is None else divmod(code, 6)

    def where_is(self, tile: int) -> Cell | None:
        """The cell holding ``tile``, or None when it is not on the table."""
        k = self._where.get(tile)
        return None if k is None else cell(k)

    def side_colour(self, c: Cell, side: int) -> str | None:
        """The colour the tile on ``c`` shows on ``side``, or None when ``c`` is empty."""
        code = self._board.get(_key(c))
        return None if code is None else COLOURS[SIDE_COLOUR[code][side]]

    def is_forced_space(self, c: Cell) -> bool:
        return _key(c) in self._forced

    def forced_spaces(self) -> list[Cell]:
        """Empty cells with three or more neighbouring tiles, sorted by q then r."""
        return sorted(cell(k) for k in self._forced)

    def controlled_cells(self) -> list[Cell]:
        """Cells restriction 3 forbids, sorted; empty in the final phase.

        From each forced space A, for each direction ``D[i]`` and each hand ``s`` in (+1, -1),
        walk ``S = A + D[i], A + 2 D[i], ...``: stop at a tile or when ``S + D[i + 2s]`` holds no
        tile; otherwise ``S`` is controlled; stop after it when ``S + D[i + s]`` holds no tile.
        These are the empty cells running along a straight side of tiles away from A, up to and
        including the first one that touches only the last tile of that side.
        """
        return sorted(cell(k) for k in self._controlled_map())

    def frontier(self) -> list[Cell]:
        """Empty cells touching at least one tile, sorted."""
        return sorted(cell(k) for k in self._count)

    def facing(self, c: Cell) -> list[str | None]:
        """For an empty cell: the colour each neighbouring tile shows towards it, side by side."""
        k = _key(c)
        out: list[str | None] = []
        for s in range(6):
            code = self._board.get(k + STEP_KEY[s])
            out.append(None if code is None else COLOURS[SIDE_COLOUR[code][(s + 3) % 6]])
        return out

    def scores(self) -> dict[str, Score]:
        """Each player's longest line and largest loop of his colour, and his points."""
        if self._scores is None:
            every = score_all(self._board)
            self._scores = {p: every[COLOURS.index(p)] for p in self.colours}
        return dict(self._scores)

    @property
    def winner(self) -> str | None:
        """The colour with most points once the game is over, ``"tie"``, or None before."""
        if not self.is_over:
            return None
        points = {p: s.points for p, s in self.scores().items()}
        best = max(points.values())
        top = [p for p in self.colours if points[p] == best]
        return top[0] if len(top) == 1 else "tie"

    # ------------------------------------------------------------------ what may be played

    def check(self, placement: Placement) -> None:
        """Raise :class:`IllegalPlacement` if ``placement`` may not be played now."""
        self._check(placement)

    def is_legal(self, placement: Placement) -> bool:
        try:
            self._check(placement)
        except IllegalPlacement:
            return False
        return True

    def legal_placements(self, tile: int) -> list[Placement]:
        """Every placement of ``tile`` the rules allow now: forced spaces first, then by cell
        and rotation. On an empty table the first tile may go anywhere; it is offered on
        (0, 0) in its six rotations."""
        if not 1 <= tile <= TILE_COUNT:
            raise ValueError(f"there is no tile {tile}: tiles are numbered 1 to 56")
        if self.is_over or tile in self._where:
            return []
        if not self._board:
            return [Placement(tile, 0, 0, rot) for rot in range(6)]
        restricted = self.bag > 0
        forced = self._forced
        controlled = self._controlled_map() if restricted else {}
        candidates = forced if self._free_used else self._count.keys()
        found: list[tuple[bool, int, int, int]] = []
        board = self._board
        base = tile * 6
        for k in candidates:
            if restricted:
                if k in controlled:
                    continue
                if any(k + d in forced for d in STEP_KEY):
                    continue
            mask = self._mask[k]
            value = self._value[k]
            for rot in range(6):
                code = base + rot
                if EDGE_BITS[code] & mask != value:
                    continue
                if restricted and self._makes_monochrome_space(k, code, board) is not None:
                    continue
                q, r = cell(k)
                found.append((k not in forced, q, r, rot))
        found.sort()
        return [Placement(tile, q, r, rot) for _, q, r, rot in found]

    def legal_cells(self, tile: int) -> dict[Cell, list[int]]:
        """The legal cells for ``tile`` with their legal rotations, forced spaces first."""
        out: dict[Cell, list[int]] = {}
        for p in self.legal_placements(tile):
            out.setdefault(p.cell, []).append(p.rot)
        return out

    # ------------------------------------------------------------------ changing the state

    def play(self, placement: Placement) -> None:
        """Lay a tile for the player on turn, or raise :class:`IllegalPlacement` (and change
        nothing)."""
        k, code, forced_fill = self._check(placement)
        self._history.append(_Step(placement, k, code, self._turn, self._free_used))
        if not forced_fill:
            self._free_used = True
        self._put(k, code)

    def end_turn(self) -> None:
        """The player on turn is done: the next seat plays (the ``done`` event)."""
        self._turn = (self._turn + 1) % len(self.players)
        self._free_used = False

    done = end_turn

    def undo(self) -> Placement:
        """Take back the last accepted placement and return it.

        The game goes back to exactly the moment before it: the tile leaves the table and the
        turn (and free move) are as they were then, even if turns were ended since. At the table
        this is a correction, recorded as a new ``undo`` event; nothing is erased from a journal.
        Raises :class:`IllegalPlacement` (kind ``"nothing to undo"``) on an empty table.
        """
        if not self._history:
            raise IllegalPlacement(NOTHING_TO_UNDO, "no tile has been placed")
        step = self._history.pop()
        self._take(step.key)
        self._turn = step.turn
        self._free_used = step.free_used
        return step.placement

    # ------------------------------------------------------------------ internals

    def _check(self, p: Placement) -> tuple[int, int, bool]:
        if self.is_over:
            raise IllegalPlacement(GAME_OVER, "all 56 tiles are already on the table")
        board = self._board
        if p.tile in self._where:
            at = cell(self._where[p.tile])
            raise IllegalPlacement(
                TILE_ALREADY_PLACED, f"tile {p.tile} already lies at {_where(at)}"
            )
        k = key(p.q, p.r)
        if k in board:
            raise IllegalPlacement(OCCUPIED, f"{_where(p.cell)} already holds tile {board[k] // 6}")
        if board and k not in self._count:
            raise IllegalPlacement(NOT_TOUCHING, f"{_where(p.cell)} touches no tile")
        forced_fill = k in self._forced
        if self._free_used and not forced_fill:
            raise IllegalPlacement(
                SECOND_FREE_MOVE,
                f"{self.turn} has had his free move; {_where(p.cell)} is not a forced space",
            )
        code = p.tile * 6 + p.rot
        if board:
            mask, value = self._mask[k], self._value[k]
            bits = EDGE_BITS[code]
            if bits & mask != value:
                s = next(s for s in range(6) if (bits ^ value) & mask & (3 << 2 * s))
                other = board[k + STEP_KEY[s]]
                raise IllegalPlacement(
                    GOLDEN_RULE,
                    f"side {SIDE_NAMES[s]} of tile {p.tile} is {COLOURS[SIDE_COLOUR[code][s]]} "
                    f"but tile {other // 6} there shows {COLOURS[SIDE_COLOUR[other][(s + 3) % 6]]}",
                )
        if self.bag > 0:
            bad = self._makes_monochrome_space(k, code, board)
            if bad is not None:
                space, colour = bad
                raise IllegalPlacement(
                    RESTRICTION_1,
                    f"the forced space at {_where(cell(space))} would face three {colour} sides",
                )
            for d in STEP_KEY:
                if k + d in self._forced:
                    raise IllegalPlacement(
                        RESTRICTION_2,
                        f"{_where(p.cell)} touches the forced space at "
                        f"{_where(cell(k + d))}, which must be filled first",
                    )
            by = self._controlled_map().get(k)
            if by is not None:
                raise IllegalPlacement(
                    RESTRICTION_3,
                    f"{_where(p.cell)} lies on a side controlled by the forced space at "
                    f"{_where(cell(by))}",
                )
        return k, code, forced_fill

    def _makes_monochrome_space(
        self, k: int, code: int, board: dict[int, int]
    ) -> tuple[int, str] | None:
        """Restriction 1: a neighbouring empty cell that this tile would turn into a forced space
        facing three sides of one colour, with that colour."""
        for s in range(6):
            n = k + STEP_KEY[s]
            if n in board:
                continue
            count = self._count.get(n, 0) + 1
            if count < 3:
                continue
            tally = [0, 0, 0, 0]
            tally[SIDE_COLOUR[code][s]] += 1
            mask, value = self._mask[n], self._value[n]
            for t in range(6):
                if mask >> (2 * t) & 3:
                    tally[value >> (2 * t) & 3] += 1
            for c in range(4):
                if tally[c] >= 3:
                    return n, COLOURS[c]
        return None

    def _put(self, k: int, code: int) -> None:
        board = self._board
        board[k] = code
        self._where[code // 6] = k
        if k in self._count:
            del self._count[k], self._mask[k], self._value[k]
        self._forced.discard(k)
        colours = SIDE_COLOUR[code]
        for s in range(6):
            n = k + STEP_KEY[s]
            if n in board:
                continue
            shift = 2 * ((s + 3) % 6)
            c = self._count.get(n, 0) + 1
            self._count[n] = c
            self._mask[n] = self._mask.get(n, 0) | (3 << shift)
            self._value[n] = self._value.get(n, 0) | (colours[s] << shift)
            if c >= 3:
                self._forced.add(n)
        self._changed()

    def _take(self, k: int) -> None:
        board = self._board
        code = board.pop(k)
        del self._where[code // 6]
        for s in range(6):
            n = k + STEP_KEY[s]
            if n in board:
                continue
            c = self._count[n] - 1
            if c == 0:
                del self._count[n], self._mask[n], self._value[n]
            else:
                shift = 2 * ((s + 3) % 6)
                self._count[n] = c
                self._mask[n] &= ~(3 << shift)
                self._value[n] &= ~(3 << shift)
            if c < 3:
                self._forced.discard(n)
        count = mask = value = 0
        for s in range(6):
            other = board.get(k + STEP_KEY[s])
            if other is not None:
                count += 1
                mask |= 3 << 2 * s
                value |= SIDE_COLOUR[other][(s + 3) % 6] << 2 * s
        if count:
            self._count[k], self._mask[k], self._value[k] = count, mask, value
            if count >= 3:
                self._forced.add(k)
        self._changed()

    def _changed(self) -> None:
        self._controlled = None
        self._scores = None

    def _controlled_map(self) -> dict[int, int]:
        """Controlled cell key -> the forced space (key) whose side controls it."""
        if self._controlled is None:
            self._controlled = self._walk_controlled() if self.bag > 0 else {}
        return self._controlled

    def _walk_controlled(self) -> dict[int, int]:
        board = self._board
        out: dict[int, int] = {}
        for a in sorted(self._forced):
            for i in range(6):
                step = CONTROL_KEY[i]
                for s in (1, -1):
                    beside = CONTROL_KEY[(i + 2 * s) % 6]
                    ahead = CONTROL_KEY[(i + s) % 6]
                    at = a
                    while True:
                        at += step
                        if at in board or at + beside not in board:
                            break
                        out.setdefault(at, a)
                        if at + ahead not in board:
                            break
        return out
