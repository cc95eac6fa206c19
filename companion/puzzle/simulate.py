"""Discovery puzzle journals for ``companion simulate``.

Header: ``{"game": "puzzle", "puzzle": "discovery", "n": 4}`` (tiles 1 to n, n from 3 to 30).
Events (each may carry ``t``; fields this module does not know, such as a journal's ``seq``,
``hash``, ``wall`` or ``src``, are ignored):

=======  ======================  ==========================================================
event    fields                  meaning
=======  ======================  ==========================================================
lay      tile, q, r, rot         tile laid on cell (q, r) turned rot sixths clockwise; laying
                                 a tile that already lies moves (or turns) it
lift     tile                    the tile is taken off the table
restart                          every tile is taken off the table
note     text (optional)         a remark (a keypad slip, a resume); changes nothing
=======  ======================  ==========================================================

A puzzle layout is rearranged freely, so any order is fine; what cannot happen on a table is
refused, reported in ``violations`` and changes nothing: a tile outside 1..n, a cell another
tile holds, lifting a tile that is not laid. The layout is judged after the last event by
:func:`companion.puzzle.rules.check_discovery`. A line that is not a valid event at all raises
:class:`~companion.scenario.MalformedInput` naming it.

>>> result = simulate({"game": "puzzle", "n": 3}, [(2, {"ev": "lay", "tile": 1, "q": 0, "r": 0})])
>>> result["colour"], result["solved"], len(result["laid"])
('yellow', False, 1)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.puzzle.rules import LARGEST, SMALLEST, DiscoveryPuzzle
from companion.remark import english, english_in
from companion.scenario import MalformedInput, NumberedEvent, event_times
from companion.tantrix.game import Placement
from companion.tantrix.geometry import LIMIT
from companion.tantrix.tiles import TILES

EVENTS = ("lay", "lift", "restart", "note")
PUZZLES = ("discovery",)


def _integer(event: Mapping[str, Any], name: str, low: int, high: int, line: int) -> int:
    value = event.get(name)
    if value is None:
        raise MalformedInput(f'a {event.get("ev")} event needs "{name}"', line)
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedInput(f'"{name}" must be an integer, got {value!r}', line)
    if not low <= value <= high:
        raise MalformedInput(f'"{name}" must be between {low} and {high}, got {value}', line)
    return value


def puzzle_size(header: Mapping[str, Any], line: int = 1) -> int:
    """The n of a Discovery header, or MalformedInput saying what is wrong with it."""
    kind = header.get("puzzle", "discovery")
    if kind not in PUZZLES:
        raise MalformedInput(f"unknown puzzle {kind!r}: the puzzles are {', '.join(PUZZLES)}", line)
    n = header.get("n")
    if isinstance(n, bool) or not isinstance(n, int) or not SMALLEST <= n <= LARGEST:
        raise MalformedInput(
            f'the header needs "n", the number of tiles: {SMALLEST} to {LARGEST}, got {n!r}', line
        )
    return n


def check_event(event: Mapping[str, Any], line: int) -> None:
    """Raise MalformedInput unless ``event`` is a well-formed puzzle event."""
    kind = event.get("ev")
    if kind not in EVENTS:
        raise MalformedInput(
            f"unknown event {kind!r}: a puzzle event is one of {', '.join(EVENTS)}", line
        )
    if kind in ("lay", "lift"):
        _integer(event, "tile", 1, len(TILES), line)
    if kind == "lay":
        _integer(event, "q", -LIMIT, LIMIT, line)
        _integer(event, "r", -LIMIT, LIMIT, line)
        if "rot" in event:
            _integer(event, "rot", 0, 5, line)


def apply_event(puzzle: DiscoveryPuzzle, event: Mapping[str, Any], line: int = 0) -> str | None:
    """Play one event on ``puzzle``; return why it was refused (the layout then unchanged),
    or None. A malformed event raises MalformedInput."""
    check_event(event, line)
    kind = event["ev"]
    if kind == "lay":
        placement = Placement(event["tile"], event["q"], event["r"], int(event.get("rot", 0)))
        try:
            puzzle.lay(placement)
        except ValueError as exc:
            return str(exc)
    elif kind == "lift":
        tile = int(event["tile"])
        if all(p.tile != tile for p in puzzle.layout):
            return f"tile {tile} is not on the table"
        puzzle.lift(tile)
    elif kind == "restart":
        for p in puzzle.layout:
            puzzle.lift(p.tile)
    return None


def laid(p: Placement) -> dict[str, Any]:
    """One laid tile in the output: where, how turned, and its side letters NE..NW."""
    return {"tile": p.tile, "q": p.q, "r": p.r, "rot": p.rot, "sides": TILES[p.tile].letters(p.rot)}


def state(puzzle: DiscoveryPuzzle) -> dict[str, Any]:
    """The output fields for a layout as it stands (violations aside)."""
    verdict = puzzle.verdict()
    return {
        "game": "puzzle",
        "puzzle": "discovery",
        "n": puzzle.n,
        "colour": puzzle.colour,
        "laid": [laid(t) for t in puzzle.layout],
        "solved": verdict.solved,
        "over": verdict.solved,
        "loop": verdict.loop,
        "problems": list(verdict.problems),
    }


def replay(
    header: Mapping[str, Any], events: list[NumberedEvent]
) -> tuple[DiscoveryPuzzle, dict[str, Any]]:
    """Feed a journal through a :class:`DiscoveryPuzzle`; return it with the output object."""
    header_line = events[0][0] - 1 if events else 1
    puzzle = DiscoveryPuzzle(puzzle_size(header, header_line))
    times = event_times(events, required=False)
    violations: list[dict[str, Any]] = []
    for (line, event), t in zip(events, times, strict=True):
        if "ev" not in event:
            raise MalformedInput(f'every event needs "ev", one of {", ".join(EVENTS)}', line)
        refused = apply_event(puzzle, event, line)
        if refused is not None:
            violations.append({"t": t, "ev": event["ev"], "detail": refused, "line": line})
    result = state(puzzle)
    result["violations"] = violations
    return puzzle, result


def simulate(header: dict[str, Any], events: list[NumberedEvent]) -> dict[str, Any]:
    """Replay a Discovery puzzle journal; return the output object."""
    return replay(header, events)[1]



def summary(
    result: dict[str, Any],
    _: Callable[[str], str] = english,
    pgettext: Callable[[str, str], str] = english_in,
    words: Callable[[str], str] = english,
) -> str:
    """The output object as text a person reads.

    English unless the shell gives its gettext functions (``_``, ``pgettext``) and ``words``,
    which says a rules' problem or refusal (English here) in the players' language: the rules
    never import gettext, but the summary's own words are marked here, where they are written.
    """
    n, colour = result["n"], result["colour"]
    out = [_("Discovery {n}: one {colour} loop through tiles 1 to {n}").format(
        n=n, colour=_(colour))]
    if result["solved"]:
        out.append(_("SOLVED: a {colour} loop of {loop} tiles").format(
            colour=_(colour), loop=result["loop"]))
    else:
        out.append(_("not solved: {laid}/{n} tiles laid").format(laid=len(result["laid"]), n=n))
        out += [f"  {words(problem)}" for problem in result["problems"]]
    out.append(_("Tiles:"))
    for tile in result["laid"]:
        out.append(
            _("  {tile:2d} at ({q}, {r}) turn {rot}  {sides}").format(
                tile=tile["tile"], q=tile["q"], r=tile["r"], rot=tile["rot"], sides=tile["sides"])
        )
    if result["violations"]:
        out.append(_("Refused:"))
        for v in result["violations"]:
            out.append(_("  line {line}: {event}: {detail}").format(
                line=v["line"], event=v["ev"], detail=words(str(v["detail"]))))
    return "\n".join(out)
