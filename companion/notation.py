"""A game as plain text, one move a line: written for people, read back by programs.

A journal is exact but unreadable (one JSON object an input, hashes, wall clocks); a notation
file is what a club player pastes into a mail or a forum, and what ``companion simulate`` and
``companion replay`` read back. It keeps every input of the game (so the game replays to the
same state, refusals and penalties included) and drops only what the rules never look at::

    ; companion notation 1
    [game "tamsk"]
    [level 3]
    [names {"red": "Ada", "black": "Ben"}]

    1. r1 a1-b2 +ring@0:03.6 @0:03.0(3.057305) lift@0:03.0(3.032288)
    2. b1 d1-d2 +ring @0:07.3
       red T15 @0:20.0
    3. b3 a4-b5 +ring(red) @0:31.5  ; black late (15 s ran out at 0:30.1)

Syntax, common to both games:

* ``[key JSON]`` lines hold the header, one field a line, before the first move.
* ``;`` starts a comment to the end of the line (``companion notation`` writes what the rules
  made of each line there: refusals, penalties, passes; a reader ignores them).
* A move's line starts with its number (``12.``: moves count from 1, as ``companion replay``
  numbers them); any other line (a timer turned, a pass, a refused input, the end) is indented
  under the move before it, without a number. A reader ignores the numbers.
* ``@TIME`` is when it happened, in tenths as the clock showed it (``1:23.4``, rounded down,
  the same as the replay and the screens). A record's time that is not on a tenth keeps its
  exact seconds in brackets after the tenths (``0:03.0(3.057305)``), so the text gives back the
  very same float and the game replays exactly; a reader checks that the exact seconds show as
  the tenths written. Plain seconds (``83.4``) and ``m:ss`` with more decimals are read too.
  A token may carry its own time glued to it (``+ring@0:03.6``, ``lift@0:03.03``,
  ``done@0:44``); without one it takes the time of its line (Tamsk) or has none (Tantrix,
  whose times are optional).
* ``note "text" @TIME`` keeps a remark, ``end @TIME`` the arbiter's stop, and
  ``raw {...}`` keeps an input this version does not know (a newer journal's event) exactly as
  it was, so nothing is ever lost in a round trip.

Each game's own lines are read and written by its notation module,
``companion.<game>.notation`` (the :class:`NotationGame` facet, found through
:mod:`companion.registry`): Tamsk moves, Tantrix placements, Tokami turns. This module is the
part every game shares: the header tags, times, comments, line numbers, ``raw``, ``note`` and
``end``, cutting inputs into lines and the file around them.

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
from typing import TYPE_CHECKING, Any, Protocol

from companion import registry
from companion.remark import N_, Remark, Words, joined
from companion.scenario import MalformedInput, Scenario

if TYPE_CHECKING:
    from companion.registry import GameKind

FORMAT = 1
FIRST_LINE = f"; companion notation {FORMAT}"

_TAG = re.compile(r"^\[([A-Za-z_][\w-]*)\s+(.*)\]$")
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|;.*|\S+')
#: A line's number (``12.``), which a reader ignores.
NUMBER = re.compile(r"^\d+\.$")
_TIME = re.compile(r"^(?:(\d+):)?(\d+(?:\.\d*)?)$")
#: A time as the clock showed it with the record's exact seconds beside it: ``0:03.0(3.057305)``.
_SHOWN_AND_EXACT = re.compile(r"^(.+)\((\d+(?:\.\d+)?)\)$")
#: A word with its own time glued to it: ``lift@0:03.03``, ``done@0:44``.
GLUED = re.compile(r"^(lift|done)(?:@(\S+))?$")
_RAW = re.compile(r"raw\s*\{")


class NotationGame(Protocol):
    """A game's notation facet: the module ``companion.<game>.notation``.

    The shared core (:func:`group`, :func:`parse`) calls these; each game's fold also writes
    its lines with the module's own ``text`` function, whose options differ from game to game.
    """

    def line_kind(self, event: Mapping[str, Any]) -> str:
        """The line kind of one input (its ``ev``, say), ``"raw"`` for one this version
        cannot write as text (an unknown event, or a known one with a missing or bad field)."""
        ...

    def group(self, events: Sequence[Mapping[str, Any]], kinds: Sequence[str]) -> list[Record]:
        """Cut the inputs (with their :meth:`line_kind`) into lines; only consecutive inputs
        may share a line (:func:`one_a_line` when every input is a line of its own)."""
        ...

    def parse_line(self, body: str, number: int) -> list[dict[str, Any]]:
        """One line (without its number; never a ``raw {...}`` line, which the core reads)
        back to its inputs; :class:`MalformedInput` naming ``number`` when it cannot be."""
        ...


def facet(game: object) -> NotationGame | None:
    """The notation of the game called ``game`` (None: an unknown game, or one without)."""
    kind: GameKind | None = registry.kinds().get(str(game)) if isinstance(game, str) else None
    return None if kind is None else kind.notation()


def notation_games() -> list[str]:
    """The games the notation covers: the registered kinds that have a notation facet."""
    return [name for name, kind in sorted(registry.kinds().items()) if kind.notation()]


def _facet(game: object) -> NotationGame:
    found = facet(game)
    if found is None:
        raise MalformedInput(
            f"the notation covers {', '.join(notation_games())}, not {game!r}", 1
        )
    return found


# ---------------------------------------------------------------------------------- times


def format_time(t: float, *, exact: bool = True) -> str:
    """``t`` seconds as ``m:ss.d``, in tenths rounded down like the clock shows them.

    ``exact`` keeps the record's exact seconds too, so that :func:`parse_time` gives back the
    very same float: a time on a tenth is written as it is (``1:23.4``), any other gets its
    exact seconds in brackets after the tenths (``0:03.0(3.057305)``). People read the tenths,
    the same as the replay and the screens; the journal's exact time survives the round trip.
    """
    if not math.isfinite(t):
        raise ValueError(f"not a time: {t!r}")
    shown = _tenths(t)
    if not exact or parse_time(shown) == float(t):
        return shown
    if t < 0:  # never recorded; kept exact rather than invented
        return _exact(t)
    return f"{shown}({_plain(t)})"


def _tenths(t: float) -> str:
    sign = "-" if t < 0 else ""
    tenths = int(abs(t) * 10 + 1e-6)
    minutes, rest = divmod(tenths, 600)
    return f"{sign}{minutes}:{rest // 10:02d}.{rest % 10}"


def _plain(t: float) -> str:
    """Seconds with every decimal the float needs (``3.057305``), never an exponent."""
    return format(Decimal(repr(float(t))).normalize(), "f")


def _exact(t: float) -> str:
    sign = "-" if t < 0 else ""
    t = abs(t)
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
    """``m:ss.fff`` or plain seconds back to a float; ValueError for anything else.

    ``0:03.0(3.057305)`` (the clock's tenths, then the exact seconds) is the exact seconds,
    once they are checked to show as those tenths.
    """
    both = _SHOWN_AND_EXACT.match(text)
    if both is not None:
        shown, exact = parse_time(both.group(1)), float(Decimal(both.group(2)))
        if _tenths(exact) != _tenths(shown):
            raise ValueError(f"{text!r}: the exact time {both.group(2)} s does not show as "
                             f"{both.group(1)}")
        return exact
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


def time_ok(event: Mapping[str, Any], *, required: bool) -> bool:
    """Whether the input's ``t`` can be written (a finite time >= 0, or none when allowed)."""
    t = event.get("t")
    if t is None:
        return not required
    return _number(t) and math.isfinite(t) and t >= 0


def one_a_line(kinds: Sequence[str]) -> list[Record]:
    """Every input a line of its own."""
    return [Record(kind, [i]) for i, kind in enumerate(kinds)]


def line_kind(game: str, event: Mapping[str, Any]) -> str:
    """The line kind of one input of ``game`` (see :meth:`NotationGame.line_kind`)."""
    return _facet(game).line_kind(event)


def group(game: str, events: Sequence[Mapping[str, Any]]) -> list[Record]:
    """Cut a game's inputs into lines. Only consecutive inputs share a line, so reading the
    lines back gives the inputs in their original order (how they share one is the game's
    :meth:`NotationGame.group`: a Tamsk move with its lift and rings, a Tantrix placement with
    its ``done``). Everything else is a line of its own."""
    game_notation = _facet(game)
    kinds = [game_notation.line_kind(e) for e in events]
    return game_notation.group(events, kinds)


# ---------------------------------------------------------------------------------- writing


def json_text(value: Any, separators: tuple[str, str] = (", ", ": ")) -> str:
    """JSON for one line: readable (no ``\\u`` escapes for accents) but never broken in two by
    a character some readers take for a line break."""
    text = json.dumps(value, ensure_ascii=False, separators=separators)
    for ch in ("\x85", "\u2028", "\u2029"):
        text = text.replace(ch, f"\\u{ord(ch):04x}")
    return text


#: The notes a table writes in its journal by itself, in English (journals and notation files
#: keep them as written); a replay says them in the players' language.
TABLE_NOTES = (
    N_("game over: the journal is complete"),
    N_("resumed after {seconds} s"),
    N_("sand confirmed after the power cut: it ran {seconds} s"),
)
_TABLE_NOTES = tuple(
    (re.compile("^" + re.escape(t).replace(r"\{seconds\}", r"(?P<seconds>-?[\d.]+)") + "$"), t)
    for t in TABLE_NOTES
)


def note_text(text: str) -> str | Words:
    """A note's text as a line writes it (in double quotes); a note the table wrote itself is
    :class:`~companion.remark.Words` whose text a replay says in the players' language."""
    quoted = json_text(text)
    for pattern, template in _TABLE_NOTES:
        match = pattern.match(text)
        if match is not None and quoted == f'"{text}"':
            values = {k: Remark.via(_decimal_words, v) for k, v in match.groupdict().items()}
            return joined(['"', Remark(template, **values), '"'])
    return quoted


def _decimal_words(text: str) -> str:
    """A note's seconds (``80.9``, as the table wrote them) with the reader's decimal mark
    (``80,9``); the notation file keeps the table's text."""
    from companion import numbers

    digits = len(text.partition(".")[2])
    return numbers.decimal(float(text), digits)


def stamp(t: Any, exact: bool) -> str:
    """``@TIME`` for ``t`` seconds (exact, or in tenths for people)."""
    return "@" + format_time(float(t), exact=exact)


def raw_text(event: Mapping[str, Any], exact: bool) -> str:
    """An input this version cannot write as a line: ``raw {...}`` exactly, or for people its
    kind and short values (``correct: penalty red forfeit``)."""
    if exact:
        return "raw " + json_text(dict(event))
    kind = event.get("ev")
    when = f" {stamp(event['t'], False)}" if time_ok(event, required=True) else ""
    words = [
        str(v) for k, v in event.items()
        if k not in ("t", "ev", "reason", "by", "auth", "text") and isinstance(v, (str, int))
        and not isinstance(v, bool) and len(str(v)) <= 12
    ][:4]
    name = kind if isinstance(kind, str) and kind.isidentifier() else json_text(kind)
    return f"{name}: {' '.join(words)}{when}" if words else f"{name}{when}"


def header_lines(header: Mapping[str, Any]) -> list[str]:
    """The header as ``[key JSON]`` tag lines, in the header's own order."""
    return [
        f"[{key} {json_text(value)}]"
        for key, value in header.items()
        if re.fullmatch(r"[A-Za-z_][\w-]*", key)
    ]


def dumps(
    header: Mapping[str, Any],
    lines: Sequence[tuple[str, str]],
    *,
    numbers: Sequence[int | None] | None = None,
    preamble: Sequence[str] = (),
) -> str:
    """A whole notation file: the first line, ``preamble`` comment lines, the header tags, a
    blank line, then one line per ``(text, comment)``: a move after its number (``numbers``,
    the replay's :attr:`~companion.replay.model.Line.number`), any other line (None: a timer,
    a pass, a refusal, the end...) indented under the move before it. Without ``numbers``
    the lines are numbered 1, 2, 3..."""
    out = [FIRST_LINE]
    out += [f"; {line}" if line else ";" for line in preamble]
    out += header_lines(header)
    out.append("")
    shown = list(numbers) if numbers is not None else list(range(1, len(lines) + 1))
    if len(shown) != len(lines):
        raise ValueError(f"{len(lines)} lines but {len(shown)} numbers")
    width = len(str(max((n for n in shown if n is not None), default=0)))
    for (text, comment), number in zip(lines, shown, strict=True):
        if number is not None:
            line = f"{number:>{width}}. {text}"
        else:
            line = f"{'':>{width}}  {text}"
        if comment:
            line += f"  ; {comment}"
        out.append(line)
    return "\n".join(out) + "\n"


def write(header: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> str:
    """The notation of a game: its header and inputs folded through the rules (the game's
    replay fold), so every line carries its "from" space and a comment saying what the rules
    made of it."""
    game = header.get("game")
    _facet(game)
    replay = registry.get(game).replay()
    if replay is None:  # pragma: no cover - every game with a notation has a replay
        raise MalformedInput(f"{game!r} games have no replay to write from", 1)
    numbered = [(i + 2, e) for i, e in enumerate(events)]
    return replay.fold(dict(header), numbered, []).notation()


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


def tokens(text: str) -> Iterator[str]:
    """The words of a line: quoted strings whole, up to a ``;`` comment."""
    for m in _TOKEN.finditer(text):
        token = m.group(0)
        if token.startswith(";"):
            return
        yield token


def words(body: str, number: int) -> list[str]:
    """:func:`tokens` of a line that must have some."""
    found = list(tokens(body))
    if not found:
        raise MalformedInput("an empty line after its number", number)
    return found


def read_time(token: str, line: int) -> float:
    """:func:`parse_time`, a bad time being :class:`MalformedInput` on ``line``."""
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
    game_notation: NotationGame | None = None
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        tag = _TAG.match(line)
        if tag is not None:
            if game_notation is not None:
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
        if game_notation is None:
            game = header.get("game")
            game_notation = facet(game)
            if game_notation is None:
                raise MalformedInput(
                    f'the header must name the game first, e.g. [game "tamsk"] '
                    f"(one of {', '.join(notation_games())}), got {game!r}",
                    number,
                )
        for event in _parse_line(game_notation, line, number):
            events.append((number, event))
    if "game" not in header:
        raise MalformedInput('no header: a notation file starts with [game "tamsk"]', 1)
    if facet(header["game"]) is None:
        raise MalformedInput(
            f"the notation covers {', '.join(notation_games())}, not {header['game']!r}",
            header_line,
        )
    return Scenario(header, events, header_line)


def _parse_line(game: NotationGame, line: str, number: int) -> list[dict[str, Any]]:
    body = line
    first = body.split(None, 1)
    if first and NUMBER.match(first[0]):
        body = first[1] if len(first) > 1 else ""
    if _RAW.match(body):
        return parse_raw(body, number)
    return game.parse_line(body, number)


def parse_raw(body: str, number: int) -> list[dict[str, Any]]:
    """``raw {...}``: an input kept exactly as it was."""
    rest = body[3:].lstrip()
    try:
        obj, end = json.JSONDecoder().raw_decode(rest)
    except json.JSONDecodeError as exc:
        raise MalformedInput(f"raw: not a JSON object ({exc.msg})", number) from None
    tail = rest[end:].strip()
    if not isinstance(obj, dict) or (tail and not tail.startswith(";")):
        raise MalformedInput("raw: expected one JSON object, e.g. raw {\"ev\": ...}", number)
    return [obj]


def end_or_note(tokens: list[str], number: int, *, time_required: bool) -> list[dict[str, Any]]:
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
    t = only_time(rest, number, required=time_required, what=head)
    if t is not None:
        event = {"t": t, **event}
    return [event]


def only_time(rest: list[str], number: int, *, required: bool, what: str) -> float | None:
    """The ``@TIME`` that must be all that is left of a line (None: none, and none needed)."""
    if not rest:
        if required:
            raise MalformedInput(f"{what} needs its time, e.g. @1:23.4", number)
        return None
    if len(rest) > 1 or not rest[0].startswith("@"):
        raise MalformedInput(f"{what}: unexpected {' '.join(rest)!r} (expected @TIME)", number)
    return read_time(rest[0][1:], number)
