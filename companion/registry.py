"""Game kinds: what a game provides, and the one registry that finds them.

A *game kind* (Tamsk, Tantrix, Tokami, the Tantrix solo puzzles, ...) is one package under
``companion/`` holding everything specific to that game: its pure rules, its table controller,
its OLED screens, its replay fold and picture, its notation and its arbiter board. The shared
machinery (journal, daemon, hardware, screen primitives, replay GIF/HTML/terminal, arbiter
station, MQTT) reaches a game only through the :class:`GameKind` contract below, and finds the
kinds only through this registry.

Kinds are declared as ``importlib.metadata`` entry points in the group ``companion.games``,
the way gpiozero finds its pin factories, so a club can ship a game as a separate package::

    [project.entry-points."companion.games"]
    mygame = "companion_mygame.kind:KIND"

Loading a kind is cheap: the entry point's object only names modules, and each facet (table,
screens, replay, ...) is imported the first time it is asked for, so ``companion run`` on a
Pi Zero imports one game, not all of them.

>>> sorted(names())[:3]
['puzzle', 'tamsk', 'tantrix']
>>> get("tamsk").title
'Tamsk'
"""

from __future__ import annotations

import importlib
import importlib.metadata
import logging
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:  # the facets' own contracts live with the machinery that uses them
    import argparse

    from PIL import Image

    from companion.arbiter.kinds import ArbiterGame
    from companion.clock import Clock
    from companion.notation import NotationGame
    from companion.replay.kinds import ReplayGame
    from companion.scenario import NumberedEvent
    from companion.tables import Table

log = logging.getLogger(__name__)

#: The entry-point group every game kind is declared in.
ENTRY_POINT_GROUP = "companion.games"
#: The game a table plays when its config names none.
DEFAULT_KIND = "tamsk"
#: The kinds this package ships, used only when its metadata cannot be read (running from a
#: source tree that was never installed); an installed package always reads its entry points.
_BUILTIN = {
    "tamsk": "companion.tamsk.kind:KIND",
    "tantrix": "companion.tantrix.kind:KIND",
    "tokami": "companion.tokami.kind:KIND",
    "puzzle": "companion.puzzle.kind:KIND",
}


class UnknownGame(ValueError):
    """A game name no registered kind answers to."""


@runtime_checkable
class GameKind(Protocol):
    """What one game kind provides to the shared machinery.

    Every method is cheap to call and imports its facet lazily. Facets a game does not have
    (a notation for a solo puzzle, say) return ``None``; the caller says so to the user.
    """

    #: The name in journal headers (``"game"``), config (``[game] kind``) and the CLI.
    name: str
    #: The name a person reads.
    title: str

    # ------------------------------------------------------------------ records
    def validate_header(self, header: Mapping[str, Any]) -> dict[str, Any]:
        """The header checked and with its defaults filled in; a bad one raises
        :class:`companion.scenario.MalformedInput`."""
        ...

    def simulate(
        self, header: Mapping[str, Any], events: Iterable[NumberedEvent]
    ) -> dict[str, Any]:
        """Fold a header and its events (journal or scenario) into the contract's JSON state;
        ``events`` may be read as they come (a journal being read), once."""
        ...

    def summary(self, result: Mapping[str, Any]) -> str:
        """:meth:`simulate`'s result, readable by a person."""
        ...

    def is_over(self, state: Mapping[str, Any]) -> bool:
        """Whether a folded game has ended (with or without a result)."""
        ...

    # ------------------------------------------------------------------ the table
    def make_table(
        self,
        clock: Clock,
        journal_dir: str | Path,
        *,
        config: Mapping[str, Any],
        sound: Callable[[str], None] | None = None,
        on_record: Callable[[dict[str, Any]], None] | None = None,
    ) -> Table:
        """A controller for this game, waiting for ``start_game`` or ``resume``."""
        ...

    def start_from_config(self, table: Table, config: Mapping[str, Any]) -> Path:
        """Start a new game on ``table`` with the options the configuration gives."""
        ...

    def config_defaults(self) -> dict[str, Any]:
        """This game's own config section(s), e.g. ``{"tantrix": {"players": [...]}}``."""
        ...

    def validate_config(self, config: Mapping[str, Any]) -> None:
        """Refuse a config this game cannot run with (``companion.config.ConfigError``)."""
        ...

    def screen(self, view: Mapping[str, Any], *, size: tuple[int, int], mode: str) -> Image.Image:
        """The OLED picture for one of this game's table views."""
        ...

    # ------------------------------------------------------------------ facets
    def replay(self) -> ReplayGame | None:
        """Replay fold, pictures and text for ``companion replay``."""
        ...

    def notation(self) -> NotationGame | None:
        """The readable notation's writer and reader."""
        ...

    def arbiter(self) -> ArbiterGame | None:
        """The arbiter page's board and corrections."""
        ...

    def add_commands(self, sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
        """Add this game's own subcommands to ``companion`` (each with ``func`` set)."""
        ...


_kinds: dict[str, GameKind] | None = None


def _load_entry_points() -> dict[str, str]:
    found = {ep.name: ep.value for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)}
    if not found:
        log.debug("no %s entry points: using the built-in kinds", ENTRY_POINT_GROUP)
        return dict(_BUILTIN)
    return found


