"""A Discovery puzzle at the table: the layout entered on the keypad, judged after every tile.

Made for someone at a table with tiles in hand, who never has to think in coordinates:

* type the number on the back of a tile (1 to n), then ``#``;
* the screen shows a small map with the tile on a candidate spot: the empty cells touching the
  tiles already laid (the first tile goes in the middle). Spots where the tile fits (every
  touching side matching) come first, in reading order; ``A``/``B`` step through them, ``C``
  turns the tile a sixth clockwise, ``#`` lays it, ``*`` cancels. Typing a tile that already
  lies offers its own cell first, so ``#``, ``C``, ``#`` turns it and ``A`` moves it;
* ``D`` opens a menu: 1 lift a tile (``A``/``B`` pick it on the map, ``#`` lifts), 2 restart
  (every tile off the table), 3 the next puzzle (n + 1 tiles, a new journal);
* the screen shows the loop colour to make (tile n's back), how many tiles lie and SOLVED, with
  the confirm sound, when the tiles close one loop of that colour.

A slip (no such tile, no number typed) is refused with the reason and an error beep, journaled
as a ``note``, and changes nothing. A tile may be laid where it clashes: the table mirrors what
lies on the real table, and the screen says which sides clash.

Journal: header ``{"game": "puzzle", "puzzle": "discovery", "n": N}``; events ``lay`` (tile, q,
r, rot), ``lift`` (tile), ``restart`` and ``note``, replayed by :mod:`companion.puzzle.simulate`
(so ``companion simulate`` reads a puzzle journal like any other).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from companion.clock import Clock
from companion.i18n import N_
from companion.keypad_table import KeypadTable
from companion.puzzle.rules import LARGEST, SMALLEST, DiscoveryPuzzle
from companion.puzzle.simulate import apply_event, laid, puzzle_size, replay, state
from companion.scenario import MalformedInput
from companion.tantrix.geometry import STEP, Cell, distance
from companion.tantrix.tiles import TILES

# Modes of the keypad dialogue.
TILE = "tile"  # typing a tile number
PLACE = "place"  # choosing spot and rotation
MENU = "menu"
LIFT = "lift"  # choosing a tile to lift
RESTART = "restart"  # confirming a restart

#: The D menu, in English in the view; the screen says each in the players' language.
MENU_ITEMS = (N_("Lift a tile"), N_("Restart"), N_("Next puzzle"))
DEFAULT_N = 3


class PuzzleTable(KeypadTable):
    """A Discovery puzzle being laid (or waiting for one), driven from the keypad.

    Example, on a fake clock::

        table = PuzzleTable(FakeClock(), "/tmp/journals", config=config)
        table.start_game(4)
        for key in "1##":
            table.feed(RawInput("key", key, True, clock.now()))
        table.view()["tiles"]   # tile 1 in the middle
    """

    GAME = "puzzle"

    def __init__(
        self,
        clock: Clock,
        journal_dir: str | Path,
        *,
        config: Mapping[str, Any],
        sound: Callable[[str], None] | None = None,
        on_record: Callable[[dict[str, Any]], None] | None = None,
    ) -> None:
        super().__init__(clock, journal_dir, config=config, sound=sound, on_record=on_record)
        self.game: DiscoveryPuzzle | None = None
        self._reset()

    # ------------------------------------------------------------------ games

    def start_game(
        self, n: int = DEFAULT_N, *, table: int | None = None, name: str | None = None
    ) -> Path:
        """Begin Discovery puzzle ``n`` (tiles 1 to n, n from 3 to 30) with a new journal.
        A bad n raises :class:`ValueError` and leaves the table as it was."""
        game = DiscoveryPuzzle(n)
        path = self._new_journal({"puzzle": "discovery", "n": n}, table, name)
        self.game = game
        self._reset()
        return path

    def resume(self, path: str | Path) -> list[str]:
        """Continue a puzzle from its journal (replayed from its first line); notes for the log.
        A journal that is not a puzzle raises :class:`ValueError` and leaves the table waiting."""
        self.game = None

        def fold(header: Mapping[str, Any], events: Any) -> DiscoveryPuzzle:
            try:
                return replay(header, list(events))[0]
            except MalformedInput as exc:
                raise ValueError(str(exc)) from None

        game, notes = self._refold(path, fold)
        self.game = game
        self._reset()
        self._record({"ev": "note", "text": self.resumed_text}, src="daemon")
        return list(notes)

    def _reset(self) -> None:
        self.mode = TILE
        self.typed = ""
        self.tile: int | None = None
        self.spots: list[Cell] = []
        self.index = 0
        self.rot = 0
        self.cursor = 0
        self.changed = True

    # ------------------------------------------------------------------ keys

    def _key(self, key: str) -> None:
        if self.game is None:
            return
        handler = {
            TILE: self._on_tile,
            PLACE: self._on_place,
            MENU: self._on_menu,
            LIFT: self._on_lift,
            RESTART: self._on_restart,
        }[self.mode]
        handler(self.game, key)

    def _slip(self, reason: str) -> None:
        """A key that makes no sense now: journal it as a note, show why, beep; no change."""
        self._record({"ev": "note", "text": f"keypad: {reason}"})
        self._refuse(reason)

    def _act(self, game: DiscoveryPuzzle, event: dict[str, Any]) -> None:
        """Journal an event (on disk first), apply it as the replay will, then sound."""
        self._record(event)
        refused = apply_event(game, event)
        if refused is not None:  # the dialogue only offers what the layout takes
            self._refuse(refused)
            return
        self._sound("confirm")

    def _on_tile(self, game: DiscoveryPuzzle, key: str) -> None:
        if key.isdigit():
            if len(self.typed) >= 2:  # never a number other than the one typed: start again
                typed, self.typed = self.typed + key, ""
                self._slip("tile numbers have two digits at most: "
                           f"{typed} cleared, type the number again")
                return
            self.typed += key
        elif key == "*":
            self.typed = ""
        elif key == "D":
            self.mode, self.cursor = MENU, 0
        elif key == "#":
            if not self.typed:
                self._slip("type the number on the back of a tile, then #")
                return
            number, self.typed = int(self.typed), ""
            if not 1 <= number <= game.n:
                self._slip(f"this puzzle uses tiles 1 to {game.n}, not {number}")
                return
            self._offer(game, number)
        else:
            self._slip("type a tile number first (D: menu)")

    def _offer(self, game: DiscoveryPuzzle, tile: int) -> None:
        """Load the spots for ``tile``: its own cell first if it lies, then the cells where it
        fits, then the other free cells touching the layout."""
        here = {p.tile: p for p in game.layout}
        own = here.get(tile)
        spots = candidate_spots(game, tile)
        self.tile = tile
        self.spots = ([own.cell] if own else []) + [c for c in spots if not own or c != own.cell]
        self.index = 0
        self.rot = own.rot if own else first_fit(game, tile, self.spots[0])
        self.mode = PLACE

    def _on_place(self, game: DiscoveryPuzzle, key: str) -> None:
        assert self.tile is not None
        if key in "AB":
            self.index = (self.index + (1 if key == "A" else -1)) % len(self.spots)
            self.rot = first_fit(game, self.tile, self.spots[self.index], self.rot)
        elif key == "C":
            self.rot = (self.rot + 1) % 6
        elif key == "*":
            self._reset()
        elif key == "D":
            self.mode, self.cursor = MENU, 0
        elif key == "#":
            q, r = self.spots[self.index]
            event = {"ev": "lay", "tile": self.tile, "q": q, "r": r, "rot": self.rot}
            self._reset()
            self._act(game, event)
        else:
            self._slip("A/B: next spot, C: rotate, #: lay, *: back")

    def _menu_items(self, game: DiscoveryPuzzle) -> list[str]:
        return list(MENU_ITEMS if game.n < LARGEST else MENU_ITEMS[:2])

    def _on_menu(self, game: DiscoveryPuzzle, key: str) -> None:
        items = self._menu_items(game)
        if key == "*":
            self._reset()
        elif key in "AB":
            self.cursor = (self.cursor + (1 if key == "A" else -1)) % len(items)
        elif key == "#" or (key.isdigit() and 1 <= int(key) <= len(items)):
            choice = self.cursor if key == "#" else int(key) - 1
            if choice == 0:
                if not game.layout:
                    self._slip("no tile lies on the table to lift")
                    return
                self.mode, self.cursor = LIFT, 0
            elif choice == 1:
                self.mode = RESTART
            else:
                self.start_game(game.n + 1, table=self.header.get("table"))
        else:
            self._slip(f"1-{len(items)} or A/B and #: choose, *: back")

    def _on_lift(self, game: DiscoveryPuzzle, key: str) -> None:
        tiles = game.layout
        if key in "AB":
            self.cursor = (self.cursor + (1 if key == "A" else -1)) % len(tiles)
        elif key == "#":
            tile = tiles[self.cursor % len(tiles)].tile
            self._reset()
            self._act(game, {"ev": "lift", "tile": tile})
        elif key == "*":
            self.mode = MENU
        else:
            self._slip("A/B: pick the tile, #: lift it, *: back")

    def _on_restart(self, game: DiscoveryPuzzle, key: str) -> None:
        if key == "#":
            self._reset()
            self._act(game, {"ev": "restart"})
        elif key == "*":
            self.mode = MENU
        else:
            self._slip("#: lift every tile, *: keep them")

    # ------------------------------------------------------------------ views

    def _game_view(self) -> dict[str, Any]:
        """What the screen shows: the layout and its verdict (``simulate``'s fields: ``n``,
        ``colour``, ``laid``, ``solved``, ``loop``, ``problems``), ``tiles`` with side colours
        for the maps, and the keypad dialogue under ``"entry"``."""
        game = self.game
        if game is None:
            return {"game": None}
        out = state(game)
        out["tiles"] = [dict(laid(p), sides=list(sides_of(p.tile, p.rot))) for p in game.layout]
        out.update(entry=self._entry_view(game), error=self.error, warning=self.warning)
        return out

    def _entry_view(self, game: DiscoveryPuzzle) -> dict[str, Any]:
        entry: dict[str, Any] = {"mode": self.mode, "typed": self.typed}
        if self.mode == PLACE and self.tile is not None:
            spot = self.spots[self.index]
            facing = facing_colours(game, spot, self.tile)
            colours = sides_of(self.tile, self.rot)
            entry.update(
                tile=self.tile,
                colours=list(colours),
                spot=list(spot),
                rotation=self.rot,
                spot_index=self.index,
                spot_count=len(self.spots),
                fits=all(f is None or f == c for f, c in zip(facing, colours, strict=True)),
                facing=list(facing),
                around=around(game, spot, self.tile, self.rot),
            )
        elif self.mode == MENU:
            entry.update(lines=self._menu_items(game), cursor=self.cursor)
        elif self.mode == LIFT and game.layout:
            pick = game.layout[self.cursor % len(game.layout)]
            entry.update(tile=pick.tile, spot=[pick.q, pick.r], cursor=self.cursor)
        return entry

    def status_line(self) -> str:
        """One line for systemd's STATUS=."""
        game = self.game
        if game is None:
            return "waiting for a puzzle"
        verdict = game.verdict()
        head = f"discovery {game.n} ({game.colour} loop)"
        if verdict.solved:
            return f"{head}: SOLVED"
        return f"{head}: {len(game.layout)}/{game.n} tiles laid"


