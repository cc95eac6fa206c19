"""``companion tantrix ...``: the Tantrix commands, and the puzzles typed one tile a line.

::

    companion tantrix puzzle discovery N [FILE | --table] [--journal-dir DIR]
    companion tantrix puzzle rainbow COLOUR [FILE | --table] [--journal-dir DIR]
    companion tantrix play [--hands] [COLOUR ...] [--journal-dir DIR]    (Strategy)
    companion tantrix solitaire [line|loop] [--journal-dir DIR]
    companion tantrix gobble [NAME ...] [--journal-dir DIR]            (2-6 names: the race)

A puzzle without ``--table`` reads lines (typed, or from FILE). Each line lays one tile: its
number, its cell and its rotation (0-5), e.g. ``3 c4 1``. A cell is named as the puzzle screen's
map names it (:class:`~companion.tantrix.cellnames.CellNames`: a row letter from the top, a
column number from the left; the command prints the names of the tiles laid after every line),
or by the engine's two axial numbers (``3 -1 1 1``). A numeric keypad types the numbers too:
``.`` or ``#`` separate them, ``-`` or ``*`` is a minus sign (``3.*1.1.1`` then Enter). Laying a
tile again moves it; ``-T`` alone lifts tile T. After every line the layout is judged; the
command ends when the puzzle is solved (exit 0) or at the end of the lines (exit 1).

With ``--table`` the puzzle is played on the keypad instead, as at the table (see
:mod:`companion.puzzle.table`): the desktop backend, the OLED drawn in the terminal (and in a
window with ``COMPANION_WINDOW=1``), a journal in ``--journal-dir DIR`` (default
``~/.local/share/companion``) that ``companion simulate`` replays. ``tantrix play``,
``solitaire`` and ``gobble`` start the other Tantrix games the same way.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, TextIO

from companion import oserrors
from companion.i18n import N_, _, match_template
from companion.puzzle.rules import LARGEST, SMALLEST, DiscoveryPuzzle, discovery_colour
from companion.tantrix.cellnames import CellNames
from companion.tantrix.game import Placement

#: One typed move: ("lay", tile, (q, r, rotation)) or ("lift", tile, None).
Move = tuple[str, int, tuple[int, int, int] | None]

#: A cell's name as the map writes it (``c4``), as one word of a typed line.
_CELL_NAME = re.compile(r"-?[a-z]+-?\d+")


def parse_line(line: str, names: CellNames | None = None) -> Move | None:
    """("lay", tile, (q, r, rot)), ("lift", tile, None), or None for a blank line; ValueError
    (in English, as the rules speak) for a line that is no move. ``names`` reads a cell named
    as the map names it (``3 c4 1``); without it only the axial numbers are read."""
    text = line.strip().lower()
    if not text:
        return None
    parts = [p for p in re.split(r"[\s.#,;]+", text) if p]
    if len(parts) == 3 and _CELL_NAME.fullmatch(parts[1]):
        cell = (names or CellNames()).cell(parts[1])
        numbers = _numbers([parts[0], parts[2]], line)
        if cell is None or len(numbers) != 2:
            raise ValueError(f"not numbers: {line.strip()!r}")
        return _lay(numbers[0], cell[0], cell[1], numbers[1])
    numbers = _numbers(parts, line)
    if len(numbers) == 1 and numbers[0] < 0:
        return ("lift", -numbers[0], None)
    if len(numbers) != 4:
        raise ValueError("type: tile, cell, rotation (3 c4 1), or -tile to lift it")
    return _lay(*numbers)


def _numbers(parts: Sequence[str], line: str) -> list[int]:
    try:
        return [int(p.replace("*", "-")) for p in parts]
    except ValueError:
        raise ValueError(f"not numbers: {line.strip()!r}") from None


def _lay(tile: int, q: int, r: int, rot: int) -> Move:
    if not 0 <= rot <= 5:
        raise ValueError(f"rotation is 0 to 5, not {rot}")
    return ("lay", tile, (q, r, rot))


#: The sentences of :func:`parse_line` and of :class:`~companion.tantrix.game.Placement`,
#: for :func:`said` (the puzzles' own are in :mod:`companion.puzzle.words`).
LINE_SLIPS = (
    N_("not numbers: {line}"),
    N_("type: tile, cell, rotation (3 c4 1), or -tile to lift it"),
    N_("rotation is 0 to 5, not {rot}"),
    N_("there is no tile {tile}: tiles are numbered 1 to 56"),
)


def said(text: str, names: CellNames | None = None) -> str:
    """A sentence of the rules, or of :func:`parse_line`, in the players' language, every cell
    named as the map (``names``) names it."""
    from companion.puzzle.words import in_words
    from companion.tantrix.words import RULES, refusal_in_words, rule_in_words

    found = match_template(text, LINE_SLIPS)
    if found is not None:
        template, values = found
        return _(template).format(**values)
    kind, colon, detail = text.partition(": ")
    if colon and kind in RULES:  # an IllegalPlacement: "rule: detail"
        return _("{rule}: {detail}").format(rule=rule_in_words(kind),
                                            detail=refusal_in_words(detail, names))
    translated = in_words(text, names)
    if translated != (names.in_text(text) if names is not None else text):
        return translated
    return refusal_in_words(text, names)


def typed_moves(
    lines: Iterable[str], out: TextIO, names: Callable[[], CellNames]
) -> Iterator[Move]:
    """The moves typed one a line (``lift``/``lay``, the tile, where), as both puzzles read
    them, each cell read as the map of the layout so far (``names()``) names it; a line that is
    no move is answered with ``?`` and why, and skipped."""
    for line in lines:
        try:
            parsed = parse_line(line, names())
        except ValueError as exc:
            out.write(f"  ? {said(str(exc))}\n")
            continue
        if parsed is not None:
            yield parsed


def _colour_said(colour: str) -> str:
    return _(colour)


def how_to_type() -> str:
    """What to type, said before the first line."""
    return _(
        "One tile a line: its number, its cell and its rotation (0 to 5), e.g. 1 b2 0.\n"
        "A cell is named as on the map: the row letter, then the column number (b2 is where "
        "the first tile goes). -3 lifts tile 3. End of input (Ctrl-D) stops."
    ) + "\n"


def _laid(placements: Iterable[Placement], names: CellNames) -> str:
    """The tiles laid, with their cells named as the map now names them."""
    return ", ".join(
        _("{tile} at {cell} turned {rot}").format(tile=p.tile, cell=names.name(p.q, p.r),
                                                 rot=p.rot)
        for p in sorted(placements, key=lambda p: p.tile)
    )


def _status(laid: int, n: int, placements: Iterable[Placement], names: CellNames,
            problem: str | None) -> str:
    """The line after a move: how many tiles lie, where, and what is still wrong."""
    line = (_("{laid}/{n} tiles laid: {tiles}").format(laid=laid, n=n,
                                                       tiles=_laid(placements, names))
            if laid else _("{laid}/{n} tiles laid").format(laid=laid, n=n))
    if problem is not None:
        line = _("{said}; {problem}").format(said=line, problem=problem)
    return f"  {line}\n"


def play(n: int, lines: Iterable[str], out: TextIO) -> bool:
    """A Discovery puzzle typed one tile a line; True once it is solved."""
    puzzle = DiscoveryPuzzle(n)
    colour = discovery_colour(n)

    def names() -> CellNames:
        return CellNames.of(p.cell for p in puzzle.layout)

    out.write(_("Discovery {n}: one {colour} loop through tiles 1 to {n}").format(
        n=n, colour=_colour_said(colour)) + "\n")
    out.write(how_to_type())
    out.flush()
    for kind, tile, where in typed_moves(lines, out, names):
        before = names()
        try:
            if kind == "lift":
                if all(p.tile != tile for p in puzzle.layout):
                    raise ValueError(f"tile {tile} is not on the table")
                puzzle.lift(tile)
            else:
                assert where is not None
                puzzle.lay(Placement(tile, *where))
        except ValueError as exc:
            out.write(f"  ? {said(str(exc), before)}\n")
            continue
        verdict = puzzle.verdict()
        if verdict.solved:
            out.write("  " + _("SOLVED: a {colour} loop of {loop} tiles").format(
                colour=_colour_said(colour), loop=verdict.loop) + "\n")
            return True
        now = names()
        out.write(_status(len(puzzle.layout), n, puzzle.layout, now,
                          said(verdict.problems[0], now) if verdict.problems else None))
        out.flush()
    return False


def play_rainbow(colour: str, lines: Iterable[str], out: TextIO) -> bool:
    """A Rainbow puzzle typed one tile a line (as for Discovery; a tile already laid is
    lifted and laid again); the layout is judged after every line."""
    from companion.tantrix.solo import Rainbow

    puzzle = Rainbow(colour)

    def names() -> CellNames:
        return CellNames.of(p.cell for p in puzzle.table.placements)

    out.write(_("Rainbow {colour}: tiles {tiles}").format(
        colour=_colour_said(colour), tiles=" ".join(map(str, puzzle.tiles))) + "\n")
    out.write(how_to_type())
    out.flush()
    for kind, tile, where in typed_moves(lines, out, names):
        before = names()
        try:
            if kind == "lift" or puzzle.table.where_is(tile) is not None:
                puzzle.lift(tile)
            if kind == "lay":
                assert where is not None
                puzzle.place(Placement(tile, *where))
        except ValueError as exc:  # IllegalPlacement is a ValueError
            out.write(f"  ? {said(str(exc), before)}\n")
            continue
        solved, solving, problems = puzzle.verdict()
        if solved:
            out.write("  " + _("SOLVED ({colour})").format(colour=_colour_said(str(solving)))
                      + "\n")
            return True
        now = names()
        out.write(_status(puzzle.table.placed, puzzle.size, puzzle.table.placements, now,
                          said(problems[-1], now) if problems else None))
        out.flush()
    return False


def rainbow_config(colour: str) -> dict[str, Any]:
    """The built-in configuration set up for a keypad Rainbow table."""
    from companion.config import defaults

    config = defaults()
    config["game"]["kind"] = "tantrix"
    config["tantrix"]["mode"] = "rainbow"
    config["tantrix"]["puzzle"] = colour
    return config


def table_config(n: int) -> dict[str, Any]:
    """The built-in configuration set up for a keypad puzzle table of Discovery ``n``."""
    from companion.config import defaults

    config = defaults()
    config["game"]["kind"] = "puzzle"
    config["puzzle"] = {"n": n}
    return config


def play_config(players: list[str], hands: bool) -> dict[str, Any]:
    """The built-in configuration set up for a keypad Strategy table."""
    from companion.config import defaults

    config = defaults()
    config["game"]["kind"] = "tantrix"
    config["tantrix"]["players"] = players or ["red", "yellow"]
    config["tantrix"]["hands"] = hands
    return config


def solo_config(mode: str, *, target: str = "line", race: Sequence[str] = ()) -> dict[str, Any]:
    """The built-in configuration set up for Solitaire (``target``) or Gobble (``race``)."""
    from companion.config import defaults

    config = defaults()
    config["game"]["kind"] = "tantrix"
    config["tantrix"]["mode"] = mode
    if mode == "gobble":
        config["tantrix"]["race"] = list(race)
    else:
        config["tantrix"]["target"] = target
    return config


def _desktop(config: dict[str, Any], journal_dir: str | None) -> int:
    from companion.desktop import main as desktop_main

    return desktop_main(config, Path(journal_dir) if journal_dir else None)


# ------------------------------------------------------------------------------ commands


def _lines_of(path: str, prog: str, run: Callable[[Iterable[str]], bool]) -> int:
    """``run`` over the lines of the file at ``path``: 0 solved, 1 not, 2 no text file (said
    in one line before anything else is written)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        print(f"{prog}: {path}: " + _("not a text file"), file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"{prog}: {path}: {oserrors.problem(exc)}", file=sys.stderr)
        return 2
    return 0 if run(text.splitlines()) else 1


