"""`companion simulate`: run a scenario file (or a journal) through a game engine.

Each game package provides ``companion.<game>.simulate`` with two functions::

    simulate(header, events) -> dict      # the contract's JSON object
    summary(result) -> str                # the same, readable by a person

``events`` is a list of ``(line_number, event_object)``. A bad line raises
:class:`companion.scenario.MalformedInput`; refused moves are reported in the result instead.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any, Protocol, cast

from companion.scenario import MalformedInput, NumberedEvent, Scenario, parse_lines


class GameSimulator(Protocol):
    def simulate(self, header: dict[str, Any], events: list[NumberedEvent]) -> dict[str, Any]: ...

    def summary(self, result: dict[str, Any]) -> str: ...


def simulator_for(game: str) -> GameSimulator:
    """The ``simulate`` module of a game's package."""
    return cast(GameSimulator, importlib.import_module(f"companion.{game}.simulate"))


def read_scenario(path: str | Path) -> Scenario:
    """Read a scenario or journal file; a missing or undecodable file is a MalformedInput."""
    try:
        text = Path(path).read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise MalformedInput(f"{path}: no such file") from None
    except UnicodeDecodeError as exc:
        line = text_line_of_offset(Path(path).read_bytes(), exc.start)
        raise MalformedInput("not UTF-8 text", line) from None
    except OSError as exc:
        raise MalformedInput(f"{path}: {exc.strerror}") from None
    return parse_lines(text.splitlines())


def text_line_of_offset(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


def run_scenario(scenario: Scenario) -> dict[str, Any]:
    return simulator_for(scenario.game).simulate(scenario.header, scenario.events)


def simulate_file(path: str | Path) -> dict[str, Any]:
    """Read and simulate one file; raises MalformedInput for a bad file."""
    return run_scenario(read_scenario(path))
