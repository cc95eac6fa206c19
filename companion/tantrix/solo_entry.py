"""The keypad dialogue of the solo modes (Solitaire, Rainbow, Gobble), as a pure state machine.

Like :class:`companion.tantrix.entry.KeypadEntry` it plays what it accepts on the game it holds
(a twin of the table's) and returns a :class:`SoloScreen` whose ``actions`` the table journals:

* Solitaire and Gobble: type the number of the tile turned over, ``#`` (a ``draw``); the legal
  spots are offered at once (in Solitaire only the forced spaces it fills, when it fills one;
  Gobble opens with two tiles drawn, then laid together: after the first number the screen asks
  for the second, then offers the first tile anywhere and the second beside it; typing a drawn
  tile's number offers that one instead): ``A``/``B`` step through them, ``C`` turns the tile
  among the turns that fit, ``#`` lays it, ``*`` goes back (the tile stays drawn; ``#`` offers
  it again). ``D`` opens the menu: Gobble 1 discard the drawn tile, 2 return the top discard, 3
  play the top discard; every mode: stop; Solitaire and Gobble, last: undo the last step (a
  mistyped tile or spot; see ``solo.undo``).
* Rainbow: type a tile of the puzzle, ``#``, choose the spot as above. Menu: 1 lift a tile
  (its number, ``#``), 2 restart (every tile lifted), 3 next puzzle, 4 stop.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from companion.i18n import _
from companion.tantrix import messages as say
from companion.tantrix.cellnames import CellNames
from companion.tantrix.game import IllegalPlacement, Placement
from companion.tantrix.geometry import Cell, distance
from companion.tantrix.layout import Layout
from companion.tantrix.solo import (
    PUZZLES,
    GobbleRace,
    GobbleSolo,
    Rainbow,
    Solitaire,
    Solo,
    apply_event,
)
from companion.tantrix.tiles import TILE_COUNT, TILES

KEYS = frozenset("0123456789ABCD*#")
TILE, PLACE, MENU, LIFT = "tile", "place", "menu", "lift"


@dataclass(frozen=True)
class SoloScreen:
    """What to show and journal after a key."""

    mode: str
    prompt: str
    typed: str = ""
    tile: int | None = None
    colours: tuple[str, ...] | None = None
    spot: Cell | None = None
    rotation: int | None = None
    spots: tuple[Cell, ...] = ()
    spot_is_forced: bool = False
    around: tuple[dict[str, Any], ...] = ()
    facing: tuple[str | None, ...] = ()
    lines: tuple[str, ...] = ()
    cursor: int | None = None
    error: str | None = None
    actions: tuple[dict[str, Any], ...] = field(default_factory=tuple)
    refused: dict[str, Any] | None = None
    next_puzzle: str | None = None
    stop: bool = False


def menu_items(game: Solo) -> tuple[str, ...]:
    if isinstance(game, GobbleSolo):
        return say.GOBBLE_MENU
    if isinstance(game, Rainbow):
        return say.RAINBOW_MENU
    return say.SOLITAIRE_MENU  # Solitaire and the Gobble race: stop


class SoloEntry:
    """The keypad dialogue for one solo game."""

    def __init__(self, game: Solo) -> None:
        self.game = game
        self._mode = TILE
        self._typed = ""
        self._tile: int | None = None
        self._spots: list[Placement] = []  # one per (cell, rot) that is legal
        self._index = 0
        self._cursor = 0
        self._note = ""
        self._who: int | None = None  # Gobble race: the player whose key was pressed

    @property
    def screen(self) -> SoloScreen:
        return self._screen()

    def press(self, key: str) -> SoloScreen:
        if key not in KEYS:
            raise ValueError(f"not a keypad key: {key!r}")
        if self._mode == PLACE:
            return self._on_place(key)
        if self._mode == MENU:
            return self._on_menu(key)
        if isinstance(self.game, GobbleRace):
            return self._on_race(self.game, key)
        return self._on_tile(key)

    def _on_race(self, g: GobbleRace, key: str) -> SoloScreen:
        """A key per player: his key then a target's key is a gobble (a tile given to the
        target), his key then ``#`` his finish."""
        n = len(g.players)
        if key == "D":
            self._mode, self._cursor, self._who = MENU, 0, None
            return self._screen()
        if key == "*":
            self._who = None
            return self._screen()
        if key.isdigit() and 1 <= int(key) <= n:
            if self._who is None:
                self._who = int(key) - 1
                return self._screen()
            who, self._who = g.players[self._who], None
            return self._act({"ev": "gobble", "player": who, "to": g.players[int(key) - 1]})
        if key == "#" and self._who is not None:
            who, self._who = g.players[self._who], None
            return self._act({"ev": "finish", "player": who})
        return self._error(say.RACE_PROMPT.format(n=n))

    # ------------------------------------------------------------------ modes

    def _on_tile(self, key: str) -> SoloScreen:
        if key.isdigit():
            if len(self._typed) >= 2:  # never a number other than the one typed: start again
                typed, self._typed = self._typed + key, ""
                return self._error(say.TWO_DIGITS.format(typed=typed))
            self._typed += key
            return self._screen()
        if key == "*":
            self._typed = ""
            if self._mode == LIFT:
                self._mode = TILE
            return self._screen()
        if key == "D":
            self._mode, self._cursor, self._typed = MENU, 0, ""
            return self._screen()
        if key != "#":
            return self._error(say.TYPE_A_TILE)
        g = self.game
        drawn = g.drawn if isinstance(g, (Solitaire, GobbleSolo)) else None
        second = _second_wanted(g)  # the Gobble opening: the second tile's number is asked
        if second:
            drawn = None
        if not self._typed:
            if drawn is not None:
                return self._offer(drawn)
            return self._error(say.TYPE_A_TILE)
        number = int(self._typed)
        self._typed = ""
        if not 1 <= number <= TILE_COUNT:
            return self._error(f"there is no tile {number}: tiles are 1 to 56")
        if self._mode == LIFT:
            self._mode = TILE
            return self._act({"ev": "lift", "tile": number})
        if isinstance(g, Rainbow):
            if number not in g.tiles:
                return self._error(say.NOT_IN_PUZZLE.format(
                    tile=number, back=TILES[number].back, puzzle=g.puzzle,
                    tiles=" ".join(map(str, g.tiles))))
            if g.table.where_is(number) is not None:
                return self._error(say.LIFT_FIRST.format(tile=number))
            return self._offer(number)
        if isinstance(g, GobbleSolo) and number in g.held and not second:
            return self._offer(number)  # the Gobble opening: either drawn tile may go first
        if drawn is not None:
            return self._offer(drawn)
        screen = self._act({"ev": "draw", "tile": number})
        if screen.error is not None or _second_wanted(g):
            return screen  # refused, or the first of the opening's two: its partner is asked
        offered = self._offer(g.drawn if isinstance(g, GobbleSolo) and g.drawn else number)
        return replace(offered, actions=screen.actions, error=offered.error)

    def _on_place(self, key: str) -> SoloScreen:
        if key in "AB":
            cells = self._cells()
            here = self._spots[self._index].cell
            at = cells.index(here)
            nxt = cells[(at + (1 if key == "A" else -1)) % len(cells)]
            self._index = next(i for i, p in enumerate(self._spots) if p.cell == nxt)
            return self._screen()
        if key == "C":
            here = self._spots[self._index].cell
            same = [i for i, p in enumerate(self._spots) if p.cell == here]
            self._index = same[(same.index(self._index) + 1) % len(same)]
            return self._screen()
        if key == "*":
            self._mode, self._tile = TILE, None
            return self._screen()
        if key == "D":
            self._mode, self._cursor = MENU, 0
            return self._screen()
        if key == "#":
            p = self._spots[self._index]
            self._mode, self._tile = TILE, None
            return self._act(p.as_event())
        return self._error(say.PLACE_KEYS)

    def _on_menu(self, key: str) -> SoloScreen:
        items = menu_items(self.game)
        if key == "*":
            self._mode = TILE
            return self._screen()
        if key in "AB":
            self._cursor = (self._cursor + (1 if key == "A" else -1)) % len(items)
            return self._screen()
        if not (key == "#" or (key.isdigit() and 1 <= int(key) <= len(items))):
            return self._error(say.MENU_KEYS)
        choice = self._cursor if key == "#" else int(key) - 1
        item = items[choice]
        self._mode = TILE
        g = self.game
        if item == say.STOP:
            return replace(self._act({"ev": "end"}), stop=True)
        if item == say.DISCARD:
            return self._act({"ev": "discard"})
        if item == say.RETURN:
            return self._act({"ev": "return"})
        if item == say.UNDO:
            self._tile = None
            screen = self._act({"ev": "undo"})
            if screen.error is None:
                self._note = say.UNDONE
                return self._screen(actions=screen.actions)
            return screen
        if item == say.PLAY_TOP and isinstance(g, GobbleSolo):
            if not (g.reward and g.discard):
                return self._error(say.NO_REWARD)
            return self._offer(g.discard[-1])
        if item == say.LIFT:
            self._mode = LIFT
            return self._screen()
        if item == say.RESTART and isinstance(g, Rainbow):
            events = [{"ev": "lift", "tile": p.tile} for p in g.table.placements]
            for e in events:
                apply_event(g, e)
            self._note = say.RESTARTED
            return self._screen(actions=tuple(events))
        if item == say.NEXT and isinstance(g, Rainbow):
            nxt = PUZZLES[(PUZZLES.index(g.puzzle) + 1) % len(PUZZLES)]
            return replace(self._screen(), next_puzzle=nxt)
        return self._screen()

    # ------------------------------------------------------------------ helpers

    def _touching(self) -> int:
        return self.game.touching() if isinstance(self.game, GobbleSolo) else 1

    def _offer(self, tile: int) -> SoloScreen:
        g = self.game
        spots = g.table.spots(tile, touching=self._touching())
        if isinstance(g, Solitaire):
            fills = g.fills()
            if fills:
                spots = [p for p in spots if p.cell in fills]
        forced = set(g.table.forced_spaces())
        spots.sort(key=lambda p: (p.cell not in forced, p.q, p.r, p.rot))
        if not spots:
            self._mode = TILE
            return self._error(say.FITS_NOWHERE.format(tile=tile))
        self._spots, self._index, self._tile, self._mode = spots, 0, tile, PLACE
        return self._screen()

    def _cells(self) -> list[Cell]:
        return list(dict.fromkeys(p.cell for p in self._spots))

    def _act(self, event: dict[str, Any]) -> SoloScreen:
        refused = apply_event(self.game, event)
        if refused is not None:
            self._mode = TILE
            return replace(self._screen(), error=str(refused), refused=event)
        if event["ev"] == "place" and not isinstance(self.game, GobbleRace):
            table = self.game.table  # named as the map shows the table now the tile lies
            names = CellNames.of([p.cell for p in table.placements] + table.forced_spaces())
            cell = names.name(int(event["q"]), int(event["r"]))
            self._note = _(say.LAID).format(tile=event["tile"], cell=cell)
        return self._screen(actions=(event,))

    def _error(self, reason: str) -> SoloScreen:
        return replace(self._screen(), error=reason)

    def _screen(self, actions: tuple[dict[str, Any], ...] = ()) -> SoloScreen:
        g = self.game
        if self._mode == PLACE and self._tile is not None:
            p = self._spots[self._index]
            cells = self._cells()
            return SoloScreen(
                PLACE,
                _(say.PLACE_PROMPT).format(tile=p.tile, at=cells.index(p.cell) + 1, of=len(cells)),
                tile=p.tile,
                colours=TILES[p.tile].sides(p.rot),
                spot=p.cell,
                rotation=p.rot,
                spots=tuple(cells),
                spot_is_forced=p.cell in g.table.forced_spaces(),
                around=around(g.table, p),
                facing=tuple(g.table.side(_step(p.cell, s), (s + 3) % 6) for s in range(6)),
                actions=actions,
            )
        if self._mode == MENU:
            items = menu_items(g)
            lines = tuple(f"{i + 1} {item}" for i, item in enumerate(items))
            return SoloScreen(MENU, "menu", lines=lines, cursor=self._cursor, actions=actions)
        if self._mode == LIFT:
            return SoloScreen(LIFT, _(say.LIFT_PROMPT).format(typed=self._typed), typed=self._typed,
                              actions=actions)
        if isinstance(g, GobbleRace):
            n = len(g.players)
            prompt = (
                _(say.RACE_PROMPT).format(n=n) if self._who is None
                else _(say.RACE_WHO).format(player=g.players[self._who], n=n)
            )
            return SoloScreen(TILE, prompt, actions=actions)
        drawn = None if isinstance(g, (Rainbow, GobbleRace)) else g.drawn
        if isinstance(g, GobbleSolo) and _second_wanted(g):
            prompt = _(say.SECOND_PROMPT).format(tile=g.held[0], typed=self._typed)
        elif isinstance(g, GobbleSolo) and len(g.held) == 2:
            prompt = _(say.PAIR_PROMPT).format(tile=g.held[0], other=g.held[1])
        elif drawn is not None:
            prompt = _(say.DRAWN_PROMPT).format(tile=drawn)
        elif isinstance(g, Rainbow):
            prompt = _(say.RAINBOW_PROMPT).format(typed=self._typed)
        elif isinstance(g, GobbleSolo) and g.to_draw == 2:
            prompt = _(say.FIRST_PROMPT).format(typed=self._typed)
        else:
            prompt = _(say.TURN_OVER_PROMPT).format(typed=self._typed)
        if self._note and not self._typed:
            prompt = f"{self._note}. {prompt}"
        return SoloScreen(TILE, prompt, typed=self._typed, actions=actions)


