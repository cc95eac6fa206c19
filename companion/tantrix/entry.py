"""Entering Tantrix placements on a 16-key keypad, as a pure state machine.

Made for a player standing at the table who cannot read tile numbers once a tile lies face up:

* type the number printed on the back of the tile in hand (1-56), then ``#``;
* the screen shows a small map around a candidate spot and the tile's colours; the legal spots
  for that tile are offered, forced spaces first (often there is exactly one). ``A``/``B`` step
  through them, ``C`` turns the tile a sixth clockwise, ``#`` confirms, ``*`` cancels;
* ``D`` opens a menu: 1 end turn, 2 undo the last placement (a correction recorded as a new
  ``undo`` event, never an erase), 3 scores, 4 forced spaces;
* an illegal choice is refused with the reason on the screen (which side breaks the golden rule,
  which restriction) and ``beep`` set; the game is unchanged.

:class:`KeypadEntry` takes keys ``0``-``9``, ``A``-``D``, ``*``, ``#`` and returns a
:class:`Screen`: everything the OLED and buzzer need, plus ``action``, the event to journal when
a key changed the game (the machine has already applied it to the :class:`Game` it was given,
the way the journal will replay it). No hardware, no clock: the daemon wires real keys (or a
computer keyboard) and the display to it.

>>> from companion.tantrix.game import Game
>>> entry = KeypadEntry(Game(["red", "yellow"]))
>>> for k in "12#":
...     screen = entry.press(k)
>>> screen.mode, screen.spot, screen.rotation
('place', (0, 0), 0)
>>> entry.press("#").action
{'ev': 'place', 'tile': 12, 'q': 0, 'r': 0, 'rot': 0}
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion.i18n import _
from companion.tantrix import messages as say
from companion.tantrix.cellnames import CellNames
from companion.tantrix.game import Game, IllegalPlacement, Placement
from companion.tantrix.geometry import Cell, distance
from companion.tantrix.hands import HandsGame
from companion.tantrix.simulate import seat_names
from companion.tantrix.tiles import TILE_COUNT, TILES

KEYS = frozenset("0123456789ABCD*#")

# Modes
TILE = "tile"  # typing a tile number
PLACE = "place"  # choosing spot and rotation
MENU = "menu"
UNDO = "undo"  # confirming an undo
SCORES = "scores"
FORCED = "forced"

# With hands (a HandsGame): what the typed number means before it is a tile to place.
STARTER = "starter"  # a start-draw tile of seat ``drawing``
DRAW = "draw"  # a draw from the bag into the hand of seat ``drawing``

MENU_ITEMS = ("End turn", "Undo last placement", "Scores", "Forced spaces")


@dataclass(frozen=True)
class MapCell:
    """One cell of the small map around the candidate spot."""

    q: int
    r: int
    tile: int | None = None  # the tile lying there, None when empty
    sides: tuple[str, ...] | None = None  # its colours NE..NW as laid
    forced: bool = False  # an open forced space
    candidate: bool = False  # the spot being offered (sides = the tile in hand, as turned)


@dataclass(frozen=True)
class Screen:
    """What to show and do after a key press."""

    mode: str
    prompt: str
    stage: str = TILE  # what a typed number is: a tile to place, a draw or a start draw
    drawing: str | None = None  # with hands: the seat name that draws (or start-draws) next
    status: tuple[str, ...] = ()  # table screen: turn, bag and phase, forced spaces, scores
    typed: str = ""
    tile: int | None = None
    colours: tuple[str, ...] | None = None  # the tile in hand, sides NE..NW at `rotation`
    spot: Cell | None = None
    rotation: int | None = None
    spots: tuple[Cell, ...] = ()  # legal spots for the tile, forced spaces first
    spot_is_forced: bool = False
    legal: bool = False  # whether spot + rotation would be accepted now
    facing: tuple[str | None, ...] = ()  # colours the neighbours show towards the spot
    around: tuple[MapCell, ...] = ()  # the small map: cells within two steps of the spot
    lines: tuple[str, ...] = ()  # menu entries, scores, forced spaces
    cursor: int | None = None  # highlighted line in `lines`
    error: str | None = None
    beep: bool = False
    action: dict[str, object] | None = None  # the event to journal: it changed the game
    refused: dict[str, object] | None = None  # a placement the rules refused, as an event


class KeypadEntry:
    """The keypad dialogue for one :class:`Game`."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self._mode = TILE
        self._back = TILE  # where * returns from the menu
        self._typed = ""
        self._tile: int | None = None
        self._spots: list[Cell] = []
        self._rots: dict[Cell, list[int]] = {}
        self._index = 0
        self._rot = 0
        self._cursor = 0
        self._note = ""
        self._start: list[int] = []  # start-draw tiles typed so far, in seat order
        self._start_skipped = False

    # ------------------------------------------------------------------ public

    @property
    def screen(self) -> Screen:
        """The current screen (no error, no action)."""
        return self._screen()

    def press(self, key: str) -> Screen:
        """Handle one key and return the new screen."""
        if key not in KEYS:
            raise ValueError(f"not a keypad key: {key!r} (keys are 0-9, A-D, * and #)")
        handler = {
            TILE: self._on_tile,
            PLACE: self._on_place,
            MENU: self._on_menu,
            UNDO: self._on_undo,
            SCORES: self._on_info,
            FORCED: self._on_forced,
        }[self._mode]
        return handler(key)

    def refresh(self) -> Screen:
        """Recompute the offer after the game changed from elsewhere (e.g. a journal replay)."""
        if self._mode == PLACE and self._tile is not None:
            if not self._offer(self._tile):
                self._mode = TILE
        return self._screen()

    # ------------------------------------------------------------------ modes

    def _on_tile(self, key: str) -> Screen:
        self._note = ""
        if key.isdigit():
            if len(self._typed) >= 2:  # never a number other than the one typed: start again
                typed, self._typed = self._typed + key, ""
                return self._error(TOO_LONG.format(typed=typed))
            self._typed += key
            return self._screen()
        if key == "*":
            self._typed = ""
            return self._screen()
        if key == "D":
            return self._open_menu()
        if key == "#":
            if not self._typed:
                return self._error("type the number on the back of the tile, then #")
            number = int(self._typed)
            self._typed = ""
            g = self.game
            if isinstance(g, HandsGame) and self._stage(g) == STARTER and number == 0:
                self._start_skipped = True
                self._start = []
                self._note = _(say.START_SKIPPED).format(player=_(g.turn))
                return self._screen()
            if not 1 <= number <= TILE_COUNT:
                return self._error(f"there is no tile {number}: tiles are 1 to 56")
            if isinstance(g, HandsGame) and self._stage(g) != TILE:
                return self._drawn(g, number)
            at = self.game.where_is(number)
            if at is not None:
                # the engine's form, "(q, r)": the journal keeps it, the screen names the cell
                return self._error(f"tile {number} already lies at ({at[0]}, {at[1]})")
            if self.game.is_over:
                return self._error("the game is over")
            if not self._offer(number):
                if isinstance(g, HandsGame):
                    return self._error(_hands_refusal(g, number))
                return self._error(_nowhere(self.game, number))
            self._mode = PLACE
            return self._screen()
        return self._error("type a tile number first (D: menu)")

    def _on_place(self, key: str) -> Screen:
        if key in "AB":
            step = 1 if key == "A" else -1
            self._index = (self._index + step) % len(self._spots)
            self._rot = self._rots[self._spots[self._index]][0]
            return self._screen()
        if key == "C":
            self._rot = (self._rot + 1) % 6
            return self._screen()
        if key == "*":
            self._reset()
            return self._screen()
        if key == "D":
            return self._open_menu()
        if key == "#":
            assert self._tile is not None
            q, r = self._spots[self._index]
            placement = Placement(self._tile, q, r, self._rot)
            try:
                self.game.play(placement)
            except IllegalPlacement as exc:
                return self._error(str(exc), event=placement.as_event())
            self._reset()
            self._note = _(say.PLACED).format(tile=placement.tile, cell=self._names().name(q, r))
            return self._screen(action=placement.as_event())
        return self._error(say.PLACE_KEYS)  # the footer's words: "#:lay", "*" back

    def _open_menu(self) -> Screen:
        self._back = self._mode
        self._mode = MENU
        self._cursor = 0
        return self._screen()

    def _on_menu(self, key: str) -> Screen:
        if key == "*":
            self._mode = self._back
            return self._screen()
        if key in "AB":
            self._cursor = (self._cursor + (1 if key == "A" else -1)) % len(MENU_ITEMS)
            return self._screen()
        if key in "1234" or key == "#":
            choice = int(key) - 1 if key != "#" else self._cursor
            return self._choose(choice)
        return self._error("1-4 or A/B and #: choose, *: back")

    def _choose(self, choice: int) -> Screen:
        if choice == 0:
            player = self.game.turn
            try:
                self.game.end_turn()
            except IllegalPlacement as exc:
                self._mode = TILE
                return self._error(str(exc), event={"ev": "done"})
            self._reset()
            self._note = _(say.TURN_ENDED).format(player=_(player))
            return self._screen(action={"ev": "done"})
        if choice == 1:
            last = self.game.placements[-1:] if self.game.placements else []
            if not last:
                self._mode = MENU
                return self._error("nothing to undo")
            self._mode = UNDO
            return self._screen()
        if choice == 2:
            self._mode = SCORES
            return self._screen()
        self._mode = FORCED
        self._cursor = 0
        return self._screen()

    def _on_undo(self, key: str) -> Screen:
        if key == "#":
            taken = self.game.undo()
            self._reset()
            self._note = _(say.TAKEN_BACK).format(tile=taken.tile)
            return self._screen(action={"ev": "undo"})
        if key == "*":
            self._mode = MENU
            return self._screen()
        return self._error("#: undo, *: keep it")

    def _on_info(self, key: str) -> Screen:
        self._mode = self._back if self._back in (TILE, PLACE) else TILE
        if self._mode == PLACE:
            return self.refresh()
        return self._screen()

    def _on_forced(self, key: str) -> Screen:
        spaces = self.game.forced_spaces()
        if key in "AB" and spaces:
            self._cursor = (self._cursor + (1 if key == "A" else -1)) % len(spaces)
            return self._screen()
        return self._on_info(key)

    # ------------------------------------------------------------------ helpers

    def _offer(self, tile: int) -> bool:
        """Load the legal spots for ``tile``; False when there is none."""
        cells = self.game.legal_cells(tile)
        if not cells:
            return False
        keep = self._spots[self._index] if self._tile == tile and self._spots else None
        self._tile = tile
        self._rots = cells
        self._spots = list(cells)
        self._index = self._spots.index(keep) if keep in cells else 0
        if keep not in cells or self._rot not in cells[self._spots[self._index]]:
            self._rot = cells[self._spots[self._index]][0]
        return True

    def _reset(self) -> None:
        self._mode = TILE
        self._typed = ""
        self._tile = None
        self._spots = []
        self._rots = {}
        self._index = 0
        self._rot = 0

    def _error(self, reason: str, event: dict[str, object] | None = None) -> Screen:
        """A refusal on the screen; ``event`` is the input the rules refused (journaled as
        such), None for a keypad slip."""
        return replace(self._screen(), error=reason, beep=True, refused=event)

    # ------------------------------------------------------------------ hands

    def _stage(self, g: HandsGame) -> str:
        """What a typed number is now: a start-draw tile, a draw, or a tile to place."""
        if g.start_draw_open and not self._start_skipped:
            return STARTER
        return DRAW if g.next_draw() is not None else TILE

    def _drawing(self, g: HandsGame) -> str | None:
        """The seat (by name) whose tile is typed next in a start draw or draw."""
        stage = self._stage(g)
        if stage == STARTER:
            return seat_names(g.players)[len(self._start)]
        seat = g.next_draw()
        return None if stage == TILE or seat is None else seat_names(g.players)[seat]

    def _drawn(self, g: HandsGame, number: int) -> Screen:
        """A start-draw or draw tile typed: record it, or refuse it with the reason."""
        if self._stage(g) == STARTER:
            if number in self._start:
                return self._error(f"tile {number} was already drawn for the start")
            self._start.append(number)
            if len(self._start) < len(g.players):
                return self._screen()
            draws: dict[str, int] | list[int]
            draws = list(self._start) if g.team else dict(zip(g.players, self._start, strict=True))
            self._start = []
            event: dict[str, object] = {"ev": "starter", "draws": draws}
            try:
                g.start_draw(draws)
            except IllegalPlacement as exc:
                return self._error(str(exc), event=event)
            self._note = _(say.STARTS).format(player=seat_names(g.players)[g.seat])
            return self._screen(action=event)
        seat = g.next_draw()
        assert seat is not None
        colour = g.players[seat]
        event = {"ev": "draw", "player": colour, "tile": number}
        try:
            g.draw(colour, number)
        except IllegalPlacement as exc:
            return self._error(str(exc), event=event)
        self._note = _(say.DRAWN).format(player=seat_names(g.players)[seat], tile=number)
        return self._screen(action=event)

    def _names(self) -> CellNames:
        """The cells' names as the screen's map gives them now (its tiles and forced spaces):
        what a player reads; the journal keeps the exact coordinates."""
        g = self.game
        return CellNames.of([p.cell for p in g.placements] + g.forced_spaces())

    def _status(self) -> tuple[str, ...]:
        g = self.game
        forced = g.forced_spaces()
        names = self._names()
        extra: list[str] = []
        if isinstance(g, HandsGame):
            extra.append(say.HAND.format(tiles=" ".join(map(str, g.hand(g.seat)))))
            fills = g.must_fill()
            if fills:
                words = " ".join(f"{f.tile}@{names.name(f.q, f.r)}" for f in fills)
                extra.append(_(say.MUST_FILL).format(fills=words))
        phase = _(say.PHASES.get(g.phase, g.phase))
        lines = [
            _(say.STATUS_OVER if g.is_over else say.STATUS).format(
                player=_(g.turn), bag=g.bag, phase=phase),
            _(say.FORCED_COUNT).format(count=len(forced))
            + (" " + names.names(forced[:4]) if forced else ""),
        ]
        for player, s in g.scores().items():
            chain = (_("loop {n}").format(n=s.loop) if 2 * s.loop >= s.line and s.loop
                     else _("line {n}").format(n=s.line))
            lines.append(f"{player} {chain} = {s.points}")
        return tuple(lines + extra)

    def _map(self, centre: Cell, tile: int | None, rot: int) -> tuple[MapCell, ...]:
        g = self.game
        out: list[MapCell] = []
        for dq in range(-2, 3):
            for dr in range(-2, 3):
                c = (centre[0] + dq, centre[1] + dr)
                if distance(c, centre) > 2:
                    continue
                if c == centre and tile is not None:
                    out.append(MapCell(c[0], c[1], tile, TILES[tile].sides(rot), False, True))
                    continue
                here = g.tile_at(c)
                if here is None:
                    out.append(
                        MapCell(c[0], c[1], forced=g.is_forced_space(c), candidate=c == centre)
                    )
                else:
                    out.append(MapCell(c[0], c[1], here[0], TILES[here[0]].sides(here[1])))
        return tuple(out)

    def _screen(self, action: dict[str, object] | None = None) -> Screen:
        return replace(self._mode_screen(), status=self._status(), action=action)

    def _mode_screen(self) -> Screen:
        g = self.game
        if self._mode == TILE:
            prompt = (_(say.TILE_TYPED).format(typed=self._typed) if self._typed
                      else _(say.TILE_ASK))
            stage, drawing = TILE, None
            if isinstance(g, HandsGame):
                stage, drawing = self._stage(g), self._drawing(g)
                if stage == STARTER:
                    prompt = _(say.START_DRAW).format(player=drawing, typed=self._typed)
                elif stage == DRAW:
                    prompt = _(say.DRAW).format(player=drawing, typed=self._typed)
            if self._note and not self._typed:
                prompt = f"{self._note}. " + prompt
            return Screen(TILE, prompt, stage=stage, drawing=drawing, typed=self._typed)
        if self._mode == PLACE:
            assert self._tile is not None
            spot = self._spots[self._index]
            placement = Placement(self._tile, spot[0], spot[1], self._rot)
            forced = g.is_forced_space(spot)
            prompt = _(say.PLACE_FORCED if forced else say.PLACE_SPOT).format(
                tile=self._tile, at=self._index + 1, of=len(self._spots),
                cell=self._names().name(*spot), rot=self._rot,
            )
            return Screen(
                PLACE,
                prompt,
                tile=self._tile,
                colours=TILES[self._tile].sides(self._rot),
                spot=spot,
                rotation=self._rot,
                spots=tuple(self._spots),
                spot_is_forced=forced,
                legal=g.is_legal(placement),
                facing=tuple(g.facing(spot)),
                around=self._map(spot, self._tile, self._rot),
            )
        if self._mode == MENU:
            lines = tuple(f"{i + 1} {item}" for i, item in enumerate(MENU_ITEMS))
            # the lines name the entries in English: the screen says them (tantrix.screens)
            return Screen(MENU, _("Menu"), lines=lines, cursor=self._cursor)
        if self._mode == UNDO:
            last = g.placements[-1]
            prompt = _(say.UNDO_ASK).format(tile=last.tile, cell=self._names().name(*last.cell))
            return Screen(UNDO, prompt, tile=last.tile, spot=last.cell)
        if self._mode == SCORES:
            lines = tuple(
                _(say.SCORE_LINE).format(player=_(p), line=s.line, loop=s.loop, points=s.points)
                for p, s in g.scores().items()
            )
            return Screen(SCORES, _(say.SCORES_ASK), lines=lines)
        spaces = g.forced_spaces()
        names = self._names()
        lines = tuple(
            f"{names.name(q, r)}: " + "".join(_letter(c) for c in g.facing((q, r)))
            for q, r in spaces
        )
        if not spaces:
            return Screen(FORCED, _(say.NO_FORCED_ASK))
        spot = spaces[self._cursor % len(spaces)]
        return Screen(
            FORCED,
            _(say.FORCED_ASK).format(at=self._cursor % len(spaces) + 1, of=len(spaces)),
            spot=spot,
            facing=tuple(g.facing(spot)),
            around=self._map(spot, None, 0),
            lines=lines,
            cursor=self._cursor % len(spaces),
        )


