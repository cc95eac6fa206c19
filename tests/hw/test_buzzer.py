"""What a player hears: the buzzer pin's tone over (fake) time, pattern by pattern."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from gpiozero import Buzzer, TonalBuzzer
from gpiozero.pins.mock import MockFactory, MockPin, MockPWMPin
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.hw.buzzer import (
    DEFAULT_PATTERNS,
    PATTERN_NAMES,
    Pattern,
    Sounder,
    Step,
    patterns_from_config,
    patterns_to_config,
    piezo,
)

PIN = 12  # the default buzzer pin (hardware PWM0)


class Table:
    """Drives a sounder the way the daemon's loop does (sleep until next_wakeup(), poll) and
    listens to its pin."""

    def __init__(self, sounder: Sounder, pin: Any, now: float = 0.0) -> None:
        self.sounder = sounder
        self.pin = pin
        self.now = now

    def at(self, t: float) -> Table:
        assert t >= self.now, "the fake clock only moves forward"
        while (wake := self.sounder.next_wakeup()) is not None and wake <= t:
            self.now = max(self.now, wake)
            self.sounder.poll(self.now)
            later = self.sounder.next_wakeup()
            assert later is None or later > self.now, "poll() must move past its own wakeup"
        self.now = t
        self.sounder.poll(t)
        return self

    def play(self, name: str, t: float) -> bool:
        self.at(t)
        return self.sounder.play(name, t)

    def tone_at(self, t: float) -> float | None:
        """The tone a player hears at ``t`` from a piezo."""
        self.at(t)
        return heard(self.pin)

    def on_at(self, t: float) -> bool:
        """Whether an active buzzer sounds at ``t``."""
        self.at(t)
        return bool(self.pin.state)


def heard(pin: Any) -> float | None:
    """The tone a passive piezo gives off: the PWM frequency while the duty is on."""
    return pin.frequency if pin.state else None


@pytest.fixture
def piezo_table() -> Iterator[tuple[Table, Any]]:
    factory = MockFactory(pin_class=MockPWMPin)
    device = piezo(PIN, pin_factory=factory)
    sounder = Sounder(device)
    yield Table(sounder, factory.pin(PIN)), factory.pin(PIN)
    sounder.close()
    device.close()


@pytest.fixture
def active_table() -> Iterator[tuple[Table, Any]]:
    factory = MockFactory(pin_class=MockPin)
    device = Buzzer(PIN, pin_factory=factory)
    sounder = Sounder(device)
    yield Table(sounder, factory.pin(PIN)), factory.pin(PIN)
    sounder.close()
    device.close()


def onsets(pin: Any) -> int:
    """How many separate sounds the pin made (silent-to-sounding changes in its history)."""
    states = [bool(s.state) for s in pin.states]
    return sum(1 for a, b in zip(states, states[1:], strict=False) if not a and b)


# -- the sounds, on a piezo ------------------------------------------------------------------


def test_timer_out_is_one_long_tone_that_lasts_its_full_length(piezo_table: Any) -> None:
    table, pin = piezo_table
    assert table.play("timer_out", 100.0)
    for t in (100.0, 100.5, 101.0, 101.499):
        assert table.tone_at(t) == 2000
    assert table.tone_at(101.5) is None
    assert onsets(pin) == 1


def test_each_of_the_last_five_seconds_ticks_once_and_the_ticks_are_distinct(
    piezo_table: Any,
) -> None:
    table, pin = piezo_table
    for second in range(10, 15):
        table.play("tick", float(second))
        assert table.tone_at(second + 0.01) == 3000
        assert table.tone_at(second + 0.5) is None
    assert onsets(pin) == 5


def test_the_timer_start_chirp_rises(piezo_table: Any) -> None:
    table, pin = piezo_table
    table.play("timer_start", 0.0)
    first = table.tone_at(0.02)
    second = table.tone_at(0.08)
    assert first is not None and second is not None and second > first
    assert table.tone_at(0.2) is None


def test_low_sand_warbles_between_two_tones(piezo_table: Any) -> None:
    table, pin = piezo_table
    table.play("low_sand", 5.0)
    tones = [table.tone_at(5.05 + 0.1 * i) for i in range(4)]
    assert tones == [2500, 1700, 2500, 1700]
    assert table.tone_at(5.4) is None


def test_the_error_beep_is_a_low_buzz_unlike_any_timer_sound(piezo_table: Any) -> None:
    table, pin = piezo_table
    table.play("error", 0.0)
    error = table.tone_at(0.1)
    timer_tones = {
        s.frequency
        for name in ("tick", "timer_start", "timer_out", "low_sand")
        for s in DEFAULT_PATTERNS[name].tones
    }
    assert error is not None and error < min(f for f in timer_tones if f is not None)


def test_a_late_poll_lands_on_the_step_that_is_due(piezo_table: Any) -> None:
    table, pin = piezo_table
    table.sounder.play("low_sand", 0.0)
    table.sounder.poll(0.25)  # the loop was busy for a quarter of a second
    assert heard(pin) == 2500  # the third step (0.2-0.3 s), not the second
    assert table.sounder.next_wakeup() == pytest.approx(0.3)


def test_next_wakeup_is_the_next_change_and_none_when_silent(piezo_table: Any) -> None:
    table, _ = piezo_table
    assert table.sounder.next_wakeup() is None
    table.play("timer_start", 3.0)
    assert table.sounder.next_wakeup() == pytest.approx(3.05)
    table.at(3.05)
    assert table.sounder.next_wakeup() == pytest.approx(3.12)
    table.at(3.12)
    assert table.sounder.next_wakeup() is None
    assert table.sounder.playing is None


# -- one sound at a time ---------------------------------------------------------------------


def test_error_preempts_a_tick(piezo_table: Any) -> None:
    table, pin = piezo_table
    table.play("tick", 0.0)
    assert table.play("error", 0.01)
    assert table.tone_at(0.015) == 600
    assert table.sounder.playing == "error"


def test_a_tick_during_an_error_is_dropped_not_queued(piezo_table: Any) -> None:
    table, pin = piezo_table
    table.play("error", 0.0)
    assert not table.play("tick", 0.1)
    assert table.tone_at(0.2) == 600
    assert table.tone_at(0.31) is None  # no late tick after the error
    assert table.sounder.next_wakeup() is None


def test_timer_out_preempts_everything_and_nothing_preempts_it(piezo_table: Any) -> None:
    table, pin = piezo_table
    table.play("low_sand", 0.0)
    assert table.play("timer_out", 0.05)
    for name in PATTERN_NAMES[1:]:
        assert not table.play(name, 0.5)
    assert table.tone_at(1.0) == 2000
    assert table.tone_at(1.56) is None


def test_the_same_sound_again_starts_over(piezo_table: Any) -> None:
    table, pin = piezo_table
    table.play("timer_out", 0.0)
    table.play("timer_out", 1.0)
    assert table.tone_at(2.4) == 2000
    assert table.tone_at(2.5) is None


def test_priorities_run_timer_out_error_low_sand_tick_timer_start_confirm() -> None:
    priorities = [DEFAULT_PATTERNS[name].priority for name in PATTERN_NAMES]
    assert PATTERN_NAMES == ("timer_out", "error", "low_sand", "tick", "timer_start", "confirm")
    assert priorities == sorted(priorities, reverse=True)
    assert len(set(priorities)) == len(priorities)


# -- settings --------------------------------------------------------------------------------


def test_mute_silences_everything(piezo_table: Any) -> None:
    table, pin = piezo_table
    table.sounder.muted = True
    for i, name in enumerate(PATTERN_NAMES):
        assert not table.play(name, float(i))
        assert table.tone_at(i + 0.01) is None
    assert onsets(pin) == 0


def test_muting_cuts_off_the_sound_playing(piezo_table: Any) -> None:
    table, pin = piezo_table
    table.play("timer_out", 0.0)
    table.at(0.5)
    table.sounder.muted = True
    assert heard(pin) is None
    table.sounder.muted = False
    assert table.tone_at(1.0) is None  # unmuting does not bring it back


def test_a_disabled_sound_is_silent_and_preempts_nothing(piezo_table: Any) -> None:
    table, pin = piezo_table
    table.sounder.set_enabled("error", False)
    assert not table.sounder.is_enabled("error")
    table.play("tick", 0.0)
    assert not table.play("error", 0.005)
    assert table.tone_at(0.01) == 3000
    table.sounder.set_enabled("error", True)
    assert table.play("error", 1.0)


def test_disabling_the_sound_playing_silences_it(piezo_table: Any) -> None:
    table, pin = piezo_table
    table.play("timer_out", 0.0)
    table.sounder.set_enabled("timer_out", False)
    assert heard(pin) is None


def test_an_unknown_sound_is_refused_with_the_known_names(piezo_table: Any) -> None:
    table, pin = piezo_table
    table.play("timer_out", 0.0)
    with pytest.raises(ValueError, match="no sound pattern named 'boom'.*timer_out"):
        table.sounder.play("boom", 0.1)
    assert table.tone_at(0.2) == 2000  # and nothing else changed


def test_a_tone_beyond_the_buzzers_range_is_refused_at_construction() -> None:
    factory = MockFactory(pin_class=MockPWMPin)
    narrow = TonalBuzzer(PIN, pin_factory=factory)  # gpiozero's default: 220-880 Hz
    with pytest.raises(ValueError, match=r"'timer_out' has a 2000 Hz tone.*220-880 Hz"):
        Sounder(narrow)
    quiet = {"error": Pattern(4, (Step(440, 0.3),))}
    Sounder(narrow, patterns=quiet).play("error", 0.0)
    assert heard(factory.pin(PIN)) == 440
    narrow.close()


def test_a_sounder_drives_only_buzzers() -> None:
    with pytest.raises(TypeError, match="TonalBuzzer or Buzzer"):
        Sounder(object())


# -- an active buzzer: rhythm only -----------------------------------------------------------


def test_on_an_active_buzzer_timer_out_is_on_for_its_full_length(active_table: Any) -> None:
    table, pin = active_table
    table.play("timer_out", 0.0)
    assert [table.on_at(t) for t in (0.0, 0.7, 1.49)] == [True, True, True]
    assert table.on_at(1.5) is False


def test_on_an_active_buzzer_low_sand_is_four_separate_beeps(active_table: Any) -> None:
    table, pin = active_table
    table.play("low_sand", 0.0)
    table.at(1.0)
    assert onsets(pin) == 4
    assert pin.state is False


def test_on_an_active_buzzer_confirm_is_a_double_blip_and_a_tick_a_single(
    active_table: Any,
) -> None:
    table, pin = active_table
    table.play("confirm", 0.0)
    table.at(0.5)
    assert onsets(pin) == 2
    table.play("tick", 1.0)
    table.at(1.5)
    assert onsets(pin) == 3


def test_on_an_active_buzzer_the_chirp_is_two_beeps_not_one(active_table: Any) -> None:
    table, pin = active_table
    table.play("timer_start", 0.0)
    table.at(0.5)
    assert onsets(pin) == 2


def test_mute_silences_an_active_buzzer_too(active_table: Any) -> None:
    table, pin = active_table
    table.sounder.muted = True
    table.play("timer_out", 0.0)
    assert table.on_at(0.5) is False


# -- configuration ---------------------------------------------------------------------------


def test_the_default_patterns_survive_a_trip_through_the_config() -> None:
    assert patterns_from_config(patterns_to_config()) == DEFAULT_PATTERNS


def test_the_config_changes_only_what_it_names() -> None:
    patterns = patterns_from_config(
        {"tick": {"tones": [[2800, 0.03]], "enabled": False}, "error": {"beats": [[1, 0.2]]}}
    )
    assert patterns["tick"] == Pattern(
        2, (Step(2800, 0.03),), DEFAULT_PATTERNS["tick"].beats, enabled=False
    )
    assert patterns["error"].beats == (Step(1.0, 0.2),)
    assert patterns["error"].tones == DEFAULT_PATTERNS["error"].tones
    assert {k: v for k, v in patterns.items() if k not in ("tick", "error")} == {
        k: v for k, v in DEFAULT_PATTERNS.items() if k not in ("tick", "error")
    }


def test_a_rest_in_the_config_is_zero_hz() -> None:
    patterns = patterns_from_config({"confirm": {"tones": [[2000, 0.02], [0, 0.03], [2000, 0.02]]}})
    assert patterns["confirm"].tones[1] == Step(None, 0.03)


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"boom": {}}, r"buzzer.patterns.boom: no such pattern"),
        ({"tick": {"volume": 3}}, r"buzzer.patterns.tick: unknown key\(s\) volume"),
        (
            {"tick": {"tones": [[3000]]}},
            r"buzzer.patterns.tick.tones\[0\]: expected \[Hz, seconds\]",
        ),
        ({"tick": {"tones": [[3000, -1]]}}, r"tick.tones\[0\]: a step lasts a positive number"),
        ({"tick": {"tones": [[30000, 0.1]]}}, r"tick.tones\[0\]: a tone is 0-20000 Hz"),
        ({"tick": {"tones": []}}, r"tick.tones: expected a non-empty list"),
        ({"tick": {"beats": [[2, 0.1]]}}, r"tick.beats\[0\]: the first number is 1 \(on\) or 0"),
        ({"tick": {"enabled": "yes"}}, r"tick.enabled: expected true or false"),
        ({"tick": {"priority": 1.5}}, r"tick.priority: expected a whole number"),
        ({"tick": 3}, r"buzzer.patterns.tick: expected a table"),
    ],
)
def test_a_malformed_config_is_refused_naming_the_key(table: Any, message: str) -> None:
    before = dict(DEFAULT_PATTERNS)
    with pytest.raises(ValueError, match=message):
        patterns_from_config(table)
    assert dict(DEFAULT_PATTERNS) == before


# -- the priority rule as a property ---------------------------------------------------------


def expected_tone(requests: list[tuple[float, str]], t: float) -> float | None:
    """A reference model of the rule: what should sound at ``t`` after these requests."""
    playing: tuple[float, Pattern] | None = None
    for start, name in requests:
        if start > t:
            break
        pattern = DEFAULT_PATTERNS[name]
        if playing is not None and playing[0] + playing[1].duration() <= start:
            playing = None
        if playing is None or pattern.priority >= playing[1].priority:
            playing = (start, pattern)
    if playing is None:
        return None
    elapsed = t - playing[0]
    for step in playing[1].tones:
        if elapsed < step.duration:
            return step.frequency
        elapsed -= step.duration
    return None


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(min_value=0, max_value=400).map(lambda ms: ms / 100),
            st.sampled_from(PATTERN_NAMES),
        ),
        max_size=12,
    ),
    st.lists(
        st.integers(min_value=0, max_value=700).map(lambda ms: ms / 100 + 0.0025), max_size=20
    ),
)
def test_what_sounds_is_what_the_priority_rule_says(
    requests: list[tuple[float, str]], samples: list[float]
) -> None:
    requests = sorted(requests, key=lambda r: r[0])
    factory = MockFactory(pin_class=MockPWMPin)
    device = piezo(PIN, pin_factory=factory)
    table = Table(Sounder(device), factory.pin(PIN))
    events = sorted([(t, 0, name) for t, name in requests] + [(t, 1, "") for t in samples])
    for t, kind, name in events:
        if kind == 0:
            table.play(name, t)
        else:
            assert table.tone_at(t) == expected_tone(requests, t)
    device.close()
