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
    print(verdict.report())
    return 0 if verdict.ok else 1


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

    p = sub.add_parser("verify", help="check a journal's hash chain and rules")
    p.add_argument("file", help="a game journal (.jsonl)")
    p.set_defaults(func=cmd_verify)
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
