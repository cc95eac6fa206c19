"""Tantrix in the notation (the :class:`companion.notation.NotationGame` facet).

Tantrix lines (the syntax every game shares is in :mod:`companion.notation`):
``red #23 (1,-2) r3 @0:42 done@0:44`` tile 23 on cell (1, -2) turned 3 sixths, then the end of
the turn; ``yellow done``, ``red undo``. With hands: ``yellow draws #40 @0:03`` and the start
draw ``starter red #12 yellow #40`` (the team game: ``starter #10 #20 #44 #30`` in seat order).
The colour in front is for the reader (the rules know whose turn it is).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from companion import notation
from companion.notation import Record, end_or_note, only_time, read_time, stamp
from companion.remark import N_, Words, joined, word
from companion.scenario import MalformedInput
from companion.tantrix.events import parse_placement
from companion.tantrix.simulate import EVENTS, HAND_EVENTS, parse_starter

#: Events of the solo modes besides ``place``, ``draw``, ``end`` and ``note``.
SOLO_EVENTS = ("lift", "discard", "return", "gobble", "finish")

COLOURS = ("red", "yellow", "green", "blue")

_CELL = re.compile(r"^\((-?\d+),(-?\d+)\)$")
_ROT = re.compile(r"^r([0-5])$")
_TILE = re.compile(r"^#(\d+)$")


def line_kind(event: Mapping[str, Any]) -> str:
    """The line kind of one Tantrix input (``raw`` when it cannot be written as text)."""
    kind = event.get("ev")
    known = EVENTS + HAND_EVENTS + SOLO_EVENTS
    if kind not in known or not notation.time_ok(event, required=False):
        return "raw"
    if kind in ("draw", "lift"):
        player = event.get("player")
        if (kind == "lift" or player is not None) and player not in COLOURS + (None,):
            return "raw"
        if not _is_tile(event.get("tile")):
            return "raw"
    if kind == "starter":
        try:
            parse_starter(event, 0)
        except MalformedInput:
            return "raw"
    if kind in ("gobble", "finish"):
        to = event.get("to", [])
        names = [event.get("player"), *([to] if isinstance(to, str) else to)]
        if kind == "gobble" and not to:
            return "raw"
        if not all(_plain_name(n) for n in names):
            return "raw"
    if kind == "place":
        try:
            parse_placement(event, 0)
        except (MalformedInput, ValueError, TypeError):
            return "raw"
    if kind == "note" and not isinstance(event.get("text", ""), str):
        return "raw"
    return str(kind)


def _plain_name(value: object) -> bool:
    """A player name the notation writes as one word (others go on a raw line)."""
    return (
        isinstance(value, str) and bool(value) and not any(c.isspace() for c in value)
        and value not in ("to", "gobble", "finish") and not value.startswith(("@", "#"))
    )


def _is_tile(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 56


def group(events: Sequence[Mapping[str, Any]], kinds: Sequence[str]) -> list[Record]:
    """A ``done`` directly after a placement goes on its line; everything else is a line of
    its own."""
    records: list[Record] = []
    i, n = 0, len(events)
    while i < n:
        kind = kinds[i]
        if kind == "place":
            rec = Record("place", [i])
            i += 1
            if i < n and kinds[i] == "done":
                rec.events.append(i)
                i += 1
            records.append(rec)
            continue
        records.append(Record(kind, [i]))
        i += 1
    return records


#: The words of a line a replay says in the players' language (``make catalogs`` finds them).
WORDS = (N_("draws"), N_("draw"), N_("lift"), N_("discard"), N_("return"), N_("gobble"),
         N_("to"), N_("finish"), N_("starter"), N_("done"), N_("undo"), N_("end"), N_("note"))


def text(
    events: Sequence[Mapping[str, Any]],
    kind: str,
    *,
    player: str | None = None,
    exact: bool = True,
) -> str:
    """One Tantrix line as the notation file writes it (:func:`line_words`, joined)."""
    return str(line_words(events, kind, player=player, exact=exact))


def line_words(
    events: Sequence[Mapping[str, Any]],
    kind: str,
    *,
    player: str | None = None,
    exact: bool = True,
    cell: Callable[[int, int], str] | None = None,
) -> Words:
    """One Tantrix line for the inputs of one record; ``player`` (the colour on turn) is
    written in front for the reader.

    The line is :class:`~companion.remark.Words`: the English text the notation file
    writes, whose words (``draws``, ``done``, a colour) a replay says in the players' language;
    ``cell`` gives a placement's cell as such a part (a replay's fold names it as its picture
    does: ``(1,0)`` in the file, ``c4`` on the page), else it is ``(q,r)``.
    """
    if kind == "raw":
        return joined([notation.raw_text(events[0], exact)])
    e = events[0]
    front = player and kind in ("place", "done", "undo")
    words: list[str | Words] = [word(player)] if player and front else []
    if kind == "place":
        where = cell(e["q"], e["r"]) if cell is not None else f"({e['q']},{e['r']})"
        words += [f"#{e['tile']}", where, f"r{e['rot']}"]
    elif kind == "note":
        words += [word("note"), notation.note_text(str(e.get("text", "")))]
    elif kind == "draw" and e.get("player") is not None:
        words += [word(str(e["player"])), word("draws"), f"#{e['tile']}"]
    elif kind in ("draw", "lift"):  # a solo mode: no player
        words += [word(kind), f"#{e['tile']}"]
    elif kind == "gobble":
        to = e["to"]
        words += [word("gobble"), str(e["player"]), word("to"),
                  *([to] if isinstance(to, str) else to)]
    elif kind == "finish":
        words += [word("finish"), str(e["player"])]
    elif kind == "starter":
        draws = e["draws"]
        words.append(word("starter"))
        if isinstance(draws, dict):
            for colour, tile in draws.items():
                words += [word(str(colour)), f"#{tile}"]
        else:
            words += [f"#{tile}" for tile in draws]
    elif kind == "done":  # a player's turn ended: said as such (not the race's "done")
        words.append(word("done", "turn"))
    else:
        words.append(word(kind))
    if e.get("t") is not None:
        words.append(stamp(e["t"], exact))
    if kind == "place" and len(events) > 1:
        done = events[1]
        words.append(joined([word("done", "turn"),
                             stamp(done["t"], exact) if done.get("t") is not None else ""]))
    return joined(words, " ")


def parse_line(body: str, number: int) -> list[dict[str, Any]]:
    """One Tantrix line back to its inputs."""
    if body.startswith("raw"):
        return notation.parse_raw(body, number)
    tokens = notation.words(body, number)
    if len(tokens) >= 3 and tokens[0] in COLOURS and tokens[1] == "draws":
        return [_draw(tokens, number)]
    if tokens[0] == "starter":
        return [_starter(tokens[1:], number)]
    if tokens[0] in ("draw", "lift") and len(tokens) >= 2:
        event: dict[str, Any] = {"ev": tokens[0], "tile": _number(tokens[1], number)}
        t = only_time(tokens[2:], number, required=False, what=tokens[0])
        return [event if t is None else {"t": t, **event}]
    if tokens[0] in ("gobble", "finish") and len(tokens) >= 2:
        return [_race(tokens, number)]
    if tokens[0] in ("discard", "return"):
        t = only_time(tokens[1:], number, required=False, what=tokens[0])
        return [{"ev": tokens[0]} if t is None else {"t": t, "ev": tokens[0]}]
    if tokens[0] in COLOURS:
        tokens = tokens[1:]
        if not tokens:
            raise MalformedInput("a colour alone: expected #TILE (q,r) rK, done or undo", number)
    head = tokens[0]
    if head in ("end", "note"):
        return end_or_note(tokens, number, time_required=False)
    if head in ("done", "undo"):
        event = {"ev": head}
        t = only_time(tokens[1:], number, required=False, what=head)
        return [event if t is None else {"t": t, **event}]
    tile = _TILE.match(head)
    if tile is None:
        raise MalformedInput(
            f"{head!r}: a Tantrix line is #TILE (q,r) rK, done, undo, end, note or raw", number
        )
    if len(tokens) < 3:
        raise MalformedInput("a placement is #TILE (q,r) rK, e.g. #23 (1,-2) r3", number)
    cell = _CELL.match(tokens[1])
    rot = _ROT.match(tokens[2])
    if cell is None:
        raise MalformedInput(f"{tokens[1]!r} is not a cell: write (q,r) without spaces", number)
    if rot is None:
        raise MalformedInput(f"{tokens[2]!r} is not a rotation: r0 to r5", number)
    place: dict[str, Any] = {
        "ev": "place",
        "tile": int(tile.group(1)),
        "q": int(cell.group(1)),
        "r": int(cell.group(2)),
        "rot": int(rot.group(1)),
    }
    out = [place]
    for token in tokens[3:]:
        glued = notation.GLUED.match(token)
        if token.startswith("@") and "t" not in place and len(out) == 1:
            place["t"] = read_time(token[1:], number)
        elif glued is not None and glued.group(1) == "done" and len(out) == 1:
            done: dict[str, Any] = {"ev": "done"}
            if glued.group(2) is not None:
                done["t"] = read_time(glued.group(2), number)
            out.append(done)
        else:
            raise MalformedInput(
                f"unexpected {token!r} after a placement (expected @TIME, then done or "
                "done@TIME)",
                number,
            )
    return out


def _number(token: str, number: int) -> int:
    tile = _TILE.match(token)
    if tile is None or not _is_tile(int(tile.group(1))):
        raise MalformedInput(f"{token!r} is not a tile: #1 to #56", number)
    return int(tile.group(1))


def _draw(tokens: list[str], number: int) -> dict[str, Any]:
    event: dict[str, Any] = {"ev": "draw", "player": tokens[0], "tile": _number(tokens[2], number)}
    t = only_time(tokens[3:], number, required=False, what="draw")
    return event if t is None else {"t": t, **event}


def _starter(tokens: list[str], number: int) -> dict[str, Any]:
    t = None
    if tokens and tokens[-1].startswith("@"):
        t = read_time(tokens[-1][1:], number)
        tokens = tokens[:-1]
    draws: dict[str, int] | list[int]
    if tokens and tokens[0] in COLOURS:
        if len(tokens) % 2:
            raise MalformedInput("a start draw is starter COLOUR #TILE COLOUR #TILE ...", number)
        draws = {tokens[i]: _number(tokens[i + 1], number) for i in range(0, len(tokens), 2)}
    else:
        draws = [_number(tok, number) for tok in tokens]
    event: dict[str, Any] = {"ev": "starter", "draws": draws}
    return event if t is None else {"t": t, **event}


def _race(tokens: list[str], number: int) -> dict[str, Any]:
    """``gobble Ben to Ada [Chloé] [@TIME]`` or ``finish Ben [@TIME]``."""
    t = None
    if tokens[-1].startswith("@"):
        t = read_time(tokens[-1][1:], number)
        tokens = tokens[:-1]
    event: dict[str, Any] = {"ev": tokens[0], "player": tokens[1]}
    if tokens[0] == "gobble":
        if len(tokens) < 4 or tokens[2] != "to" or len(tokens) > 5:
            raise MalformedInput("a gobble is: gobble PLAYER to PLAYER [PLAYER]", number)
        event["to"] = tokens[3] if len(tokens) == 4 else tokens[3:]
    elif len(tokens) != 2:
        raise MalformedInput("a finish is: finish PLAYER", number)
    return event if t is None else {"t": t, **event}