def _letter(colour: str | None) -> str:
    return "-" if colour is None else colour[0].upper()


def _hands_refusal(g: HandsGame, number: int) -> str:
    """Why a typed tile cannot be placed now, with hands: not his, or a fill comes first."""
    if number not in g.hand(g.seat):
        tiles = " ".join(map(str, g.hand(g.seat))) or "empty"
        return say.NOT_IN_HAND.format(tile=number, player=g.turn, tiles=tiles)
    fills = g.must_fill()
    if fills and not g.free_move_used:
        shown = ", ".join(f"tile {f.tile} on ({f.q}, {f.r})" for f in fills[:2])
        return say.CANNOT_FILL.format(detail=f"{g.turn} can fill {shown}")
    return _nowhere(g, number)


#: A third digit: what was typed is cleared, so ``#`` never places a number not on screen.
TOO_LONG = "tile numbers have two digits at most: {typed} cleared, type the number again"


def _nowhere(g: Game, number: int) -> str:
    """Why tile ``number`` has no spot (in English, as journaled): after the free move only
    forced spaces may be filled, and with none open the turn is to be ended."""
    if not g.free_move_used:
        return f"tile {number} fits nowhere now"
    if g.forced_spaces():
        return f"tile {number} fits nowhere now; only forced spaces are open now"
    return (f"tile {number} fits nowhere now: the free move is made and no forced space "
            "is open; D then 1 ends the turn")