def _second_wanted(game: Solo) -> bool:
    """The Gobble opening after its first draw: the keypad asks for the second tile's number
    (rule 1: two tiles are drawn, then laid together)."""
    return isinstance(game, GobbleSolo) and bool(game.held) and game.to_draw > 0


def _step(c: Cell, s: int) -> Cell:
    from companion.tantrix.geometry import neighbour

    return neighbour(c, s)


def around(table: Layout, p: Placement) -> tuple[dict[str, Any], ...]:
    """The small map: cells within two steps of the spot, the tile on it as turned."""
    forced = set(table.forced_spaces())
    out = []
    for dq in range(-2, 3):
        for dr in range(-2, 3):
            c = (p.q + dq, p.r + dr)
            if distance(c, p.cell) > 2:
                continue
            if c == p.cell:
                out.append({"q": c[0], "r": c[1], "tile": p.tile,
                            "sides": list(TILES[p.tile].sides(p.rot)), "forced": False,
                            "candidate": True})
                continue
            sides = [table.side(c, s) for s in range(6)]
            here = None if sides[0] is None else next(
                q.tile for q in table.placements if q.cell == c
            )
            out.append({"q": c[0], "r": c[1], "tile": here,
                        "sides": None if here is None else sides, "forced": c in forced,
                        "candidate": False})
    return tuple(out)


__all__ = ["SoloEntry", "SoloScreen", "around", "IllegalPlacement"]
