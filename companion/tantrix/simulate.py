"""Tantrix scenarios and journals for ``companion simulate``.

Header: ``{"game": "tantrix", "players": ["red", "yellow"]}``, 2 to 4 distinct colours in seat
order; the first seat moves first. Events (each may carry ``t``, seconds, echoed in violations;
fields this module does not know, such as a journal's ``seq``, ``prev``, ``hash``, ``wall`` or
``src``, are ignored):

======  ========================  ===========================================================
event   fields                    meaning
======  ========================  ===========================================================
place   tile, q, r, rot           the player on turn lays a tile (see :mod:`.game`)
done                              the player on turn ends his turn
undo                              take back the last accepted placement: a correction,
                                  recorded as a new event (never by erasing a line). The game
                                  returns to just before that placement, turn included
end                               stop here and report (later lines are still checked for form)
note    text (optional)           a remark in a journal (as in Tamsk journals); changes nothing
correct what, reason, by, ...     an arbiter's correction (:mod:`.corrections`): take back or
                                  move a mis-entered tile, fix whose turn it is, the result
======  ========================  ===========================================================

A refused placement (or an ``undo`` with nothing to undo) is reported in ``violations`` and
changes nothing. A line that is not a valid event at all raises
:class:`~companion.scenario.MalformedInput` naming it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.remark import english, english_in
from companion.scenario import MalformedInput, NumberedEvent, event_times
from companion.tantrix import solo
from companion.tantrix.cellnames import CellNames
from companion.tantrix.corrections import CORRECTION, RESULT, Ledger, parse_correction
from companion.tantrix.events import integer as _integer
from companion.tantrix.events import parse_placement
from companion.tantrix.game import Game, IllegalPlacement
from companion.tantrix.geometry import Cell
from companion.tantrix.hands import HandsGame
from companion.tantrix.tiles import COLOURS, TILES

EVENTS = ("place", "done", "undo", "end", "note", "correct")
#: Why a game with hands takes only the result correction.
HANDS_CORRECTION = ("with hands the table replays every draw: take a tile back with undo "
                    "(the arbiter's result correction still applies)")
#: Events of a game with hands (``"hands": true``) besides :data:`EVENTS`.
HAND_EVENTS = ("starter", "draw")
#: The header's ``mode``: Strategy (the default) and the solo modes.
MODES = ("strategy", "solitaire", "rainbow", "gobble")


def mode_of(header: Mapping[str, Any], line: int = 1) -> str:
    """The header's ``mode`` (``"strategy"`` when absent), or MalformedInput."""
    mode = header.get("mode", "strategy")
    if mode not in MODES:
        raise MalformedInput(f"unknown mode {mode!r}: the modes are {', '.join(MODES)}", line)
    return str(mode)


def make_game(header: Mapping[str, Any], line: int = 1) -> Game:
    """The Strategy game a header describes: with hands (``"hands": true``) or without."""
    players = _players(header, line)
    hands = header.get("hands", False)
    if not isinstance(hands, bool):
        raise MalformedInput(f'"hands" must be true or false, got {hands!r}', line)
    return HandsGame(players) if hands else Game(players)


def _tile(event: Mapping[str, Any], name: str, line: int) -> int:
    return _integer(event, name, 1, 56, line)


def parse_starter(event: Mapping[str, Any], line: int) -> dict[str, int] | list[int]:
    """The ``draws`` of a ``starter`` event: {colour: tile}, or a list of tiles in seat order
    (the team game, where two seats share a colour)."""
    draws = event.get("draws")
    if isinstance(draws, dict) and all(isinstance(k, str) for k in draws):
        for colour in draws:
            if colour not in COLOURS:
                raise MalformedInput(f"starter: {colour!r} is not a colour", line)
            _tile(draws, colour, line)
        return dict(draws)
    if isinstance(draws, list):
        for i in range(len(draws)):
            _tile({"tile": draws[i]}, "tile", line)
        return list(draws)
    raise MalformedInput(
        'a starter event needs "draws": {colour: tile} (or a list of tiles in seat order)', line
    )


