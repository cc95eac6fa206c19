"""The host's half of the hub link, without I/O: bytes and times in, events and replies out.

``HostSession`` is told when the port opens and closes, fed what the port read and when,
and polled now and then; it answers through three callables: ``send(bytes)`` for frames
to the hub, ``on_event(HubEvent)`` and ``on_link(status, detail)``. It never reads a
clock, so tests drive it with invented times and ``HubLink`` with the real one.

Delivery rules: events of one hub boot are delivered exactly once and in sequence order;
a duplicate is dropped, an early one waits for the gap before it to be filled by the
hub's resend, and a gap the hub can no longer fill (its buffer overflowed) is reported
as a warning, never papered over with invented events.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from companion.hub import protocol
from companion.hub.clock import ClockMap
from companion.hub.protocol import EchoedFrame, Edge, FrameError, Heartbeat, Hello

#: Link statuses passed to ``on_link``.
UP = "up"
DOWN = "down"
WARNING = "warning"


@dataclass(frozen=True)
class HubEvent:
    """One debounced input change reported by the hub.

    ``kind`` is "switch", "button" or "key"; ``name`` is e.g. "tilt.r1", "ring.red",
    "menu" or a key character such as "7" or "#"; ``value`` is 1 when pressed, active or
    tilted and 0 when released; ``t`` is the host monotonic time of the change's first
    edge, mapped from ``hub_us`` (the hub's microseconds since boot); ``seq`` is the
    hub's sequence number for the event.
    """

    kind: str
    name: str
    value: int
    t: float
    hub_us: int
    seq: int


@dataclass
class LinkStats:
    """Counters for diagnostics and tests; none of them is an error by itself."""

    frames: int = 0
    bad_frames: int = 0
    duplicates: int = 0
    early: int = 0
    lost: int = 0
    restarts: int = 0
    echoes: int = 0
    gaps: list[tuple[int, int]] = field(default_factory=list)


class HostSession:
    """Host side of the protocol in firmware/PROTOCOL.md, driven by explicit times."""

    def __init__(
        self,
        send: Callable[[bytes], None],
        on_event: Callable[[HubEvent], None],
        on_link: Callable[[str, str], None],
        *,
        silence_warning: float = 1.5,
        hello_interval: float = 0.5,
        reorder_window: int = 512,
        noise_window: float = 5.0,
        noise_threshold: int = 10,
    ) -> None:
        self._send = send
        self._on_event = on_event
        self._on_link = on_link
        self.silence_warning = silence_warning
        self.hello_interval = hello_interval
        self.reorder_window = reorder_window
        self.noise_window = noise_window
        self.noise_threshold = noise_threshold
        self.status = DOWN
        self._announced = False  # the first status is reported even if it is "down"
        self.stats = LinkStats()
        self.boot: int | None = None
        self.version = ""
        self.clock = ClockMap()
        self._expected = 0
        self._early: dict[int, Edge] = {}
        self._inputs = 0
        self._inputs_known = False
        self._open = False
        self._synced = False
        self._opened_at = 0.0
        self._unanswered_reported = False
        self._last_rx = 0.0
        self._last_hello = float("-inf")
        self._incompatible = False
        self._deframer = protocol.Deframer()
        self._noise: deque[float] = deque()
        self._noise_reported = float("-inf")

    # -- what the port does ----------------------------------------------------------

    def opened(self, now: float) -> None:
        """The port is open: introduce ourselves; the link is up once the hub answers."""
        self._open = True
        self._synced = False
        self._opened_at = now
        self._unanswered_reported = False
        self._deframer = protocol.Deframer()
        self._last_rx = now
        self._hello(now)

    def closed(self, now: float, reason: str) -> None:
        """The port failed or went away: the link is down until it opens again."""
        self._open = False
        self._synced = False
        self._set_status(DOWN, reason)

    def receive(self, data: bytes, now: float) -> None:
        """Bytes the port read at host time ``now``."""
        errors = self._deframer.errors
        progressed = False
        for body, t in self._deframer.feed(data, now):
            try:
                message = protocol.decode_hub_message(body)
            except EchoedFrame:
                self.stats.echoes += 1
                continue
            except FrameError:
                self._bad_frame(now)
                continue
            self.stats.frames += 1
            progressed |= self._handle(message, t)
        for _ in range(self._deframer.errors - errors):
            self._bad_frame(now)
        if progressed and self.boot is not None:
            self._ack()

    def poll(self, now: float) -> None:
        """Timers: re-send HOST_HELLO until the hub answers, warn when it falls silent."""
        if not self._open:
            return
        if not self._synced and now - self._last_hello >= self.hello_interval:
            self._hello(now)
        if (
            not self._synced
            and not self._unanswered_reported
            and not self._incompatible
            and now - self._opened_at > self.silence_warning
        ):
            self._unanswered_reported = True
            self._on_link(DOWN, "the port is open but no hub answers: is the firmware flashed?")
        silent = now - self._last_rx
        if self._synced and self.status == UP and silent > self.silence_warning:
            self._set_status(WARNING, f"no word from the hub for {silent:.1f} s: is it unplugged?")

    # -- queries -------------------------------------------------------------------------

    def inputs(self) -> dict[str, int] | None:
        """The hub's inputs as of the last event delivered (1 = active), or None before
        the hub has reported a state consistent with what was delivered."""
        if not self._inputs_known:
            return None
        return {name: (self._inputs >> i) & 1 for i, (_, name) in enumerate(protocol.INPUTS)}

    def hub_to_host(self, hub_us: int) -> float:
        return self.clock.to_host(hub_us)

    # -- handling ------------------------------------------------------------------------

    def _handle(self, message: protocol.HubMessage, t: float) -> bool:
        if isinstance(message, Hello):
            return self._on_hello(message, t)
        if self.boot is None or message.boot != self.boot or not self._synced:
            # A hub we have not been introduced to (or a restarted one whose HELLO was
            # lost): take nothing from it, ask who it is.
            if self._open and t - self._last_hello >= self.hello_interval / 4:
                self._hello(t)
            return False
        self._heard(t)
        if isinstance(message, Heartbeat):
            self.clock.add(message.t_us, t)
            self._skip_lost(message.oldest)
            self._note_state(message.next_seq, message.inputs)
            return True
        return self._on_edge(message)

    def _on_hello(self, hello: Hello, t: float) -> bool:
        if hello.protocol != protocol.PROTOCOL_VERSION:
            self._incompatible = True
            self._set_status(
                DOWN,
                f"hub firmware {hello.version} speaks protocol {hello.protocol}, this companion"
                f" speaks {protocol.PROTOCOL_VERSION}: flash the firmware from this release",
            )
            return False
        self._incompatible = False
        if hello.boot != self.boot:
            if self.boot is not None:
                self.stats.restarts += 1
                self._on_link(
                    WARNING,
                    "the hub restarted: inputs moved while it was off were not seen",
                )
            self.boot = hello.boot
            self.clock = ClockMap()
            self._expected = hello.oldest
            self._early.clear()
            self._inputs_known = False
        self.version = hello.version
        self.clock.add(hello.t_us, t)
        self._synced = True
        self._heard(t, f"hub firmware {hello.version}, boot {hello.boot:08x}")
        self._skip_lost(hello.oldest)
        self._note_state(hello.next_seq, hello.inputs)
        return True

    def _on_edge(self, edge: Edge) -> bool:
        if edge.seq < self._expected or edge.seq in self._early:
            self.stats.duplicates += 1
            return True  # acknowledge again: the hub evidently missed our ACK
        if edge.seq >= self._expected + self.reorder_window:
            return False  # far ahead: the hub will send it again once the gap is filled
        if edge.seq > self._expected:
            self.stats.early += 1
        self._early[edge.seq] = edge
        self._deliver_ready()
        return True

    def _deliver_ready(self) -> None:
        while self._expected in self._early:
            edge = self._early.pop(self._expected)
            self._expected += 1
            kind, name = protocol.INPUTS[edge.index]
            if edge.value:
                self._inputs |= 1 << edge.index
            else:
                self._inputs &= ~(1 << edge.index)
            t = self.clock.to_host(edge.t_us)
            self._on_event(HubEvent(kind, name, edge.value, t, edge.t_us, edge.seq))

    def _skip_lost(self, oldest: int) -> None:
        """Everything below ``oldest`` is gone from the hub: deliver what we hold of it,
        count and report what nobody will ever send."""
        if oldest <= self._expected:
            return
        held = sorted(seq for seq in self._early if seq < oldest)
        lost = oldest - self._expected - len(held)
        if lost:
            self.stats.lost += lost
            self.stats.gaps.append((self._expected, oldest - 1))
            self._inputs_known = False
            self._on_link(
                WARNING,
                f"{lost} input change(s) lost (the hub's buffer overflowed while the link was"
                f" down; seq {self._expected}-{oldest - 1})",
            )
        for seq in held:
            if seq in self._early:
                self._expected = seq
                self._deliver_ready()
        self._expected = max(self._expected, oldest)
        self._deliver_ready()

    def _note_state(self, next_seq: int, inputs: int) -> None:
        """A HELLO or heartbeat's bitmap is the state after every event below its
        ``next_seq``; it describes what we delivered only once we have caught up."""
        if self._expected == next_seq:
            self._inputs = inputs
            self._inputs_known = True

    # -- helpers ---------------------------------------------------------------------

    def _heard(self, t: float, detail: str | None = None) -> None:
        silent = t - self._last_rx
        self._last_rx = t
        if self.status != UP:
            if detail is None:
                detail = f"hub back after {silent:.1f} s of silence"
            self._set_status(UP, detail)

    def _bad_frame(self, now: float) -> None:
        self.stats.bad_frames += 1
        noise = self._noise
        noise.append(now)
        while noise and now - noise[0] > self.noise_window:
            noise.popleft()
        if len(noise) >= self.noise_threshold and now - self._noise_reported > self.noise_window:
            self._noise_reported = now
            self._on_link(
                WARNING,
                f"noisy link: {len(noise)} damaged frames in {self.noise_window:.0f} s"
                " (check the USB cable)",
            )

    def _hello(self, now: float) -> None:
        self._last_hello = now
        self._send(protocol.encode_host_hello())

    def _ack(self) -> None:
        assert self.boot is not None
        held = 0
        if self._early:
            base = self._expected + 1
            for seq in self._early:
                if base <= seq < base + 32:
                    held |= 1 << (seq - base)
        self._send(protocol.encode_ack(self.boot, self._expected, held))

    def _set_status(self, status: str, detail: str) -> None:
        if status != self.status or not self._announced:
            self._announced = True
            self.status = status
            self._on_link(status, detail)
