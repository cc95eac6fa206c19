"""The solo modes of the rule book: Tantrix Solitaire, the Rainbow puzzles and Tantrix Gobble.

Each is a small pure state machine over a :class:`~companion.tantrix.layout.Layout`; this module
holds them and their ``companion simulate`` front door (header ``{"game": "tantrix", "mode":
...}``). A refused event is reported in ``violations`` and changes nothing; a line that is not a
valid event raises :class:`~companion.scenario.MalformedInput` naming it.

Solitaire (``"mode": "solitaire"``, ``"target": "line" | "loop"``), rule book "4 - Tantrix
Solitaire": tiles are turned over one by one (``draw``) and laid (``place``) touching the table
with matching colours; "si vous piochez une tuile qui remplit un Espace Forcé, vous avez
obligation de la jouer à cet emplacement" (any of them if several); forced spaces facing three
sides of one colour are allowed. Solved: all 56 placed and their red forms one line (or loop).

Rainbow (``"mode": "rainbow"``, ``"puzzle": colour``), "3 - Rainbow puzzle": the tiles whose
back has that colour; green and yellow make one loop of their colour through all of them, white
one loop in some colour, blue and red fill a triangle of rows 4-3-2-1 / 5-4-3-2-1 with one line
of one colour through every tile. Events ``place``, ``lift``, ``end``, ``note``.

Gobble solo (``"mode": "gobble"``, ``"players": 1``), "2 - Tantrix Gobble": the game opens with
two tiles drawn ("en piocher 2 au hasard avant de les placer ensemble"), then laid together
anywhere, matching each other, either one first; after that one tile is drawn at a time, and
every later one touches two; a tile that cannot be laid goes on the discard pile (rule 4);
filling a space with three or more neighbours (a gobble) lets the top discard go back into the
bag or be played at once (rule 5). Solved: bag and discard pile empty.

Solitaire and Gobble solo also take ``undo`` (not in the rule book: the keypad needs it, since a
mistyped tile number or spot could not be corrected otherwise). It takes back the last accepted
step: a drawn tile goes back into the bag, a laid tile is lifted and is the drawn one again, a
discard or a return is reversed; with nothing to take back it is refused ("nothing to undo").
The slip and the ``undo`` both stay in the journal, and the fold replays them in order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.remark import english
from companion.scenario import MalformedInput, NumberedEvent, event_times
from companion.tantrix.events import integer, parse_placement
from companion.tantrix.game import IllegalPlacement, Placement
from companion.tantrix.geometry import Cell
from companion.tantrix.layout import Layout
from companion.tantrix.tiles import COLOURS, TILE_COUNT, TILES

# Kinds of refusal (as in ``violations``).
DRAW_FIRST = "draw first"
PLACE_FIRST = "place the drawn tile first"
NOT_DRAWN = "not the drawn tile"
NOT_IN_BAG = "not in the bag"
FORCED_SPACE = "forced space"
NOT_IN_PUZZLE = "not in this puzzle"
NOT_ON_TABLE = "not on the table"
FITS = "the tile fits"
NO_GOBBLE = "no gobble"
NOT_PLAYING = "not playing"
FINISHED = "finished"
NOTHING_TO_UNDO = "nothing to undo"

RED = "red"
TARGETS = ("line", "loop")
PUZZLES = ("green", "yellow", "white", "blue", "red")
#: The pyramid puzzles: rows of the triangle (blue 4-3-2-1, red 5-4-3-2-1).
PYRAMID_ROWS = {"blue": 4, "red": 5}


def _where(c: Cell) -> str:
    return f"({c[0]}, {c[1]})"


# ============================================================================ Solitaire


class Solitaire:
    """Tantrix Solitaire: all 56 tiles, one red line (or loop).

    >>> s = Solitaire("line")
    >>> s.draw(12); s.place(Placement(12, 0, 0, 0)); s.placed
    1
    """

    def __init__(self, target: str = "line") -> None:
        if target not in TARGETS:
            raise ValueError(f"the target is a line or a loop, not {target!r}")
        self.target = target
        self.table = Layout()
        self.drawn: int | None = None

    @property
    def placed(self) -> int:
        return self.table.placed

    def draw(self, tile: int) -> None:
        """The next tile is turned over."""
        if self.drawn is not None:
            raise IllegalPlacement(PLACE_FIRST, f"tile {self.drawn} is drawn: lay it first")
        at = self.table.where_is(tile)
        if at is not None:
            raise IllegalPlacement(NOT_IN_BAG, f"tile {tile} already lies at {_where(at)}")
        self.drawn = tile

    def fills(self) -> list[Cell]:
        """The forced spaces the drawn tile can fill: it must go into one of them."""
        if self.drawn is None:
            return []
        return [c for c in self.table.forced_spaces() if self.table.fits(self.drawn, c)]

    def place(self, p: Placement) -> None:
        if self.drawn is None:
            raise IllegalPlacement(DRAW_FIRST, "turn the next tile over first")
        if p.tile != self.drawn:
            raise IllegalPlacement(NOT_DRAWN, f"tile {self.drawn} is the one drawn, not {p.tile}")
        self.table.check(p)
        fills = self.fills()
        if fills and p.cell not in fills:
            spots = ", ".join(_where(c) for c in fills)
            raise IllegalPlacement(
                FORCED_SPACE, f"tile {p.tile} fills the forced space at {spots}: it must go there"
            )
        self.table.lay(p)
        self.drawn = None

    def undo(self) -> None:
        """Take back the last step, so a keypad slip can be corrected: a drawn tile goes back
        into the bag; otherwise the last tile laid is lifted and is the drawn one again. The
        journal keeps the slip and the ``undo`` both: the correction is visible, never hidden."""
        if self.drawn is not None:
            self.drawn = None
            return
        laid = self.table.placements
        if not laid:
            raise IllegalPlacement(NOTHING_TO_UNDO, "no tile is drawn or laid yet")
        self.drawn = self.table.lift(laid[-1].tile).tile

    @property
    def stuck(self) -> bool:
        """The drawn tile fits nowhere: the solitaire cannot go on."""
        return self.drawn is not None and not self.table.spots(self.drawn)

    def red(self) -> dict[str, int]:
        s = self.table.scores()[RED]
        tiles = self.table.showing(RED)
        best = s.line if self.target == "line" else s.loop
        return {"red_line": s.line, "red_loop": s.loop, "red_tiles": tiles, "short": tiles - best}

    @property
    def solved(self) -> bool:
        return self.placed == TILE_COUNT and self.red()["short"] == 0


# ============================================================================ Rainbow


def rainbow_tiles(puzzle: str) -> list[int]:
    """The tiles of a Rainbow puzzle: those whose back has that colour."""
    if puzzle not in PUZZLES:
        raise ValueError(f"the Rainbow puzzles are {', '.join(PUZZLES)}, not {puzzle!r}")
    return [n for n in sorted(TILES) if TILES[n].back == puzzle]


def is_triangle(cells: set[Cell], rows: int) -> bool:
    """Whether ``cells`` fill a triangle of rows ``rows``, ``rows - 1``, ..., 1 in any
    orientation: the same set as {q >= 0, r >= 0, q + r < rows} up to turns, mirror and shift."""
    want = {(q, r) for r in range(rows) for q in range(rows - r)}
    if len(cells) != len(want):
        return False

    def shifted(s: set[Cell]) -> frozenset[Cell]:
        lq, lr = min(q for q, _ in s), min(r for _, r in s)
        return frozenset((q - lq, r - lr) for q, r in s)

    shapes = set()
    shape = set(want)
    for mirror in (False, True):
        current = {(r, q) for q, r in shape} if mirror else set(shape)
        for _ in range(6):
            current = {(-r, q + r) for q, r in current}  # a sixth of a turn
            shapes.add(shifted(current))
    return shifted(cells) in shapes


class Rainbow:
    """One Rainbow puzzle being laid: tiles go on and come off freely.

    >>> Rainbow("green").size
    10
    """

    def __init__(self, puzzle: str) -> None:
        self.tiles = rainbow_tiles(puzzle)
        self.puzzle = puzzle
        self.table = Layout()

    @property
    def size(self) -> int:
        return len(self.tiles)

    def place(self, p: Placement) -> None:
        if p.tile not in self.tiles:
            raise IllegalPlacement(
                NOT_IN_PUZZLE,
                f"tile {p.tile} has a {TILES[p.tile].back} back: the {self.puzzle} puzzle uses "
                + " ".join(map(str, self.tiles)),
            )
        self.table.lay(p)

    def lift(self, tile: int) -> None:
        if self.table.where_is(tile) is None:
            raise IllegalPlacement(NOT_ON_TABLE, f"tile {tile} is not on the table")
        self.table.lift(tile)

    def verdict(self) -> tuple[bool, str | None, list[str]]:
        """``(solved, colour, problems)``: the colour of the loop or line that solves it."""
        problems: list[str] = []
        missing = [t for t in self.tiles if self.table.where_is(t) is None]
        if missing:
            problems.append("missing: tiles " + " ".join(map(str, missing)))
        scores = self.table.scores()
        n = self.size
        if self.puzzle in ("green", "yellow", "white"):
            colours = [self.puzzle] if self.puzzle != "white" else list(COLOURS)
            done = [c for c in colours if scores[c].loop == n]
            if not done:
                best = max(colours, key=lambda c: scores[c].loop)
                what = f"{self.puzzle} loop" if self.puzzle != "white" else "loop"
                problems.append(
                    f"no {what} through all {n} tiles (largest: {scores[best].loop})"
                )
            return not problems, (done[0] if done else None), problems
        cells = {p.cell for p in self.table.placements}
        rows = PYRAMID_ROWS[self.puzzle]
        if not missing and not is_triangle(cells, rows):
            shape = "-".join(str(k) for k in range(rows, 0, -1))
            problems.append(f"the tiles do not fill a triangle of rows {shape}")
        done = [c for c in COLOURS if scores[c].line == n]
        if not done:
            best = max(COLOURS, key=lambda c: scores[c].line)
            problems.append(f"no line through all {n} tiles (longest: {best} {scores[best].line})")
        return not problems, (done[0] if done else None), problems


# ============================================================================ Gobble solo


class GobbleSolo:
    """Tantrix Gobble for one player: place every tile, end with no discard.

    The game opens as rule 1 says ("en piocher 2 au hasard avant de les placer ensemble sur la
    table en faisant correspondre leurs couleurs"): two tiles are drawn, then both are laid,
    either one first, the second touching the first with matching colours. After that one tile
    is drawn at a time and laid (touching two) or discarded before the next.

    >>> g = GobbleSolo()
    >>> g.draw(1); g.draw(2); g.place(Placement(1, 0, 0, 0)); g.held, g.bag
    ([2], 54)
    """

    def __init__(self) -> None:
        self.table = Layout()
        #: The tiles drawn and neither laid nor discarded yet, in the order drawn: two during
        #: the opening, at most one after it.
        self.held: list[int] = []
        self.discard: list[int] = []
        self.gobbles = 0
        self.double_gobbles = 0
        self.reward = False  # a gobble was just filled: the top discard may go back or be played
        #: What each accepted step changed, for ``undo``: the state before it and the tile it
        #: laid (None). At most a few entries per tile, so bounded by the box, not by time.
        self._steps: list[tuple[tuple[int, ...], tuple[int, ...], int, int, bool, int | None]] = []

    @property
    def drawn(self) -> int | None:
        """The drawn tile the keypad offers next: the first one held (None when none is)."""
        return self.held[0] if self.held else None

    @property
    def opening(self) -> bool:
        """The two opening tiles (rule 1) are not both on the table yet."""
        return self.table.placed < 2

    @property
    def to_draw(self) -> int:
        """How many tiles may be drawn now: two at the start, then one whenever none is held."""
        if self.opening:
            return 2 - self.table.placed - len(self.held)
        return 0 if self.held else 1

    @property
    def bag(self) -> int:
        return TILE_COUNT - self.table.placed - len(self.discard) - len(self.held)

    def touching(self) -> int:
        """Neighbours a new tile needs: the first two go together, later ones touch two."""
        return 1 if self.table.placed < 2 else 2

    def _lay_first(self) -> IllegalPlacement:
        """Why nothing more may be drawn: a drawn tile is waiting to be laid."""
        if self.opening and len(self.held) == 2:
            a, b = self.held
            return IllegalPlacement(PLACE_FIRST, f"tiles {a} and {b} are drawn: lay them together")
        if self.opening:
            first = self.table.placements[0].tile
            return IllegalPlacement(
                PLACE_FIRST, f"tile {self.held[0]} is drawn: lay it beside tile {first}")
        return IllegalPlacement(PLACE_FIRST, f"tile {self.held[0]} is drawn: lay or discard it")

    def draw(self, tile: int) -> None:
        if self.to_draw == 0:
            raise self._lay_first()
        at = self.table.where_is(tile)
        if at is not None:
            raise IllegalPlacement(NOT_IN_BAG, f"tile {tile} already lies at {_where(at)}")
        if tile in self.discard:
            raise IllegalPlacement(NOT_IN_BAG, f"tile {tile} is on the discard pile")
        if tile in self.held:
            raise IllegalPlacement(NOT_IN_BAG, f"tile {tile} is drawn already")
        self._remember()
        self.reward = False
        self.held.append(tile)

    def place(self, p: Placement) -> None:
        from_pile = not self.held and self.reward and self.discard[-1:] == [p.tile]
        if not self.held and not from_pile:
            raise IllegalPlacement(DRAW_FIRST, "draw a tile first")
        if self.held and self.to_draw:  # the opening: one of its two tiles is still to draw
            raise IllegalPlacement(
                DRAW_FIRST, f"tile {self.held[0]} is drawn: draw the second tile, then lay the "
                "two together")
        if self.held and p.tile not in self.held:
            if len(self.held) == 2:
                a, b = self.held
                raise IllegalPlacement(NOT_DRAWN, f"tiles {a} and {b} are drawn, not {p.tile}")
            raise IllegalPlacement(NOT_DRAWN, f"tile {self.held[0]} is the one drawn, not {p.tile}")
        n = self.table.neighbours(p.cell)
        before = self._before(p.tile)
        self.table.lay(p, touching=self.touching())
        self._steps.append(before)
        if from_pile:
            self.discard.pop()
        else:
            self.held.remove(p.tile)
        self.reward = False
        if n >= 3:
            self.gobbles += 1
            self.double_gobbles += n >= 4
            self.reward = bool(self.discard)

    def discard_drawn(self) -> None:
        """Rule 4: the drawn tile goes on the discard pile, if it cannot be laid anywhere (no
        tile of the opening ever qualifies: the first goes anywhere, the second beside it)."""
        if not self.held:
            raise IllegalPlacement(DRAW_FIRST, "draw a tile first")
        tile = self.held[0]
        spots = self.table.spots(tile, touching=self.touching())
        if spots:
            p = spots[0]
            raise IllegalPlacement(
                FITS, f"tile {p.tile} fits at ({p.q}, {p.r}) at rotation {p.rot}: only a tile that "
                "cannot be laid is discarded"
            )
        self._remember()
        self.discard.append(self.held.pop(0))
        self.reward = False

    def return_top(self) -> None:
        if not self.reward:
            raise IllegalPlacement(NO_GOBBLE, "only right after filling a gobble")
        self._remember()
        self.discard.pop()
        self.reward = False

    def _before(
        self, laid: int | None
    ) -> tuple[tuple[int, ...], tuple[int, ...], int, int, bool, int | None]:
        return (tuple(self.held), tuple(self.discard), self.gobbles, self.double_gobbles,
                self.reward, laid)

    def _remember(self) -> None:
        self._steps.append(self._before(None))

    def undo(self) -> None:
        """Take back the last accepted step (draw, place, discard or return), so a keypad slip
        can be corrected; the journal keeps the slip and the ``undo`` both. The opening comes
        back one step at a time: the second tile laid is held again, then the first (both
        drawn, in the order they were), then the second draw goes back into the bag."""
        if not self._steps:
            raise IllegalPlacement(NOTHING_TO_UNDO, "no step to take back yet")
        held, discard, gobbles, double, reward, laid = self._steps.pop()
        if laid is not None:
            self.table.lift(laid)
        self.held, self.discard, self.reward = list(held), list(discard), reward
        self.gobbles, self.double_gobbles = gobbles, double

    @property
    def solved(self) -> bool:
        return self.bag == 0 and not self.discard and not self.held


# ============================================================================ Gobble race


class GobbleRace:
    """Tantrix Gobble for 2 to 6 players, as a race scorer: the deal, each gobble (and to whom
    the tiles went), the finishing order and the ranking. The placements themselves happen too
    fast to be typed; the table keeps the clock.

    >>> race = GobbleRace(["Ada", "Ben", "Chloé"])
    >>> race.dealt, race.left_over
    (18, 0)
    """

    def __init__(self, players: list[str]) -> None:
        if not 2 <= len(players) <= 6 or len(set(players)) != len(players):
            raise ValueError("a Gobble race is for 2 to 6 players with distinct names")
        self.players = list(players)
        #: Tiles each player gets once two are laid in the middle; the rest are not used.
        self.dealt, self.left_over = divmod(TILE_COUNT - 2, len(players))
        self.gobbles = {p: 0 for p in players}
        self.received = {p: 0 for p in players}
        self.finished: list[tuple[str, float]] = []
        self.table = Layout()  # nothing is laid through the scorer; kept for the common state

    def _known(self, player: str) -> None:
        if player not in self.players:
            raise IllegalPlacement(NOT_PLAYING, f"{player!r} is not playing")
        if any(p == player for p, _ in self.finished):
            raise IllegalPlacement(FINISHED, f"{player} has already finished")

    def gobble(self, player: str, to: list[str]) -> None:
        """``player`` filled a gobble (two targets: a double gobble) and gave a tile to each
        player in ``to``."""
        self._known(player)
        if not 1 <= len(to) <= 2:
            raise IllegalPlacement(NO_GOBBLE, "a gobble gives one tile, a double gobble two")
        for other in to:
            if other == player:
                raise IllegalPlacement(NO_GOBBLE, f"{player} gives his tile to an opponent")
            self._known(other)
        self.gobbles[player] += 1
        for other in to:
            self.received[other] += 1

    def finish(self, player: str, t: float) -> None:
        """``player`` announced "Terminé": every tile of his laid."""
        self._known(player)
        self.finished.append((player, t))

    def ranking(self) -> list[str]:
        """Finishing order, then the others in seat order."""
        done = [p for p, _ in self.finished]
        return done + [p for p in self.players if p not in done]

    @property
    def over(self) -> bool:
        return len(self.finished) >= len(self.players) - 1


# ============================================================================ simulate

Solo = Solitaire | Rainbow | GobbleSolo | GobbleRace


def _tile(event: Mapping[str, Any], line: int) -> int:
    return integer(event, "tile", 1, TILE_COUNT, line)


EVENTS = {
    "solitaire": ("draw", "place", "undo", "end", "note"),
    "rainbow": ("place", "lift", "end", "note"),
    "gobble": ("draw", "place", "discard", "return", "undo", "end", "note"),
    "race": ("gobble", "finish", "end", "note"),
}


def race_players(header: Mapping[str, Any]) -> list[str] | None:
    """The names of a Gobble race (``"players"``: a list of 2-6 names), None for solo."""
    players = header.get("players", 1)
    if isinstance(players, list):
        return [str(p) for p in players]
    return None


def submode(mode: str, header: Mapping[str, Any]) -> str:
    """``"race"`` for a Gobble header with a list of players, else ``mode``."""
    return "race" if mode == "gobble" and race_players(header) is not None else mode


def make(mode: str, header: Mapping[str, Any], line: int) -> Solo:
    """The solo game a header describes, or MalformedInput."""
    if mode == "solitaire":
        target = header.get("target", "line")
        if target not in TARGETS:
            raise MalformedInput(f'"target" is "line" or "loop", got {target!r}', line)
        return Solitaire(target)
    if mode == "rainbow":
        puzzle = header.get("puzzle")
        if puzzle not in PUZZLES:
            raise MalformedInput(f'"puzzle" is one of {", ".join(PUZZLES)}, got {puzzle!r}', line)
        return Rainbow(str(puzzle))
    names = race_players(header)
    if names is not None:
        try:
            return GobbleRace(names)
        except ValueError as exc:
            raise MalformedInput(str(exc), line) from None
    players = header.get("players", 1)
    if players != 1:
        raise MalformedInput(
            f'Gobble: "players": 1 (solo) or a list of 2 to 6 names, got {players!r}', line
        )
    return GobbleSolo()


def check_event(mode: str, event: Mapping[str, Any], line: int) -> str:
    """The event's kind once it is well formed (MalformedInput otherwise)."""
    kind = event.get("ev")
    known = EVENTS[mode]
    if kind not in known:
        raise MalformedInput(
            f"unknown event {kind!r}: a Tantrix {mode} event is one of {', '.join(known)}", line
        )
    if kind == "place":
        parse_placement(event, line)
    elif kind in ("draw", "lift"):
        _tile(event, line)
    elif kind in ("gobble", "finish"):
        if not isinstance(event.get("player"), str):
            raise MalformedInput(f'a {kind} event needs "player", a name', line)
        to = event.get("to")
        if kind == "gobble" and not (
            isinstance(to, str) or (isinstance(to, list) and all(isinstance(x, str) for x in to))
        ):
            raise MalformedInput('a gobble needs "to": the name (or two names) given a tile', line)
    return str(kind)


def apply_event(
    game: Solo, event: Mapping[str, Any], line: int = 0, t: float = 0.0
) -> IllegalPlacement | None:
    """Play one event; return the refusal (the game then unchanged) or None."""
    kind = event.get("ev")
    try:
        if isinstance(game, GobbleRace):
            if kind == "gobble":
                to = event["to"]
                game.gobble(str(event["player"]), [to] if isinstance(to, str) else list(to))
            elif kind == "finish":
                game.finish(str(event["player"]), t)
            return None
        if kind == "place":
            game.place(parse_placement(event, line))
        elif kind == "draw" and not isinstance(game, Rainbow):
            game.draw(_tile(event, line))
        elif kind == "lift" and isinstance(game, Rainbow):
            game.lift(_tile(event, line))
        elif kind == "discard" and isinstance(game, GobbleSolo):
            game.discard_drawn()
        elif kind == "return" and isinstance(game, GobbleSolo):
            game.return_top()
        elif kind == "undo" and isinstance(game, (Solitaire, GobbleSolo)):
            game.undo()
    except IllegalPlacement as refused:
        return refused
    return None


def _laid(table: Layout) -> list[dict[str, Any]]:
    return [
        {"tile": p.tile, "q": p.q, "r": p.r, "rot": p.rot, "sides": TILES[p.tile].letters(p.rot)}
        for p in table.placements
    ]


def state(game: Solo) -> dict[str, Any]:
    """The output fields of a solo game as it stands (violations aside)."""
    table = game.table
    if isinstance(game, GobbleRace):
        return {
            "game": "tantrix", "mode": "gobble", "race": True, "players": list(game.players),
            "dealt": game.dealt, "left_over": game.left_over, "gobbles": dict(game.gobbles),
            "received": dict(game.received),
            "finished": [{"player": p, "t": t} for p, t in game.finished],
            "ranking": game.ranking(), "winner": game.finished[0][0] if game.finished else None,
            "over": game.over, "placed": 0, "bag": 0, "forced": [], "tiles": [],
            "phase": "race", "controlled": [], "turn": "race", "scores": {}, "solved": False,
        }
    out: dict[str, Any] = {
        "game": "tantrix",
        "placed": table.placed,
        "forced": [[q, r] for q, r in table.forced_spaces()],
        "tiles": _laid(table),
    }
    if isinstance(game, Solitaire):
        out.update(mode="solitaire", target=game.target, drawn=game.drawn, stuck=game.stuck)
        out["must_fill"] = [[q, r] for q, r in game.fills()]
        out.update(game.red())
        out["bag"] = TILE_COUNT - table.placed - (game.drawn is not None)
        out["solved"] = game.solved
        out["over"] = game.solved or game.stuck
    elif isinstance(game, Rainbow):
        solved, colour, problems = game.verdict()
        out.update(mode="rainbow", puzzle=game.puzzle, size=game.size, puzzle_tiles=game.tiles)
        out.update(solved=solved, colour=colour, problems=problems, over=solved, bag=0)
    else:
        out.update(mode="gobble", players=1, drawn=game.drawn, held=list(game.held), bag=game.bag)
        out["winner"] = None
        out.update(discard=list(game.discard), gobbles=game.gobbles)
        out.update(double_gobbles=game.double_gobbles, reward=game.reward)
        out["solved"] = game.solved
        out["over"] = game.bag == 0 and not game.held
    scores = table.scores()
    out.update(phase=out["mode"], controlled=[], turn="solo", winner=None)
    out["scores"] = {c: scores[c].as_dict() for c in scored_colours(out)}
    return out


def scored_colours(state: Mapping[str, Any]) -> list[str]:
    """The colours a solo mode scores (for the replay's chains and chart): red in Solitaire,
    the puzzle's colour (or, for white, the solving one) in Rainbow, none in Gobble."""
    if state["mode"] == "solitaire":
        return [RED]
    if state["mode"] == "rainbow":
        colour = state.get("colour") or state["puzzle"]
        return [colour] if colour in COLOURS else list(COLOURS)
    return []


def replay(
    mode: str, header: Mapping[str, Any], events: list[NumberedEvent]
) -> tuple[Solo, dict[str, Any]]:
    """Feed a solo scenario through its game; return it with the output object."""
    header_line = events[0][0] - 1 if events else 1
    game = make(mode, header, header_line)
    times = event_times(events, required=False)
    violations: list[dict[str, Any]] = []
    ended = False
    sub = submode(mode, header)
    for (line, event), t in zip(events, times, strict=True):
        kind = check_event(sub, event, line)
        if ended:
            continue
        refused = apply_event(game, event, line, t)
        if refused is not None:
            violations.append(
                {"t": t, "player": str(event.get("player", "solo")), "kind": refused.kind,
                 "detail": refused.detail, "line": line}
            )
        ended = kind == "end"
    out = state(game)
    out["ended"] = ended
    out["violations"] = violations
    return game, out


def simulate(mode: str, header: Mapping[str, Any], events: list[NumberedEvent]) -> dict[str, Any]:
    return replay(mode, header, events)[1]


def summary(result: Mapping[str, Any], _: Callable[[str], str] = english) -> str:
    """A solo mode's output as text a person reads (in English unless the shell gives its
    gettext ``_``: the rules never import gettext)."""
    mode = result["mode"]
    out: list[str] = []
    if result.get("race"):
        out.append(_("Tantrix Gobble race: {n} players, {dealt} tiles each").format(
            n=len(result["players"]), dealt=result["dealt"]))
        for i, p in enumerate(result["ranking"]):
            done = next((f for f in result["finished"] if f["player"] == p), None)
            when = (_("finished at {t:.1f} s").format(t=done["t"]) if done
                    else _("playing"))
            out.append(_("  {rank}. {player}: {when}, {n} gobbles").format(
                rank=i + 1, player=p, when=when, n=result["gobbles"][p]))
    elif mode == "solitaire":
        out.append(
            _("Tantrix Solitaire ({target}): {placed}/56 placed; red line {line}, loop {loop}, "
              "{tiles} red tiles").format(
                target=result["target"], placed=result["placed"], line=result["red_line"],
                loop=result["red_loop"], tiles=result["red_tiles"])
        )
        if result["solved"]:
            out.append(_("SOLVED"))
        elif result["stuck"]:
            out.append(_("stuck: tile {tile} fits nowhere").format(tile=result["drawn"]))
        else:
            out.append(_("{n} red tiles off the {target}").format(
                n=result["short"], target=result["target"]))
    elif mode == "rainbow":
        out.append(_("Rainbow {puzzle} puzzle: {placed}/{size} laid").format(
            puzzle=result["puzzle"], placed=result["placed"], size=result["size"]))
        out.append(_("SOLVED ({colour})").format(colour=_(str(result.get("colour"))))
                   if result["solved"] else _("not solved"))
        out += [f"  {p}" for p in result["problems"]]
    else:
        out.append(
            _("Tantrix Gobble solo: {placed} placed, bag {bag}, discard {discard}, "
              "{gobbles} gobbles").format(
                placed=result["placed"], bag=result["bag"],
                discard=" ".join(map(str, result["discard"])) or _("empty"),
                gobbles=result["gobbles"])
        )
        out.append(_("SOLVED") if result["solved"] else _("not solved"))
    for v in result["violations"]:
        out.append(_("  refused line {line}: {kind}: {detail}").format(
            line=v["line"], kind=v["kind"], detail=v["detail"]))
    return "\n".join(out)
