"""The hub's main loop: scan, debounce, frame, send, and resend until the host acknowledges.

Everything here is plain logic over a ``board`` (see board.py for the real one), so the
same code runs on the Pico and, with the fake ``machine`` and ``time`` modules of
tests/hub/fakes, on a PC. MicroPython subset: no dataclasses, no typing at run time.

Timestamps: ``time.ticks_us()`` wraps (every 2**30 us, about 18 minutes, on the RP2040),
so the hub counts the wraps and sends a 64-bit microsecond count since boot that never
wraps. Tick values are only ever compared through ``ticks_diff``.
"""

import struct

import codec
from debounce import Debouncer

N_DIRECT = 11
N_KEYS = 16
N_INPUTS = N_DIRECT + N_KEYS


def settle_table(config):
    """Settle time of each input index: six tilt switches, five buttons, sixteen keys."""
    return (
        [config.SETTLE_TILT_US] * 6
        + [config.SETTLE_BUTTON_US] * 5
        + [config.SETTLE_KEY_US] * N_KEYS
    )


class Hub:
    def __init__(self, board, config):
        self.board = board
        self.config = config
        self.boot = board.boot_id()
        self.running = True
        self.next_seq = 0
        self.dropped = 0
        self.frames_sent = 0
        self._period = board.ticks_period()
        now = board.ticks_us()
        self._tick = now
        self._wraps = 0
        self.debouncer = Debouncer(settle_table(config), board.scan(), now, board.ticks_diff)
        # [seq, frame, tick last sent] of every EVENT not yet acknowledged, oldest first,
        # seqs consecutive.
        self._unacked = []
        self._deframer = codec.Deframer()
        self._last_heartbeat = now
        self._last_progress = now
        self._last_ack = None
        self._led = False
        # Next seq to send again in the resend pass under way, or -1 when none is; the wait
        # between passes doubles while nothing is acknowledged (up to 8 x RESEND_US).
        self._resend_seq = -1
        self._resend_wait = config.RESEND_US
        self._hello()

    # -- clock ------------------------------------------------------------------------

    def _advance(self):
        """Read the tick counter, counting a wrap whenever it goes backwards."""
        tick = self.board.ticks_us()
        if tick < self._tick:
            self._wraps += 1
        self._tick = tick
        return tick

    def hub_us(self, tick):
        """Microseconds since boot of a tick read recently (less than half a period ago)."""
        return self._wraps * self._period + self._tick - self.board.ticks_diff(self._tick, tick)

    # -- the loop ---------------------------------------------------------------------

    def run(self):
        """Serve until the host sends a REPL frame."""
        while self.step():
            pass

    def step(self):
        """One pass: scan inputs, read the host, send heartbeat and resends. False once
        the host has asked the hub to stop."""
        now = self._advance()
        edges = self.debouncer.update(self.board.scan(), now)
        if edges:
            for index, value, first in edges:
                self._emit(index, value, first)
        data = self.board.read()
        if data:
            for body in self._deframer.feed(data):
                self._on_host_frame(body, now)
        diff = self.board.ticks_diff
        if diff(now, self._last_heartbeat) >= self.config.HEARTBEAT_US:
            self._last_heartbeat = now
            self._heartbeat()
        if self._unacked:
            self._resend(now)
        else:
            self._resend_seq = -1
        return self.running

    # -- sending ----------------------------------------------------------------------

    def _write(self, frame):
        self.board.write(frame)
        self.frames_sent += 1

    def _oldest(self):
        return self._unacked[0][0] if self._unacked else self.next_seq

    def _emit(self, index, value, first_tick):
        seq = self.next_seq
        self.next_seq = seq + 1
        frame = codec.pack_frame(
            codec.EVENT, self.boot, seq, self.hub_us(first_tick), struct.pack("<BB", index, value)
        )
        if not self._unacked:
            self._last_progress = self._tick
            self._resend_wait = self.config.RESEND_US
        elif len(self._unacked) >= self.config.RESEND_CAPACITY:
            # Keep the newest events (they describe the table as it is now); the host
            # learns of the hole from the next heartbeat's "oldest" and reports it.
            self._unacked.pop(0)
            self.dropped += 1
        self._unacked.append([seq, frame, self._tick])
        self._write(frame)

    def _now_us(self):
        """Hub time for a HELLO or heartbeat, read as late as possible before sending,
        because the host takes these as clock samples."""
        return self.hub_us(self._advance())

    def _hello(self):
        version = self.config.FIRMWARE_VERSION.encode()[:64]
        payload = struct.pack(
            "<BIIB", codec.PROTOCOL_VERSION, self._oldest(), self.debouncer.stable, len(version)
        )
        frame = codec.pack_frame(
            codec.HELLO, self.boot, self.next_seq, self._now_us(), payload + version
        )
        self._write(frame)

    def _heartbeat(self):
        payload = struct.pack("<II", self._oldest(), self.debouncer.stable)
        self._write(
            codec.pack_frame(codec.HEARTBEAT, self.boot, self.next_seq, self._now_us(), payload)
        )
        # LED: steady while the host acknowledges, blinking once a second when it does not.
        last = self._last_ack
        limit = 3 * self.config.HEARTBEAT_US
        if last is not None and self.board.ticks_diff(self._tick, last) < limit:
            self._led = True
        else:
            self._led = not self._led
        self.board.led(self._led)

    def _resend(self, now):
        if self._resend_seq < 0:
            if self.board.ticks_diff(now, self._last_progress) < self._resend_wait:
                return
            self._resend_seq = self._unacked[0][0]
        first = self._unacked[0][0]
        start = self._resend_seq - first
        if start < 0:
            start = 0
        stop = start + self.config.RESEND_BURST
        for entry in self._unacked[start:stop]:
            self._write(entry[1])
            entry[2] = now
            self._resend_seq = entry[0] + 1
        if self._resend_seq > self._unacked[-1][0]:
            self._resend_seq = -1
            self._last_progress = now
            limit = 8 * self.config.RESEND_US
            self._resend_wait = limit if 2 * self._resend_wait > limit else 2 * self._resend_wait

    def _resend_missing(self, ack, held, now):
        """Selective resend: ``held`` has bit i set when the host holds seq ack+1+i, so
        every clear bit below the highest set one (and ``ack`` itself) is a frame that
        was lost on the way. Each is sent again at most every RESEND_US / 4."""
        top = 0
        while held >> top:
            top += 1
        first = self._unacked[0][0]
        count = len(self._unacked)
        quiet = self.config.RESEND_US // 4
        sent = 0
        for i in range(-1, top - 1):
            if i >= 0 and (held >> i) & 1:
                continue
            k = ack + 1 + i - first
            if k < 0 or k >= count:
                continue
            entry = self._unacked[k]
            if self.board.ticks_diff(now, entry[2]) >= quiet:
                self._write(entry[1])
                entry[2] = now
                sent += 1
                if sent >= self.config.RESEND_BURST:
                    return

    # -- receiving --------------------------------------------------------------------

    def _on_host_frame(self, body, now):
        frame = codec.unpack_body(body)
        if frame is None:
            return
        ftype, boot, seq, _t_us, payload = frame
        if ftype == codec.ACK:
            if boot != self.boot or len(payload) != 4 or seq > self.next_seq:
                return
            self._last_ack = now
            # The host is listening, so no backing off.
            self._resend_wait = self.config.RESEND_US
            moved = False
            while self._unacked and self._unacked[0][0] < seq:
                self._unacked.pop(0)
                moved = True
            if moved:
                self._last_progress = now
            held = struct.unpack("<I", payload)[0]
            if held and self._unacked:
                self._resend_missing(seq, held, now)
        elif ftype == codec.HOST_HELLO:
            if len(payload) != 1:
                return
            self._last_ack = now
            self._hello()
            # A host that just (re)connected wants the backlog now, not after a timeout.
            if self._unacked:
                self._resend_seq = self._unacked[0][0]
        elif ftype == codec.REPL:
            if boot == self.boot and payload == codec.REPL_MAGIC:
                self.running = False
