"""Reading the fields of one Tantrix event (shared by Strategy and the solo modes)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.scenario import MalformedInput
from companion.tantrix.game import Placement
from companion.tantrix.geometry import LIMIT


def integer(event: Mapping[str, Any], name: str, low: int, high: int, line: int) -> int:
    value = event.get(name)
    if value is None:
        raise MalformedInput(f'a {event.get("ev", "place")} event needs "{name}"', line)
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedInput(f'"{name}" must be an integer, got {value!r}', line)
    if not low <= value <= high:
        raise MalformedInput(f'"{name}" must be between {low} and {high}, got {value}', line)
    return value


def parse_placement(event: Mapping[str, Any], line: int) -> Placement:
    """The placement a ``place`` event describes, or MalformedInput naming the bad field."""
    return Placement(
        tile=integer(event, "tile", 1, 56, line),
        q=integer(event, "q", -LIMIT, LIMIT, line),
        r=integer(event, "r", -LIMIT, LIMIT, line),
        rot=integer(event, "rot", 0, 5, line),
    )


