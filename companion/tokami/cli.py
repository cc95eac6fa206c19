"""Tokami's own command: ``companion tokami play NAME NAME...``, a game on the desktop keypad
and screen, as ``companion tantrix play`` starts one of Tantrix (no config file to write)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from companion.i18n import _


def play_config(players: list[str], rounds: int) -> dict[str, Any]:
    """The built-in configuration set up for a Tokami table of ``players`` (in turn order)."""
    from companion.config import defaults

    config = defaults()
    config["game"]["kind"] = "tokami"
    config["tokami"]["players"] = list(players)
    config["tokami"]["rounds"] = rounds
    return config


def cmd_play(args: argparse.Namespace) -> int:
    from companion.config import ConfigError
    from companion.tokami.table import validate_config

    config = play_config(list(args.players), args.rounds)
    try:
        validate_config(config)
    except ConfigError as exc:
        why = str(exc).removeprefix("'tokami': ")
        print(f"companion tokami play: {why}", file=sys.stderr)
        return 2
    from companion.desktop import main as desktop_main

    return desktop_main(config, Path(args.journal_dir) if args.journal_dir else None)


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``companion tokami play``."""
    from companion.argtypes import whole

    p = sub.add_parser("tokami", help=_("Tokami: play NAME NAME... on the desktop keypad"),
                       description=_("Tokami at the desktop keypad and screen."))
    verbs = p.add_subparsers(dest="verb", metavar="VERB")
    verbs.required = True
    v = verbs.add_parser(
        "play", help=_("a game on the desktop keypad (2 to 5 players)"),
        description=_("A Tokami game on the desktop keypad and screen, with the block set of the "
        "box (9 of each colour); the first name plays first "
        "(e.g. companion tokami play Ada Ben Chloé)."))
    v.add_argument("players", nargs="+", metavar="NAME",
                   help=_("2 to 5 names, in turn order"))
    v.add_argument("--rounds", type=whole(1, what="the number of rounds"), default=1,
                   help=_("rounds to play; the totals decide (default 1)"))
    v.add_argument("--journal-dir", metavar="DIR",
                   help=_("where the journal goes (default ~/.local/share/companion)"))
    v.set_defaults(func=cmd_play)