def _lines_or_table(args: argparse.Namespace, prog: str, config: dict[str, Any],
                    run: Callable[[Iterable[str]], bool], stdin: TextIO | None) -> int:
    if args.table:
        if args.file is not None:
            print(f"{prog}: " + _("--table plays on the keypad: give no FILE with it"),
                  file=sys.stderr)
            return 2
        return _desktop(config, args.journal_dir)
    if args.file is not None:
        return _lines_of(args.file, prog, run)
    return 0 if run(stdin or sys.stdin) else 1


def cmd_discovery(args: argparse.Namespace, stdin: TextIO | None = None,
                  out: TextIO | None = None) -> int:
    stream = out or sys.stdout
    return _lines_or_table(args, "companion tantrix puzzle discovery", table_config(args.n),
                           lambda lines: play(args.n, lines, stream), stdin)


def cmd_rainbow(args: argparse.Namespace, stdin: TextIO | None = None,
                out: TextIO | None = None) -> int:
    stream = out or sys.stdout
    return _lines_or_table(args, "companion tantrix puzzle rainbow", rainbow_config(args.colour),
                           lambda lines: play_rainbow(args.colour, lines, stream), stdin)


def cmd_play(args: argparse.Namespace) -> int:
    """``companion tantrix play``: a Strategy game on the desktop keypad and screen (the first
    word ``solitaire`` or ``gobble``: that game, as ``tantrix solitaire``/``gobble`` start it)."""
    seats = list(args.colours)
    if seats[:1] == ["solitaire"]:
        return _start_solitaire(seats[1:], args.journal_dir)
    if seats[:1] == ["gobble"]:
        return _start_gobble(seats[1:], args.journal_dir)
    from companion.tantrix.game import Game

    try:
        Game(seats or ["red", "yellow"])
    except ValueError as exc:
        print(f"companion tantrix play: {exc}", file=sys.stderr)
        return 2
    return _desktop(play_config(seats, args.hands), args.journal_dir)


