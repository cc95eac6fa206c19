"""The host's session rules (companion.hub.session), driven frame by frame on invented times."""

from __future__ import annotations

import pytest
from hubsim import VirtualLink

from companion.hub import protocol
from companion.hub.protocol import Edge, Heartbeat, Hello
from companion.hub.session import DOWN, UP, WARNING, HostSession, HubEvent

BOOT = 0xC0FFEE


class Host:
    """A HostSession with a scripted hub: ``hub(message, t)`` delivers one frame."""

    def __init__(self) -> None:
        self.sent: list[protocol.HostFrame] = []
        self.events: list[HubEvent] = []
        self.links: list[tuple[str, str]] = []
        self.session = HostSession(
            self._send, self.events.append, lambda s, d: self.links.append((s, d))
        )

    def _send(self, data: bytes) -> None:
        for body, _ in protocol.Deframer().feed(data, 0.0):
            self.sent.append(protocol.decode_host_frame(body))

    def hub(self, message: protocol.HubMessage, t: float) -> None:
        self.session.receive(protocol.encode_hub_message(message), t)

    def hello(self, t: float, *, boot: int = BOOT, next_seq: int = 0, oldest: int = 0) -> None:
        self.hub(Hello(boot, next_seq, int(t * 1e6), 1, oldest, 0, "0.1.0"), t)

    def edge(self, seq: int, t: float, index: int = 6, value: int = 1, boot: int = BOOT) -> None:
        self.hub(Edge(boot, seq, int(t * 1e6) - 2000, index, value), t)

    def acks(self) -> list[int]:
        return [f.seq for f in self.sent if f.ftype == protocol.ACK]

    def seqs(self) -> list[int]:
        return [e.seq for e in self.events]


@pytest.fixture
def host() -> Host:
    made = Host()
    made.session.opened(0.0)
    return made


def test_opening_the_port_sends_host_hello_until_the_hub_answers(host: Host) -> None:
    host.session.poll(0.3)
    host.session.poll(0.6)
    host.session.poll(1.2)
    assert [f.ftype for f in host.sent] == [protocol.HOST_HELLO] * 3


def test_the_link_is_up_once_the_hub_says_hello(host: Host) -> None:
    host.hello(0.1)
    assert host.session.status == UP
    assert host.links == [(UP, f"hub firmware 0.1.0, boot {BOOT:08x}")]


def test_events_before_the_hello_are_not_taken(host: Host) -> None:
    host.edge(0, 0.1)
    assert host.events == [] and host.acks() == []
    host.hello(0.2)
    host.edge(0, 0.3)
    assert host.seqs() == [0]


def test_a_duplicate_is_dropped_and_acknowledged_again(host: Host) -> None:
    host.hello(0.1)
    host.edge(0, 0.2)
    host.edge(0, 0.3)
    assert host.seqs() == [0]
    assert host.acks()[-2:] == [1, 1]


def test_an_early_event_waits_for_the_gap_before_it(host: Host) -> None:
    host.hello(0.1)
    host.edge(1, 0.2)
    assert host.events == []
    assert host.sent[-1].payload == (1).to_bytes(4, "little")  # held: seq 1
    host.edge(0, 0.3)
    assert host.seqs() == [0, 1]


def test_events_map_to_host_time_through_the_clock(host: Host) -> None:
    host.hello(10.0)
    host.hub(Edge(BOOT, 0, 10_250_000, 3, 1), 10.4)
    (event,) = host.events
    assert event == HubEvent("switch", "tilt.b1", 1, pytest.approx(10.25), 10_250_000, 0)


def test_a_gap_the_hub_can_no_longer_fill_is_reported_never_invented(host: Host) -> None:
    host.hello(0.1)
    host.edge(0, 0.2)
    host.edge(3, 0.3)
    host.hub(Heartbeat(BOOT, 4, 400_000, 3, 0), 0.4)
    assert host.seqs() == [0, 3]
    assert host.session.stats.lost == 2
    assert host.links[-1][0] == WARNING and "2 input change(s) lost" in host.links[-1][1]


def test_a_restarted_hub_is_reported_and_its_sequence_starts_afresh(host: Host) -> None:
    host.hello(0.1)
    host.edge(0, 0.2)
    host.edge(1, 0.3)
    host.hello(5.0, boot=BOOT + 1)
    host.edge(0, 5.1, boot=BOOT + 1)
    assert host.seqs() == [0, 1, 0]
    assert any(s == WARNING and "restarted" in d for s, d in host.links)


def test_frames_of_an_unknown_boot_prompt_a_new_handshake(host: Host) -> None:
    host.hello(0.1)
    before = len(host.sent)
    host.edge(0, 1.0, boot=BOOT + 7)
    assert host.events == []
    assert host.sent[before].ftype == protocol.HOST_HELLO


def test_a_hub_speaking_another_protocol_puts_the_link_down(host: Host) -> None:
    host.hub(Hello(BOOT, 0, 0, 2, 0, 0, "9.0"), 0.1)
    assert host.session.status == DOWN
    assert "flash the firmware" in host.links[-1][1]


def test_a_silent_hub_is_reported_within_two_seconds(host: Host) -> None:
    host.hello(0.0)
    host.hub(Heartbeat(BOOT, 0, 1_000_000, 0, 0), 1.0)
    t = 1.0
    while host.session.status == UP:
        t += 0.05
        host.session.poll(t)
    assert t - 1.0 <= 2.0
    assert host.links[-1][0] == WARNING and "unplugged" in host.links[-1][1]


def test_a_silent_hub_that_speaks_again_brings_the_link_back_up(host: Host) -> None:
    host.hello(0.0)
    host.session.poll(3.0)
    host.hub(Heartbeat(BOOT, 0, 3_100_000, 0, 0), 3.1)
    assert [s for s, _ in host.links] == [UP, WARNING, UP]


def test_an_open_port_with_no_hub_says_so(host: Host) -> None:
    host.session.poll(2.0)
    assert host.links == [(DOWN, "the port is open but no hub answers: is the firmware flashed?")]


def test_a_closed_port_puts_the_link_down(host: Host) -> None:
    host.hello(0.1)
    host.session.closed(0.2, "lost the hub on /dev/ttyACM0")
    assert host.links[-1] == (DOWN, "lost the hub on /dev/ttyACM0")


def test_a_noisy_line_is_reported(host: Host) -> None:
    host.hello(0.0)
    for i in range(12):
        host.session.receive(b"\x00\x05\x01\x02\x03\x04\x00", 0.1 * i)
    assert any(s == WARNING and "noisy link" in d for s, d in host.links)


def test_inputs_follow_the_hub_state_and_delivered_events(link: VirtualLink) -> None:
    link.sim.set_input("tilt.r3", True)
    link.run(1100)
    assert link.session.inputs() is not None
    assert link.session.inputs()["tilt.r3"] == 1  # type: ignore[index]
    link.sim.set_input("tilt.r3", False)
    link.run(30)
    assert link.session.inputs()["tilt.r3"] == 0  # type: ignore[index]


def test_a_game_of_presses_arrives_in_order_with_hub_times(link: VirtualLink) -> None:
    for name in ("tilt.r1", "ring.red", "5", "menu"):
        link.press(name)
    names = [(e.name, e.value) for e in link.events]
    assert names == [(n, v) for n in ("tilt.r1", "ring.red", "5", "menu") for v in (1, 0)]
    for event in link.events:
        assert event.t == pytest.approx(link.origin + event.hub_us / 1e6 + link.delay, abs=1e-6)