def check_event(game: Game, event: Mapping[str, Any], line: int) -> str:
    """The event's kind, once its fields are well formed (MalformedInput otherwise)."""
    kind = event.get("ev")
    known = EVENTS + HAND_EVENTS if isinstance(game, HandsGame) else EVENTS
    if kind is None:
        raise MalformedInput(f'every event needs "ev", one of {", ".join(known)}', line)
    if kind in HAND_EVENTS and not isinstance(game, HandsGame):
        raise MalformedInput(f'a {kind} event needs "hands": true in the header', line)
    if kind not in known:
        raise MalformedInput(
            f"unknown event {kind!r}: a Tantrix event is one of {', '.join(known)}", line
        )
    if kind == "place":
        parse_placement(event, line)
    elif kind == "draw":
        player = event.get("player")
        if not isinstance(player, str) or player not in game.players:
            raise MalformedInput(
                f'a draw event needs "player", one of {", ".join(game.colours)}', line
            )
        _tile(event, "tile", line)
    elif kind == "starter":
        parse_starter(event, line)
    return str(kind)


def apply_event(game: Game, event: Mapping[str, Any], line: int = 0) -> IllegalPlacement | None:
    """Play one Strategy event on ``game`` exactly as ``companion simulate`` does: returns the
    refusal (the game then unchanged) or None; a malformed line raises MalformedInput. ``note``
    and ``end`` change nothing here (the caller decides what ``end`` means)."""
    kind = check_event(game, event, line)
    try:
        if kind == "place":
            game.play(parse_placement(event, line))
        elif kind == "done":
            game.end_turn()
        elif kind == "undo":
            game.undo()
        elif kind == "draw" and isinstance(game, HandsGame):
            game.draw(str(event["player"]), int(event["tile"]))
        elif kind == "starter" and isinstance(game, HandsGame):
            game.start_draw(parse_starter(event, line))
    except IllegalPlacement as refused:
        return refused
    return None


def play_event(
    game: Game, ledger: Ledger, event: Mapping[str, Any], line: int = 0
) -> tuple[Game, IllegalPlacement | None]:
    """One journal event through ``game`` and the corrections' ``ledger``, as :func:`replay`
    plays it: ``(the game to go on with, the refusal or None)``. A ``correct`` line may give a
    replayed game (a tile taken back or moved); a malformed line raises MalformedInput. The
    live table and the arbiter's page fold their games with this, so they agree with
    ``companion simulate``."""
    kind = check_event(game, event, line)
    if kind == "correct":
        fix = parse_correction(event, line)
        if isinstance(game, HandsGame) and fix["what"] != RESULT:
            return game, IllegalPlacement(CORRECTION, HANDS_CORRECTION)
        when = event.get("t")
        t = float(when) if isinstance(when, (int, float)) and not isinstance(when, bool) else 0.0
        try:
            return ledger.correct(game, fix, t), None
        except IllegalPlacement as exc:
            return game, exc
    refused = apply_event(game, event, line)
    if refused is None:
        ledger.accepted(kind, parse_placement(event, line) if kind == "place" else None)
    return game, refused


def who(game: Game, event: Mapping[str, Any]) -> str:
    """The player an event is charged to in ``violations``: the drawer for a draw, else the
    player on turn."""
    if event.get("ev") == "draw" and isinstance(event.get("player"), str):
        return str(event["player"])
    return game.turn


def _players(header: Mapping[str, Any], line: int) -> tuple[str, ...]:
    players = header.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise MalformedInput(
            'the header needs "players": a list of 2 to 4 colours, e.g. ["red", "yellow"]',
            line,
        )
    try:
        Game(players)
    except ValueError as exc:
        raise MalformedInput(f'header "players": {exc}', line) from None
    return tuple(players)


def _cells(cells: list[Cell]) -> list[list[int]]:
    return [[q, r] for q, r in cells]


def state(game: Game) -> dict[str, Any]:
    """The contract's output fields for a game as it stands (violations aside)."""
    out = {
        "game": "tantrix",
        "players": list(game.players),
        "placed": game.placed,
        "bag": game.bag,
        "phase": game.phase,
        "turn": game.turn,
        "free_move_used": game.free_move_used,
        "forced": _cells(game.forced_spaces()),
        "controlled": _cells(game.controlled_cells()),
        "scores": {p: s.as_dict() for p, s in game.scores().items()},
        "over": game.is_over,
        "winner": game.winner,
        "tiles": [
            {
                "tile": p.tile,
                "q": p.q,
                "r": p.r,
                "rot": p.rot,
                "sides": TILES[p.tile].letters(p.rot),
            }
            for p in game.placements
        ],
    }
    if game.team:
        out["team"] = True
    if isinstance(game, HandsGame):
        out.update(hands_state(game))
    return out


