"""Bounded reading of JSON Lines (scenarios, journals): a hostile file never crashes a reader.

Every line is read one at a time (memory does not grow with the file) and checked against
fixed limits before it is decoded: its length, its nesting depth, the size of its numbers and
the range of its time. Anything beyond is :class:`~companion.scenario.MalformedInput` naming the
line and the limit, never a traceback.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from typing import IO, Any


class MalformedInput(ValueError):
    """A scenario or journal line that is not a valid input at all (not a refused move).

    Defined here, below every reader; :mod:`companion.scenario` re-exports it."""

    def __init__(self, message: str, line: int | None = None) -> None:
        self.message = message
        self.line = line
        super().__init__(f"line {line}: {message}" if line is not None else message)

#: Longest line read, in bytes (a journal record is a few hundred).
MAX_LINE_BYTES = 1 << 20
#: Deepest nesting of arrays and objects in one line.
MAX_DEPTH = 32
#: Most digits in an integer.
MAX_INT_DIGITS = 30
#: Longest text of a non-integer number.
MAX_NUMBER_CHARS = 64
#: Largest ``t`` accepted, in seconds (about 115 days).
MAX_T = 1e7

BOM = "\ufeff"


def read_lines(stream: IO[bytes], *, start: int = 1) -> Iterator[tuple[int, int, bytes, bool]]:
    """Each line of a binary stream as ``(number, offset, bytes without newline, complete)``.

    ``complete`` is false for a last line with no newline. A line longer than
    :data:`MAX_LINE_BYTES` raises MalformedInput (without reading it whole).
    """
    number = start - 1
    offset = 0
    while True:
        raw = stream.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        number += 1
        complete = raw.endswith(b"\n")
        if not complete and len(raw) > MAX_LINE_BYTES:
            raise MalformedInput(f"line longer than the limit of {MAX_LINE_BYTES} bytes", number)
        body = raw[:-1] if complete else raw
        if body.endswith(b"\r"):
            body = body[:-1]
        yield number, offset, body, complete
        offset += len(raw)


def decode(raw: bytes, number: int) -> str:
    """A line's text: UTF-8, with no byte order mark and no NUL byte."""
    if len(raw) > MAX_LINE_BYTES:
        raise MalformedInput(f"line longer than the limit of {MAX_LINE_BYTES} bytes", number)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise MalformedInput(f"not UTF-8 text (byte {exc.start + 1} of the line)", number) from None
    check_text(text, number)
    return text


def check_text(text: str, number: int) -> None:
    if text.startswith(BOM):
        raise MalformedInput("a byte order mark (BOM): save the file as UTF-8 without BOM", number)
    if "\x00" in text:
        raise MalformedInput("a NUL byte in the line", number)
    if len(text) > MAX_LINE_BYTES:
        raise MalformedInput(f"line longer than the limit of {MAX_LINE_BYTES} bytes", number)


def _depth(text: str) -> int:
    """The deepest nesting of ``[`` and ``{`` outside strings."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
        elif ch in "]}":
            depth -= 1
    return deepest


class _Refused(ValueError):
    pass


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise _Refused(f"an integer of more than {MAX_INT_DIGITS} digits")
    return int(text)


def _float(text: str) -> float:
    if len(text) > MAX_NUMBER_CHARS:
        raise _Refused(f"a number written with more than {MAX_NUMBER_CHARS} characters")
    value = float(text)
    if not math.isfinite(value):
        raise _Refused(f"a number too large to be finite ({text[:20]})")
    return value


def _constant(name: str) -> Any:
    raise _Refused(f"{name} is not a number JSON allows")


def loads(text: str, number: int) -> Any:
    """Decode one line of JSON within the limits; MalformedInput names the line and the limit."""
    check_text(text, number)
    if (text.count("[") + text.count("{")) > MAX_DEPTH and _depth(text) > MAX_DEPTH:
        raise MalformedInput(f"nested deeper than the limit of {MAX_DEPTH} levels", number)
    try:
        return json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except _Refused as exc:
        raise MalformedInput(f"{exc} (beyond the reader's limits)", number) from None
    except json.JSONDecodeError as exc:
        raise MalformedInput(f"not valid JSON ({exc.msg} at column {exc.colno})", number) from None
    except (ValueError, RecursionError) as exc:  # a limit of the parser itself
        raise MalformedInput(f"not readable JSON ({type(exc).__name__})", number) from None


def check_time(t: Any, number: int) -> None:
    """A ``t`` that is a number must be finite and within [0, MAX_T]."""
    if isinstance(t, bool) or not isinstance(t, (int, float)):
        return
    if not (0 <= t <= MAX_T):
        raise MalformedInput(
            f'"t" must be a number of seconds from 0 to {MAX_T:g}, got {str(t)[:40]}', number
        )
