"""The `companion` command line. The only place that chooses between real and mock backends."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from companion import __version__
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


def _load_config(path: str | None) -> dict[str, object]:
    from companion import config

    try:
        return config.load(path)
    except config.ConfigError as exc:
        print(f"companion: config: {exc}", file=sys.stderr)
        raise SystemExit(2) from None


def cmd_run(args: argparse.Namespace) -> int:
    import asyncio
    import logging
    from pathlib import Path

    from companion.clock import MonotonicClock
    from companion.daemon import serve

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    cfg = _load_config(args.config)
    backend = args.backend or str(cfg["table"]["backend"])  # type: ignore[index]
    journal_dir = Path(args.journal_dir or cfg["table"]["journal_dir"])  # type: ignore[index]
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


def cmd_demo(args: argparse.Namespace) -> int:
    from pathlib import Path

    from companion.demo import main as demo_main

    if args.interactive:
        import os

        from companion.desktop import main as desktop_main

        if args.window:
            os.environ["COMPANION_WINDOW"] = "1"
        return desktop_main(_load_config(args.config))
    gif = Path(args.gif) if args.gif else Path("out/demo-oled.gif")
    return demo_main(args.speed, gif, Path(args.journal_dir) if args.journal_dir else None)


def cmd_calibrate(args: argparse.Namespace) -> int:
    from pathlib import Path

    from companion import config as config_mod
    from companion.tamsk.calibrate import main as calibrate_main

    cfg = _load_config(args.config)
    path = Path(args.config) if args.config else config_mod.DEFAULT_PATH
    backend = args.backend or str(cfg["table"]["backend"])  # type: ignore[index]
    return calibrate_main(cfg, path, backend)


def cmd_new_game(args: argparse.Namespace) -> int:
    from pathlib import Path

    from companion.clock import MonotonicClock
    from companion.daemon import rules_from_config
    from companion.tamsk.table import Table

    cfg = _load_config(args.config)
    game = cfg["game"]  # type: ignore[index]
    for key in ("level", "ruleset", "start"):
        if getattr(args, key) is not None:
            game[key] = getattr(args, key)
    journal_dir = Path(args.journal_dir or cfg["table"]["journal_dir"])  # type: ignore[index]
    names = {p: n for p, n in (("red", args.red), ("black", args.black)) if n}
    table = Table(MonotonicClock(), journal_dir, config=cfg)
    try:
        path = table.start_game(rules_from_config(cfg), names=names, table=args.table)
    except OSError as exc:
        print(f"companion new-game: {journal_dir}: {exc.strerror}", file=sys.stderr)
        return 2
    table.close()
    print(path)
    print("a running daemon takes it up on `systemctl reload companion` (SIGHUP)", file=sys.stderr)
    return 0


def cmd_tantrix(args: argparse.Namespace) -> int:
    from companion.puzzle.cli import main as puzzle_main

    return puzzle_main(args.rest)


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
    p.set_defaults(func=cmd_new_game)

    p = sub.add_parser("calibrate", help="measure each hourglass's run time, save it")
    p.add_argument("--config", help="config file to update (default /etc/companion/config.toml)")
    p.add_argument("--backend", choices=["pi", "mock", "desktop"])
    p.set_defaults(func=cmd_calibrate)

    p = sub.add_parser("tantrix", help="Tantrix solo puzzles: tantrix puzzle discovery N [FILE]")
    p.add_argument("puzzle", choices=["puzzle"])
    p.add_argument(
        "rest", nargs=argparse.REMAINDER, help="discovery N [FILE | --table [--journal-dir DIR]]"
    )
    p.set_defaults(func=cmd_tantrix)

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

    from companion.replay.cli import add_parsers as add_replay_parsers

    add_replay_parsers(sub)  # "replay" and "notation"

    from companion.arbiter.cli import add_commands as add_arbiter_commands

    add_arbiter_commands(sub)  # "arbiter ..." and "dispute"
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