def _start_solitaire(words: list[str], journal_dir: str | None) -> int:
    target = words[0] if words else "line"
    if target not in ("line", "loop") or len(words) > 1:
        print("companion tantrix solitaire: " + _("the target is line or loop, not {word}")
              .format(word=" ".join(words)), file=sys.stderr)
        return 2
    return _desktop(solo_config("solitaire", target=target), journal_dir)


def _start_gobble(race: list[str], journal_dir: str | None) -> int:
    if race and not 2 <= len(race) <= 6:
        print("companion tantrix gobble: " + _("a Gobble race is for 2 to 6 players"),
              file=sys.stderr)
        return 2
    if len(set(race)) != len(race):
        print("companion tantrix gobble: " + _("each player of a race has his own name"),
              file=sys.stderr)
        return 2
    return _desktop(solo_config("gobble", race=race), journal_dir)


def cmd_solitaire(args: argparse.Namespace) -> int:
    return _start_solitaire([args.target], args.journal_dir)


def cmd_gobble(args: argparse.Namespace) -> int:
    return _start_gobble(list(args.names), args.journal_dir)


def play_strategy(argv: list[str], out: TextIO | None = None) -> int:
    """``companion tantrix play ARGV...`` (the words after ``play``), parsed as the command
    line does; ``out`` is where a refusal is written (default stderr)."""
    import contextlib

    parser = argparse.ArgumentParser(prog="companion tantrix play")
    _play_arguments(parser)
    with contextlib.redirect_stderr(out or sys.stderr):
        return _parsed(parser, argv, out, cmd_play)


