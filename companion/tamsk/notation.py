"""Tamsk in the notation (the :class:`companion.notation.NotationGame` facet).

Tamsk lines (the syntax every game shares is in :mod:`companion.notation`):

* ``r1 a1-b2 +ring @1:23.4`` a move of r1 from a1 to b2 released at 1:23.4, then the mover's
  ring over it; ``+ring(black)`` a ring the opponent dropped there (a claim); ``+ring:e4`` a
  ring with a named space (the second ring of the adjusted rules); ``lift@1:22.9`` when the
  glass was lifted (no ``lift`` token: the release counted as lifted at the same instant).
  ``a1-?`` a release whose space is not known, ``?-b2`` a glass whose space was not known,
  ``r1 b2`` a glass placed in the free start. The "from" space is for the reader: a reader
  takes it from the game.
* ``red T15 @0:20`` the 15-second timer turned by red; ``red pass @1:00``; ``red +ring @0:40``
  a ring outside a move line; ``r1 lift @0:10`` and ``r1 putback @0:12`` a lift on its own and
  a glass set back unturned.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from companion import notation
from companion.notation import Record, end_or_note, only_time, read_time, stamp
from companion.remark import N_, Words, joined, word
from companion.scenario import MalformedInput
from companion.tamsk.board import is_space
from companion.tamsk.events import parse_event

GLASSES = ("r1", "r2", "r3", "b1", "b2", "b3")
PLAYERS = ("red", "black")

_SPACE = r"[a-g][1-7]"
_MOVE = re.compile(rf"^(?:({_SPACE}|\?)-)?({_SPACE}|\?)$")
_RING = re.compile(rf"^\+ring(?:\((red|black)\))?(?::({_SPACE}))?(?:@(\S+))?$")


def line_kind(event: Mapping[str, Any]) -> str:
    """The line kind of one Tamsk input, ``raw`` for one this version cannot write as text
    (an unknown event, or a known one with a missing or bad field)."""
    if not notation.time_ok(event, required=True):
        return "raw"
    try:
        parsed = parse_event(event, float(event["t"]))
    except MalformedInput:
        return "raw"
    if parsed.kind == "note" and not isinstance(event.get("text", ""), str):
        return "raw"
    return parsed.kind


def group(events: Sequence[Mapping[str, Any]], kinds: Sequence[str]) -> list[Record]:
    """A lift directly followed by the release of the same glass, and the rings dropped right
    after a release, go on the release's line; everything else is a line of its own."""
    records: list[Record] = []
    i, n = 0, len(events)
    while i < n:
        kind = kinds[i]
        if kind in ("lift", "release"):
            if kind == "lift":
                paired = (
                    i + 1 < n
                    and kinds[i + 1] == "release"
                    and events[i + 1].get("glass") == events[i].get("glass")
                )
                if not paired:
                    records.append(Record("lift", [i]))
                    i += 1
                    continue
                rec = Record("move", [i, i + 1])
                i += 2
            else:
                rec = Record("move", [i])
                i += 1
            while i < n and kinds[i] == "ring":
                rec.events.append(i)
                i += 1
            records.append(rec)
            continue
        records.append(Record(kind, [i]))
        i += 1
    return records


def text(
    events: Sequence[Mapping[str, Any]],
    kind: str,
    *,
    origin: str | None = "?",
    exact: bool = True,
    late: bool = False,
) -> str:
    """One Tamsk line as the notation file writes it (:func:`line_words`, joined)."""
    return str(line_words(events, kind, origin=origin, exact=exact, late=late))


def line_words(
    events: Sequence[Mapping[str, Any]],
    kind: str,
    *,
    origin: str | None = "?",
    exact: bool = True,
    late: bool = False,
) -> Words:
    """One Tamsk line (without number or comment) for the inputs of one record.

    ``origin`` is the space the moved glass stood on (``"?"`` unknown, ``None`` not on the
    board yet); ``exact`` writes every time to the last decimal and the lift time, otherwise
    tenths and only what a person reads; ``late`` adds the word ``late`` (a reader ignores it).
    The line is :class:`~companion.remark.Words`: the English text the notation file
    writes, whose words (``ring``, ``pass``, a colour) a replay says in the players' language.
    """
    if kind == "raw":
        return joined([notation.raw_text(events[0], exact)])
    e = events[0]
    if kind == "move":
        lift = e if e["ev"] == "lift" else None
        release = events[1] if lift is not None else e
        glass = str(release["glass"])
        to = release.get("to") or "?"
        mover = "red" if glass.startswith("r") else "black"
        words: list[str | Words] = [glass, to if origin is None else f"{origin}-{to}"]
        if late:
            words.append(word(N_("late")))
        for ring in events[2 if lift is not None else 1 :]:
            parts: list[str | Words] = ["+", RING]
            if ring["player"] != mover:
                parts += ["(", player_word(str(ring["player"])), ")"]
            if ring.get("space"):
                parts.append(f":{ring['space']}")
            if exact and ring["t"] != release["t"]:
                parts.append(stamp(ring["t"], True))
            words.append(joined(parts))
        words.append(stamp(release["t"], exact))
        if lift is not None and exact:
            words.append("lift" if lift["t"] == release["t"] else "lift" + stamp(lift["t"], True))
        return joined(words, " ")
    when = stamp(e["t"], exact)
    if kind in ("lift", "putback"):
        return joined([str(e["glass"]), kind, when], " ")
    if kind == "ring":
        space = f":{e['space']}" if e.get("space") else ""
        return joined([player_word(str(e["player"])), joined(["+", RING, space]), when], " ")
    if kind == "timer15":
        return joined([player_word(str(e["player"])), "T15", when], " ")
    if kind == "pass":
        return joined([player_word(str(e["player"])), word(N_("pass")), when], " ")
    if kind == "end":
        return joined([word(N_("end")), when], " ")
    if kind == "note":
        return joined([word(N_("note")), notation.note_text(str(e.get("text", ""))), when],
                      " ")
    return joined([notation.raw_text(e, exact)])


