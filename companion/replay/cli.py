"""``companion replay`` and ``companion notation``: the command line of the replay package.

``add_parsers(sub)`` adds both subcommands to the ``companion`` parser; :func:`main` runs them
on their own (``python -m companion.replay ...``). Exit status: 0 done, 2 a file that cannot be
replayed (with its line), 1 an output that could not be written.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TextIO

from companion import oserrors
from companion.i18n import _, ngettext
from companion.notation import parse_time
from companion.replay.model import Frame, Replay, load
from companion.scenario import MalformedInput

_MOVE = re.compile(r"^\d+$")


def parse_at(text: str) -> tuple[str, float]:
    """``--at``: a move number (``12``: the position after move 12, numbered as in ``--list``
    and the headings) or a time (``1:23.4``, ``83s``, ``83.5s``)."""
    text = text.strip()
    if _MOVE.match(text):
        return "move", float(int(text))
    seconds = text[:-1] if text.endswith("s") else text
    if ":" in text or text.endswith("s") or "." in text:
        try:
            return "time", parse_time(seconds)
        except ValueError:
            pass
    raise argparse.ArgumentTypeError(
        f"{text!r}: give a move number (12) or a time (1:23.4 or 83.5s)"
    )


def position_at(replay: Replay, kind: str, value: float) -> Frame:
    """The frame ``--at`` shows (``kind`` and ``value`` from :func:`parse_at`): after a move,
    or at a time; IndexError or ValueError saying why there is none."""
    if kind == "move":
        return replay.frame_after_move(int(value))
    if value > replay.duration:
        raise ValueError(_("the record ends at {end} s: no position at {at} s").format(
            end=f"{replay.duration:.1f}", at=f"{value:.1f}"))
    return replay.at_time(value)


def frame_text(replay: Replay, frame: Frame) -> str:
    """A frame as text (:func:`companion.replay.text.frame_text`: the game's own lines)."""
    from companion.replay import text

    return text.frame_text(replay, frame)


def step_through(replay: Replay, keys: Iterable[str], write: Callable[[str], object]) -> int:
    """Step through any game with the keys (:func:`companion.replay.terminal.step`); returns
    the last position shown. The same as :func:`terminal.run`, with :func:`frame_text`."""
    from companion.replay import terminal

    def screen(position: int) -> str:
        text = frame_text(replay, replay.frames[position])
        return f"{terminal.CLEAR}{text}\n\n{_(terminal.HELP)}\n"

    last = len(replay.frames) - 1
    position = 0
    write(screen(position))
    for key in keys:
        moved = terminal.step(position, key, last)
        if moved is None:
            break
        if moved != position:
            position = moved
            write(screen(position))
    return position


def _say(prog: str, path: str, message: str) -> None:
    print(f"{prog}: {path}: {message}", file=sys.stderr)


def cmd_replay(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from companion.replay import gif as gif_mod
    from companion.replay import terminal
    from companion.replay.html import page
    from companion.replay.text import move_list

    out = out or sys.stdout
    prog = "companion replay"
    try:
        replay = load(args.file)
    except MalformedInput as exc:
        _say(prog, args.file, str(exc))
        return 2
    for note in replay.notes:
        _say(prog, args.file, _("note: {note}").format(note=note))
    wrote = False
    try:
        if args.png:
            paths = gif_mod.write_pngs(replay, args.png)
            print(ngettext("wrote {n} picture to {folder}", "wrote {n} pictures to {folder}",
                           len(paths)).format(n=len(paths), folder=args.png), file=out)
            wrote = True
        if args.gif:
            plan = gif_mod.write_gif(replay, args.gif, speed=args.speed, fps=args.fps,
                                      per_move_ms=args.frame_ms)
            print(_("wrote {file} ({frames} frames, {seconds} s)").format(
                file=args.gif, frames=len(plan.frames),
                seconds=f"{sum(plan.durations) / 1000:.1f}"), file=out)
            wrote = True
        if args.html:
            Path(args.html).write_text(page(replay), encoding="utf-8")
            print(_("wrote {file} ({frames} frames)").format(file=args.html,
                                                            frames=len(replay.frames)), file=out)
            wrote = True
    except OSError as exc:
        _say(prog, args.file, _("cannot write: {why}").format(why=exc))
        return 1
    if wrote:
        return 0
    if args.at is not None:
        kind, value = args.at
        try:
            frame = position_at(replay, kind, value)
        except (IndexError, ValueError) as exc:
            _say(prog, args.file, str(exc))
            return 2
        print(frame_text(replay, frame), file=out)
        return 0
    if args.list:
        print(move_list(replay), file=out)
        return 0
    interactive = out is sys.stdout and sys.stdin.isatty() and sys.stdout.isatty()
    if interactive:  # pragma: no cover - needs a real terminal
        keys = terminal.keys()
        try:
            terminal.run(replay, keys, lambda s: (out.write(s), out.flush()))
        except KeyboardInterrupt:
            pass
        finally:
            keys.close()  # puts the terminal back as it was
        return 0
    for k, frame in enumerate(replay.frames):
        if k:
            print("\n" + "-" * 72, file=out)
        print(frame_text(replay, frame), file=out)
    return 0


def cmd_notation(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    prog = "companion notation"
    try:
        replay = load(args.file)
    except MalformedInput as exc:
        _say(prog, args.file, str(exc))
        return 2
    for note in replay.notes:
        _say(prog, args.file, _("note: {note}").format(note=note))
    text = replay.notation()
    if args.output:
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as exc:
            _say(prog, args.file, _("cannot write {file}: {why}").format(file=args.output,
                                                                          why=oserrors.problem(exc)))
            return 1
        print(_("wrote {file} ({moves} moves, {lines} lines)").format(
            file=args.output, moves=replay.moves, lines=replay.records), file=out)
    else:
        out.write(text)
    return 0


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be above 0, got {text}")
    return value


def add_parsers(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``replay`` and ``notation`` to a subcommand parser."""
    from companion.argtypes import whole

    p = sub.add_parser(
        "replay",
        help=_("step through a recorded game; pictures, GIF, HTML"),
        description=_("Step through a journal, scenario or notation file move by move (keys in "
        "a terminal; without one, every position is printed), or draw it."),
    )
    p.add_argument("file", help=_("a game journal, a .jsonl scenario or a notation file"))
    p.add_argument("--at", type=parse_at, metavar="MOVE|TIME",
                   help=_("print one position: after move 12, or at 1:23.4 / 83.5s"))
    p.add_argument("--list", action="store_true", help=_("print the move list only"))
    p.add_argument("--png", metavar="DIR", help=_("write one PNG picture per move into DIR"))
    p.add_argument("--gif", metavar="FILE", help=_("write an animated GIF of the game"))
    p.add_argument("--speed", type=_positive, metavar="X",
                   help=_("GIF in real time X times faster (default: one frame per move)"))
    p.add_argument("--fps", type=_positive, default=2.0,
                   help=_("real-time GIF: pictures per second between moves (default 2)"))
    p.add_argument("--frame-ms", type=whole(1, what="milliseconds per move"), default=700,
                   metavar="MS",
                   help=_("one-frame-per-move GIF: milliseconds per move (default 700)"))
    p.add_argument("--html", metavar="FILE",
                   help=_("write a self-contained HTML viewer (works offline)"))
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser(
        "notation",
        help=_("write a game as plain text, one move a line"),
        description=_("Write a journal or scenario as readable text that `companion simulate` "
        "and `companion replay` read back."),
    )
    p.add_argument("file", help=_("a game journal, a .jsonl scenario or a notation file"))
    p.add_argument("-o", "--output", metavar="FILE", help=_("write here instead of stdout"))
    p.set_defaults(func=cmd_notation)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="companion")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    add_parsers(sub)
    args = parser.parse_args(argv)
    try:
        rc: int = args.func(args)
    except BrokenPipeError:  # e.g. `companion replay x | head`
        sys.stderr.close()
        return 0
    return rc


if __name__ == "__main__":
    sys.exit(main())
