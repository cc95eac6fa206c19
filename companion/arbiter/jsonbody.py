"""A request's JSON body, parsed within limits: size, nesting depth, and nothing ambiguous.

Python's :func:`json.loads` recurses once per ``[`` or ``{``: a 16 KiB body of nested brackets
is 8,000 levels deep and ends in a :class:`RecursionError`, which is not a :class:`ValueError`
and so escaped the page's handlers as a 500 with a traceback, before any PIN was checked.
:func:`parse` counts the nesting first, with a flat scan that never recurses, and refuses a body
deeper than the page's own script ever sends (:data:`MAX_DEPTH`) before the parser sees it.

It also refuses what two readers of the same bytes could disagree on, so the page never acts
on a body that means something else to the table, the log or the journal:

- a key twice in one object (``{"pin": "0000", "pin": "2468"}``: the last wins in Python,
  the first in some other readers);
- ``NaN``, ``Infinity`` and numbers that overflow to them (not JSON: RFC 8259);
- text that is not UTF-8 (``json.loads`` would guess UTF-16 or UTF-32 from the bytes), and
  ``\\ud800``-style escapes of lone surrogates, which decode to a string that cannot be
  written back as UTF-8 (to the audit log, or to the table's signed command).

Pure: bytes in, a value or a :class:`BodyRefused` out.
"""

from __future__ import annotations

import json
import math
from http import HTTPStatus
from typing import Any

#: The deepest nesting accepted. The page's own script sends at most three levels (the body,
#: a correction, a Tokami turn given as a JSON object); eight leaves room for a game's richer
#: correction field and is far below what the parser could choke on (about a thousand).
MAX_DEPTH = 8

_OPEN = frozenset(b"[{")
_CLOSE = frozenset(b"]}")
_QUOTE = ord('"')
_BACKSLASH = ord("\\")


class BodyRefused(ValueError):
    """A body the page will not read: the HTTP status to answer with and one line saying why."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail


def nesting_depth(raw: bytes, stop_above: int | None = None) -> int:
    """The deepest nesting of ``[`` and ``{`` in ``raw`` outside strings, by one flat scan.

    Counts whatever the bytes are, valid JSON or not (the parser judges validity afterwards);
    with ``stop_above``, returns as soon as the depth exceeds it.
    """
    depth = deepest = 0
    in_string = escaped = False
    for byte in raw:
        if in_string:
            if escaped:
                escaped = False
            elif byte == _BACKSLASH:
                escaped = True
            elif byte == _QUOTE:
                in_string = False
        elif byte == _QUOTE:
            in_string = True
        elif byte in _OPEN:
            depth += 1
            if depth > deepest:
                deepest = depth
                if stop_above is not None and deepest > stop_above:
                    return deepest
        elif byte in _CLOSE:
            depth -= 1
    return deepest


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise BodyRefused(HTTPStatus.BAD_REQUEST, f"the key {key[:40]!r} is given twice")
        out[key] = value
    return out


def _no_constant(name: str) -> Any:
    raise BodyRefused(HTTPStatus.BAD_REQUEST, f"{name} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise BodyRefused(HTTPStatus.BAD_REQUEST, "a number too large for JSON")
    return value


def parse(raw: bytes, *, max_size: int, max_depth: int = MAX_DEPTH) -> Any:
    """The JSON value ``raw`` holds (``None`` for an empty body), or :class:`BodyRefused`
    with 413 (larger than ``max_size``) or 400 (too deep, not UTF-8, not JSON, ambiguous)."""
    if len(raw) > max_size:
        raise BodyRefused(HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
                          f"the body is over {max_size} bytes")
    if not raw.strip():
        return None
    if nesting_depth(raw, stop_above=max_depth) > max_depth:
        raise BodyRefused(HTTPStatus.BAD_REQUEST,
                          f"the JSON is nested more than {max_depth} levels deep")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BodyRefused(HTTPStatus.BAD_REQUEST, "the body is not UTF-8 text") from None
    try:
        value = json.loads(text, object_pairs_hook=_no_duplicates,
                           parse_constant=_no_constant, parse_float=_finite)
    except BodyRefused:
        raise
    except (ValueError, RecursionError):  # RecursionError: cannot happen below MAX_DEPTH
        raise BodyRefused(HTTPStatus.BAD_REQUEST, "the body is not valid JSON") from None
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise BodyRefused(HTTPStatus.BAD_REQUEST,
                          "the JSON holds an escaped lone surrogate (not text)") from None
    return value
