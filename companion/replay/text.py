"""A frame as text for a terminal: the board, the clocks and what the rules made of the move."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from companion.i18n import _, say
from companion.replay.kinds import of
from companion.replay.model import Frame, Replay, where
from companion.replay.panel import clock

#: How many of the penalties and refusals so far a frame lists (the latest ones).
RECENT = 4


def title(replay: Replay) -> str:
    """Who played (the game's own :meth:`~companion.replay.kinds.ReplayGame.title`)."""
    return of(replay.game).title(replay)


def names_title(header: Mapping[str, Any], colour: Callable[[str], str] = _) -> str:
    """Who played, from the header's ``names``: ``Ada (red) v Ben (black)`` ("" when none),
    each seat's colour said by ``colour`` (the game's word for it) in the players' language."""
    names = header.get("names")
    if not isinstance(names, Mapping) or not names:
        return ""
    return versus([_("{name} ({colour})").format(name=n, colour=colour(str(p)))
                   for p, n in names.items() if isinstance(n, str) and n])


def versus(sides: Sequence[str]) -> str:
    """``Ada v Ben`` (``Ada contre Ben``): the two sides of a game, in the players' language;
    three or more are listed (``red, yellow, blue``)."""
    if len(sides) == 2:
        return _("{one} v {other}").format(one=sides[0], other=sides[1])
    return ", ".join(sides)


def heading(replay: Replay, frame: Frame) -> str:
    """The first line of a frame: which move, when, and the move in notation."""
    game = replay.game.capitalize()
    if frame.index < 0:
        return _("{game} position {label}").format(game=game, label=frame.shown)
    if frame.index == 0:
        return _("{game} start of the game").format(game=game) + f"  [{clock(frame.t)}]"
    return f"{game} {where(frame, replay.moves)}  [{clock(frame.t)}]  {frame.shown}"


def recent(items: list[Any], fmt: Any) -> list[str]:
    """The last :data:`RECENT` of ``items``, each formatted, after a count of the others."""
    shown = items[-RECENT:]
    out = [fmt(x) for x in shown]
    if len(items) > len(shown):
        out.insert(0, "  ... " + _("{n} earlier").format(n=len(items) - len(shown)))
    return out


def frame_text(replay: Replay, frame: Frame) -> str:
    """Everything a player wants to see at one step, as lines of text."""
    out = [heading(replay, frame)]
    out += [f"  * {say(m)}" for m in frame.marks]
    out.append("")
    return "\n".join(out + of(replay.game).text_lines(replay, frame.state))


def move_list(replay: Replay) -> str:
    """The notation lines as people read them, with what the rules said: a move after its
    number (the one ``--at`` takes and the headings show), any other line indented under the
    move it follows."""
    width = max(3, len(str(replay.moves)))
    out = []
    for frame in replay.frames[1:]:
        number = f"{frame.number:>{width}}." if frame.move else " " * (width + 3)
        marks = f"  ; {'; '.join(say(m) for m in frame.marks)}" if frame.marks else ""
        out.append(f"{number} {frame.shown}{marks}")
    return "\n".join(out)
