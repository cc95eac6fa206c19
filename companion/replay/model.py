"""The stepping model: a recorded game as a list of frames, one per line of its notation.

Move numbers are the model's: a line is a *move* when the game says so (a Tamsk glass moved,
a Tantrix tile laid, a Tokami turn played, each accepted by the rules), and moves are numbered
1, 2, 3... in the order they were played. Every other line (a timer turned, a pass, a refused
input, an undo, the end, a note) and every frame of something that happened by itself sits
*after* the move before it and has no number of its own. :attr:`Line.number`,
:attr:`Frame.number` and :meth:`Replay.frame_after_move` say it once, for the move list, ``--at``,
every heading ("move 12 of 36"), the pictures, the HTML viewer and the notation.

A :class:`Replay` is built by folding the game's inputs through the game's own engine (its
replay facet's ``fold``, see :mod:`companion.replay.kinds`, with the very game engine that the
daemon and ``companion simulate`` use): there is no second copy of the rules here. After each
line of the notation (a move with its lift and rings, a timer turned, a pass, a Tokami turn...)
the state is taken as the contract's JSON object, so everything that draws a frame (text, PNG,
SVG, HTML) works from plain data and needs no engine.

Inputs the engine refuses are replayed like any other (they become violations, as at the
table). Inputs that cannot be replayed at all (an unknown event kind from a newer version, a
line with a broken field or a time going backwards) are skipped with a note, never an error:
a replay is for looking back at a game, and half a game is better than none.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Protocol

from companion import journal, notation, registry, simulate
from companion.i18n import _, say
from companion.replay.kinds import replay_game, replay_games
from companion.scenario import MalformedInput, NumberedEvent

#: Header fields that journals carry for people and tools rather than for the rules.
JOURNAL_FIELDS = frozenset(
    {
        "names",
        "table",
        "software",
        "created",
        "started",
        "wall0",
        "journal",
        "note",
        "event",
        "seq",
        "prev",
        "hash",
        "sig",
        "signer",
    }
)


class PackedState(Mapping[str, Any]):
    """A frame's state kept as its compact JSON text, read back when a frame is drawn.

    A replay holds every frame's state at once (to step back and forth), and as Python dicts
    a Tamsk state takes about 7 KB, as JSON 1.2 KB: an 800-move game's GIF would otherwise
    need 5 MB more than a 50-move one's. Frames are drawn one at a time, so only the state of
    the last frame read is kept decoded. The state is the contract's JSON object, so the
    round trip gives back the same value (a tuple reads back as a list).
    """

    __slots__ = ("_text",)
    _decoded: ClassVar[tuple[object, dict[str, Any]]] = (None, {})

    def __init__(self, state: Mapping[str, Any]) -> None:
        self._text = json.dumps(state, separators=(",", ":"), ensure_ascii=False)

    def _state(self) -> dict[str, Any]:
        owner, state = PackedState._decoded
        if owner is not self:
            state = json.loads(self._text)
            PackedState._decoded = (self, state)
        return state

    def __getitem__(self, key: str) -> Any:
        return self._state()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._state())

    def __len__(self) -> int:
        return len(self._state())

    def __repr__(self) -> str:
        return f"PackedState({self._text})"


@dataclass(frozen=True)
class Frame:
    """The game as it stood at one moment.

    ``index`` counts frames from 0 (the start); ``record`` is the notation line number (1-based)
    this frame shows the result of, or None for the start and for things that happened by
    themselves (a glass running out, the 15-second timer expiring). ``label`` is the line in
    compact notation, English (its parts in ``words``: see :attr:`shown`);
    ``marks`` say in words what the rules made of it (penalties, refusals, passes, glasses
    lost, the end); ``state`` is the contract's JSON object at ``t``;
    ``highlight`` names what to point at: Tamsk ``(from, to)`` spaces of the move, Tantrix the
    cell ``[q, r]`` just filled.

    ``move`` says whether the frame shows a move, and ``number`` is then that move's number;
    any other frame sits after move ``number`` (0: before the first). Both are set by
    :class:`Replay` from its lines (see the module's docstring), never by a game's fold.
    """

    index: int
    t: float
    label: str
    state: Mapping[str, Any]
    marks: tuple[str, ...] = ()
    record: int | None = None
    highlight: tuple[Any, ...] | None = None
    refused: bool = False
    number: int = 0
    move: bool = False
    #: The label's parts (:class:`~companion.remark.Words`), each remark among them said in
    #: the players' language where the label is shown; empty: the label is shown as it is.
    words: tuple[str, ...] = ()

    @property
    def shown(self) -> str:
        """The label as a replay shows it: in the players' language, a Tantrix cell named as
        the picture names it (``#55 c4 r1``; the notation file keeps ``#55 (0,0) r1``). Every
        move list, heading, readout and picture title shows this, never :attr:`label`."""
        if self.words:
            return "".join(say(word) for word in self.words)
        return say(self.label)


def where(frame: Frame, total: int | None = None) -> str:
    """Which move a frame shows, in words: ``move 12 of 36``, ``after move 12 of 36`` (a line
    that is not a move, or something that happened by itself), ``start``. Every heading says
    it with these words, so they all agree with the move list and ``--at``."""
    if frame.index == 0:
        return _("start")
    if frame.move:
        if total is None:
            return _("move {n}").format(n=frame.number)
        return _("move {n} of {total}").format(n=frame.number, total=total)
    if frame.number == 0:
        return _("before the first move")
    if total is None:
        return _("after move {n}").format(n=frame.number)
    return _("after move {n} of {total}").format(n=frame.number, total=total)


def position_label(t: float, after: int) -> str:
    """The label of a position asked for by its time: ``at 1:00.0, after move 6``."""
    at = notation.format_time(t, exact=False)
    if after:
        return _("at {time}, after move {n}").format(time=at, n=after)
    return _("at {time}").format(time=at)


@dataclass
class Line:
    """One line of the notation: its exact text and the comment the rules add to it."""

    text: str
    comment: str = ""
    #: Whether the line is a move the rules accepted (a glass moved, a tile laid, a Tokami
    #: turn), not a timer, a pass, a refused input, an undo or the end.
    move: bool = True
    #: The move's number (from 1); a line that is not a move: the number of the move before it
    #: (0: none yet). Set by :class:`Replay`.
    number: int = 0


class Timeline(Protocol):
    """What a game's fold provides: the state at any time, by folding again from the start."""

    def at_time(self, t: float) -> Frame: ...

    def at_times(self, times: list[float]) -> list[Frame]: ...


#: One input a replay can fold: its line, the event object and its time.
Usable = tuple[int, dict[str, Any], float]


def usable_events(
    events: Sequence[NumberedEvent],
    notes: list[str],
    kind_of: Callable[[Mapping[str, Any]], str],
    known: Sequence[str],
) -> list[Usable]:
    """Inputs of a keypad game that can be replayed, with their line and time (an input without
    ``t`` takes the time before it, as in ``companion simulate``); any other line is skipped
    with a note. ``kind_of`` is the notation's classifier ("raw": it cannot be read), ``known``
    the event kinds of this game."""
    out: list[Usable] = []
    last = 0.0
    for line, obj in events:
        t = obj.get("t")
        if t is not None:
            if isinstance(t, bool) or not isinstance(t, (int, float)) or not math.isfinite(t):
                notes.append(f'line {line}: "t" is not a number of seconds: skipped')
                continue
            if t < last:
                notes.append(f"line {line}: time goes backwards (t={t} after t={last}): skipped")
                continue
        if kind_of(obj) == "raw":
            ev = obj.get("ev")
            why = (
                f"unknown event {ev!r} (from a newer version?)"
                if ev not in known
                else f"a {ev!r} event with a missing or bad field"
            )
            notes.append(f"line {line}: {why}: skipped")
            continue
        last = float(t) if t is not None else last
        out.append((line, dict(obj), last))
    return out


class Folding(Protocol):
    """A keypad game's fold for replays: inputs in, the contract's state out."""

    def apply(self, obj: dict[str, Any], when: float, line: int) -> Any: ...

    def state(self) -> dict[str, Any]: ...


class RefoldTimeline:
    """The state of a keypad game (Tantrix, Tokami) at any time, by folding its inputs again
    from the start: nothing changes between two inputs, so no clock runs here.

    ``usable`` holds ``(line, event, time)`` in order; ``record_ends`` the number of inputs
    applied at the end of each notation line; ``stamp_time`` puts the asked time in the state.
    """

    def __init__(
        self,
        start: Callable[[], Folding],
        usable: Sequence[tuple[int, dict[str, Any], float]],
        record_ends: Sequence[int],
        *,
        stamp_time: bool = False,
    ) -> None:
        self.start = start
        self.usable = list(usable)
        self.record_ends = list(record_ends)
        self.stamp_time = stamp_time

    def at_time(self, t: float) -> Frame:
        return self.at_times([t])[0]

    def at_times(self, times: list[float]) -> list[Frame]:
        """Frames at each of ``times`` (in increasing order), in one fold from the start."""
        table = self.start()
        applied = 0
        out: list[Frame] = []
        for t in times:
            while applied < len(self.usable) and self.usable[applied][2] <= t:
                line, obj, when = self.usable[applied]
                table.apply(obj, when, line)
                applied += 1
            done = sum(1 for end in self.record_ends if end <= applied)
            state = table.state()
            if self.stamp_time:
                state["t"] = t
            # the label and the move number are the Replay's (:meth:`Replay.at_times`)
            out.append(Frame(-1, t, "", state, record=done or None))
        return out


@dataclass
class Replay:
    """A whole recorded game, ready to step through and draw."""

    game: str
    header: dict[str, Any]
    events: list[NumberedEvent]
    frames: list[Frame]
    lines: list[Line]
    notes: list[str] = field(default_factory=list)
    #: Tamsk: each glass's sand over the game as exact corner points ``(t, seconds)``.
    sand: dict[str, list[tuple[float, float]]] = field(default_factory=dict)
    periods: dict[str, float] = field(default_factory=dict)
    #: Tantrix: the cells any frame draws (tiles, forced and controlled cells).
    cells: list[tuple[int, int]] = field(default_factory=list)
    timeline: Timeline | None = None

    def __post_init__(self) -> None:
        """Number the moves (see the module's docstring): each line, then each frame."""
        done = 0
        for line in self.lines:
            done += line.move
            line.number = done
        numbered: list[Frame] = []
        done = 0
        for frame in self.frames:
            move = False
            if frame.record is not None and 0 < frame.record <= len(self.lines):
                line = self.lines[frame.record - 1]
                move, done = line.move, line.number
            numbered.append(dataclasses.replace(frame, number=done, move=move))
        self.frames = numbered

    @property
    def duration(self) -> float:
        """The time of the last frame."""
        return self.frames[-1].t if self.frames else 0.0

    @property
    def moves(self) -> int:
        """How many of the lines are moves: what "a game of 36 moves" counts, and the last
        move's number."""
        return self.lines[-1].number if self.lines else 0

    @property
    def records(self) -> int:
        """How many lines the notation has (the move list's length)."""
        return len(self.lines)

    def frame_after_move(self, number: int) -> Frame:
        """The position right after move ``number`` (0: the start): what ``--at 12`` shows,
        numbered as in the move list. IndexError naming the moves there are."""
        if not 0 <= number <= self.moves:
            raise IndexError(
                _("there is no move {n}: give a move from 0 (the start) to {moves}").format(
                    n=number, moves=self.moves)
            )
        if number == 0:
            return self.frames[0]
        for frame in self.frames:
            if frame.move and frame.number == number:
                return frame
        raise IndexError(f"move {number} has no frame")  # pragma: no cover - every move has one

    def frame_of_record(self, number: int) -> Frame:
        """The frame after notation line ``number`` (0: the start), counting every line, moves
        or not (:meth:`frame_after_move` counts moves)."""
        if not 0 <= number <= len(self.lines):
            raise IndexError(
                f"there is no line {number}: this game has lines 0 to {len(self.lines)}"
            )
        if number == 0:
            return self.frames[0]
        for frame in self.frames:
            if frame.record == number:
                return frame
        raise IndexError(f"line {number} has no frame")  # pragma: no cover - every line has one

    def at_time(self, t: float) -> Frame:
        """The game as it stood at ``t`` seconds: every input up to then replayed, and time run
        on to ``t`` (glasses and the 15-second timer run out by themselves on the way)."""
        if t < 0:
            raise ValueError("a time before the start of the game")
        return self.at_times([min(t, self.duration)])[0]

    def at_times(self, times: Sequence[float]) -> list[Frame]:
        """:meth:`at_time` for many increasing times, in a single fold."""
        if self.timeline is None:
            raise ValueError(f"{self.game}: no timeline")
        found = self.timeline.at_times([min(max(0.0, t), self.duration) for t in times])
        return [self._numbered(frame) for frame in found]

    def _numbered(self, frame: Frame) -> Frame:
        """A timeline's frame (``record``: the lines played by then) with the moves made by
        then as its number and label."""
        lines = frame.record or 0
        after = self.lines[lines - 1].number if 0 < lines <= len(self.lines) else 0
        return dataclasses.replace(
            frame, number=after, move=False, label=position_label(frame.t, after)
        )

    def notation(self) -> str:
        """The game as a notation file (see :mod:`companion.notation`)."""
        return notation.dumps(
            self.header,
            [(line.text, line.comment) for line in self.lines],
            numbers=[line.number if line.move else None for line in self.lines],
            preamble=[f"skipped: {n}" for n in self.notes if n.startswith("line ")],
        )


def unknown_header_fields(header: Mapping[str, Any], known: Sequence[str]) -> list[str]:
    """Notes for header fields neither the rules nor the journal know (a newer version's)."""
    return [
        f"header field {key!r} is not known to this version: ignored"
        for key in header
        if key not in known and key not in JOURNAL_FIELDS
    ]


def build(
    header: dict[str, Any], events: Sequence[NumberedEvent], notes: Sequence[str] = ()
) -> Replay:
    """Fold a game's header and inputs into a :class:`Replay` (the game's own
    :meth:`~companion.replay.kinds.ReplayGame.fold`).

    Raises :class:`MalformedInput` only when the header itself cannot be played (an unknown
    game, a level 7); every bad input line is skipped with a note instead.
    """
    game = header.get("game")
    facet = replay_game(game)
    if facet is None:
        titles = [registry.get(name).title for name in replay_games()]
        listed = ", ".join(titles[:-1]) + (" and " if len(titles) > 1 else "") + titles[-1]
        raise MalformedInput(f"replays are drawn for {listed} games, not {game!r}", 1)
    return facet.fold(header, list(events), list(notes))


def load(path: str | Path) -> Replay:
    """Read a journal, scenario or notation file and fold it (see :func:`build`).

    A torn last line, a broken hash chain or a newer version's inputs give notes, not errors;
    :class:`MalformedInput` means the file cannot be replayed at all.
    """
    loaded = simulate.load(path)
    notes = [n.removeprefix("note: ") for n in loaded.notes]
    if loaded.journal is not None:
        version = loaded.scenario.header.get("journal")
        if isinstance(version, int) and version > journal.FORMAT:
            notes.append(
                f"journal format {version} is newer than this version reads "
                f"({journal.FORMAT}): replaying what it understands"
            )
    return build(loaded.scenario.header, loaded.scenario.events, notes)
