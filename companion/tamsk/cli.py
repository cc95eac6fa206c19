"""Tamsk's own commands: ``companion demo``, ``new-game`` and ``calibrate``."""

from __future__ import annotations

import argparse
import sys

from companion.config import config_for_command


def cmd_demo(args: argparse.Namespace) -> int:
    from pathlib import Path

    from companion.tamsk.demo import main as demo_main

    if args.interactive:
        import os

        from companion.desktop import main as desktop_main

        if args.window:
            os.environ["COMPANION_WINDOW"] = "1"
        return desktop_main(config_for_command(args.config))
    gif = Path(args.gif) if args.gif else Path("out/demo-oled.gif")
    return demo_main(args.speed, gif, Path(args.journal_dir) if args.journal_dir else None)


def cmd_calibrate(args: argparse.Namespace) -> int:
    from pathlib import Path

    from companion import config as config_mod
    from companion.tamsk.calibrate import main as calibrate_main

    cfg = config_for_command(args.config)
    path = Path(args.config) if args.config else config_mod.DEFAULT_PATH
    backend = args.backend or str(cfg["table"]["backend"])
    return calibrate_main(cfg, path, backend)


def cmd_new_game(args: argparse.Namespace) -> int:
    from pathlib import Path

    from companion.clock import MonotonicClock
    from companion.tamsk.table import Table, rules_from_config

    cfg = config_for_command(args.config)
    game = cfg["game"]
    for key in ("level", "ruleset", "start"):
        if getattr(args, key) is not None:
            game[key] = getattr(args, key)
    journal_dir = Path(args.journal_dir or cfg["table"]["journal_dir"])
    names = {p: n for p, n in (("red", args.red), ("black", args.black)) if n}
    extra = None
    if args.challenge:
        from companion.tamsk.challenge import challenge_header

        try:
            extra = challenge_header(args.challenge, number=args.challenge_number,
                                     allowed=args.challenges_allowed,
                                     attempt=args.challenge_attempt, gipf=args.gipf or "")
        except ValueError as exc:
            print(f"companion new-game: --challenge: {exc}", file=sys.stderr)
            return 2
    table = Table(MonotonicClock(), journal_dir, config=cfg)
    try:
        path = table.start_game(rules_from_config(cfg), names=names, table=args.table,
                                extra=extra)
    except OSError as exc:
        print(f"companion new-game: {journal_dir}: {exc.strerror}", file=sys.stderr)
        return 2
    table.close()
    print(path)
    print("a running daemon takes it up on `systemctl reload companion` (SIGHUP)", file=sys.stderr)
    return 0



def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add Tamsk's commands to ``companion``."""
    p = sub.add_parser("demo", help="a scripted level-3 game on mock pins, OLED in the terminal")
    p.add_argument("--speed", type=float, default=12.0, help="time compression (default 12)")
    p.add_argument("--gif", help="where to write the OLED animation (default out/demo-oled.gif)")
    p.add_argument("--journal-dir", help="where the demo's journal goes (default a temp folder)")
    p.add_argument("--interactive", action="store_true", help="play yourself (desktop backend)")
    p.add_argument(
        "--window",
        action="store_true",
        help="with --interactive: also show the OLED in a window (needs the desktop extra)",
    )
    p.add_argument("--config", help="config file for --interactive")
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser("new-game", help="start a new Tamsk game (a new journal)")
    p.add_argument("--config", help="config file (default /etc/companion/config.toml)")
    p.add_argument("--journal-dir", help="where journals go (default from the config)")
    p.add_argument("--level", type=int, choices=[1, 2, 3])
    p.add_argument("--ruleset", choices=["adjusted", "original"])
    p.add_argument("--start", choices=["standard", "free"])
    p.add_argument("--red", help="red player's name")
    p.add_argument("--black", help="black player's name")
    p.add_argument("--table", type=int, help="table number (default from the config)")
    p.add_argument("--challenge", choices=["red", "black"], metavar="OWNER",
                   help="a GIPF potential challenge: the colour of the potential's owner "
                        "(the other colour challenges)")
    p.add_argument("--challenge-number", type=int, default=1,
                   help="which challenge of the GIPF game this is (default 1)")
    p.add_argument("--challenges-allowed", type=int, default=1,
                   help="challenges the players agreed on for the GIPF game (default 1)")
    p.add_argument("--challenge-attempt", type=int, default=1,
                   help="the game number for this challenge (a tie makes another; default 1)")
    p.add_argument("--gipf", help="the GIPF game's name, for the record")
    p.set_defaults(func=cmd_new_game)

    p = sub.add_parser("calibrate", help="measure each hourglass's run time, save it")
    p.add_argument("--config", help="config file to update (default /etc/companion/config.toml)")
    p.add_argument("--backend", choices=["pi", "mock", "desktop"])
    p.set_defaults(func=cmd_calibrate)