def main(argv: Sequence[str], stdin: TextIO | None = None, out: TextIO | None = None) -> int:
    """``companion tantrix puzzle ARGV...`` (``discovery 4 [FILE]``, ``rainbow blue``...), with
    the lines read from ``stdin`` and the answers written to ``out``."""
    parser = argparse.ArgumentParser(prog="companion tantrix puzzle")
    _puzzle_arguments(parser)
    err = out

    def run(args: argparse.Namespace) -> int:
        run_puzzle: Callable[..., int] = args.func
        return run_puzzle(args, stdin, out)

    return _parsed(parser, list(argv), err, run)


def _parsed(parser: argparse.ArgumentParser, argv: list[str], out: TextIO | None,
            run: Callable[[argparse.Namespace], int]) -> int:
    """``run`` the command ``argv`` is to ``parser``; 2 with argparse's message (written to
    ``out``, default stderr) when it is none."""
    import contextlib

    target = out or sys.stderr
    try:
        with contextlib.redirect_stderr(target):
            args = parser.parse_args(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2
    return run(args)


# ------------------------------------------------------------------------------ the parsers


def _puzzle_size(text: str) -> int:
    try:
        n = int(text)
        discovery_colour(n)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"N is a number of tiles, {SMALLEST} to {LARGEST}: not {text!r}") from None
    return n