def hands_state(game: HandsGame) -> dict[str, Any]:
    """The fields a game with hands adds: ``hands`` ({colour: sorted tiles}; in the team game
    keyed ``"red 1"``, ``"red 2"``... by seat), ``must_fill`` (sorted ``[tile, q, r]`` the
    player on turn could fill now), ``seat`` on turn and the next seat to draw."""
    names = seat_names(game.players)
    nxt = game.next_draw()
    return {
        "hands": {names[s]: game.hand(s) for s in range(len(game.players))},
        "must_fill": [f.as_list() for f in game.must_fill()],
        "seat": game.seat,
        "starter": (
            None if game.starter is None else {names[s]: t for s, t in game.starter.items()}
        ),
        "next_draw": None if nxt is None else names[nxt],
    }


def seat_names(players: tuple[str, ...]) -> list[str]:
    """A name per seat: the colour, or ``"red 1"``, ``"red 2"`` when two seats share it."""
    if len(set(players)) == len(players):
        return list(players)
    seen: dict[str, int] = {}
    out = []
    for p in players:
        seen[p] = seen.get(p, 0) + 1
        out.append(f"{p} {seen[p]}")
    return out


def replay(header: Mapping[str, Any], events: list[NumberedEvent]) -> tuple[Game, dict[str, Any]]:
    """Feed a Strategy scenario through a :class:`Game` (or :class:`HandsGame`); return it
    with the output object."""
    header_line = events[0][0] - 1 if events else 1
    game = make_game(header, header_line)
    times = event_times(events, required=False)
    violations: list[dict[str, Any]] = []
    ledger = Ledger(game.players)
    ended = False
    for (line, event), t in zip(events, times, strict=True):
        kind = check_event(game, event, line)
        fix = parse_correction(event, line) if kind == "correct" else None
        if ended and fix is None:
            continue
        player = who(game, event)
        if fix is not None:
            try:
                if isinstance(game, HandsGame) and fix["what"] != RESULT:
                    raise IllegalPlacement(CORRECTION, HANDS_CORRECTION)
                game = ledger.correct(game, fix, t)
                ended = ended or ledger.result is not None
            except IllegalPlacement as exc:
                violations.append(
                    {"t": t, "player": player, "kind": exc.kind, "detail": exc.detail,
                     "line": line}
                )
            continue
        refused = apply_event(game, event, line)
        if refused is None:
            placement = parse_placement(event, line) if kind == "place" else None
            ledger.accepted(kind, placement)
        else:
            violations.append(
                {"t": t, "player": player, "kind": refused.kind, "detail": refused.detail,
                 "line": line}
            )
        ended = ended or kind == "end"
    result = state(game)
    result["ended"] = ended
    result["violations"] = violations
    return game, ledger.finish(result)


def simulate(header: dict[str, Any], events: list[NumberedEvent]) -> dict[str, Any]:
    """Run a Tantrix scenario (any mode); return the contract's JSON object."""
    header_line = events[0][0] - 1 if events else 1
    mode = mode_of(header, header_line)
    if mode == "strategy":
        return replay(header, events)[1]
    return solo.simulate(mode, header, events)


# ---------------------------------------------------------------------------- text


