"""A game as plain text, one move a line: written for people, read back by programs.

A journal is exact but unreadable (one JSON object an input, hashes, wall clocks); a notation
file is what a club player pastes into a mail or a forum, and what ``companion simulate`` and
``companion replay`` read back. It keeps every input of the game (so the game replays to the
same state, refusals and penalties included) and drops only what the rules never look at::

    ; companion notation 1
    [game "tamsk"]
    [level 3]
    [names {"red": "Ada", "black": "Ben"}]

    1. r1 a1-b2 +ring@0:03.6 @0:03.057305 lift@0:03.032288
    2. b1 d1-d2 +ring @0:07.3
    3. red T15 @0:20
    4. b3 a4-b5 +ring(red) @0:31.5  ; black late (15 s ran out at 0:30.1)

Syntax, common to both games:

* ``[key JSON]`` lines hold the header, one field a line, before the first move.
* ``;`` starts a comment to the end of the line (``companion notation`` writes what the rules
  made of each line there: refusals, penalties, passes; a reader ignores them).
* A line may start with its number (``12.``), which a reader ignores.
* ``@TIME`` is when it happened: ``m:ss`` with as many decimals as the record had (``1:23.4``,
  ``0:03.057305``) or plain seconds (``83.4``). Exact: the text gives back the same float.
  A token may carry its own time glued to it (``+ring@0:03.6``, ``lift@0:03.03``,
  ``done@0:44``); without one it takes the time of its line (Tamsk) or has none (Tantrix,
  whose times are optional).
* ``note "text" @TIME`` keeps a remark, ``end @TIME`` the arbiter's stop, and
  ``raw {...}`` keeps an input this version does not know (a newer journal's event) exactly as
  it was, so nothing is ever lost in a round trip.

Tamsk lines:

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

Tantrix lines: ``red #23 (1,-2) r3 @0:42 done@0:44`` tile 23 on cell (1, -2) turned 3 sixths,
then the end of the turn; ``yellow done``, ``red undo``. The colour in front is for the reader
(the rules know whose turn it is).

What a round trip loses (notation -> events -> state is the same as the journal's state):
the journal's hash chain and sequence numbers, each record's wall clock and source (``wall``,
``src``), and fields this version does not know on events it does know. Times are kept exactly.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any, Protocol

from companion.scenario import MalformedInput, Scenario

FORMAT = 1
FIRST_LINE = f"; companion notation {FORMAT}"
#: The games the notation covers.
NOTATION_GAMES = ("tamsk", "tantrix", "tokami")

TAMSK_GLASSES = ("r1", "r2", "r3", "b1", "b2", "b3")
TAMSK_PLAYERS = ("red", "black")
TANTRIX_COLOURS = ("red", "yellow", "green", "blue")

_TAG = re.compile(r"^\[([A-Za-z_][\w-]*)\s+(.*)\]$")
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|;.*|\S+')
_NUMBER = re.compile(r"^\d+\.$")
_TIME = re.compile(r"^(?:(\d+):)?(\d+(?:\.\d*)?)$")
_SPACE = r"[a-g][1-7]"
_MOVE = re.compile(rf"^(?:({_SPACE}|\?)-)?({_SPACE}|\?)$")
_RING = re.compile(rf"^\+ring(?:\((red|black)\))?(?::({_SPACE}))?(?:@(\S+))?$")
_GLUED = re.compile(r"^(lift|done)(?:@(\S+))?$")
_CELL = re.compile(r"^\((-?\d+),(-?\d+)\)$")
_ROT = re.compile(r"^r([0-5])$")
_TILE = re.compile(r"^#(\d+)$")
_TOKAMI_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|;.*|[,()+]|[^\s,()+";]+')
_TOKAMI_WORD = re.compile(r'[^\s,()+";:@\\]+')
_TOKAMI_NAME = re.compile(r'([^\s",();:@\\]+):(?=\s|$)')
#: Words a Tokami line gives a meaning to: a colour or a name spelt like one is quoted.
TOKAMI_WORDS = frozenset(
    {"up", "not", "higher", "fell", "in", "hand", "declined", "undo", "end", "note", "raw"}
)


# ---------------------------------------------------------------------------------- times


def format_time(t: float, *, exact: bool = True) -> str:
    """``t`` seconds as ``m:ss``: exact (every decimal the float needs, so that
    :func:`parse_time` gives back the very same float) or, for people, in tenths (``1:23.4``,
    rounded down like a clock)."""
    if not math.isfinite(t):
        raise ValueError(f"not a time: {t!r}")
    sign = "-" if t < 0 else ""
    t = abs(t)
    if not exact:
        tenths = int(t * 10 + 1e-6)
        minutes, rest = divmod(tenths, 600)
        return f"{sign}{minutes}:{rest // 10:02d}.{rest % 10}"
    d = Decimal(repr(float(t)))
    minutes = int(d // 60)
    seconds = d - 60 * minutes
    whole = int(seconds)
    fraction = seconds - whole
    text = f"{sign}{minutes}:{whole:02d}"
    if fraction:
        text += format(fraction.normalize(), "f")[1:]
    return text


def parse_time(text: str) -> float:
    """``m:ss.fff`` or plain seconds back to a float; ValueError for anything else."""
    m = _TIME.match(text)
    if m is None:
        raise ValueError(f"{text!r} is not a time (write m:ss.f or seconds, e.g. 1:23.4)")
    minutes, seconds = m.group(1), m.group(2)
    try:
        value = Decimal(seconds)
    except InvalidOperation:  # pragma: no cover - the pattern only lets numbers through
        raise ValueError(f"{text!r} is not a time") from None
    if minutes is not None:
        if value >= 60:
            raise ValueError(f"{text!r}: seconds must be below 60 after the minutes")
        value += 60 * int(minutes)
    return float(value)


# ---------------------------------------------------------------------------------- records


@dataclass
class Record:
    """Consecutive inputs that read as one line: ``kind`` names the line, ``events`` are the
    positions of its inputs in the game's event list."""

    kind: str
    events: list[int] = field(default_factory=list)


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _time_ok(event: Mapping[str, Any], *, required: bool) -> bool:
    t = event.get("t")
    if t is None:
        return not required
    return _number(t) and math.isfinite(t) and t >= 0


