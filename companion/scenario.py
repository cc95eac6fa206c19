"""Reading scenario files and journals: JSON Lines with a header line, then one event a line.

This module is pure (it parses text, it opens nothing), so the game cores may use its
:class:`MalformedInput` to report a bad line with its number.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.lines import MalformedInput, check_time, loads

__all__ = ["MalformedInput", "NumberedEvent", "Scenario", "event_times", "parse_lines"]

#: One event of a scenario: its line number (1-based) and the decoded object.
NumberedEvent = tuple[int, Mapping[str, Any]]


@dataclass
class Scenario:
    """A parsed scenario: the header object and every later event with its line number."""

    header: dict[str, Any]
    events: list[NumberedEvent] = field(default_factory=list)
    header_line: int = 1

    @property
    def game(self) -> str:
        return str(self.header["game"])


def parse_lines(lines: Iterable[str]) -> Scenario:
    """Parse JSON Lines text into a :class:`Scenario`.

    Blank lines and lines starting with ``#`` are skipped. Every other line must be one JSON
    object; the first is the header and must name the game (``"game"``, a name: whether a game
    of that name is known is for the caller to say, see :func:`companion.simulate.load`).
    Raises :class:`MalformedInput` naming the line.
    """
    header: dict[str, Any] | None = None
    header_line = 1
    events: list[NumberedEvent] = []
    for number, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        obj = loads(text, number)  # bounded: companion.lines
        if not isinstance(obj, dict):
            raise MalformedInput(f"expected a JSON object, got {type(obj).__name__}", number)
        if header is None:
            game = obj.get("game")
            if not isinstance(game, str) or not game:
                raise MalformedInput(f"the header must name the game, got {game!r}", number)
            header = obj
            header_line = number
        else:
            events.append((number, obj))
    if header is None:
        raise MalformedInput('the file has no header line (e.g. {"game": "tamsk"})', 1)
    return Scenario(header, events, header_line)


def event_times(events: Sequence[NumberedEvent], *, required: bool) -> list[float]:
    """Check every event's ``t`` (seconds, non-decreasing) and return them.

    Where ``required`` is false a missing ``t`` repeats the previous one (Tantrix events may
    omit it).
    """
    return [t for _, _, t in timed_events(events, required=required)]


def timed_events(
    events: Iterable[NumberedEvent], *, required: bool
) -> Iterator[tuple[int, Mapping[str, Any], float]]:
    """Each event with its checked time, as :func:`event_times` checks them, one at a time
    (a fold can go on while a journal is read)."""
    last = 0.0
    for number, event in events:
        t = event.get("t")
        if t is None and not required:
            yield number, event, last
            continue
        if isinstance(t, bool) or not isinstance(t, (int, float)):
            raise MalformedInput(
                'every event needs "t", seconds since the start, as a number', number
            )
        if t != t or t in (float("inf"), float("-inf")) or t < 0:
            raise MalformedInput(f'"t" must be a finite number of seconds >= 0, got {t!r}', number)
        check_time(t, number)
        if t < last:
            raise MalformedInput(f"time goes backwards: t={t} after t={last}", number)
        last = float(t)
        yield number, event, last


def correction_head(
    obj: Mapping[str, Any], *, game: str, whats: Sequence[str], line: int | None = None
) -> dict[str, Any]:
    """What every arbiter correction of a keypad game must say: which kind (one of ``whats``),
    why (a non-empty ``reason``: corrections are never made without one) and who made it
    (``by``); :class:`MalformedInput` naming what is missing. The game checks the rest."""
    what = obj.get("what")
    if what not in whats:
        raise MalformedInput(
            f"unknown {game} correction {what!r} (expected one of {', '.join(whats)})", line
        )
    reason = obj.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        raise MalformedInput(f'a {what!r} correction needs a "reason": corrections are never '
                             "made without one", line)
    by = obj.get("by")
    if not isinstance(by, str):
        raise MalformedInput(f'a {what!r} correction needs "by" (who made it: "arbiter")', line)
    return {"what": what, "reason": reason.strip(), "by": by}
