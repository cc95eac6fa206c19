"""`companion simulate`: run a scenario file (or a journal) through a game engine.

Each game kind (:mod:`companion.registry`) provides two functions (its package's ``simulate``
module)::

    simulate(header, events) -> dict      # the contract's JSON object
    summary(result) -> str                # the same, readable by a person

``events`` is a list of ``(line_number, event_object)``. A bad line raises
:class:`companion.scenario.MalformedInput`; refused moves are reported in the result instead.
A journal is read through :mod:`companion.journal`, so a torn last line is dropped with a note.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, Protocol

from companion import journal as journal_mod
from companion import lines, notation, registry
from companion.scenario import MalformedInput, NumberedEvent, Scenario, parse_lines


class GameSimulator(Protocol):
    """What :func:`simulator_for` gives: a game kind's two record functions."""

    def simulate(
        self, header: Mapping[str, Any], events: Iterable[NumberedEvent]
    ) -> dict[str, Any]: ...

    def summary(self, result: Mapping[str, Any]) -> str: ...


class UnknownGame(registry.UnknownGame, ImportError):
    """A game no registered kind answers to (an ImportError too, as when each game was looked
    up as a module)."""


@dataclass
class Loaded:
    """A scenario read from a file, with notes for the reader (e.g. a torn journal line)."""

    scenario: Scenario
    notes: list[str] = field(default_factory=list)
    journal: journal_mod.Journal | None = None


def simulator_for(game: str) -> GameSimulator:
    """The game kind called ``game`` (:mod:`companion.registry`), which simulates and
    summarises its records; :class:`UnknownGame` when there is none."""
    try:
        return registry.get(game)
    except registry.UnknownGame as exc:
        raise UnknownGame(str(exc)) from None


def check_game(scenario: Scenario) -> Scenario:
    """The scenario, once its header names a registered game (else :class:`MalformedInput`
    on the header's line)."""
    names = registry.names()
    if scenario.header.get("game") not in names:
        raise MalformedInput(
            f"the header must name the game as one of {', '.join(names)}, "
            f"got {scenario.header.get('game')!r}",
            scenario.header_line,
        )
    return scenario


def _looks_like_journal(first: bytes) -> bool:
    try:
        obj = lines.loads(lines.decode(first.rstrip(b"\r\n"), 1), 1)
    except MalformedInput:
        return False
    return isinstance(obj, dict) and "hash" in obj and "prev" in obj


def load(path: str | Path) -> Loaded:
    """Read a scenario, a journal or a notation file, line by line within the limits of
    :mod:`companion.lines`; a file that cannot be read at all is MalformedInput (saying why,
    without the path, which the caller's message begins with)."""
    try:
        stream = open(path, "rb")  # noqa: SIM115 (closed below)
    except FileNotFoundError:
        raise MalformedInput("no such file") from None
    except OSError as exc:
        raise MalformedInput(str(exc.strerror or exc)) from None
    try:
        with stream:
            return _load(stream)
    except IsADirectoryError as exc:
        raise MalformedInput(str(exc.strerror or exc)) from None


def _load(stream: BinaryIO) -> Loaded:
    first = stream.readline(lines.MAX_LINE_BYTES + 1)
    stream.seek(0)
    if _looks_like_journal(first):
        j = journal_mod.read_stream(stream)
        bad = journal_mod.refused(j)
        if bad is not None:
            raise MalformedInput(bad.message, bad.line)
        if j.header is None:
            raise MalformedInput("the journal has no readable header", 1)
        notes = []
        if j.torn is not None:
            notes.append(f"note: {j.torn}")
        for p in j.problems:
            notes.append(f"warning: {p} (run `companion verify` for details)")
        scenario = check_game(parse_lines([json.dumps(j.header)]))
        scenario.events = list(j.events)
        return Loaded(scenario, notes, j)
    if _notation(stream):
        data = stream.read(MAX_NOTATION_BYTES + 1)
        if len(data) > MAX_NOTATION_BYTES:
            raise MalformedInput(f"a notation file larger than {MAX_NOTATION_BYTES} bytes")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise MalformedInput("not UTF-8 text", data.count(b"\n", 0, exc.start) + 1) from None
        return Loaded(notation.parse(text))
    return Loaded(check_game(parse_lines(_text_lines(stream))))


#: A notation file is read whole (it is one game's moves, a few kilobytes).
MAX_NOTATION_BYTES = 16 << 20


def _notation(stream: BinaryIO) -> bool:
    """Whether the first line that is neither blank nor a comment is a notation tag (the
    stream is left at its start)."""
    try:
        for number, _offset, raw, _complete in lines.read_lines(stream):
            text = lines.decode(raw, number)
            if text.strip() and not text.strip().startswith(("#", ";")):
                return notation.looks_like_notation(text)
        return False
    finally:
        stream.seek(0)


def _text_lines(stream: BinaryIO) -> Iterator[str]:
    """Each line's text, one at a time (memory does not grow with the file)."""
    for number, _offset, raw, _complete in lines.read_lines(stream):
        yield lines.decode(raw, number)


def read_scenario(path: str | Path) -> Scenario:
    return load(path).scenario


def run_scenario(scenario: Scenario) -> dict[str, Any]:
    return simulator_for(scenario.game).simulate(scenario.header, scenario.events)


def simulate_file(path: str | Path) -> dict[str, Any]:
    """Read and simulate one file; raises MalformedInput for a bad file."""
    return run_scenario(read_scenario(path))
