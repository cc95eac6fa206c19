"""A game kind laid out by convention: one package, one module per facet.

:class:`PackageKind` implements :class:`companion.registry.GameKind` for a game whose package
``P`` holds the facets under fixed names, so adding a game is adding modules, not editing the
shared machinery:

=====================  ==========================================================
``P.simulate``         ``simulate(header, events)``, ``summary(result)``; optional
                       ``validate_header(header)`` (the pure rules' front door)
``P.table``            ``TABLE``, the controller class (built as ``TABLE(clock,
                       journal_dir, *, config, sound, on_record)``), and
                       ``start_from_config(table, config)``; optional
                       ``validate_config(config)`` raising ``ConfigError``
``P.screens``          ``screen(view, *, size, mode)``: the OLED picture
``P.replay``           the :class:`companion.replay.kinds.ReplayGame` facet (optional)
``P.notation``         the :class:`companion.notation.NotationGame` facet (optional)
``P.arbiter``          the :class:`companion.arbiter.kinds.ArbiterGame` facet (optional)
``P.cli``              ``add_commands(subparsers)`` for the game's own commands (optional)
``P.standings``        the :class:`companion.tournament.record.StandingsGame` facet (optional)
=====================  ==========================================================

Every facet is imported on first use, so the daemon imports one game and none of the replay or
arbiter code.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    import argparse

    from PIL import Image

    from companion.arbiter.kinds import ArbiterGame
    from companion.clock import Clock
    from companion.notation import NotationGame
    from companion.replay.kinds import ReplayGame
    from companion.scenario import NumberedEvent
    from companion.tables import Table


class PackageKind:
    """A game kind whose facets are the modules of one package (see the module docstring)."""

    def __init__(self, name: str, title: str, package: str) -> None:
        self.name = name
        self.title = title
        self.package = package

    def __repr__(self) -> str:
        return f"<game kind {self.name!r} from {self.package}>"

    # ------------------------------------------------------------------ modules
    def module(self, facet: str) -> ModuleType:
        """The facet's module, imported now."""
        return importlib.import_module(f"{self.package}.{facet}")

    def optional(self, facet: str) -> ModuleType | None:
        """The facet's module, or None when the game has none (a missing module only: an
        error inside an existing one is raised)."""
        name = f"{self.package}.{facet}"
        try:
            return importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                return None
            raise

    # ------------------------------------------------------------------ records
    def validate_header(self, header: Mapping[str, Any]) -> dict[str, Any]:
        check = getattr(self.module("simulate"), "validate_header", None)
        return dict(header) if check is None else cast(dict[str, Any], check(header))

    def simulate(
        self, header: Mapping[str, Any], events: Iterable[NumberedEvent]
    ) -> dict[str, Any]:
        """A game whose ``simulate`` module says ``ONE_PASS = True`` folds the events as they
        come (memory does not grow with a journal's length); any other is given a list."""
        module = self.module("simulate")
        if not getattr(module, "ONE_PASS", False) and not isinstance(events, list):
            events = list(events)
        return cast(dict[str, Any], module.simulate(dict(header), events))

    def summary(self, result: Mapping[str, Any]) -> str:
        """The game's summary in the players' language, when its ``summary`` takes the gettext
        functions (``_`` and ``pgettext``: its rules never import gettext), else as it says it."""
        summary = self.module("simulate").summary
        if "_" in inspect.signature(summary).parameters:
            from companion import i18n

            return str(summary(dict(result), _=i18n._, pgettext=i18n.pgettext))
        return str(summary(dict(result)))

    def is_over(self, state: Mapping[str, Any]) -> bool:
        return bool(state.get("over") or state.get("ended"))

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
        cls = self.module("table").TABLE
        table = cls(clock, journal_dir, config=config, sound=sound, on_record=on_record)
        return cast("Table", table)

    def start_from_config(self, table: Table, config: Mapping[str, Any]) -> Path:
        return Path(self.module("table").start_from_config(table, config))

    def configure_players(self, config: dict[str, Any], players: list[str]) -> None:
        """``companion new-game --players``: put the players into ``config`` the way this game
        reads them (``P.table.configure_players``); ValueError when the game cannot take them.
        Not part of :class:`~companion.registry.GameKind`: a kind without it takes no
        ``--players``."""
        configure = getattr(self.module("table"), "configure_players", None)
        if configure is None:
            raise ValueError(f"{self.title}: new-game takes no --players")
        configure(config, players)

    def add_new_game_options(self, parser: argparse.ArgumentParser) -> None:
        """This game's own options of ``companion new-game`` (``P.cli.add_new_game_options``)."""
        cli = self.optional("cli")
        if cli is not None and hasattr(cli, "add_new_game_options"):
            cli.add_new_game_options(parser)

    def new_game_options(self, args: argparse.Namespace, config: dict[str, Any]) -> None:
        """Put this game's new-game options into ``config`` (``P.cli.new_game_options``);
        ValueError for a bad one."""
        cli = self.optional("cli")
        if cli is not None and hasattr(cli, "new_game_options"):
            cli.new_game_options(args, config)

    def config_defaults(self) -> dict[str, Any]:
        return {}

    def validate_config(self, config: Mapping[str, Any]) -> None:
        check = getattr(self.module("table"), "validate_config", None)
        if check is not None:
            check(config)

    def screen(self, view: Mapping[str, Any], *, size: tuple[int, int], mode: str) -> Image.Image:
        return cast("Image.Image", self.module("screens").screen(view, size=size, mode=mode))

    # ------------------------------------------------------------------ facets
    def replay(self) -> ReplayGame | None:
        return cast("ReplayGame | None", self.optional("replay"))

    def notation(self) -> NotationGame | None:
        return cast("NotationGame | None", self.optional("notation"))

    def arbiter(self) -> ArbiterGame | None:
        return cast("ArbiterGame | None", self.optional("arbiter"))

    def standings(self) -> ModuleType | None:
        """How the game counts in a tournament's standings (its points and tie-breaks)."""
        return self.optional("standings")

    def add_commands(self, sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
        cli = self.optional("cli")
        if cli is not None and hasattr(cli, "add_commands"):
            cli.add_commands(sub)
