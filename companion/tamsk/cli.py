"""Tamsk's own commands: ``companion demo`` and ``calibrate`` (``new-game`` is shared:
:mod:`companion.newgame`)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from companion import oserrors
from companion.config import config_for_command
from companion.i18n import _


def cmd_demo(args: argparse.Namespace) -> int:
    from pathlib import Path

    from companion.folders import cannot_write
    from companion.tamsk.demo import main as demo_main

    if args.window and not args.interactive:
        print("companion demo: " + _(
            "--window shows the game you play: use it with --interactive (the scripted demo "
            "draws the OLED in the terminal and into --gif)"), file=sys.stderr)
        return 2
    config = config_for_command(args.config) if args.config or args.interactive else None
    journal_dir = Path(args.journal_dir) if args.journal_dir else None
    if journal_dir is None and args.interactive and args.config:  # the table's own folder
        assert config is not None
        journal_dir = Path(str(config["table"]["journal_dir"]))
    gif = Path(args.gif) if args.gif else Path("out/demo-oled.gif")
    journal_option = "--journal-dir" if args.journal_dir else "[table] journal_dir"
    for option, folder in ((journal_option, journal_dir), ("--gif", gif.parent)):
        if folder is not None and (problem := cannot_write(folder)) is not None:
            print(f"companion demo: {option} {folder}: {problem}", file=sys.stderr)
            return 2
    if args.interactive:
        import os

        from companion.desktop import main as desktop_main

        if args.window:
            os.environ["COMPANION_WINDOW"] = "1"
        assert config is not None
        return desktop_main(config, journal_dir)
    try:
        return demo_main(args.speed, gif, journal_dir)
    except OSError as exc:
        print(f"companion demo: {exc.filename or ''}: {oserrors.problem(exc)}", file=sys.stderr)
        return 2


def cmd_calibrate(args: argparse.Namespace) -> int:
    from pathlib import Path

    from companion import config as config_mod
    from companion.tamsk.calibrate import main as calibrate_main

    cfg = config_for_command(args.config)
    path = Path(args.config) if args.config else config_mod.DEFAULT_PATH
    backend = args.backend or str(cfg["table"]["backend"])
    from gpiozero.exc import BadPinFactory

    from companion.cli import quiet_pin_fallbacks
    from companion.hw.display import DisplayMissing

    quiet_pin_fallbacks()
    try:
        return calibrate_main(cfg, path, backend)
    except DisplayMissing as exc:
        print(f"companion calibrate: {exc}", file=sys.stderr)
    except BadPinFactory:
        print("companion calibrate: " + _(
            "no GPIO on this machine (not a Raspberry Pi, or lgpio missing: see "
            "docs/install.md); try --backend mock"), file=sys.stderr)
    except OSError as exc:
        print(f"companion calibrate: {exc.filename or path}: {oserrors.problem(exc)}",
              file=sys.stderr)
    return 2


def add_new_game_options(parser: argparse.ArgumentParser) -> None:
    """Tamsk's own options of the shared ``companion new-game`` (:mod:`companion.newgame`)."""
    parser.add_argument(
        "--challenge",
        choices=["red", "black"],
        metavar="OWNER",
        help=_("Tamsk: a GIPF potential challenge: the colour of the potential's owner "
        "(the other colour challenges)"),
    )
    parser.add_argument(
        "--challenge-number",
        type=int,
        default=1,
        help=_("Tamsk: which challenge of the GIPF game this is (default 1)"),
    )
    parser.add_argument(
        "--challenges-allowed",
        type=int,
        default=1,
        help=_("Tamsk: challenges the players agreed on for the GIPF game (default 1)"),
    )
    parser.add_argument(
        "--challenge-attempt",
        type=int,
        default=1,
        help=_("Tamsk: the game number for this challenge (a tie makes another; default 1)"),
    )
    parser.add_argument("--gipf", help=_("Tamsk: the GIPF game's name, for the record"))


def new_game_options(args: argparse.Namespace, config: dict[str, Any]) -> None:
    """Put Tamsk's new-game options into ``config`` (``[game] header``: more header fields,
    which :func:`companion.tamsk.table.start_from_config` writes); ValueError if bad."""
    if not getattr(args, "challenge", None):
        return
    from companion.tamsk.challenge import challenge_header

    try:
        extra = challenge_header(
            args.challenge,
            number=args.challenge_number,
            allowed=args.challenges_allowed,
            attempt=args.challenge_attempt,
            gipf=args.gipf or "",
        )
    except ValueError as exc:
        raise ValueError(f"--challenge: {exc}") from None
    config["game"]["header"] = extra


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be above 0, got {text}")
    return value


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add Tamsk's commands to ``companion``."""
    p = sub.add_parser("demo", help=_("a scripted level-3 game on mock pins, OLED in the terminal"))
    p.add_argument("--speed", type=_positive, default=12.0,
                   help=_("time compression (default 12)"))
    p.add_argument("--gif", help=_("where to write the OLED animation (default out/demo-oled.gif)"))
    p.add_argument("--journal-dir",
                   help=_("where the demo's journal goes (default a temp folder; with "
                   "--interactive the --config's journal_dir, else ~/.local/share/companion)"))
    p.add_argument("--interactive", action="store_true", help=_("play yourself (desktop backend)"))
    p.add_argument(
        "--window",
        action="store_true",
        help=_("with --interactive: also show the OLED in a window (needs the desktop extra)"),
    )
    p.add_argument("--config", help=_("config file for --interactive"))
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser("calibrate", help=_("measure each hourglass's run time, save it"))
    p.add_argument("--config", help=_("config file to update (default /etc/companion/config.toml)"))
    p.add_argument("--backend", choices=["pi", "mock", "desktop"])
    p.set_defaults(func=cmd_calibrate)