def board_map(
    tiles: list[tuple[int, Cell]],
    forced: list[Cell],
    controlled: list[Cell],
    names: CellNames | None = None,
) -> list[str]:
    """The table as text: tile numbers on a hex grid, ``!!`` forced spaces, ``xx`` controlled
    cells, ``..`` other empty cells next to tiles (each row is offset half a cell, like the
    pointy-topped hexagons themselves). Rows are headed by their axial ``r``, or with
    ``names`` by their letters under a line of column numbers, as a map names its cells."""
    marks: dict[Cell, str] = {}
    for number, c in tiles:
        marks[c] = f"{number:2d}"
        for dq, dr in ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)):
            marks.setdefault((c[0] + dq, c[1] + dr), "..")
    for c in controlled:
        marks[c] = "xx"
    for c in forced:
        marks[c] = "!!"
    if not marks:
        return []
    xs = [2 * q + r for q, r in marks]
    rs = [r for _, r in marks]
    lo_x = min(xs)
    lines = []
    for row in range(min(rs), max(rs) + 1):
        chars = [" "] * (2 * (max(xs) - lo_x) + 2)
        for (q, r), text in marks.items():
            if r == row:
                x = 2 * (2 * q + r - lo_x)
                chars[x : x + 2] = text
        head = f"{row:4d} " if names is None else f"{names.row(row):>4} "
        lines.append(head + "".join(chars).rstrip())
    if names is not None:
        lines.insert(0, "     " + _numbers(names, {names.column(q, r) for q, r in marks}, lo_x))
    return lines


def _numbers(names: CellNames, columns: set[int], lo_x: int) -> str:
    """The column numbers over a text map, each over the middle of its column's cells (a
    column's cells are half a cell apart from row to row)."""
    chars: list[str] = []
    for column in sorted(columns):
        middle = round(2 * (names.column_middle(column) - lo_x) + 1)
        text = str(column)
        start = max(len(chars) + (1 if chars else 0), middle - len(text) // 2)
        chars += [" "] * (start - len(chars)) + list(text)
    return "".join(chars)


def summary(
    result: dict[str, Any],
    _: Callable[[str], str] = english,
    pgettext: Callable[[str, str], str] = english_in,
) -> str:
    """The output object as text a person reads: state, scores, map, tiles, violations.

    English unless the shell gives its gettext functions (``_``, ``pgettext``): the rules never
    import gettext, but the words are marked here, where they are written.
    """
    if result.get("mode") in MODES[1:]:
        return solo.summary(result, _)
    phases = {"restricted": pgettext("phase", "restricted"), "final": pgettext("phase", "final")}
    out = [
        _("Tantrix, {players}: {placed} tiles placed, bag {bag} ({phase} phase)").format(
            players=", ".join(_(p) for p in result["players"]), placed=result["placed"],
            bag=result["bag"], phase=phases.get(result["phase"], result["phase"])),
    ]
    if result["over"]:
        w = result["winner"]
        out.append(_("Game over: a tie") if w == "tie"
                   else _("Game over: {player} wins").format(player=_(w)))
    else:
        out.append((_("{player} to play (free move played)") if result.get("free_move_used")
                    else _("{player} to play")).format(player=_(str(result.get("turn")))))
    out.append(_("Scores:"))
    for player, s in result["scores"].items():
        out.append(
            _("  {player:<7} line {line:2d}  loop {loop:2d}  points {points:2d}").format(
                player=_(player), line=s["line"], loop=s["loop"], points=s["points"])
        )
    forced = ", ".join(f"({q}, {r})" for q, r in result["forced"]) or _("none")
    out.append(_("Forced spaces: {cells}").format(cells=forced))
    if result["phase"] == "restricted":
        controlled = ", ".join(f"({q}, {r})" for q, r in result["controlled"]) or _("none")
        out.append(_("Controlled cells: {cells}").format(cells=controlled))
    tiles = result.get("tiles", [])
    if tiles:
        out.append(_("Map (rows are r; !! forced, xx controlled):"))
        out += board_map(
            [(t["tile"], (t["q"], t["r"])) for t in tiles],
            [(q, r) for q, r in result["forced"]],
            [(q, r) for q, r in result["controlled"]],
        )
        out.append(_("Tiles in play order (sides NE E SE SW W NW):"))
        for t in tiles:
            out.append(
                _("  {tile:2d} at ({q}, {r}) rot {rot}  {sides}").format(
                    tile=t["tile"], q=t["q"], r=t["r"], rot=t["rot"], sides=" ".join(t["sides"]))
            )
    if result["violations"]:
        out.append(_("Refused:"))
        for v in result["violations"]:
            out.append(f"  t={v['t']:g} {_(str(v.get('player')))}: {v['kind']}: {v['detail']}")
    else:
        out.append(_("Refused: nothing"))
    return "\n".join(out)