def tamsk_kind(event: Mapping[str, Any]) -> str:
    """The line kind of one Tamsk input, ``raw`` for one this version cannot write as text
    (an unknown event, or a known one with a missing or bad field)."""
    from companion.tamsk.events import parse_event

    if not _time_ok(event, required=True):
        return "raw"
    try:
        parsed = parse_event(event, float(event["t"]))
    except MalformedInput:
        return "raw"
    if parsed.kind == "note" and not isinstance(event.get("text", ""), str):
        return "raw"
    return parsed.kind


def tantrix_kind(event: Mapping[str, Any]) -> str:
    """The line kind of one Tantrix input (``raw`` when it cannot be written as text)."""
    from companion.tantrix.simulate import EVENTS, parse_placement

    kind = event.get("ev")
    if kind not in EVENTS or not _time_ok(event, required=False):
        return "raw"
    if kind == "place":
        try:
            parse_placement(event, 0)
        except (MalformedInput, ValueError, TypeError):
            return "raw"
    if kind == "note" and not isinstance(event.get("text", ""), str):
        return "raw"
    return str(kind)


def tokami_kind(event: Mapping[str, Any]) -> str:
    """The line kind of one Tokami input: its ``ev`` (a turn's outcome, ``undo`` or ``end``),
    or ``raw`` when it cannot be written as text (an unknown event, a missing or bad field)."""
    from companion.tokami.simulate import CONTROL_EVENTS, EVENTS
    from companion.tokami.turns import Turn

    kind = event.get("ev")
    if kind not in EVENTS or not _time_ok(event, required=False):
        return "raw"
    player = event.get("player")
    if player is not None and (not isinstance(player, str) or not player):
        return "raw"
    if kind not in CONTROL_EVENTS:
        try:
            turn = Turn.from_event(event, 0)
        except (MalformedInput, ValueError):
            return "raw"
        colours = [turn.block, turn.bonus, turn.in_hand, *turn.fallen]
        if any(c is not None and not c for c in colours):
            return "raw"  # an empty colour name has no spelling
    return str(kind)


