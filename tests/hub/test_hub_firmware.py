"""The hub's main loop (firmware/hub.py) on virtual time, read through the host codec."""

from __future__ import annotations

import pytest
from hubsim import MemoryPort, SimHub

from companion.hub import protocol
from companion.hub.protocol import Edge, Heartbeat, Hello


class Bench:
    """A hub on a MemoryPort; ``frames`` collects everything it sent, decoded."""

    def __init__(self, **sim: object) -> None:
        self.port = MemoryPort()
        self.sim = SimHub(self.port, **sim)
        self.frames: list[protocol.HubMessage] = []
        self.collect()

    def collect(self) -> list[protocol.HubMessage]:
        new = []
        for raw in self.port.take():
            body = protocol.cobs_decode(raw[1:-1])
            new.append(protocol.decode_hub_message(body))
        self.frames += new
        return new

    def run(self, ms: float, step_us: int = 250) -> list[protocol.HubMessage]:
        for _ in range(int(ms * 1000 / step_us)):
            self.sim.advance(step_us)
            self.sim.step()
        return self.collect()

    def send(self, frame: bytes) -> None:
        self.port.inbox += frame

    @property
    def boot(self) -> int:
        return int(self.sim.hub.boot)

    def edges(self) -> list[Edge]:
        return [f for f in self.frames if isinstance(f, Edge)]


@pytest.fixture
def bench() -> Bench:
    return Bench()


def test_the_hub_says_hello_at_power_up(bench: Bench) -> None:
    (hello,) = bench.frames
    assert isinstance(hello, Hello)
    assert (hello.protocol, hello.version, hello.next_seq, hello.oldest) == (1, "0.1.0", 0, 0)


def test_a_heartbeat_goes_out_every_second(bench: Bench) -> None:
    beats = [f for f in bench.run(3500) if isinstance(f, Heartbeat)]
    assert [b.t_us for b in beats] == [1_000_000, 2_000_000, 3_000_000]


def test_an_event_carries_the_first_edge_time_of_its_burst(bench: Bench) -> None:
    bench.run(10)
    bench.sim.set_input("ring.red", True)
    bench.run(1)
    bench.sim.set_input("ring.red", False)
    bench.run(0.5)
    bench.sim.set_input("ring.red", True)
    bench.run(20)
    (edge,) = bench.edges()
    # The burst began at 10 ms; the first scan to see it ran one 250 us step later.
    assert (edge.index, edge.value, edge.seq, edge.t_us) == (6, 1, 0, 10_250)


def test_timestamps_keep_counting_when_the_tick_counter_wraps() -> None:
    bench = Bench(period=1 << 20, start_us=(1 << 20) - 5000)
    for _ in range(3):
        bench.sim.set_input("tilt.r2", True)
        bench.run(400)
        bench.sim.set_input("tilt.r2", False)
        bench.run(400)
    stamps = sorted({edge.t_us for edge in bench.edges()})  # (resends repeat them)
    assert len(stamps) == 6
    assert all(b - a == 400_000 for a, b in zip(stamps, stamps[1:], strict=False))
    beats = [f.t_us for f in bench.frames if isinstance(f, Heartbeat)]
    assert all(b - a == 1_000_000 for a, b in zip(beats, beats[1:], strict=False))


def test_an_unacknowledged_event_is_sent_again(bench: Bench) -> None:
    bench.sim.set_input("menu", True)
    bench.run(20)
    bench.run(300)
    copies = [e for e in bench.edges() if e.index == 10]
    assert len(copies) >= 2 and len({(e.seq, e.t_us) for e in copies}) == 1


def test_an_acknowledged_event_is_never_sent_again(bench: Bench) -> None:
    bench.sim.set_input("menu", True)
    bench.run(20)
    bench.send(protocol.encode_ack(bench.boot, 1))
    bench.run(2000)
    assert len(bench.edges()) == 1


def test_an_ack_for_another_boot_acknowledges_nothing(bench: Bench) -> None:
    bench.sim.set_input("menu", True)
    bench.run(20)
    bench.send(protocol.encode_ack(bench.boot ^ 1, 1))
    bench.run(300)
    assert len(bench.edges()) >= 2


def test_a_frame_the_host_reports_missing_is_resent_at_once(bench: Bench) -> None:
    for name in ("tilt.r1", "tilt.r2", "tilt.r3"):
        bench.sim.set_input(name, True)
        bench.run(15)
    assert [e.seq for e in bench.edges()] == [0, 1, 2]
    bench.run(60)
    # Host holds 0 and 2 but not 1: ACK 1 with bit 0 (seq 2) set.
    bench.send(protocol.encode_ack(bench.boot, 1, held=0b1))
    resent = [f for f in bench.run(1) if isinstance(f, Edge)]
    assert [e.seq for e in resent] == [1]


def test_a_full_buffer_drops_the_oldest_and_the_heartbeat_says_so() -> None:
    bench = Bench(RESEND_CAPACITY=4)
    for i in range(6):
        bench.sim.set_input("ring.black", i % 2 == 0)
        bench.run(20)
    beat = [f for f in bench.run(1000) if isinstance(f, Heartbeat)][-1]
    assert (beat.next_seq, beat.oldest) == (6, 2)
    assert bench.sim.hub.dropped == 2


def test_the_heartbeat_bitmap_is_the_debounced_state(bench: Bench) -> None:
    bench.sim.set_input("tilt.b1", True)
    bench.sim.set_input("9", True)
    beat = [f for f in bench.run(1100) if isinstance(f, Heartbeat)][-1]
    assert beat.inputs == (1 << 3) | (1 << protocol.INPUT_INDEX["9"])


def test_a_host_hello_gets_a_hello_and_the_whole_backlog(bench: Bench) -> None:
    for name in ("1", "2"):
        bench.sim.set_input(name, True)
        bench.run(20)
        bench.sim.set_input(name, False)
        bench.run(20)
    bench.collect()
    bench.send(protocol.encode_host_hello())
    answer = bench.run(2)
    assert isinstance(answer[0], Hello) and answer[0].oldest == 0 and answer[0].next_seq == 4
    assert [e.seq for e in answer[1:]] == [0, 1, 2, 3]


def test_a_repl_frame_stops_the_firmware_only_for_this_boot(bench: Bench) -> None:
    bench.send(protocol.encode_repl(bench.boot ^ 0xFFFF))
    bench.run(1)
    assert bench.sim.hub.running
    bench.send(protocol.encode_repl(bench.boot))
    bench.sim.advance(100)
    assert bench.sim.step() is False


def test_garbage_from_the_host_is_ignored(bench: Bench) -> None:
    bench.send(bytes(range(256)) * 3)
    bench.run(5)
    bench.sim.set_input("menu", True)
    bench.run(20)
    assert [e.index for e in bench.edges()] == [10]
