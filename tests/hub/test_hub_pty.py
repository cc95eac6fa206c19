"""End to end over a real tty: the firmware (on the PC's clock, in a thread) talks to
``HubLink`` through a pseudo-terminal pair, and the cable gets pulled and replugged.

No assertion here is about speed; waits only bound how long a test may hang.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator

import pytest
import serial
from hubfaults import Wire
from hubsim import HubThread, PtyCable, SimHub, wait_for

from companion.hub import DOWN, UP, WARNING, HubEvent, HubLink, protocol
from companion.hub.protocol import Edge, Hello


class Recorder:
    """Collects what HubLink reports, from its reader thread."""

    def __init__(self) -> None:
        self.events: list[HubEvent] = []
        self.links: list[tuple[str, str]] = []
        self.lock = threading.Lock()

    def on_event(self, event: HubEvent) -> None:
        with self.lock:
            self.events.append(event)

    def on_link(self, status: str, detail: str) -> None:
        with self.lock:
            self.links.append((status, detail))

    def statuses(self) -> list[str]:
        with self.lock:
            return [s for s, _ in self.links]

    def saw(self, status: str, text: str = "") -> bool:
        with self.lock:
            return any(s == status and text in d for s, d in self.links)


@pytest.fixture
def hub(cable: PtyCable) -> Iterator[HubThread]:
    sim = SimHub(cable.port, virtual=False, period=1 << 24, SETTLE_TILT_US=5000)
    thread = HubThread(sim).start()
    yield thread
    thread.stop()


def start_link(cable: PtyCable, rec: Recorder) -> HubLink:
    link = HubLink(str(cable.path), on_event=rec.on_event, on_link=rec.on_link)
    link.start()
    assert wait_for(lambda: rec.saw(UP))
    return link


def toggle(hub: HubThread, names: str | list[str]) -> None:
    """Press and release each input, each time waiting until the hub has reported it
    (so a busy test machine cannot turn a press into a glitch)."""

    def reported() -> int:
        return int(hub.do(lambda: len(hub.sim.emitted)))

    for name in [names] if isinstance(names, str) else names:
        for active in (True, False):
            before = reported()
            hub.set_input(name, active)
            assert wait_for(lambda before=before: reported() > before)


def emitted(hub: HubThread) -> list[tuple[int, int]]:
    return [(seq, hub_us) for seq, _, _, hub_us in hub.do(lambda: list(hub.sim.emitted))]


def test_input_changes_cross_a_real_tty(cable: PtyCable, hub: HubThread) -> None:
    rec = Recorder()
    link = start_link(cable, rec)
    try:
        toggle(hub, ["tilt.r1", "ring.black", "#"])
        assert wait_for(lambda: len(rec.events) == 6)
    finally:
        link.close()
    assert [(e.name, e.value) for e in rec.events] == [
        (n, v) for n in ("tilt.r1", "ring.black", "#") for v in (1, 0)
    ]
    assert [(e.seq, e.hub_us) for e in rec.events] == emitted(hub)
    assert all(a.t < b.t for a, b in zip(rec.events, rec.events[1:], strict=False))


def test_a_pulled_cable_goes_down_and_replugged_delivers_what_happened_meanwhile(
    cable: PtyCable, hub: HubThread
) -> None:
    rec = Recorder()
    link = start_link(cable, rec)
    try:
        toggle(hub, "tilt.b1")
        assert wait_for(lambda: len(rec.events) == 2)
        cable.pull()
        assert wait_for(lambda: rec.saw(DOWN))
        toggle(hub, ["ring.red", "7"])  # nobody is listening
        time.sleep(0.2)
        replugged_at = time.monotonic()
        cable.plug()
        assert wait_for(lambda: len(rec.events) == 6)
        time.sleep(0.3)  # any duplicate would show up now
    finally:
        link.close()
    assert rec.statuses()[:3] == [UP, DOWN, UP]
    assert [(e.name, e.value) for e in rec.events[2:]] == [
        ("ring.red", 1),
        ("ring.red", 0),
        ("7", 1),
        ("7", 0),
    ]
    assert [(e.seq, e.hub_us) for e in rec.events] == emitted(hub)
    # They keep the times they happened, before the cable came back.
    assert all(e.t < replugged_at for e in rec.events)


def test_a_restarted_daemon_gets_the_changes_it_missed(cable: PtyCable, hub: HubThread) -> None:
    first = Recorder()
    link = start_link(cable, first)
    toggle(hub, "tilt.r2")
    assert wait_for(lambda: len(first.events) == 2)
    time.sleep(0.1)  # let the ACK reach the hub
    link.close()
    toggle(hub, ["menu", "timer15.red"])
    second = Recorder()
    link = start_link(cable, second)
    try:
        assert wait_for(lambda: len(second.events) == 4)
        time.sleep(0.3)
    finally:
        link.close()
    assert [(e.name, e.value) for e in second.events] == [
        ("menu", 1),
        ("menu", 0),
        ("timer15.red", 1),
        ("timer15.red", 0),
    ]


def test_a_silent_hub_raises_a_warning_and_its_return_clears_it(
    cable: PtyCable, hub: HubThread
) -> None:
    rec = Recorder()
    link = start_link(cable, rec)
    try:
        hub.frozen.set()
        assert wait_for(lambda: rec.saw(WARNING, "unplugged"))
        hub.frozen.clear()
        assert wait_for(lambda: rec.statuses()[-1] == UP)
    finally:
        link.close()
    assert rec.statuses() == [UP, WARNING, UP]


def test_a_hub_that_restarts_is_reported(cable: PtyCable, hub: HubThread) -> None:
    rec = Recorder()
    link = start_link(cable, rec)
    try:
        hub.do(hub.sim.boot)
        assert wait_for(lambda: rec.saw(WARNING, "restarted"))
        toggle(hub, "D")
        assert wait_for(lambda: len(rec.events) == 2)
    finally:
        link.close()
    assert [(e.name, e.seq) for e in rec.events] == [("D", 0), ("D", 1)]


def test_a_port_that_is_not_there_is_reported_and_waited_for(
    cable: PtyCable, hub: HubThread
) -> None:
    cable.pull()
    rec = Recorder()
    link = HubLink(str(cable.path), on_event=rec.on_event, on_link=rec.on_link)
    link.start()
    try:
        assert wait_for(lambda: rec.saw(DOWN, "cannot open"))
        cable.plug()
        assert wait_for(lambda: rec.saw(UP))
    finally:
        link.close()


def test_damage_on_a_real_tty_costs_nothing_but_resends(cable: PtyCable, hub: HubThread) -> None:
    """Garbage, flipped bits and dropped bytes on the wire, with the host reading a
    real tty: every change arrives once, and none that was not made."""
    rng = random.Random(3)
    wires = [
        Wire(kind, random.Random(i), 0.25)
        for i, kind in enumerate(("garbage", "bitflip", "drop_bytes", "duplicate"))
    ]
    port = cable.port
    clean_write = port.write

    def damaging_write(data: bytes) -> None:
        clean_write(rng.choice(wires).carry([data]))

    port.write = damaging_write  # type: ignore[method-assign]
    rec = Recorder()
    link = start_link(cable, rec)
    names = ["tilt.r1", "tilt.r3", "ring.red", "timer15.black", "0", "A"] * 4
    try:
        toggle(hub, names)
        assert wait_for(lambda: len(rec.events) == 2 * len(names), timeout=20), rec.events
        time.sleep(0.5)
    finally:
        link.close()
    assert [(e.seq, e.hub_us) for e in rec.events] == emitted(hub)
    assert [(e.name, e.value) for e in rec.events] == [(n, v) for n in names for v in (1, 0)]
    assert link.stats.bad_frames > 0


def test_hub_link_reads_pyserial_loop_urls() -> None:
    """``loop://`` hands back whatever is written: hub frames written by the test are
    read as the hub's, and HubLink's own frames coming back are ignored as echoes."""
    port = serial.serial_for_url("loop://", do_not_open=True)
    rec = Recorder()
    link = HubLink(port, on_event=rec.on_event, on_link=rec.on_link)
    link.start()
    try:
        assert wait_for(lambda: link.stats.echoes > 0)
        port.write(protocol.encode_hub_message(Hello(9, 0, 1000, 1, 0, 0, "loop")))
        port.write(protocol.encode_hub_message(Edge(9, 0, 2000, 24, 1)))
        assert wait_for(lambda: len(rec.events) == 1)
    finally:
        link.close()
    assert (rec.events[0].kind, rec.events[0].name, rec.events[0].value) == ("key", "0", 1)
    assert port.is_open  # close only what you opened: the caller handed this one in
    assert link.stats.bad_frames == 0


def test_the_repl_tool_hands_a_running_hub_back_to_its_repl(
    cable: PtyCable, hub: HubThread
) -> None:
    from companion.hub.__main__ import main

    assert main(["repl", str(cable.path)]) == 0
    assert wait_for(lambda: not hub.do(lambda: hub.sim.hub.running))