def _lines_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", nargs="?", metavar="FILE",
                   help=_("the lines to read (default: typed, or piped in)"))
    p.add_argument("--table", action="store_true",
                   help=_("play it on the keypad, as at the table (the desktop backend)"))
    p.add_argument("--journal-dir", metavar="DIR",
                   help=_("with --table: where the journal goes (default "
                          "~/.local/share/companion)"))


def _puzzle_arguments(p: argparse.ArgumentParser) -> None:
    from companion.tantrix.solo import PUZZLES

    puzzles = p.add_subparsers(dest="subverb", metavar="PUZZLE")
    puzzles.required = True
    d = puzzles.add_parser(
        "discovery", help=_("lay tiles 1 to N in one loop of the colour of tile N's back"),
        description=_("Lay a Discovery puzzle: tiles 1 to N in one loop of the colour of tile N's "
        "back. One tile a line: its number, its cell as the map names it (row letter, column "
        "number: b2 for the first), its rotation 0-5 (e.g. 1 b2 0); -3 lifts tile 3. "
        "Exit 0 once solved, 1 when the lines end first."))
    d.add_argument("n", type=_puzzle_size, metavar="N",
                   help=_("how many tiles ({smallest} to {largest})").format(
                       smallest=SMALLEST, largest=LARGEST))
    _lines_arguments(d)
    d.set_defaults(func=cmd_discovery)
    r = puzzles.add_parser(
        "rainbow", help=_("the tiles of one back colour in a loop, or a pyramid with a line"),
        description=_("Lay a Rainbow puzzle: the tiles with one back colour; green and yellow "
        "make one loop of their colour, white a loop of any colour, blue and red a pyramid "
        "with one line through every tile. Lines as for discovery."))
    r.add_argument("colour", choices=PUZZLES, metavar="COLOUR",
                   help=_("the back colour: {colours}").format(colours=", ".join(PUZZLES)))
    _lines_arguments(r)
    r.set_defaults(func=cmd_rainbow)


def _journal_dir(p: argparse.ArgumentParser) -> None:
    p.add_argument("--journal-dir", metavar="DIR",
                   help=_("where the journal goes (default ~/.local/share/companion)"))


def _play_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("colours", nargs="*", metavar="COLOUR",
                   help=_("2 to 4 colours in seat order, the first starts (default: red yellow; "
                   "the team game: red yellow red yellow)"))
    p.add_argument("--hands", action="store_true",
                   help=_("every draw is typed and the forced-space obligation enforced"))
    _journal_dir(p)
    p.set_defaults(func=cmd_play)


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``companion tantrix ...``: Strategy, Solitaire, Gobble and the puzzles."""
    p = sub.add_parser(
        "tantrix",
        help=_("Tantrix: play (Strategy), solitaire, gobble; puzzle discovery or rainbow"),
        description=_("Tantrix on the desktop keypad and screen, or a puzzle typed one tile a "
                      "line."),
    )
    verbs = p.add_subparsers(dest="verb", metavar="VERB")
    verbs.required = True
    v = verbs.add_parser(
        "play", help=_("a Strategy game on the desktop keypad"),
        description=_("A Tantrix Strategy game on the desktop keypad and screen "
        "(e.g. companion tantrix play --hands red yellow red yellow: the team game)."))
    _play_arguments(v)
    v = verbs.add_parser("solitaire", help=_("Tantrix Solitaire on the desktop keypad"),
                         description=_("Tantrix Solitaire: every tile of the bag in one line "
                         "(or one loop) of a colour."))
    v.add_argument("target", nargs="?", choices=["line", "loop"], default="line",
                   help=_("what to make: line (default) or loop"))
    _journal_dir(v)
    v.set_defaults(func=cmd_solitaire)
    v = verbs.add_parser("gobble", help=_("Gobble solo, or the Gobble race with 2-6 names"),
                         description=_("Tantrix Gobble on the desktop keypad: alone, or with 2 to "
                         "6 names the race scorer."))
    v.add_argument("names", nargs="*", metavar="NAME", help=_("2 to 6 players for the race"))
    _journal_dir(v)
    v.set_defaults(func=cmd_gobble)
    v = verbs.add_parser("puzzle", help=_("discovery N or rainbow COLOUR: typed, or on the keypad"),
                         description=_("A Tantrix puzzle typed one tile a line, or played on the "
                         "keypad with --table."))
    _puzzle_arguments(v)
