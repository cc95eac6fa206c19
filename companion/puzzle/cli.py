"""`companion tantrix puzzle discovery N`: lay a Discovery puzzle and hear when it is solved.

Each line lays one tile: its number, the cell (q, r) and the rotation (0-5), e.g. ``3 -1 1 1``.
A numeric keypad types it too: ``.`` or ``#`` separate the numbers, ``-`` or ``*`` is a minus
sign (``3.*1.1.1`` then Enter). Laying a tile again moves it; ``-T`` alone lifts tile T.
After every line the layout is judged; the command ends when the puzzle is solved.

With ``--table`` the puzzle is played on the keypad instead, as at the table (see
:mod:`companion.puzzle.table`): the desktop backend, the OLED drawn in the terminal (and in a
window with ``COMPANION_WINDOW=1``), a journal in ``--journal-dir DIR`` (default
``~/.local/share/companion``) that ``companion simulate`` replays.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, TextIO

from companion.puzzle.rules import LARGEST, SMALLEST, DiscoveryPuzzle, discovery_colour
from companion.tantrix.game import Placement


def parse_line(line: str) -> tuple[str, int, tuple[int, int, int] | None] | None:
    """("lay", tile, (q, r, rot)), ("lift", tile, None), or None for a blank line."""
    text = line.strip().replace("*", "-")
    if not text:
        return None
    parts = [p for p in re.split(r"[\s.#,;]+", text) if p]
    try:
        numbers = [int(p) for p in parts]
    except ValueError:
        raise ValueError(f"not numbers: {line.strip()!r}") from None
    if len(numbers) == 1 and numbers[0] < 0:
        return ("lift", -numbers[0], None)
    if len(numbers) != 4:
        raise ValueError("type: tile q r rotation (4 numbers), or -tile to lift it")
    tile, q, r, rot = numbers
    if not 0 <= rot <= 5:
        raise ValueError(f"rotation is 0 to 5, not {rot}")
    return ("lay", tile, (q, r, rot))


def typed_moves(
    lines: Iterable[str], out: TextIO
) -> Iterator[tuple[str, int, tuple[int, int, int] | None]]:
    """The moves typed one a line (``lift``/``lay``, the tile, where), as both puzzles read
    them; a line that is no move is answered with ``?`` and why, and skipped."""
    for line in lines:
        try:
            parsed = parse_line(line)
        except ValueError as exc:
            out.write(f"  ? {exc}\n")
            continue
        if parsed is not None:
            yield parsed


def play(n: int, lines: Iterable[str], out: TextIO) -> bool:
    puzzle = DiscoveryPuzzle(n)
    colour = discovery_colour(n)
    out.write(f"Discovery {n}: one {colour} loop through tiles 1 to {n}\n")
    for kind, tile, where in typed_moves(lines, out):
        try:
            if kind == "lift":
                puzzle.lift(tile)
            else:
                assert where is not None
                puzzle.lay(Placement(tile, *where))
        except ValueError as exc:
            out.write(f"  ? {exc}\n")
            continue
        verdict = puzzle.verdict()
        if verdict.solved:
            out.write(f"  SOLVED: a {colour} loop of {verdict.loop} tiles\n")
            return True
        out.write(f"  {len(puzzle.layout)}/{n} tiles laid")
        out.write(f"; {verdict.problems[0]}\n" if verdict.problems else "\n")
    return False


USAGE = (
    "usage: companion tantrix puzzle discovery N [FILE | --table [--journal-dir DIR]]\n"
    "       companion tantrix puzzle rainbow COLOUR [FILE | --table [--journal-dir DIR]]\n"
)


def play_rainbow(colour: str, lines: Iterable[str], out: TextIO) -> bool:
    """A Rainbow puzzle typed one tile a line (as for Discovery; a tile already laid is
    lifted and laid again); the layout is judged after every line."""
    from companion.tantrix.solo import Rainbow

    puzzle = Rainbow(colour)
    out.write(f"Rainbow {colour}: tiles {' '.join(map(str, puzzle.tiles))}\n")
    for kind, tile, where in typed_moves(lines, out):
        try:
            if kind == "lift" or puzzle.table.where_is(tile) is not None:
                puzzle.lift(tile)
            if kind == "lay":
                assert where is not None
                puzzle.place(Placement(tile, *where))
        except ValueError as exc:  # IllegalPlacement is a ValueError
            out.write(f"  ? {exc}\n")
            continue
        solved, solving, problems = puzzle.verdict()
        if solved:
            out.write(f"  SOLVED ({solving})\n")
            return True
        out.write(f"  {puzzle.table.placed}/{puzzle.size} tiles laid")
        out.write(f"; {problems[-1]}\n" if problems else "\n")
    return False


def rainbow_config(colour: str) -> dict[str, Any]:
    """The built-in configuration set up for a keypad Rainbow table."""
    from companion.config import defaults

    config = defaults()
    config["game"]["kind"] = "tantrix"
    config["tantrix"]["mode"] = "rainbow"
    config["tantrix"]["puzzle"] = colour
    return config


def _rainbow(argv: list[str], table: bool, journal_dir: Path | None, stdin: TextIO | None,
             out: TextIO) -> int:
    from companion.tantrix.solo import PUZZLES

    if len(argv) < 2 or argv[1] not in PUZZLES or (table and len(argv) > 2):
        out.write(f"COLOUR is one of {', '.join(PUZZLES)}\n{USAGE}")
        return 2
    if table:
        from companion.desktop import main as desktop_main

        return desktop_main(rainbow_config(argv[1]), journal_dir)
    if len(argv) > 2:
        with open(argv[2], encoding="utf-8") as handle:
            return 0 if play_rainbow(argv[1], handle, out) else 1
    return 0 if play_rainbow(argv[1], stdin or sys.stdin, out) else 1


def table_config(n: int) -> dict[str, Any]:
    """The built-in configuration set up for a keypad puzzle table of Discovery ``n``."""
    from companion.config import defaults

    config = defaults()
    config["game"]["kind"] = "puzzle"
    config["puzzle"] = {"n": n}
    return config


def _split_table_options(argv: list[str]) -> tuple[list[str], bool, Path | None]:
    """``argv`` without ``--table`` and ``--journal-dir DIR``, and their values."""
    rest, table, journal_dir = [], False, None
    items = iter(argv)
    for arg in items:
        if arg == "--table":
            table = True
        elif arg == "--journal-dir":
            folder = next(items, None)
            if folder is None:
                raise ValueError("--journal-dir needs a folder")
            journal_dir = Path(folder)
        elif arg.startswith("--"):
            raise ValueError(f"unknown option {arg}")
        else:
            rest.append(arg)
    return rest, table, journal_dir


def main(argv: list[str], stdin: TextIO | None = None, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    try:
        argv, table, journal_dir = _split_table_options(list(argv))
    except ValueError as exc:
        sys.stderr.write(f"companion tantrix: {exc}\n{USAGE}")
        return 2
    if argv[:1] == ["rainbow"]:
        return _rainbow(argv, table, journal_dir, stdin, out)
    if len(argv) < 2 or argv[0] != "discovery" or (table and len(argv) > 2):
        out.write(USAGE)
        return 2
    try:
        n = int(argv[1])
        discovery_colour(n)
    except ValueError:
        out.write(f"N must be {SMALLEST} to {LARGEST}\n")
        return 2
    if table:
        from companion.desktop import main as desktop_main

        return desktop_main(table_config(n), journal_dir)
    if len(argv) > 2:
        try:
            with open(argv[2], encoding="utf-8") as handle:
                return 0 if play(n, handle, out) else 1
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) else "not a text file"
            print(f"companion tantrix: {argv[2]}: {reason}", file=sys.stderr)
            return 2
    return 0 if play(n, stdin or sys.stdin, out) else 1


PLAY_USAGE = (
    "usage: companion tantrix play [--hands] [COLOUR ...] [--journal-dir DIR]\n"
    "       companion tantrix play solitaire [line|loop] | gobble [NAME ...] [--journal-dir DIR]\n"
    "  e.g. companion tantrix play --hands red yellow red yellow   (the team game)\n"
)


def play_config(players: list[str], hands: bool) -> dict[str, Any]:
    """The built-in configuration set up for a keypad Strategy table."""
    from companion.config import defaults

    config = defaults()
    config["game"]["kind"] = "tantrix"
    config["tantrix"]["players"] = players or ["red", "yellow"]
    config["tantrix"]["hands"] = hands
    return config


def play_strategy(argv: list[str], out: TextIO) -> int:
    """``companion tantrix play``: a Strategy game on the desktop keypad and screen."""
    from companion.tantrix.game import Game

    hands = "--hands" in argv
    try:
        argv, _, journal_dir = _split_table_options([a for a in argv if a != "--hands"])
    except ValueError as exc:
        out.write(f"{exc}\n{PLAY_USAGE}")
        return 2
    if argv[:1] in (["solitaire"], ["gobble"]):
        from companion.config import defaults

        config = defaults()
        config["game"]["kind"] = "tantrix"
        config["tantrix"]["mode"] = argv[0]
        if argv[0] == "gobble":
            race = argv[1:]
            if race and not 2 <= len(race) <= 6:
                out.write(f"a Gobble race is for 2 to 6 players\n{PLAY_USAGE}")
                return 2
            config["tantrix"]["race"] = race
        else:
            target = argv[1] if len(argv) > 1 else "line"
            if target not in ("line", "loop") or len(argv) > 2:
                out.write(PLAY_USAGE)
                return 2
            config["tantrix"]["target"] = target
        from companion.desktop import main as desktop_main

        return desktop_main(config, journal_dir)
    players = list(argv)
    try:
        Game(players or ["red", "yellow"])
    except ValueError as exc:
        out.write(f"{exc}\n{PLAY_USAGE}")
        return 2
    from companion.desktop import main as desktop_main

    return desktop_main(play_config(players, hands), journal_dir)


def cmd_tantrix(args: argparse.Namespace) -> int:
    if args.puzzle == "play":
        return play_strategy(list(args.rest), sys.stdout)
    return main(args.rest)


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``companion tantrix puzzle ...``."""
    p = sub.add_parser(
        "tantrix",
        help="Tantrix: tantrix puzzle discovery N [FILE]; tantrix play [--hands] [COLOUR ...]",
    )
    p.add_argument("puzzle", choices=["puzzle", "play"])
    p.add_argument(
        "rest",
        nargs=argparse.REMAINDER,
        help="discovery N | rainbow COLOUR [FILE | --table [--journal-dir DIR]]",
    )
    p.set_defaults(func=cmd_tantrix)
