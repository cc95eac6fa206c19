"""Table controllers for the keypad games, and one place to pick a controller by game kind.

:class:`companion.tamsk.table.Table` runs a Tamsk table (tilt switches, buttons, sand, the 15-second
timer). :class:`~companion.tantrix.table.TantrixTable` and
:class:`~companion.tokami.table.TokamiTable` run Tantrix and Tokami tables, played from the
keypad alone, and :class:`~companion.puzzle.table.PuzzleTable` a solo Tantrix Discovery
puzzle. All of them share one interface, so the daemon and the desktop backend drive any of
them alike:

``Table(clock, journal_dir, *, config, sound=None, on_record=None)``, then ``start_game(...)``
(the game's own options) or ``resume(path)``; ``feed(raw)`` for each
:class:`~companion.tamsk.table.RawInput`; ``poll()`` when ``next_wakeup()`` is due; ``view()`` for
:func:`companion.hw.display.pick_screen`; ``status_line()``; ``close()``; the ``changed`` flag,
``journal_path`` and ``game``.

>>> table_class("tantrix").__name__
'TantrixTable'
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from companion.clock import Clock

log = logging.getLogger(__name__)

#: Game kind (``config["game"]["kind"]``, a journal header's ``"game"``) -> "module:class".
KINDS: dict[str, str] = {
    "tamsk": "companion.tamsk.table:Table",
    "tantrix": "companion.tantrix.table:TantrixTable",
    "tokami": "companion.tokami.table:TokamiTable",
    "puzzle": "companion.puzzle.table:PuzzleTable",
}


def table_class(kind: str) -> type[Any]:
    """The controller class for a game kind; an unknown kind is refused with the known ones."""
    try:
        module, name = KINDS[kind].split(":")
    except KeyError:
        raise ValueError(f"unknown game {kind!r}: choose one of {', '.join(KINDS)}") from None
    cls: type[Any] = getattr(importlib.import_module(module), name)
    return cls


def game_kind(config: Mapping[str, Any]) -> str:
    """The game this table is set up for: ``config["game"]["kind"]``, Tamsk when absent."""
    return str((config.get("game") or {}).get("kind", "tamsk"))


def make_table(
    config: Mapping[str, Any],
    clock: Clock,
    journal_dir: str | Path,
    *,
    sound: Callable[[str], None] | None = None,
    on_record: Callable[[dict[str, Any]], None] | None = None,
) -> Any:
    """A controller for the configured game, waiting for ``start_game`` or ``resume``."""
    cls = table_class(game_kind(config))
    return cls(clock, journal_dir, config=config, sound=sound, on_record=on_record)


def start_configured_game(table: Any, config: Mapping[str, Any]) -> Path:
    """Start a new game on ``table`` with the options the configuration gives."""
    kind = game_kind(config)
    if kind == "tantrix":
        from companion.tantrix.table import players_from_config

        path: Path = table.start_game(players_from_config(config))
    elif kind == "puzzle":
        from companion.puzzle.table import n_from_config

        path = table.start_game(n_from_config(config))
    elif kind == "tokami":
        from companion.tokami.table import options_from_config

        options = options_from_config(config)
        path = table.start_game(options.pop("players"), **options)
    else:
        from companion.daemon import rules_from_config

        path = table.start_game(rules_from_config(config))
    return path


def find_unfinished(journal_dir: str | Path, kind: str) -> Path | None:
    """The newest journal of game ``kind`` in the folder whose game is not over (a damaged one
    is logged and passed over, never fatal)."""
    from companion.simulate import load, simulator_for

    folder = Path(journal_dir)
    candidates = sorted(folder.glob(f"{kind}-*.jsonl"), key=lambda p: p.stat().st_mtime)
    for path in reversed(candidates):
        try:
            loaded = load(path)
            state = simulator_for(kind).simulate(loaded.scenario.header, loaded.scenario.events)
        except Exception as exc:  # a damaged journal is reported, never fatal
            log.warning("%s: cannot resume: %s", path, exc)
            continue
        if not state["over"] and not state.get("ended"):
            return path
    return None


__all__ = [
    "KINDS",
    "find_unfinished",
    "game_kind",
    "make_table",
    "start_configured_game",
    "table_class",
]
