"""Debouncing on the microsecond ticks: a change counts once it has settled, and is
stamped with the first edge of its bounce burst."""

from __future__ import annotations

from hubsim import Firmware
from hypothesis import given, settings
from hypothesis import strategies as st

FW = Firmware()
PERIOD = 1 << 20
HALF = PERIOD // 2


def ticks_diff(a: int, b: int) -> int:
    return ((a - b + HALF) % PERIOD) - HALF


def make(settle: int = 5000, initial: int = 0, start: int = 0):  # type: ignore[no-untyped-def]
    return FW.debounce.Debouncer([settle] * 27, initial, start % PERIOD, ticks_diff)


def feed(debouncer, raw_at: dict[int, int], until: int, step: int = 100, start: int = 0):  # type: ignore[no-untyped-def]
    """Scan every ``step`` us; ``raw_at`` maps a time to the raw bitmap from then on."""
    raw = 0
    reported = []
    for t in range(start, until, step):
        raw = raw_at.get(t, raw)
        out = debouncer.update(raw, t % PERIOD)
        for bit, value, first in out or ():
            reported.append((bit, value, first, t))
    return reported


def test_a_clean_press_is_reported_once_settled_with_its_first_edge() -> None:
    reported = feed(make(), {1000: 0b1}, 20000)
    assert reported == [(0, 1, 1000, 6000)]


def test_a_bounce_burst_is_one_change_stamped_at_its_first_edge() -> None:
    raw = {1000: 1, 1300: 0, 1600: 1, 2200: 0, 2500: 1}
    reported = feed(make(), raw, 20000)
    assert reported == [(0, 1, 1000, 7500)]


def test_a_glitch_shorter_than_the_settle_time_is_not_a_change() -> None:
    assert feed(make(), {1000: 1, 3000: 0}, 20000) == []


def test_a_release_is_reported_like_a_press() -> None:
    reported = feed(make(initial=0b100), {0: 0b100, 1000: 0}, 20000)
    assert reported == [(2, 0, 1000, 6000)]


def test_each_input_settles_on_its_own_time() -> None:
    settle = [5000] * 27
    settle[3] = 10000
    debouncer = FW.debounce.Debouncer(settle, 0, 0, ticks_diff)
    reported = feed(debouncer, {1000: 0b1001}, 30000)
    stamps = [(bit, stamp, at) for bit, _, stamp, at in reported]
    assert stamps == [(0, 1000, 6000), (3, 1000, 11000)]


def test_debouncing_works_across_the_tick_counter_wrapping() -> None:
    start = PERIOD - 3000
    debouncer = make(start=start)
    reported = feed(debouncer, {start + 1000: 1}, start + 20000, start=start)
    assert [(value, first) for _, value, first, _ in reported] == [(1, (start + 1000) % PERIOD)]


def test_an_idle_scan_reports_nothing() -> None:
    assert make().update(0, 500) is None


@settings(max_examples=150)
@given(
    st.lists(st.tuples(st.integers(1, 60), st.integers(0, 1)), min_size=1, max_size=40),
    st.integers(1000, 8000),
)
def test_reports_follow_the_settled_levels_and_alternate(
    changes: list[tuple[int, int]], settle: int
) -> None:
    """Invariant: whatever the bouncing, the reported values alternate, each report is
    stamped no later than it was made, and the last report (if any) is the final level."""
    raw_at: dict[int, int] = {}
    t = 1000
    for gap_steps, level in changes:
        raw_at[t] = level
        t += gap_steps * 100
    reported = feed(make(settle), raw_at, t + settle + 1000)
    values = [value for _, value, _, _ in reported]
    assert all(a != b for a, b in zip(values, values[1:], strict=False))
    assert all(first <= at for _, _, first, at in reported)
    final = changes[-1][1]
    assert (values[-1] if values else 0) == final
