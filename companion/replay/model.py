"""The stepping model: a recorded game as a list of frames, one per line of its notation.

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

import json
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Protocol

from companion import journal, notation, registry, simulate
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
    compact notation; ``marks`` say in words what the rules made of it (penalties, refusals,
    passes, glasses lost, the end); ``state`` is the contract's JSON object at ``t``;
    ``highlight`` names what to point at: Tamsk ``(from, to)`` spaces of the move, Tantrix the
    cell ``[q, r]`` just filled.
    """

    index: int
    t: float
    label: str
    state: Mapping[str, Any]
    marks: tuple[str, ...] = ()
    record: int | None = None
    highlight: tuple[Any, ...] | None = None
    refused: bool = False


@dataclass
class Line:
    """One line of the notation: its exact text and the comment the rules add to it."""

    text: str
    comment: str = ""
    #: Whether the line is a move (a glass moved, a tile laid), not a timer, a pass or the end.
    move: bool = True


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
            at = notation.format_time(t, exact=False)
            label = f"at {at}" + (f", after move {done}" if done else "")
            state = table.state()
            if self.stamp_time:
                state["t"] = t
            out.append(Frame(-1, t, label, state, record=done or None))
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

    @property
    def duration(self) -> float:
        """The time of the last frame."""
        return self.frames[-1].t if self.frames else 0.0

    @property
    def moves(self) -> int:
        """How many of the lines are moves: what "a game of 36 moves" counts."""
        return sum(1 for line in self.lines if line.move)

    @property
    def records(self) -> int:
        """How many lines the notation has (the move list's length)."""
        return len(self.lines)

    def frame_of_record(self, number: int) -> Frame:
        """The frame after notation line ``number`` (0: the start)."""
        if not 0 <= number <= len(self.lines):
            raise IndexError(
                f"there is no move {number}: this game has moves 0 to {len(self.lines)}"
            )
        if number == 0:
            return self.frames[0]
        for frame in self.frames:
            if frame.record == number:
                return frame
        raise IndexError(f"move {number} has no frame")  # pragma: no cover - every line has one

    def at_time(self, t: float) -> Frame:
        """The game as it stood at ``t`` seconds: every input up to then replayed, and time run
        on to ``t`` (glasses and the 15-second timer run out by themselves on the way)."""
        if t < 0:
            raise ValueError("a time before the start of the game")
        if self.timeline is None:
            raise ValueError(f"{self.game}: no timeline")
        return self.timeline.at_time(min(t, self.duration))

    def at_times(self, times: Sequence[float]) -> list[Frame]:
        """:meth:`at_time` for many increasing times, in a single fold."""
        if self.timeline is None:
            raise ValueError(f"{self.game}: no timeline")
        return self.timeline.at_times([min(max(0.0, t), self.duration) for t in times])

    def notation(self) -> str:
        """The game as a notation file (see :mod:`companion.notation`)."""
        return notation.dumps(
            self.header,
            [(line.text, line.comment) for line in self.lines],
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
