"""The table the daemon drives, whatever the game: one typed interface, found through the registry.

Every game kind's controller (:mod:`companion.tamsk.table`, :mod:`companion.tantrix.table`, ...)
satisfies :class:`Table`, so the daemon, the desktop backend and the arbiter hooks drive any of
them alike: ``start_game`` (through :meth:`companion.registry.GameKind.start_from_config`) or
``resume(path)``; ``feed(raw)`` for each :class:`~companion.inputs.RawInput`; ``poll()`` when
``next_wakeup()`` is due; ``view()`` for the screen; ``status_line()``; ``close()``.

>>> from companion.clock import FakeClock
>>> type(make_table({"game": {"kind": "tantrix"}}, FakeClock(), "/tmp")).__name__
'TantrixTable'
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from companion import registry
from companion.clock import Clock
from companion.inputs import RawInput

log = logging.getLogger(__name__)

#: A key handler placed in front of the game (arbiter mode): True when it took the key.
KeyFilter = Callable[[str, float], bool]
#: A rewrite of the table's view before it is drawn (arbiter mode's menu).
ViewFilter = Callable[[dict[str, Any]], dict[str, Any]]


@runtime_checkable
class Table(Protocol):
    """What the daemon needs of a table controller."""

    #: Something to redraw since the last frame (the daemon clears it after drawing).
    changed: bool
    #: The folder the table writes its journals into.
    journal_dir: Path
    #: The open game's journal header (``{}`` before a game starts).
    header: dict[str, Any]
    #: Whether arbiter mode (PIN menu, corrections, publishing) runs at this game's table.
    arbiter_at_table: bool
    #: Arbiter mode's hooks, when the game offers them at the table (else left None).
    key_filter: KeyFilter | None
    view_filter: ViewFilter | None

    @property
    def journal_path(self) -> Path | None:
        """The open game's journal."""
        ...

    def resume(self, path: str | Path) -> list[str]:
        """Take up the game in ``path``; returns notes for the log (a torn tail, ...)."""
        ...

    def feed(self, raw: RawInput) -> None:
        """One input from a backend, journaled before it is acknowledged."""
        ...

    def poll(self) -> None:
        """Whatever is due now without an input (timers, messages timing out)."""
        ...

    def next_wakeup(self) -> float | None:
        """When :meth:`poll` next has something to do (monotonic seconds), or None."""
        ...

    def animating(self) -> bool:
        """Whether the screen changes with no input (sand running, a countdown, a message)."""
        ...

    def settle_inputs(self, levels: Mapping[str, bool]) -> None:
        """The switches' levels read at start-up (tilt switches); tables without any ignore it."""
        ...

    def view(self) -> dict[str, Any]:
        """The state to draw, with ``"game"`` naming the kind that draws it."""
        ...

    def status_line(self) -> str:
        """One line for systemd's status."""
        ...

    def notice(self, text: str, seconds: float) -> None:
        """A message from outside the game (the hub link, the disk) shown for a while."""
        ...

    def close(self) -> None:
        """Close the journal; the table takes no more inputs."""
        ...


def make_table(
    config: Mapping[str, Any],
    clock: Clock,
    journal_dir: str | Path,
    *,
    sound: Callable[[str], None] | None = None,
    on_record: Callable[[dict[str, Any]], None] | None = None,
) -> Table:
    """A controller for the configured game, waiting for ``start_game`` or ``resume``."""
    return registry.configured(config).make_table(
        clock, journal_dir, config=config, sound=sound, on_record=on_record
    )


def start_configured_game(table: Table, config: Mapping[str, Any]) -> Path:
    """Start a new game on ``table`` with the options the configuration gives."""
    return registry.configured(config).start_from_config(table, config)


def header_extras(config: Mapping[str, Any]) -> dict[str, Any]:
    """Header fields every game records from the config: the tournament round
    (``companion new-game --round N`` sets ``[game] round``), read by the arbiter's results."""
    value = (config.get("game") or {}).get("round")
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return {"round": value}
    return {}


def find_unfinished(journal_dir: str | Path, kind: str) -> Path | None:
    """The newest journal of game ``kind`` in the folder whose game is not over (a damaged one
    is logged and passed over, never fatal)."""
    from companion.simulate import load

    game = registry.get(kind)
    folder = Path(journal_dir)
    candidates = sorted(folder.glob(f"{kind}-*.jsonl"), key=lambda p: p.stat().st_mtime)
    for path in reversed(candidates):
        try:
            loaded = load(path)
            state = game.simulate(loaded.scenario.header, loaded.scenario.events)
        except Exception as exc:  # a damaged journal is reported, never fatal
            log.warning("%s: cannot resume: %s", path, exc)
            continue
        if not game.is_over(state):
            return path
    return None


__all__ = [
    "KeyFilter",
    "Table",
    "ViewFilter",
    "find_unfinished",
    "header_extras",
    "make_table",
    "start_configured_game",
]
