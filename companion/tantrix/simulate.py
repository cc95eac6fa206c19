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

from collections.abc import Mapping
from typing import Any

from companion.scenario import MalformedInput, NumberedEvent, event_times
from companion.tantrix.corrections import Ledger, parse_correction
from companion.tantrix.game import Game, IllegalPlacement, Placement
from companion.tantrix.geometry import LIMIT, Cell
from companion.tantrix.tiles import TILES

EVENTS = ("place", "done", "undo", "end", "note", "correct")


def _integer(event: Mapping[str, Any], name: str, low: int, high: int, line: int) -> int:
    value = event.get(name)
    if value is None:
        raise MalformedInput(f'a place event needs "{name}"', line)
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedInput(f'"{name}" must be an integer, got {value!r}', line)
    if not low <= value <= high:
        raise MalformedInput(f'"{name}" must be between {low} and {high}, got {value}', line)
    return value


def parse_placement(event: Mapping[str, Any], line: int) -> Placement:
    """The placement a ``place`` event describes, or MalformedInput naming the bad field."""
    return Placement(
        tile=_integer(event, "tile", 1, 56, line),
        q=_integer(event, "q", -LIMIT, LIMIT, line),
        r=_integer(event, "r", -LIMIT, LIMIT, line),
        rot=_integer(event, "rot", 0, 5, line),
    )


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
    return {
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


def replay(header: Mapping[str, Any], events: list[NumberedEvent]) -> tuple[Game, dict[str, Any]]:
    """Feed a scenario through a :class:`Game`; return it with the output object."""
    header_line = events[0][0] - 1 if events else 1
    game = Game(_players(header, header_line))
    times = event_times(events, required=False)
    violations: list[dict[str, Any]] = []
    ledger = Ledger(game.players)
    ended = False
    for (line, event), t in zip(events, times, strict=True):
        kind = event.get("ev")
        if kind is None:
            raise MalformedInput(f'every event needs "ev", one of {", ".join(EVENTS)}', line)
        if kind not in EVENTS:
            raise MalformedInput(
                f"unknown event {kind!r}: a Tantrix event is one of {', '.join(EVENTS)}", line
            )
        placement = parse_placement(event, line) if kind == "place" else None
        fix = parse_correction(event, line) if kind == "correct" else None
        if ended and fix is None:
            continue
        player = game.turn
        try:
            if fix is not None:
                game = ledger.correct(game, fix, t)
                ended = ended or ledger.result is not None
            elif placement is not None:
                game.play(placement)
            elif kind == "done":
                game.end_turn()
            elif kind == "undo":
                game.undo()
            elif kind == "end":
                ended = True
            if fix is None:
                ledger.accepted(str(kind), placement)
        except IllegalPlacement as exc:
            violations.append(
                {"t": t, "player": player, "kind": exc.kind, "detail": exc.detail, "line": line}
            )
    result = state(game)
    result["ended"] = ended
    result["violations"] = violations
    return game, ledger.finish(result)


def simulate(header: dict[str, Any], events: list[NumberedEvent]) -> dict[str, Any]:
    """Run a Tantrix scenario; return the contract's JSON object."""
    return replay(header, events)[1]


# ---------------------------------------------------------------------------- text


def board_map(
    tiles: list[tuple[int, Cell]], forced: list[Cell], controlled: list[Cell]
) -> list[str]:
    """The table as text: tile numbers on a hex grid, ``!!`` forced spaces, ``xx`` controlled
    cells, ``..`` other empty cells next to tiles (each row is offset half a cell, like the
    pointy-topped hexagons themselves)."""
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
        lines.append(f"{row:4d} " + "".join(chars).rstrip())
    return lines


def summary(result: dict[str, Any]) -> str:
    """The output object as text a person reads: state, scores, map, tiles, violations."""
    out = [
        f"Tantrix, {', '.join(result['players'])}: {result['placed']} tiles placed, "
        f"bag {result['bag']} ({result['phase']} phase)",
    ]
    if result["over"]:
        w = result["winner"]
        out.append("Game over: " + ("a tie" if w == "tie" else f"{w} wins"))
    else:
        free = " (free move played)" if result.get("free_move_used") else ""
        out.append(f"{result['turn']} to play{free}")
    out.append("Scores:")
    for player, s in result["scores"].items():
        out.append(
            f"  {player:<7} line {s['line']:2d}  loop {s['loop']:2d}  points {s['points']:2d}"
        )
    forced = ", ".join(f"({q}, {r})" for q, r in result["forced"]) or "none"
    out.append(f"Forced spaces: {forced}")
    if result["phase"] == "restricted":
        controlled = ", ".join(f"({q}, {r})" for q, r in result["controlled"]) or "none"
        out.append(f"Controlled cells: {controlled}")
    tiles = result.get("tiles", [])
    if tiles:
        out.append("Map (rows are r; !! forced, xx controlled):")
        out += board_map(
            [(t["tile"], (t["q"], t["r"])) for t in tiles],
            [(q, r) for q, r in result["forced"]],
            [(q, r) for q, r in result["controlled"]],
        )
        out.append("Tiles in play order (sides NE E SE SW W NW):")
        for t in tiles:
            out.append(
                f"  {t['tile']:2d} at ({t['q']}, {t['r']}) rot {t['rot']}  {' '.join(t['sides'])}"
            )
    if result["violations"]:
        out.append("Refused:")
        for v in result["violations"]:
            out.append(f"  t={v['t']:g} {v['player']}: {v['kind']}: {v['detail']}")
    else:
        out.append("Refused: nothing")
    return "\n".join(out)