# -- the layout, as a player sees it ------------------------------------------------------------


def sides_of(tile: int, rot: int) -> tuple[str, ...]:
    """A tile's colours on sides NE..NW turned ``rot`` sixths clockwise."""
    return TILES[tile].sides(rot)


def _others(game: DiscoveryPuzzle, tile: int) -> dict[Cell, tuple[str, ...]]:
    """The cells of every laid tile but ``tile``, with their colours as laid."""
    return {p.cell: sides_of(p.tile, p.rot) for p in game.layout if p.tile != tile}


def facing_colours(game: DiscoveryPuzzle, spot: Cell, tile: int) -> tuple[str | None, ...]:
    """The colours the other laid tiles show towards ``spot``, side by side (None: no tile)."""
    others = _others(game, tile)
    out: list[str | None] = []
    for side, (dq, dr) in enumerate(STEP):
        there = others.get((spot[0] + dq, spot[1] + dr))
        out.append(None if there is None else there[(side + 3) % 6])
    return tuple(out)


def fitting_turns(game: DiscoveryPuzzle, tile: int, spot: Cell) -> list[int]:
    """The turns of ``tile`` at ``spot`` whose every touching side matches."""
    facing = facing_colours(game, spot, tile)
    return [
        rot
        for rot in range(6)
        if all(f is None or f == c for f, c in zip(facing, sides_of(tile, rot), strict=True))
    ]


