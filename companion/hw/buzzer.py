"""The buzzer: named sound patterns played without blocking, on the daemon's clock.

A :class:`Sounder` plays what the table has to say out loud (``timer_start``, ``tick``,
``timer_out``, ``low_sand``, ``error``, ``confirm``) on either kind of buzzer gpiozero drives:

* a passive piezo on a PWM pin, as a gpiozero ``TonalBuzzer``: each pattern is a little tune of
  :class:`Step` tones (build the device with :func:`piezo`, whose range covers the defaults);
* an active buzzer (it has its own oscillator), as a gpiozero ``Buzzer``: it can only be on or
  off, so each pattern also has an on/off rhythm (``beats``) that keeps the sounds apart.

Nothing here reads a clock or sleeps. :meth:`Sounder.play` starts a pattern at the time the
daemon passes in, :meth:`Sounder.poll` sets the pin to whatever the pattern says at ``now``, and
:meth:`Sounder.next_wakeup` says when the sound next changes, so the daemon's one asyncio loop
sleeps exactly until then. The schedule is absolute: a late poll lands on the step that is due,
never on a stretched one. Call everything from the daemon's loop thread.

One buzzer, one sound at a time. A new pattern pre-empts the one playing when its priority is
the same or higher; a lower one is dropped, not queued, because a sound played late is a lie
(a tick half a second after its second means nothing). The order, highest first:

``timer_out`` (5)
    the 15 seconds are up: a penalty, the one sound nobody may miss;
``error`` (4)
    refused input: the player must know at once that nothing happened;
``low_sand`` (3)
    a glass is about to die: a warning, but it still has seconds;
``tick`` (2)
    the last five seconds of the 15-second timer, one per second;
``timer_start`` (1)
    the 15-second timer started (the pressed button already told the player);
``confirm`` (0)
    an acknowledgement, pure courtesy.

Example (``now`` comes from the daemon's clock)::

    sounder = Sounder(piezo(12))
    sounder.play("tick", now)          # or sounder.tick(now)
    ...
    sounder.poll(now)                  # whenever the loop wakes
    wake_at = sounder.next_wakeup()    # None: silent, nothing to do
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from gpiozero import Buzzer, TonalBuzzer
from gpiozero.tones import Tone

TIMER_OUT = "timer_out"
ERROR = "error"
LOW_SAND = "low_sand"
TICK = "tick"
TIMER_START = "timer_start"
CONFIRM = "confirm"

#: Every pattern name, highest priority first.
PATTERN_NAMES = (TIMER_OUT, ERROR, LOW_SAND, TICK, TIMER_START, CONFIRM)

#: The note in the middle of :func:`piezo`'s range and the octaves either side of it: A6 is
#: 1760 Hz, so two octaves give 440-7040 Hz, which covers a piezo disc's loud band (2-4 kHz)
#: and the low error buzz. gpiozero's own default (A4, one octave: 220-880 Hz) is too low.
PIEZO_MID_TONE = "A6"
PIEZO_OCTAVES = 2


@dataclass(frozen=True)
class Step:
    """One slice of a pattern: ``frequency`` Hz (``None`` is silence) for ``duration`` seconds.

    In a pattern's ``beats`` (the rhythm for an active buzzer) only sound or silence matters:
    any frequency means "on".
    """

    frequency: float | None
    duration: float

    def __post_init__(self) -> None:
        if not (math.isfinite(self.duration) and self.duration > 0):
            raise ValueError(f"a step lasts a positive number of seconds, not {self.duration!r}")
        if self.frequency is not None and not (0 < self.frequency <= 20000):
            raise ValueError(f"a tone is 0-20000 Hz (or None for silence), not {self.frequency!r}")

    @property
    def sounding(self) -> bool:
        return self.frequency is not None


def rest(duration: float) -> Step:
    """A silent step: keeps two sounds of a pattern apart."""
    return Step(None, duration)


def on(duration: float) -> Step:
    """A sounding step for an active buzzer's rhythm (its pitch is the buzzer's own)."""
    return Step(1.0, duration)


@dataclass(frozen=True)
class Pattern:
    """A named sound: its tune for a piezo, its rhythm for an active buzzer, its priority.

    ``beats`` may be ``None``: the rhythm is then the tune with every tone simply "on" (fine
    when the tune's tones are already separated by rests).
    """

    priority: int
    tones: tuple[Step, ...]
    beats: tuple[Step, ...] | None = None
    enabled: bool = True

    def __post_init__(self) -> None:
        if not self.tones:
            raise ValueError("a pattern needs at least one step")
        if self.beats is not None and not self.beats:
            raise ValueError("a pattern's beats need at least one step (or None)")

    def steps(self, tonal: bool) -> tuple[Step, ...]:
        """The steps to play on a tonal (piezo) or an on/off (active) buzzer."""
        if tonal or self.beats is None:
            return self.tones
        return self.beats

    def duration(self, tonal: bool = True) -> float:
        return math.fsum(step.duration for step in self.steps(tonal))


#: The built-in sounds. Piezo discs are loudest at 2-4 kHz, so the sounds a player must not miss
#: sit there; the error is a low, dull buzz so it cannot be mistaken for any timer sound.
DEFAULT_PATTERNS: Mapping[str, Pattern] = {
    # A single long tone: the 15 seconds ran out.
    TIMER_OUT: Pattern(5, (Step(2000, 1.5),), (on(1.5),)),
    # One low buzz: "no".
    ERROR: Pattern(4, (Step(600, 0.3),), (on(0.3),)),
    # A two-tone warble, heard as a siren rather than a beep.
    LOW_SAND: Pattern(
        3,
        (Step(2500, 0.1), Step(1700, 0.1), Step(2500, 0.1), Step(1700, 0.1)),
        (on(0.08), rest(0.06), on(0.08), rest(0.06), on(0.08), rest(0.06), on(0.08)),
    ),
    # A short high click, once a second in the last five seconds.
    TICK: Pattern(2, (Step(3000, 0.025),), (on(0.025),)),
    # A rising chirp.
    TIMER_START: Pattern(1, (Step(1500, 0.05), Step(2500, 0.07)), (on(0.05), rest(0.04), on(0.05))),
    # A short blip (a double blip on an active buzzer, so it is not taken for a tick).
    CONFIRM: Pattern(0, (Step(2000, 0.04),), (on(0.015), rest(0.04), on(0.015))),
}


def piezo(pin: int | str, *, pin_factory: Any = None) -> Any:
    """A gpiozero ``TonalBuzzer`` whose range (440-7040 Hz) covers :data:`DEFAULT_PATTERNS`.

    With ``MockFactory(pin_class=MockPWMPin)`` as ``pin_factory`` the pin's ``frequency`` and
    ``state`` show what a player would hear.
    """
    return TonalBuzzer(
        pin, mid_tone=Tone(PIEZO_MID_TONE), octaves=PIEZO_OCTAVES, pin_factory=pin_factory
    )


class Sounder:
    """Plays named patterns on a gpiozero ``TonalBuzzer`` or ``Buzzer`` it is given.

    :param buzzer: the device; the sounder drives it but never closes it (whoever built it
        does).
    :param patterns: the sounds by name (default :data:`DEFAULT_PATTERNS`; see
        :func:`patterns_from_config`). A ``TonalBuzzer`` must be able to play every tone.
    :param muted: start silent.
    """

    def __init__(
        self,
        buzzer: Any,
        *,
        patterns: Mapping[str, Pattern] | None = None,
        muted: bool = False,
    ) -> None:
        self._buzzer = buzzer
        self._tonal = isinstance(buzzer, TonalBuzzer)
        if not self._tonal and not isinstance(buzzer, Buzzer):
            raise TypeError(f"a Sounder drives a gpiozero TonalBuzzer or Buzzer, not {buzzer!r}")
        self._patterns = dict(DEFAULT_PATTERNS if patterns is None else patterns)
        if self._tonal:
            low = float(buzzer.min_tone.frequency)
            high = float(buzzer.max_tone.frequency)
            for name, pattern in self._patterns.items():
                for step in pattern.tones:
                    if step.frequency is not None and not low <= step.frequency <= high:
                        raise ValueError(
                            f"pattern {name!r} has a {step.frequency:g} Hz tone but this buzzer "
                            f"plays {low:g}-{high:g} Hz; build the TonalBuzzer with a mid_tone "
                            f"and octaves that cover it (piezo() covers 440-7040 Hz)"
                        )
        self._muted = muted
        self._playing: str | None = None
        self._steps: tuple[Step, ...] = ()
        self._ends: tuple[float, ...] = ()
        self._index = -1
        self._sounding: float | None = None  # what the device is doing now; None is silent
        self._silence()

    # -- what the daemon calls -------------------------------------------------------------

    def play(self, name: str, now: float) -> bool:
        """Start pattern ``name`` at ``now``, unless something more urgent is playing.

        Returns whether it sounds: ``False`` when muted, when the pattern is disabled, or when a
        higher-priority pattern is playing (the new one is dropped, not queued).
        """
        pattern = self._pattern(name)
        if self._muted or not pattern.enabled:
            return False
        if self._playing is not None and self._patterns[self._playing].priority > pattern.priority:
            return False
        steps = pattern.steps(self._tonal)
        ends: list[float] = []
        elapsed: list[float] = []
        for step in steps:
            elapsed.append(step.duration)
            ends.append(now + math.fsum(elapsed))
        self._playing = name
        self._steps = steps
        self._ends = tuple(ends)
        self._index = -1
        self.poll(now)
        return True

    def poll(self, now: float) -> None:
        """Make the buzzer sound what is due at ``now`` (silence once the pattern is over)."""
        if self._playing is None:
            return
        index = self._index if self._index >= 0 else 0
        while index < len(self._ends) and self._ends[index] <= now:
            index += 1
        if index >= len(self._ends):
            self._finish()
            return
        if index != self._index:
            self._index = index
            self._sound(self._steps[index])

    def next_wakeup(self) -> float | None:
        """When the sound next changes, or ``None`` when silent (nothing to poll for)."""
        if self._playing is None:
            return None
        return self._ends[max(self._index, 0)]

    def stop(self) -> None:
        """Silence now, whatever is playing."""
        self._finish()

    def close(self) -> None:
        """Silence the buzzer. The device itself stays open: its owner closes it."""
        self._finish()

    # -- the sounds by the names a player would use ----------------------------------------

    def timer_started(self, now: float) -> bool:
        return self.play(TIMER_START, now)

    def tick(self, now: float) -> bool:
        return self.play(TICK, now)

    def timer_ran_out(self, now: float) -> bool:
        return self.play(TIMER_OUT, now)

    def low_sand(self, now: float) -> bool:
        return self.play(LOW_SAND, now)

    def error(self, now: float) -> bool:
        return self.play(ERROR, now)

    def confirm(self, now: float) -> bool:
        return self.play(CONFIRM, now)

    # -- settings ----------------------------------------------------------------------------

    @property
    def muted(self) -> bool:
        return self._muted

    @muted.setter
    def muted(self, value: bool) -> None:
        """Muting silences at once; unmuting does not bring back what was cut off."""
        self._muted = bool(value)
        if self._muted:
            self._finish()

    def is_enabled(self, name: str) -> bool:
        return self._pattern(name).enabled

    def set_enabled(self, name: str, enabled: bool) -> None:
        """Switch one pattern on or off; switching off the one playing silences it."""
        pattern = self._pattern(name)
        self._patterns[name] = replace(pattern, enabled=bool(enabled))
        if not enabled and self._playing == name:
            self._finish()

    @property
    def playing(self) -> str | None:
        """The name of the pattern sounding now, or ``None``."""
        return self._playing

    @property
    def patterns(self) -> Mapping[str, Pattern]:
        return dict(self._patterns)

    @property
    def tonal(self) -> bool:
        """Whether the buzzer plays tones (``TonalBuzzer``) or only on/off (``Buzzer``)."""
        return self._tonal

    # -- inside ------------------------------------------------------------------------------

    def _pattern(self, name: str) -> Pattern:
        try:
            return self._patterns[name]
        except KeyError:
            known = ", ".join(sorted(self._patterns))
            raise ValueError(f"no sound pattern named {name!r} (known: {known})") from None

    def _finish(self) -> None:
        self._playing = None
        self._steps = ()
        self._ends = ()
        self._index = -1
        self._silence()

    def _sound(self, step: Step) -> None:
        if step.frequency is None:
            self._silence()
        elif step.frequency != self._sounding:
            if self._tonal:
                self._buzzer.play(Tone.from_frequency(step.frequency))
            else:
                self._buzzer.on()
            self._sounding = step.frequency

    def _silence(self) -> None:
        if self._tonal:
            self._buzzer.stop()
        else:
            self._buzzer.off()
        self._sounding = None


# -- configuration ---------------------------------------------------------------------------

_PATTERN_KEYS = ("enabled", "priority", "tones", "beats")


def patterns_to_config(patterns: Mapping[str, Pattern] = DEFAULT_PATTERNS) -> dict[str, Any]:
    """The patterns as the ``[buzzer.patterns.NAME]`` tables of the TOML config.

    ``tones`` is a list of ``[Hz, seconds]`` (0 Hz is a rest); ``beats`` a list of
    ``[1 or 0, seconds]`` (on or off).
    """
    table: dict[str, Any] = {}
    for name, pattern in patterns.items():
        entry: dict[str, Any] = {
            "enabled": pattern.enabled,
            "priority": pattern.priority,
            "tones": [[step.frequency or 0, step.duration] for step in pattern.tones],
        }
        if pattern.beats is not None:
            entry["beats"] = [[int(step.sounding), step.duration] for step in pattern.beats]
        table[name] = entry
    return table


def patterns_from_config(
    table: Mapping[str, Any], base: Mapping[str, Pattern] = DEFAULT_PATTERNS
) -> dict[str, Pattern]:
    """``base`` with the changes a ``[buzzer.patterns]`` config table asks for.

    Each key names a known pattern and holds any of ``enabled``, ``priority``, ``tones``
    (``[[Hz, seconds], ...]``, 0 Hz a rest) and ``beats`` (``[[1 or 0, seconds], ...]``).
    Anything malformed raises ``ValueError`` naming the key, and nothing is changed.
    """
    result = dict(base)
    for name, entry in table.items():
        where = f"buzzer.patterns.{name}"
        if name not in base:
            raise ValueError(f"{where}: no such pattern (known: {', '.join(sorted(base))})")
        if not isinstance(entry, Mapping):
            raise ValueError(f"{where}: expected a table, got {entry!r}")
        unknown = sorted(set(entry) - set(_PATTERN_KEYS))
        if unknown:
            raise ValueError(f"{where}: unknown key(s) {', '.join(unknown)}")
        pattern = base[name]
        changes: dict[str, Any] = {}
        if "enabled" in entry:
            if not isinstance(entry["enabled"], bool):
                raise ValueError(f"{where}.enabled: expected true or false")
            changes["enabled"] = entry["enabled"]
        if "priority" in entry:
            if not isinstance(entry["priority"], int) or isinstance(entry["priority"], bool):
                raise ValueError(f"{where}.priority: expected a whole number")
            changes["priority"] = entry["priority"]
        if "tones" in entry:
            changes["tones"] = _steps(entry["tones"], f"{where}.tones", beats=False)
        if "beats" in entry:
            changes["beats"] = _steps(entry["beats"], f"{where}.beats", beats=True)
        try:
            result[name] = replace(pattern, **changes)
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}") from None
    return result


def _steps(value: Any, where: str, *, beats: bool) -> tuple[Step, ...]:
    first = "1 or 0" if beats else "Hz"
    if not isinstance(value, list | tuple) or not value:
        raise ValueError(f"{where}: expected a non-empty list of [{first}, seconds]")
    steps: list[Step] = []
    for i, item in enumerate(_pairs(value, f"{where}", first)):
        level, duration = item
        if beats and level not in (0, 1):
            raise ValueError(f"{where}[{i}]: the first number is 1 (on) or 0 (off), not {level}")
        try:
            if beats:
                steps.append(on(duration) if level else rest(duration))
            else:
                steps.append(Step(float(level) if level else None, duration))
        except ValueError as exc:
            raise ValueError(f"{where}[{i}]: {exc}") from None
    return tuple(steps)


def _pairs(value: Iterable[Any], where: str, first: str) -> Iterable[tuple[float, float]]:
    for i, item in enumerate(value):
        if (
            not isinstance(item, list | tuple)
            or len(item) != 2
            or not all(
                isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x)
                for x in item
            )
        ):
            raise ValueError(f"{where}[{i}]: expected [{first}, seconds], got {item!r}")
        yield float(item[0]), float(item[1])
