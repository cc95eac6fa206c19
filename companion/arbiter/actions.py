"""What an arbiter's keypad menu asks the station to do: journal a correction, a note, or change
a tournament option. A game's menu (:class:`companion.arbiter.kinds.KeypadMenu`) returns these
from every key; :class:`companion.arbiter.station.ArbiterStation` carries them out."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Correct:
    """Journal this correction (its fields; the station adds ``t``, ``by`` and ``auth``)."""

    body: dict[str, Any]


@dataclass(frozen=True)
class Note:
    """Journal a note (for the record: PIN attempts, entering and leaving arbiter mode)."""

    text: str
    fields: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class SetOption:
    """Change a tournament option (the station records it and applies it)."""

    name: str
    value: Any


Action = Correct | Note | SetOption
