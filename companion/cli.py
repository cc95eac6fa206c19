"""The `companion` command line. The only place that chooses between real and mock backends."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from companion import __version__
from companion.config import config_for_command
from companion.scenario import MalformedInput


def cmd_simulate(args: argparse.Namespace) -> int:
    from companion.simulate import load, simulator_for

    try:
        loaded = load(args.file)
        sim = simulator_for(loaded.scenario.game)
        result = sim.simulate(loaded.scenario.header, loaded.scenario.events)
    except MalformedInput as exc:
        print(f"companion simulate: {args.file}: {exc}", file=sys.stderr)
        return 2
    for note in loaded.notes:
        print(f"companion simulate: {args.file}: {note}", file=sys.stderr)
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        print(sim.summary(result))
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    from companion.verify import verify_path

    try:
        verdict = verify_path(args.file)
    except OSError as exc:
        print(f"companion verify: {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    except MalformedInput as exc:  # a line beyond the readers' limits
        print(f"companion verify: {args.file}: {exc}", file=sys.stderr)
        return 2
    print(verdict.report())
    return 0 if verdict.ok else 1


def cmd_config(args: argparse.Namespace) -> int:
    from companion import config

    if args.print_default:
        print(config.DEFAULT_TOML, end="")
        return 0
    try:
        cfg = config.load(args.config)
    except config.ConfigError as exc:
        print(f"companion config: {exc}", file=sys.stderr)
        return 2
    import tomli_w

    print(tomli_w.dumps(cfg), end="")
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    import asyncio
    import logging
    from pathlib import Path

    from companion.clock import MonotonicClock
    from companion.daemon import serve

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    cfg = config_for_command(args.config)
    backend = args.backend or str(cfg["table"]["backend"])
    journal_dir = Path(args.journal_dir or cfg["table"]["journal_dir"])
    if backend == "desktop":
        from companion.desktop import main as desktop_main

        return desktop_main(cfg, journal_dir)
    from gpiozero.exc import BadPinFactory

    try:
        return asyncio.run(
            serve(
                cfg,
                backend=backend,
                journal_dir=journal_dir,
                clock=MonotonicClock(),
                stdin_driver=args.pins_from_stdin,
                new_game=args.new_game,
            )
        )
    except KeyboardInterrupt:
        return 0
    except BadPinFactory:
        print(
            "companion run: no GPIO on this machine (not a Raspberry Pi, or lgpio missing: "
            "see docs/install.md); try --backend mock or --backend desktop",
            file=sys.stderr,
        )
        return 2
    except OSError as exc:
        print(
            f"companion run: {exc.filename or ''}: {exc.strerror or exc} "
            "(the journal folder, a GPIO chip, the I2C bus or the hub's port; "
            "see docs/install.md)",
            file=sys.stderr,
        )
        return 2


def cmd_hub(args: argparse.Namespace) -> int:
    from companion.hub.__main__ import main as hub_main

    rc = hub_main([args.action, args.port])
    return int(rc or 0)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="Keeps a Tamsk, Tantrix or Tokami table honest, timed and recorded.",
    )
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    p = sub.add_parser("simulate", help="run a scenario file or journal through the rules")
    p.add_argument("file", help="a .jsonl scenario or a game journal")
    p.add_argument("--json", action="store_true", help="print the final state as one JSON object")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("run", help="run the table daemon")
    p.add_argument("--config", help="config file (default /etc/companion/config.toml)")
    p.add_argument("--backend", choices=["pi", "hub", "mock", "desktop"])
    p.add_argument("--journal-dir", help="where journals go (default from the config)")
    p.add_argument("--new-game", action="store_true", help="do not resume an unfinished game")
    p.add_argument(
        "--pins-from-stdin",
        action="store_true",
        help="mock backend: drive the mock pins from JSON lines on stdin (tests)",
    )
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("hub", help="the sensor hub: monitor its events, or hand it to its REPL")
    p.add_argument("action", choices=["monitor", "repl"])
    p.add_argument("port", help="e.g. /dev/ttyACM0")
    p.set_defaults(func=cmd_hub)

    p = sub.add_parser("config", help="show the configuration")
    p.add_argument("--print-default", action="store_true", help="the built-in defaults as TOML")
    p.add_argument("--config", help="config file (default /etc/companion/config.toml)")
    p.set_defaults(func=cmd_config)

    p = sub.add_parser("verify", help="check a journal's hash chain and rules")
    p.add_argument("file", help="a game journal (.jsonl)")
    p.set_defaults(func=cmd_verify)

    from companion.newgame import add_parser as add_new_game_parser

    add_new_game_parser(sub)

    from companion.replay.cli import add_parsers as add_replay_parsers

    add_replay_parsers(sub)  # "replay" and "notation"

    from companion.arbiter.cli import add_commands as add_arbiter_commands

    add_arbiter_commands(sub)  # "arbiter ..." and "dispute"

    from companion.tournament.cli import add_commands as add_tournament_commands

    add_tournament_commands(sub)  # "tournament ..."

    from companion import registry

    for kind in registry.kinds().values():  # each game's own commands
        kind.add_commands(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        rc: int = args.func(args)
    except BrokenPipeError:  # e.g. `companion simulate x | head`
        sys.stderr.close()
        return 0
    return rc


if __name__ == "__main__":
    sys.exit(main())