def first_fit(game: DiscoveryPuzzle, tile: int, spot: Cell, keep: int = 0) -> int:
    """The turn to offer at ``spot``: ``keep`` if it fits, else the first that fits, else
    ``keep``."""
    turns = fitting_turns(game, tile, spot)
    return keep if keep in turns or not turns else turns[0]


def candidate_spots(game: DiscoveryPuzzle, tile: int) -> list[Cell]:
    """The free cells touching the other laid tiles (the middle when none lies), those where
    ``tile`` fits first, each group in reading order (top row first, left to right)."""
    others = _others(game, tile)
    if not others:
        return [(0, 0)]
    free = {
        (q + dq, r + dr) for q, r in others for dq, dr in STEP if (q + dq, r + dr) not in others
    }
    return sorted(free, key=lambda c: (not fitting_turns(game, tile, c), c[1], 2 * c[0] + c[1]))


def around(game: DiscoveryPuzzle, spot: Cell, tile: int, rot: int) -> list[dict[str, Any]]:
    """The small map: every laid tile within two steps of ``spot``, and the tile in hand on it
    (the cells ``companion.tantrix.screens.draw_map`` draws)."""
    cells: list[dict[str, Any]] = [
        {"q": p.q, "r": p.r, "tile": p.tile, "sides": list(sides_of(p.tile, p.rot))}
        for p in game.layout
        if p.tile != tile and distance(p.cell, spot) <= 2
    ]
    cells.append(
        {
            "q": spot[0],
            "r": spot[1],
            "tile": tile,
            "sides": list(sides_of(tile, rot)),
            "candidate": True,
        }
    )
    return cells