def _kind(game: str, event: Mapping[str, Any]) -> str:
    if game == "tamsk":
        return tamsk_kind(event)
    if game == "tokami":
        return tokami_kind(event)
    return tantrix_kind(event)


def group(game: str, events: Sequence[Mapping[str, Any]]) -> list[Record]:
    """Cut a game's inputs into lines. Only consecutive inputs share a line, so reading the
    lines back gives the inputs in their original order.

    Tamsk: a lift directly followed by the release of the same glass, and the rings dropped
    right after a release, go on the release's line. Tantrix: a ``done`` directly after a
    placement goes on its line. Tokami: one turn a line. Everything else is a line of its own.
    """
    kinds = [_kind(game, e) for e in events]
    records: list[Record] = []
    i, n = 0, len(events)
    while i < n:
        kind = kinds[i]
        if game == "tamsk" and kind in ("lift", "release"):
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
        if game == "tantrix" and kind == "place":
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


# ---------------------------------------------------------------------------------- writing


def _json(value: Any, separators: tuple[str, str] = (", ", ": ")) -> str:
    """JSON for one line: readable (no ``\\u`` escapes for accents) but never broken in two by
    a character some readers take for a line break."""
    text = json.dumps(value, ensure_ascii=False, separators=separators)
    for ch in ("\x85", "\u2028", "\u2029"):
        text = text.replace(ch, f"\\u{ord(ch):04x}")
    return text


def _at(t: Any, exact: bool) -> str:
    return "@" + format_time(float(t), exact=exact)


def _raw(event: Mapping[str, Any], exact: bool) -> str:
    if exact:
        return "raw " + _json(dict(event))
    kind = event.get("ev")
    when = f" {_at(event['t'], False)}" if _time_ok(event, required=True) else ""
    # for people: the kind and its short values (``correct: penalty red forfeit``)
    words = [
        str(v) for k, v in event.items()
        if k not in ("t", "ev", "reason", "by", "auth", "text") and isinstance(v, (str, int))
        and not isinstance(v, bool) and len(str(v)) <= 12
    ][:4]
    name = kind if isinstance(kind, str) and kind.isidentifier() else _json(kind)
    return f"{name}: {' '.join(words)}{when}" if words else f"{name}{when}"


def tamsk_text(
    events: Sequence[Mapping[str, Any]],
    kind: str,
    *,
    origin: str | None = "?",
    exact: bool = True,
    late: bool = False,
) -> str:
    """One Tamsk line (without number or comment) for the inputs of one record.

    ``origin`` is the space the moved glass stood on (``"?"`` unknown, ``None`` not on the
    board yet); ``exact`` writes every time to the last decimal and the lift time, otherwise
    tenths and only what a person reads; ``late`` adds the word ``late`` (a reader ignores it).
    """
    if kind == "raw":
        return _raw(events[0], exact)
    e = events[0]
    if kind == "move":
        lift = e if e["ev"] == "lift" else None
        release = events[1] if lift is not None else e
        glass = str(release["glass"])
        to = release.get("to") or "?"
        mover = "red" if glass.startswith("r") else "black"
        words = [glass, to if origin is None else f"{origin}-{to}"]
        if late:
            words.append("late")
        for ring in events[2 if lift is not None else 1 :]:
            word = "+ring"
            if ring["player"] != mover:
                word += f"({ring['player']})"
            if ring.get("space"):
                word += f":{ring['space']}"
            if exact and ring["t"] != release["t"]:
                word += _at(ring["t"], True)
            words.append(word)
        words.append(_at(release["t"], exact))
        if lift is not None and exact:
            words.append("lift" if lift["t"] == release["t"] else "lift" + _at(lift["t"], True))
        return " ".join(words)
    when = _at(e["t"], exact)
    if kind in ("lift", "putback"):
        return f"{e['glass']} {kind} {when}"
    if kind == "ring":
        space = f":{e['space']}" if e.get("space") else ""
        return f"{e['player']} +ring{space} {when}"
    if kind == "timer15":
        return f"{e['player']} T15 {when}"
    if kind == "pass":
        return f"{e['player']} pass {when}"
    if kind == "end":
        return f"end {when}"
    if kind == "note":
        return f"note {_json(str(e.get('text', '')))} {when}"
    return _raw(e, exact)