def _resolve(target: str) -> GameKind:
    module, _, attr = target.partition(":")
    obj: Any = importlib.import_module(module)
    for part in attr.split(".") if attr else ():
        obj = getattr(obj, part)
    if not isinstance(obj, GameKind):
        raise TypeError(f"{target} does not provide a game kind")
    return obj


def kinds() -> dict[str, GameKind]:
    """Every registered game kind by name (loaded once; a broken plug-in is logged and
    skipped, never fatal to the table)."""
    global _kinds
    if _kinds is None:
        loaded: dict[str, GameKind] = {}
        for name, target in sorted(_load_entry_points().items()):
            try:
                kind = _resolve(target)
            except Exception as exc:  # a third-party game must not stop the table
                log.warning("game %r (%s) cannot be loaded: %s", name, target, exc)
                continue
            if kind.name != name:
                log.warning("game entry point %r names a kind called %r: skipped", name, kind.name)
                continue
            loaded[name] = kind
        _kinds = loaded
    return _kinds


def names() -> list[str]:
    """The registered kinds' names, sorted (what the CLI offers as choices)."""
    return sorted(kinds())


def get(name: object) -> GameKind:
    """The kind called ``name``; an unknown one raises :class:`UnknownGame` naming the known."""
    try:
        return kinds()[str(name)]
    except KeyError:
        raise UnknownGame(f"unknown game {name!r}: choose one of {', '.join(names())}") from None


def for_header(header: Mapping[str, Any]) -> GameKind:
    """The kind a journal or scenario header names in ``"game"``."""
    return get(header.get("game"))


def configured(config: Mapping[str, Any]) -> GameKind:
    """The kind a table's config plays (``[game] kind``, :data:`DEFAULT_KIND` when absent)."""
    return get((config.get("game") or {}).get("kind", DEFAULT_KIND))


def register(kind: GameKind) -> None:
    """Add a kind at run time (tests, or a program embedding companion)."""
    kinds()[kind.name] = kind


__all__ = [
    "DEFAULT_KIND",
    "ENTRY_POINT_GROUP",
    "GameKind",
    "UnknownGame",
    "configured",
    "for_header",
    "get",
    "kinds",
    "names",
    "register",
]


def game_module(game: object, module: str) -> ModuleType | None:
    """A registered game's own module ``companion.<game>.<module>`` (its ``words``, its
    ``correction_words``), or None when the game is unknown or has no such module: what the
    shell's translators look up, so that no game is named outside its package."""
    if not isinstance(game, str) or game not in names():
        return None
    try:
        return importlib.import_module(f"companion.{game}.{module}")
    except ImportError:
        return None