def n_from_config(config: Mapping[str, Any]) -> int:
    """The puzzle size from an optional ``[puzzle] n = 4`` config section (3 by default)."""
    section = config.get("puzzle") or {}
    n = section.get("n", DEFAULT_N)
    try:
        return puzzle_size({"n": n})
    except MalformedInput:
        raise ValueError(f"puzzle.n must be {SMALLEST} to {LARGEST}, got {n!r}") from None


__all__: Sequence[str] = ("PuzzleTable", "candidate_spots", "n_from_config")


#: The controller the registry builds for this game (``PackageKind.make_table``).
TABLE = PuzzleTable


def start_from_config(table: PuzzleTable, config: Mapping[str, Any]) -> Path:
    """Start a new game with the options the configuration gives."""
    return table.start_game(n_from_config(config))


def configure_players(config: dict[str, Any], players: list[str]) -> None:
    """A Discovery puzzle is played alone: ``new-game --players`` has nothing to set."""
    raise ValueError("a Discovery puzzle is played alone: no --players")


def validate_config(config: Mapping[str, Any]) -> None:
    """Refuse a Discovery puzzle size outside the series."""
    from companion.config import ConfigError

    if not SMALLEST <= int((config.get("puzzle") or {}).get("n", DEFAULT_N)) <= LARGEST:
        raise ConfigError(f"'puzzle.n' must be {SMALLEST} to {LARGEST} (the Discovery series)")
