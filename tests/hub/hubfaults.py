"""Fault injection between a simulated hub and the host session, on a virtual clock.

``run_link`` plays a long random game on a ``SimHub`` (the real firmware), carries every
frame through a ``Wire`` that damages the traffic in one chosen way, feeds the host's
``HostSession`` and returns what each side saw. The tests then check the rule: every
input change arrives exactly once with its true time, or the link says clearly that
something was lost; nothing arrives that nobody did.

Everything runs in-process with virtual time, so 10,000 frames take a second or two;
the real-tty tests (test_hub_pty.py) cover the same paths end to end, more briefly.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from hubsim import MemoryPort, SimHub

from companion.hub.protocol import INPUTS, KEYPAD_LAYOUT
from companion.hub.session import HostSession, HubEvent

FAULTS = ("bitflip", "drop_bytes", "duplicate", "reorder", "garbage", "cable_pull")

STEP_US = 1000
DIRECT_NAMES = [name for kind, name in INPUTS if kind != "key"]


@dataclass
class Scenario:
    """Raw pin movements (time, name, level) and the debounced changes they must yield."""

    moves: list[tuple[int, str, bool]] = field(default_factory=list)
    expected: dict[str, list[tuple[int, int]]] = field(default_factory=dict)


def make_scenario(
    rng: random.Random,
    start_us: int,
    end_us: int,
    gap_ms: tuple[int, int],
    settle_us: dict[str, int],
) -> Scenario:
    """Each switch and button toggles now and then with a bounce burst shorter than the
    settle time, or shows a glitch too short to count; one key at a time is pressed and
    released (a keypad without diodes cannot be chorded). All on STEP_US boundaries."""
    scenario = Scenario()
    lo, hi = gap_ms

    def toggle(name: str, t: int, level: bool) -> int:
        bounces = rng.choice((0, 0, 1, 2, 3))
        scenario.moves.append((t, name, level))
        scenario.expected.setdefault(name, []).append((int(level), t))
        at = t
        for _ in range(bounces):
            at += STEP_US
            scenario.moves.append((at, name, not level))
            at += STEP_US
            scenario.moves.append((at, name, level))
        return at + settle_us[name]

    for name in DIRECT_NAMES:
        level = False
        t = start_us + rng.randrange(0, hi * 1000, STEP_US)
        while t < end_us:
            if rng.random() < 0.15:  # a glitch: out and back within the settle time
                back = t + STEP_US * rng.randint(1, settle_us[name] // STEP_US - 2)
                scenario.moves.append((t, name, not level))
                scenario.moves.append((back, name, level))
                t = back + settle_us[name] + 2 * STEP_US
            else:
                level = not level
                t = toggle(name, t, level) + 2 * STEP_US
            t += rng.randrange(lo, hi + 1) * 1000
        if level:
            toggle(name, t, False)

    t = start_us
    while t < end_us:
        key = rng.choice(KEYPAD_LAYOUT)
        t = toggle(key, t, True) + rng.randrange(2, 40) * STEP_US
        t = toggle(key, t, False) + rng.randrange(2, 40) * STEP_US
    scenario.moves.sort(key=lambda move: move[0])
    return scenario


class Wire:
    """Carries the frames of one direction, damaging them the ``kind`` way at ``rate``.

    Every ``write`` by the firmware is one whole frame, so faults can be aimed at frames
    (duplicate, reorder) as well as at bytes (flip, drop, garbage).
    """

    def __init__(self, kind: str, rng: random.Random, rate: float) -> None:
        self.kind = kind
        self.rng = rng
        self.rate = rate
        self.history: list[bytes] = []
        self.held: list[tuple[int, bytes]] = []
        self.damaged = 0

    def carry(self, frames: list[bytes]) -> bytes:
        out = bytearray()
        rng = self.rng
        for frame in frames:
            self.history = (self.history + [frame])[-64:]
            hit = rng.random() < self.rate
            if hit:
                self.damaged += 1
            if not hit or self.kind == "cable_pull":
                out += frame
            elif self.kind == "bitflip":
                damaged = bytearray(frame)
                for _ in range(rng.choice((1, 1, 1, 2, 3))):
                    damaged[rng.randrange(len(damaged))] ^= 1 << rng.randrange(8)
                out += damaged
            elif self.kind == "drop_bytes":
                damaged = bytearray(frame)
                for _ in range(rng.randint(1, 4)):
                    if damaged:
                        del damaged[rng.randrange(len(damaged))]
                out += damaged
            elif self.kind == "duplicate":
                out += frame
                if rng.random() < 0.5:
                    out += frame * rng.randint(1, 2)
                else:
                    out += rng.choice(self.history)  # a stale frame replayed late
            elif self.kind == "reorder":
                # Hold this frame back until 1-3 later frames have overtaken it.
                self.held.append((rng.randint(1, 3), frame))
                continue
            elif self.kind == "garbage":
                noise = bytes(rng.randrange(256) for _ in range(rng.randint(1, 40)))
                out += noise + frame
            else:
                raise ValueError(f"unknown fault {self.kind}")
            if self.held:
                ready = [held for wait, held in self.held if wait <= 1]
                self.held = [(wait - 1, held) for wait, held in self.held if wait > 1]
                for held in ready:
                    out += held
        return bytes(out)

    def flush(self) -> bytes:
        out = b"".join(frame for _, frame in self.held)
        self.held = []
        return out


@dataclass
class LinkRun:
    """What a run produced, for the assertions."""

    scenario: Scenario
    sim: SimHub
    session: HostSession
    events: list[HubEvent]
    links: list[tuple[str, str]]
    frames_sent: int
    damaged: int
    pulls: int
    time_errors: list[float]


def run_link(
    kind: str,
    *,
    min_frames: int = 10_000,
    seed: int = 1,
    rate: float = 0.2,
    gap_ms: tuple[int, int] = (20, 120),
    period: int = 1 << 22,
    capacity: int = 256,
    pull_ms: tuple[int, int] = (300, 1000),
    max_seconds: int = 600,
) -> LinkRun:
    """Play random inputs until the hub has sent ``min_frames`` frames, then let the link
    drain. ``period`` is small so the hub's tick counter wraps every few seconds."""
    rng = random.Random(seed)
    port = MemoryPort()
    start_us = 3_000_000  # below the period, so hub_us equals the virtual clock
    sim = SimHub(port, start_us=start_us, period=period, seed=seed, RESEND_CAPACITY=capacity)
    table = sim.fw.hub.settle_table(sim.fw.config)
    settle = {name: table[index] for index, (_, name) in enumerate(INPUTS)}
    up_wire = Wire(kind, random.Random(seed + 1), rate)
    # Damage the host's ACKs and HELLOs the same way, except for frame-level faults,
    # which need more than one frame per write to mean anything.
    down_rate = 0.0 if kind in ("duplicate", "reorder") else rate
    down_wire = Wire(kind, random.Random(seed + 2), down_rate)
    events: list[HubEvent] = []
    links: list[tuple[str, str]] = []
    to_hub = bytearray()
    session = HostSession(to_hub.extend, events.append, lambda s, d: links.append((s, d)))

    # Host clock: a different origin and a 40 ppm drift; reads are late by a random,
    # now and then long, delay (a busy host), but the line keeps bytes in order.
    drift = 40e-6
    host_origin = 1000.0

    def host_truth(hub_us: int) -> float:
        return host_origin + (hub_us / 1e6) * (1 + drift)

    last_arrival = 0.0
    pulled_until: int | None = None
    pulls = 0
    next_pull = start_us + 3_000_000
    session.opened(host_truth(sim.now_us()))

    chunk_us = 12_000_000
    scenario = Scenario()
    moves: list[tuple[int, str, bool]] = []
    horizon = start_us
    i = 0
    t_end = start_us + max_seconds * 1_000_000
    draining_since: int | None = None
    while sim.now_us() < t_end:
        now = sim.now_us()
        if draining_since is None and sim.hub.frames_sent < min_frames and now + 200_000 >= horizon:
            more = make_scenario(rng, horizon, horizon + chunk_us, gap_ms, settle)
            moves = moves[i:] + more.moves
            i = 0
            moves.sort(key=lambda move: move[0])
            scenario.moves += more.moves
            for name, changes in more.expected.items():
                scenario.expected.setdefault(name, []).extend(changes)
            horizon += chunk_us + 600_000
        while i < len(moves) and moves[i][0] <= now:
            sim.set_input(moves[i][1], moves[i][2])
            i += 1
        sim.step()
        frames = port.take()

        if kind == "cable_pull":
            if pulled_until is None and now >= next_pull and draining_since is None:
                pulled_until = now + rng.randint(*pull_ms) * 1000
                pulls += 1
                session.closed(host_truth(now), "cable pulled")
            elif pulled_until is not None and now >= pulled_until:
                pulled_until = None
                next_pull = now + rng.randint(1500, 4000) * 1000
                to_hub.clear()
                session.opened(host_truth(now))
        if pulled_until is not None:
            to_hub.clear()
        else:
            data = up_wire.carry(frames)
            if data:
                delay = rng.expovariate(1 / 0.0002)
                if rng.random() < 0.03:
                    delay += rng.uniform(0.005, 0.040)
                last_arrival = max(last_arrival, host_truth(now) + delay)
                session.receive(data, last_arrival)
            session.poll(max(last_arrival, host_truth(now)))
            if to_hub:
                port.inbox += down_wire.carry([bytes(to_hub)])
                to_hub.clear()

        sim.advance(STEP_US)
        if draining_since is None and sim.hub.frames_sent >= min_frames and i >= len(moves):
            draining_since = sim.now_us()
        if draining_since is not None:
            if up_wire.held:
                session.receive(up_wire.flush(), host_truth(sim.now_us()))
            quiet = not sim.hub._unacked and not sim.hub.debouncer.pending
            if quiet and sim.now_us() - draining_since > 3_000_000:
                break

    time_errors = [e.t - host_truth(e.hub_us) for e in events]
    return LinkRun(
        scenario,
        sim,
        session,
        events,
        links,
        sim.hub.frames_sent,
        up_wire.damaged + down_wire.damaged,
        pulls,
        time_errors,
    )


def delivered_by_input(events: list[HubEvent]) -> dict[str, list[tuple[int, int]]]:
    out: dict[str, list[tuple[int, int]]] = {}
    for event in events:
        out.setdefault(event.name, []).append((event.value, event.hub_us))
    return out