#: The word ``ring`` of a line (``+ring``), said in the players' language on a replay.
RING = word(N_("ring"))


def player_word(player: str) -> str:
    """A player's colour in a line: a word of the game (``červený`` in Czech) where a replay
    shows it, else as it is."""
    return word(player, "player") if player in PLAYERS else player


def parse_line(body: str, number: int) -> list[dict[str, Any]]:
    """One Tamsk line back to its inputs."""
    if body.startswith("raw"):
        return notation.parse_raw(body, number)
    tokens = notation.words(body, number)
    head = tokens[0]
    if head in ("end", "note"):
        return end_or_note(tokens, number, time_required=True)
    if head in GLASSES:
        if len(tokens) < 2:
            raise MalformedInput(f"{head}: expected a move (a1-b2), lift or putback", number)
        verb = tokens[1]
        if verb in ("lift", "putback"):
            t = only_time(tokens[2:], number, required=True, what=f"{head} {verb}")
            return [{"t": t, "ev": verb, "glass": head}]
        move = _MOVE.match(verb)
        if move is None:
            raise MalformedInput(
                f"{head} {verb}: expected a move such as a1-b2 (a1-? for an unknown space), "
                "lift or putback",
                number,
            )
        for space in move.groups():
            if space not in (None, "?") and not is_space(space):
                raise MalformedInput(f"{space} is not a space of the board (a1..g4)", number)
        return _move(head, move.group(2), tokens[2:], number)
    if head in PLAYERS:
        if len(tokens) < 2:
            raise MalformedInput(f"{head}: expected T15, pass or +ring", number)
        verb = tokens[1]
        if verb in ("T15", "pass"):
            t = only_time(tokens[2:], number, required=True, what=f"{head} {verb}")
            return [{"t": t, "ev": "timer15" if verb == "T15" else "pass", "player": head}]
        ring = _RING.match(verb)
        if ring is None or ring.group(1) is not None or ring.group(3) is not None:
            raise MalformedInput(
                f"{head} {verb}: expected T15, pass, +ring or +ring:SPACE", number
            )
        t = only_time(tokens[2:], number, required=True, what=f"{head} +ring")
        event: dict[str, Any] = {"t": t, "ev": "ring", "player": head}
        if ring.group(2):
            event["space"] = ring.group(2)
        return [event]
    raise MalformedInput(
        f"{head!r}: a Tamsk line starts with a glass (r1..b3), a player (red, black), end, "
        "note or raw",
        number,
    )


def _move(glass: str, to: str, rest: list[str], number: int) -> list[dict[str, Any]]:
    mover = "red" if glass.startswith("r") else "black"
    when: float | None = None
    lift: tuple[bool, float | None] = (False, None)
    rings: list[tuple[str, str | None, float | None]] = []
    for token in rest:
        if token.startswith("@"):
            if when is not None:
                raise MalformedInput("a move has one @TIME (glue others: +ring@1:24)", number)
            when = read_time(token[1:], number)
            continue
        if token == "late":
            continue
        glued = notation.GLUED.match(token)
        if glued is not None and glued.group(1) == "lift":
            lift = (True, None if glued.group(2) is None else read_time(glued.group(2), number))
            continue
        ring = _RING.match(token)
        if ring is not None:
            at = None if ring.group(3) is None else read_time(ring.group(3), number)
            rings.append((ring.group(1) or mover, ring.group(2), at))
            continue
        raise MalformedInput(
            f"unexpected {token!r} in a move (expected +ring, +ring(player), lift@TIME, @TIME)",
            number,
        )
    if when is None:
        raise MalformedInput(f"the move of {glass} needs its time, e.g. @1:23.4", number)
    out: list[dict[str, Any]] = []
    if lift[0]:
        out.append({"t": when if lift[1] is None else lift[1], "ev": "lift", "glass": glass})
    release: dict[str, Any] = {"t": when, "ev": "release", "glass": glass}
    if to != "?":
        release["to"] = to
    out.append(release)
    for player, space, at in rings:
        event: dict[str, Any] = {"t": when if at is None else at, "ev": "ring", "player": player}
        if space:
            event["space"] = space
        out.append(event)
    return out
