"""The one shape every backend's input takes on its way to a table."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RawInput:
    """One raw input from any backend: a switch edge, a button edge or a key.

    ``kind`` is "tilt" (``name`` a glass, ``value`` the switch level), "button" (``name`` like
    "ring.red", "timer15.black", "timer15.shared" or "menu"; ``value`` pressed) or "key"
    (``name`` the key: 0-9, A-D, * or #). ``t`` is monotonic seconds when it happened.
    """

    kind: str
    name: str
    value: bool
    t: float