def tantrix_text(
    events: Sequence[Mapping[str, Any]],
    kind: str,
    *,
    player: str | None = None,
    exact: bool = True,
) -> str:
    """One Tantrix line for the inputs of one record; ``player`` (the colour on turn) is
    written in front for the reader."""
    if kind == "raw":
        return _raw(events[0], exact)
    e = events[0]
    words = [player] if player and kind in ("place", "done", "undo") else []
    if kind == "place":
        words += [f"#{e['tile']}", f"({e['q']},{e['r']})", f"r{e['rot']}"]
    elif kind == "note":
        words += ["note", _json(str(e.get("text", "")))]
    else:
        words.append(kind)
    if e.get("t") is not None:
        words.append(_at(e["t"], exact))
    if kind == "place" and len(events) > 1:
        done = events[1]
        words.append("done" + (_at(done["t"], exact) if done.get("t") is not None else ""))
    return " ".join(words)


def _tokami_word(text: str) -> str:
    """A colour or a name as one token: bare when it is a plain word, else in double quotes."""
    if (
        _TOKAMI_WORD.fullmatch(text) is None
        or text in TOKAMI_WORDS
        or _NUMBER.match(text) is not None
    ):
        return _json(text)
    return text


def tokami_text(event: Mapping[str, Any], kind: str, *, exact: bool = True) -> str:
    """One Tokami line for one input: ``Anna: blue up, +green @0:12``."""
    if kind == "raw":
        return _raw(event, exact)
    player = event.get("player")
    words: list[str] = []
    if isinstance(player, str):
        words.append(_tokami_word(player) + ":")
    if kind == "bonus":
        words += [_tokami_word(event["block"]), "up,", "+" + _tokami_word(event["bonus"])]
    elif kind == "higher":
        words += [_tokami_word(event["block"]), "up"]
    elif kind == "not_higher":
        words += [_tokami_word(event["block"]), "not", "higher"]
    elif kind == "fell":
        words.append("fell")
        fallen = ",".join(_tokami_word(c) for c in event["fallen"])
        if fallen:
            words.append(fallen)
        if event.get("in_hand") is not None:
            words.append(f"(in hand {_tokami_word(event['in_hand'])})")
    else:  # declined, undo, end
        words.append(kind)
    if event.get("t") is not None:
        words.append(_at(event["t"], exact))
    return " ".join(words)


def header_lines(header: Mapping[str, Any]) -> list[str]:
    """The header as ``[key JSON]`` tag lines, in the header's own order."""
    return [
        f"[{key} {_json(value)}]"
        for key, value in header.items()
        if re.fullmatch(r"[A-Za-z_][\w-]*", key)
    ]


def dumps(
    header: Mapping[str, Any],
    lines: Sequence[tuple[str, str]],
    *,
    preamble: Sequence[str] = (),
) -> str:
    """A whole notation file: the first line, ``preamble`` comment lines, the header tags, a
    blank line, then one numbered line per ``(text, comment)``."""
    out = [FIRST_LINE]
    out += [f"; {line}" if line else ";" for line in preamble]
    out += header_lines(header)
    out.append("")
    width = len(str(len(lines)))
    for number, (text, comment) in enumerate(lines, start=1):
        line = f"{number:>{width}}. {text}"
        if comment:
            line += f"  ; {comment}"
        out.append(line)
    return "\n".join(out) + "\n"


