"""Mapping hub microseconds to host seconds along the lower envelope of the samples."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.hub.clock import ClockMap


def truth(hub_us: int, offset: float = 1234.5, drift: float = 0.0) -> float:
    return offset + hub_us / 1e6 * (1 + drift)


def test_no_sample_no_mapping() -> None:
    with pytest.raises(LookupError):
        ClockMap().to_host(5)


def test_one_sample_gives_the_offset() -> None:
    clock = ClockMap()
    clock.add(2_000_000, truth(2_000_000))
    assert clock.to_host(2_500_000) == pytest.approx(truth(2_500_000), abs=1e-9)


def test_prompt_samples_give_the_drift() -> None:
    clock = ClockMap()
    for s in range(0, 61):
        clock.add(s * 1_000_000, truth(s * 1_000_000, drift=40e-6))
    assert clock.drift == pytest.approx(40e-6, rel=1e-3)
    assert clock.to_host(75_000_000) == pytest.approx(truth(75_000_000, drift=40e-6), abs=1e-6)


def test_an_implausible_slope_is_not_trusted() -> None:
    clock = ClockMap()
    for s in range(0, 30):
        clock.add(s * 1_000_000, truth(s * 1_000_000, drift=5e-3))
    assert clock.drift == 0.0


def test_old_samples_leave_the_window() -> None:
    clock = ClockMap(window=60.0)
    clock.add(0, truth(0) - 0.5)  # an impossible early sample, long ago
    for s in range(1, 200):
        clock.add(s * 1_000_000, truth(s * 1_000_000))
    assert clock.to_host(199_000_000) == pytest.approx(truth(199_000_000), abs=1e-6)


@settings(max_examples=60)
@given(
    st.lists(st.floats(0.0, 0.05), min_size=30, max_size=150),
    st.floats(-100e-6, 100e-6),
    st.integers(0, 10**6),
)
def test_late_reads_never_pull_the_map_later_than_the_earliest_reads(
    delays: list[float], drift: float, seed: int
) -> None:
    """Invariant: with read delays between 0 and 50 ms, and a prompt read (under 0.2 ms)
    at least every 10 samples, the mapped time is within a fraction of a millisecond of
    the truth over the samples' span, however late the other reads were."""
    import random

    rng = random.Random(seed)
    clock = ClockMap()
    for i, delay in enumerate(delays):
        late = delay if i % 10 else rng.uniform(0, 0.0002)
        hub_us = i * 1_000_000
        clock.add(hub_us, truth(hub_us, drift=drift) + late)
    for i in range(len(delays)):
        hub_us = i * 1_000_000 + 500_000
        assert abs(clock.to_host(hub_us) - truth(hub_us, drift=drift)) < 0.0005
