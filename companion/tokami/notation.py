"""Tokami in the notation (the :class:`companion.notation.NotationGame` facet).

One turn a line (the syntax every game shares is in :mod:`companion.notation`):
``Anna: blue up, +green @0:12`` a block taken higher with a bonus, ``Ben: fell red,blue
(in hand green)``, ``Anna: white not higher``, ``Ben: declined``, ``undo``, ``end``. A colour
or a name that is not a plain word (or is spelt like one of the line's words) is written in
double quotes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from companion import notation
from companion.notation import Record, read_time, stamp
from companion.remark import N_, Words, joined
from companion.remark import word as remark_word
from companion.scenario import MalformedInput
from companion.tokami.simulate import CONTROL_EVENTS, EVENTS
from companion.tokami.turns import Turn

#: A time is one token, its exact seconds in brackets included (``@0:03.0(3.057305)``).
_TOKEN = re.compile(r'@[\d:.]+\([\d.]+\)|"(?:[^"\\]|\\.)*"|;.*|[,()+]|[^\s,()+";]+')
_WORD = re.compile(r'[^\s,()+";:@\\]+')
_NAME = re.compile(r'([^\s",();:@\\]+):(?=\s|$)')
#: Words a Tokami line gives a meaning to: a colour or a name spelt like one is quoted.
WORDS = frozenset(
    {"up", "not", "higher", "fell", "in", "hand", "declined", "undo", "end", "resign", "note",
     "raw"}
)


def line_kind(event: Mapping[str, Any]) -> str:
    """The line kind of one Tokami input: its ``ev`` (a turn's outcome, ``undo`` or ``end``),
    or ``raw`` when it cannot be written as text (an unknown event, a missing or bad field)."""
    kind = event.get("ev")
    if kind not in EVENTS or not notation.time_ok(event, required=False):
        return "raw"
    player = event.get("player")
    if player is not None and (not isinstance(player, str) or not player):
        return "raw"
    if kind == "note" and not isinstance(event.get("text", ""), str):
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


def group(events: Sequence[Mapping[str, Any]], kinds: Sequence[str]) -> list[Record]:
    """One turn a line."""
    return notation.one_a_line(kinds)


def _word(text: str) -> str:
    """A colour or a name as one token: bare when it is a plain word, else in double quotes."""
    if (
        _WORD.fullmatch(text) is None
        or text in WORDS
        or notation.NUMBER.match(text) is not None
    ):
        return notation.json_text(text)
    return text


def _colour_word(colour: str) -> str:
    """A block's colour in a line: a word a replay says in the players' language (``rouge``),
    as the remarks say it; a quoted colour stays as it is written."""
    said = _word(colour)
    return remark_word(colour) if said == colour else said


def text(event: Mapping[str, Any], kind: str, *, exact: bool = True) -> str:
    """One Tokami line as the notation file writes it (:func:`line_words`, joined)."""
    return str(line_words(event, kind, exact=exact))


def line_words(event: Mapping[str, Any], kind: str, *, exact: bool = True) -> Words:
    """One Tokami line for one input: ``Anna: blue up, +green @0:12``. The line is a
    :class:`~companion.remark.Words`: the English text the notation file writes, whose
    words (``up``, ``fell``, ``in hand``) a replay says in the players' language; names and
    colours stay as the players chose them."""
    if kind == "raw":
        return joined([notation.raw_text(event, exact)])
    player = event.get("player")
    words: list[str | Words] = []
    if isinstance(player, str):
        words.append(_word(player) + ":")
    if kind == "bonus":
        words += [_colour_word(event["block"]), joined([remark_word(N_("up")), ","]),
                  joined(["+", _colour_word(event["bonus"])])]
    elif kind == "higher":
        words += [_colour_word(event["block"]), remark_word(N_("up"))]
    elif kind == "not_higher":
        words += [_colour_word(event["block"]), remark_word(N_("not higher"))]
    elif kind == "fell":
        words.append(remark_word(N_("fell")))
        if event["fallen"]:
            words.append(joined([_colour_word(c) for c in event["fallen"]], ","))
        if event.get("in_hand") is not None:
            words.append(joined(["(", remark_word(N_("in hand")), " ",
                                 _colour_word(event["in_hand"]), ")"]))
    elif kind == "note":
        words += [remark_word(N_("note")), notation.note_text(str(event.get("text", "")))]
    else:  # declined, undo, end, resign
        words.append(remark_word(kind))
    if event.get("t") is not None:
        words.append(stamp(event["t"], exact))
    return joined(words, " ")


#: The words of a line that is a control or a refusal, for ``make catalogs``.
CONTROL_WORDS = (N_("declined"), N_("undo"), N_("end"), N_("resign"))


def _tokens(body: str, number: int) -> list[str]:
    out: list[str] = []
    for m in _TOKEN.finditer(body):
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


def _colour(token: str | None, number: int, what: str) -> str:
    if token is None or token in (",", "(", ")", "+") or token.startswith("@"):
        raise MalformedInput(f"{what}: expected a colour, got {token or 'nothing'!r}", number)
    if token.startswith('"'):
        value = json.loads(token)
        if not isinstance(value, str) or not value:
            raise MalformedInput(f"{what}: {token} is not a colour", number)
        return value
    return token


_FORMS = (
    "a Tokami line is NAME: COLOUR up[, +BONUS], NAME: fell C1,C2 [(in hand C)], "
    "NAME: COLOUR not higher, NAME: declined, NAME: resign, undo, end, note \"TEXT\" or "
    "raw {...} (then @TIME if known)"
)


def parse_line(body: str, number: int) -> list[dict[str, Any]]:
    """One Tokami line back to its input (see :func:`text`)."""
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
        m = _NAME.match(body)
        if m is not None:
            player, rest = m.group(1), body[m.end() :]
    tokens = _tokens(rest, number)
    if tokens and tokens[-1].startswith("@"):
        event["t"] = read_time(tokens.pop()[1:], number)
    if any(t.startswith("@") for t in tokens):
        raise MalformedInput("a Tokami line has one @TIME, at its end", number)
    if not tokens:
        raise MalformedInput(_FORMS, number)
    head = tokens[0]
    if head in ("declined", "undo", "end", "resign") and len(tokens) == 1:
        event["ev"] = head
    elif head == "note":
        event.update(notation.end_or_note(tokens, number, time_required=False)[0])
    elif head == "fell":
        fallen: list[str] = []
        i = 1
        while i < len(tokens) and tokens[i] != "(":
            fallen.append(_colour(tokens[i], number, "fell"))
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
            event["in_hand"] = _colour(hand[3], number, "in hand")
    elif len(tokens) >= 2 and head not in WORDS:
        block = _colour(head, number, "the block")
        if tokens[1:] == ["up"]:
            event.update({"ev": "higher", "block": block})
        elif tokens[1:] == ["not", "higher"]:
            event.update({"ev": "not_higher", "block": block})
        elif len(tokens) == 5 and tokens[1:4] == ["up", ",", "+"]:
            bonus = _colour(tokens[4], number, "the bonus")
            event.update({"ev": "bonus", "block": block, "bonus": bonus})
        else:
            raise MalformedInput(_FORMS, number)
    else:
        raise MalformedInput(_FORMS, number)
    out: dict[str, Any] = {}
    if "t" in event:
        out["t"] = event.pop("t")
    out["ev"] = event.pop("ev")
    if player is not None:
        out["player"] = player
    out.update(event)
    return [out]
