"""Fault injection on the hub link: at least 10,000 frames per fault kind, each run
yielding every input change exactly once with its true time, or a clear warning, and
never an input change that nobody made.

The runs are in-process on virtual time (see hubfaults.py); test_hub_pty.py repeats the
end-to-end paths over a real tty.
"""

from __future__ import annotations

import pytest
from hubfaults import FAULTS, LinkRun, delivered_by_input, run_link

MIN_FRAMES = 10_000


def assert_exactly_once(run: LinkRun) -> None:
    # Transport: each event the hub reported, delivered once, in sequence order.
    assert [e.seq for e in run.events] == list(range(len(run.events)))
    assert [(e.seq, e.hub_us) for e in run.events] == [
        (seq, hub_us) for seq, _, _, hub_us in run.sim.emitted
    ]
    # And the events are what the players did: the debounced scenario, no more, no less.
    assert delivered_by_input(run.events) == run.scenario.expected
    # Each move's host time is its true time, give or take the mapping's small bias.
    assert max(abs(error) for error in run.time_errors) < 0.001


@pytest.mark.parametrize("kind", FAULTS)
def test_every_input_change_arrives_exactly_once_through_faults(kind: str) -> None:
    run = run_link(kind, min_frames=MIN_FRAMES, seed=FAULTS.index(kind) + 1)
    assert run.frames_sent >= MIN_FRAMES
    assert run.damaged > 0.1 * MIN_FRAMES or (kind == "cable_pull" and run.pulls >= 10)
    assert_exactly_once(run)
    assert run.session.stats.lost == 0


def test_cable_pulls_are_reported_and_the_link_comes_back() -> None:
    run = run_link("cable_pull", min_frames=2000, seed=11)
    downs = [d for s, d in run.links if s == "down"]
    ups = [d for s, d in run.links if s == "up"]
    assert len(downs) == run.pulls and len(ups) == run.pulls + 1
    assert_exactly_once(run)


def test_an_overflowing_hub_loses_events_with_a_warning_and_no_phantom() -> None:
    run = run_link(
        "cable_pull", min_frames=3000, seed=5, capacity=32, pull_ms=(1500, 2500), gap_ms=(10, 60)
    )
    lost = run.session.stats.lost
    assert lost > 0
    assert any(s == "warning" and "lost" in d for s, d in run.links)
    emitted = {seq: (index, value, hub_us) for seq, index, value, hub_us in run.sim.emitted}
    delivered = [e.seq for e in run.events]
    assert delivered == sorted(set(delivered))  # once each, in order
    for event in run.events:  # every delivered event is one the hub really reported
        index, value, hub_us = emitted[event.seq]
        assert (event.value, event.hub_us) == (value, hub_us)
    assert len(delivered) + lost == len(emitted)