def write(header: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> str:
    """The notation of a game: its header and inputs folded through the rules, so every line
    carries its "from" space and a comment saying what the rules made of it."""
    from companion.replay.model import build

    return build(dict(header), [(i + 2, e) for i, e in enumerate(events)]).notation()


# ---------------------------------------------------------------------------------- reading


def looks_like_notation(text: str) -> bool:
    """Whether ``text`` is a notation file rather than JSON Lines: its first line that is
    neither blank nor a comment is a ``[key value]`` tag."""
    for line in text.split("\n"):
        s = line.strip()
        if not s or s.startswith(";") or s.startswith("#"):
            continue
        return _TAG.match(s) is not None
    return False


def _tokens(text: str) -> Iterator[str]:
    for m in _TOKEN.finditer(text):
        token = m.group(0)
        if token.startswith(";"):
            return
        yield token


def _time(token: str, line: int) -> float:
    try:
        return parse_time(token)
    except ValueError as exc:
        raise MalformedInput(str(exc), line) from None


def parse(text: str) -> Scenario:
    """Read a notation file into the header and the inputs, each with its line number, as a
    scenario file would give them. Raises :class:`MalformedInput` naming the line."""
    header: dict[str, Any] = {}
    events: list[tuple[int, Mapping[str, Any]]] = []
    header_line = 1
    moves_started = False
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        tag = _TAG.match(line)
        if tag is not None:
            if moves_started:
                raise MalformedInput("header tags [key value] must come before the moves", number)
            try:
                value = json.loads(tag.group(2))
            except json.JSONDecodeError as exc:
                raise MalformedInput(
                    f"[{tag.group(1)} ...]: the value is not JSON ({exc.msg}); "
                    'write text in double quotes, e.g. [ruleset "adjusted"]',
                    number,
                ) from None
            if not header:
                header_line = number
            header[tag.group(1)] = value
            continue
        if not moves_started:
            game = header.get("game")
            if game not in NOTATION_GAMES:
                raise MalformedInput(
                    f'the header must name the game first, e.g. [game "tamsk"] '
                    f"(one of {', '.join(NOTATION_GAMES)}), got {game!r}",
                    number,
                )
            moves_started = True
        for event in _parse_line(str(header["game"]), line, number):
            events.append((number, event))
    if "game" not in header:
        raise MalformedInput('no header: a notation file starts with [game "tamsk"]', 1)
    if header["game"] not in NOTATION_GAMES:
        raise MalformedInput(
            f"the notation covers {', '.join(NOTATION_GAMES)}, not {header['game']!r}",
            header_line,
        )
    return Scenario(header, events, header_line)


def _parse_line(game: str, line: str, number: int) -> list[dict[str, Any]]:
    body = line
    first = body.split(None, 1)
    if first and _NUMBER.match(first[0]):
        body = first[1] if len(first) > 1 else ""
    if body.startswith("raw") and (game != "tokami" or re.match(r"raw\s*\{", body)):
        rest = body[3:].lstrip()
        try:
            obj, end = json.JSONDecoder().raw_decode(rest)
        except json.JSONDecodeError as exc:
            raise MalformedInput(f"raw: not a JSON object ({exc.msg})", number) from None
        tail = rest[end:].strip()
        if not isinstance(obj, dict) or (tail and not tail.startswith(";")):
            raise MalformedInput("raw: expected one JSON object, e.g. raw {\"ev\": ...}", number)
        return [obj]
    if game == "tokami":
        return _parse_tokami(body, number)
    tokens = list(_tokens(body))
    if not tokens:
        raise MalformedInput("an empty line after its number", number)
    if game == "tamsk":
        return _parse_tamsk(tokens, number)
    return _parse_tantrix(tokens, number)


def _common(tokens: list[str], number: int, *, time_required: bool) -> list[dict[str, Any]]:
    """``end @T`` and ``note "text" @T``."""
    head, rest = tokens[0], tokens[1:]
    event: dict[str, Any] = {}
    if head == "note":
        if not rest or not rest[0].startswith('"'):
            raise MalformedInput('a note needs its text in double quotes: note "..." @1:23', number)
        try:
            text = json.loads(rest[0])
        except json.JSONDecodeError:
            raise MalformedInput("the note's text is not a valid quoted string", number) from None
        rest = rest[1:]
        event = {"ev": "note", "text": text}
    else:
        event = {"ev": "end"}
    t = _only_time(rest, number, required=time_required, what=head)
    if t is not None:
        event = {"t": t, **event}
    return [event]


def _only_time(rest: list[str], number: int, *, required: bool, what: str) -> float | None:
    if not rest:
        if required:
            raise MalformedInput(f"{what} needs its time, e.g. @1:23.4", number)
        return None
    if len(rest) > 1 or not rest[0].startswith("@"):
        raise MalformedInput(f"{what}: unexpected {' '.join(rest)!r} (expected @TIME)", number)
    return _time(rest[0][1:], number)


def _parse_tamsk(tokens: list[str], number: int) -> list[dict[str, Any]]:
    from companion.tamsk.board import is_space

    head = tokens[0]
    if head in ("end", "note"):
        return _common(tokens, number, time_required=True)
    if head in TAMSK_GLASSES:
        if len(tokens) < 2:
            raise MalformedInput(f"{head}: expected a move (a1-b2), lift or putback", number)
        verb = tokens[1]
        if verb in ("lift", "putback"):
            t = _only_time(tokens[2:], number, required=True, what=f"{head} {verb}")
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
        return _tamsk_move(head, move.group(2), tokens[2:], number)
    if head in TAMSK_PLAYERS:
        if len(tokens) < 2:
            raise MalformedInput(f"{head}: expected T15, pass or +ring", number)
        verb = tokens[1]
        if verb in ("T15", "pass"):
            t = _only_time(tokens[2:], number, required=True, what=f"{head} {verb}")
            return [{"t": t, "ev": "timer15" if verb == "T15" else "pass", "player": head}]
        ring = _RING.match(verb)
        if ring is None or ring.group(1) is not None or ring.group(3) is not None:
            raise MalformedInput(
                f"{head} {verb}: expected T15, pass, +ring or +ring:SPACE", number
            )
        t = _only_time(tokens[2:], number, required=True, what=f"{head} +ring")
        event: dict[str, Any] = {"t": t, "ev": "ring", "player": head}
        if ring.group(2):
            event["space"] = ring.group(2)
        return [event]
    raise MalformedInput(
        f"{head!r}: a Tamsk line starts with a glass (r1..b3), a player (red, black), end, "
        "note or raw",
        number,
    )


def _tamsk_move(glass: str, to: str, rest: list[str], number: int) -> list[dict[str, Any]]:
    mover = "red" if glass.startswith("r") else "black"
    when: float | None = None
    lift: tuple[bool, float | None] = (False, None)
    rings: list[tuple[str, str | None, float | None]] = []
    for token in rest:
        if token.startswith("@"):
            if when is not None:
                raise MalformedInput("a move has one @TIME (glue others: +ring@1:24)", number)
            when = _time(token[1:], number)
            continue
        if token == "late":
            continue
        glued = _GLUED.match(token)
        if glued is not None and glued.group(1) == "lift":
            lift = (True, None if glued.group(2) is None else _time(glued.group(2), number))
            continue
        ring = _RING.match(token)
        if ring is not None:
            at = None if ring.group(3) is None else _time(ring.group(3), number)
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


def _parse_tantrix(tokens: list[str], number: int) -> list[dict[str, Any]]:
    if tokens[0] in TANTRIX_COLOURS:
        tokens = tokens[1:]
        if not tokens:
            raise MalformedInput("a colour alone: expected #TILE (q,r) rK, done or undo", number)
    head = tokens[0]
    if head in ("end", "note"):
        return _common(tokens, number, time_required=False)
    if head in ("done", "undo"):
        event: dict[str, Any] = {"ev": head}
        t = _only_time(tokens[1:], number, required=False, what=head)
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
        glued = _GLUED.match(token)
        if token.startswith("@") and "t" not in place and len(out) == 1:
            place["t"] = _time(token[1:], number)
        elif glued is not None and glued.group(1) == "done" and len(out) == 1:
            done: dict[str, Any] = {"ev": "done"}
            if glued.group(2) is not None:
                done["t"] = _time(glued.group(2), number)
            out.append(done)
        else:
            raise MalformedInput(
                f"unexpected {token!r} after a placement (expected @TIME, then done or "
                "done@TIME)",
                number,
            )
    return out


def _tokami_tokens(body: str, number: int) -> list[str]:
    out: list[str] = []
    for m in _TOKAMI_TOKEN.finditer(body):
        token = m.group(0)
        if token.startswith(";"):
            break
        if token.startswith('"'):
            try:
                json.loads(token)
            except json.JSONDecodeError:
                raise MalformedInput(f"{token}: not a valid quoted name", number) from None
        out.append(token)
    return out


def _tokami_colour(token: str | None, number: int, what: str) -> str:
    if token is None or token in (",", "(", ")", "+") or token.startswith("@"):
        raise MalformedInput(f"{what}: expected a colour, got {token or 'nothing'!r}", number)
    if token.startswith('"'):
        value = json.loads(token)
        if not isinstance(value, str) or not value:
            raise MalformedInput(f"{what}: {token} is not a colour", number)
        return value
    return token


_TOKAMI_FORMS = (
    "a Tokami line is NAME: COLOUR up[, +BONUS], NAME: fell C1,C2 [(in hand C)], "
    "NAME: COLOUR not higher, NAME: declined, undo, end or raw {...} (then @TIME if known)"
)


def _parse_tokami(body: str, number: int) -> list[dict[str, Any]]:
    """One Tokami line back to its input (see :func:`tokami_text`)."""
    event: dict[str, Any] = {}
    player: str | None = None
    rest = body
    if body.startswith('"'):
        try:
            name, end = json.JSONDecoder().raw_decode(body)
        except json.JSONDecodeError:
            raise MalformedInput("a quoted name or colour is not closed", number) from None
        if isinstance(name, str) and body[end:].startswith(":"):
            player, rest = name, body[end + 1 :]  # else a quoted colour starts the line
    else:
        m = _TOKAMI_NAME.match(body)
        if m is not None:
            player, rest = m.group(1), body[m.end() :]
    tokens = _tokami_tokens(rest, number)
    if tokens and tokens[-1].startswith("@"):
        event["t"] = _time(tokens.pop()[1:], number)
    if any(t.startswith("@") for t in tokens):
        raise MalformedInput("a Tokami line has one @TIME, at its end", number)
    if not tokens:
        raise MalformedInput(_TOKAMI_FORMS, number)
    head = tokens[0]
    if head in ("declined", "undo", "end") and len(tokens) == 1:
        event["ev"] = head
    elif head == "fell":
        fallen: list[str] = []
        i = 1
        while i < len(tokens) and tokens[i] != "(":
            fallen.append(_tokami_colour(tokens[i], number, "fell"))
            i += 1
            if i < len(tokens) and tokens[i] == ",":
                i += 1
                if i == len(tokens) or tokens[i] == "(":
                    raise MalformedInput("fell: a colour is missing after a comma", number)
            elif i < len(tokens) and tokens[i] != "(":
                raise MalformedInput("fell: separate the colours with commas", number)
        event.update({"ev": "fell", "fallen": fallen})
        if i < len(tokens):
            hand = tokens[i:]
            if len(hand) != 5 or hand[1:3] != ["in", "hand"] or hand[4] != ")":
                raise MalformedInput("fell: the block in hand is written (in hand COLOUR)", number)
            event["in_hand"] = _tokami_colour(hand[3], number, "in hand")
    elif len(tokens) >= 2 and head not in TOKAMI_WORDS:
        block = _tokami_colour(head, number, "the block")
        if tokens[1:] == ["up"]:
            event.update({"ev": "higher", "block": block})
        elif tokens[1:] == ["not", "higher"]:
            event.update({"ev": "not_higher", "block": block})
        elif len(tokens) == 5 and tokens[1:4] == ["up", ",", "+"]:
            bonus = _tokami_colour(tokens[4], number, "the bonus")
            event.update({"ev": "bonus", "block": block, "bonus": bonus})
        else:
            raise MalformedInput(_TOKAMI_FORMS, number)
    else:
        raise MalformedInput(_TOKAMI_FORMS, number)
    out: dict[str, Any] = {}
    if "t" in event:
        out["t"] = event.pop("t")
    out["ev"] = event.pop("ev")
    if player is not None:
        out["player"] = player
    out.update(event)
    return [out]


class NotationGame(Protocol):
    """A game's notation facet (filled in by the notation refactor)."""
