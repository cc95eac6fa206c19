"""Debouncing of up to 30 inputs held as one bitmap, on the microsecond tick counter.

Why a bitmap: the Pico scans every input many thousand times a second and nearly every
scan sees nothing new, so the idle path is one XOR and two tests, with no allocation.

Rule: an input's change is reported once its raw level has not moved for its settle time,
and the report carries the tick of the FIRST edge of the bounce burst, which is when the
player actually moved it. A burst that ends where it started (a glitch) reports nothing.

MicroPython subset; tick arithmetic goes through the board's ``ticks_diff`` so the
counter's wraparound is handled the one way MicroPython defines it.
"""


class Debouncer:
    def __init__(self, settle_us, initial, now, ticks_diff):
        # settle_us: one settle time per bit index (a list as long as the widest bitmap).
        self.settle_us = settle_us
        self.stable = initial
        self.raw = initial
        self.pending = 0
        self._diff = ticks_diff
        self._first = [now] * len(settle_us)
        self._last = [now] * len(settle_us)

    def update(self, raw, now):
        """Feed one scan taken at tick ``now``; returns None or a list of
        (bit index, new value 0/1, tick of the burst's first edge)."""
        changed = raw ^ self.raw
        if changed:
            self.raw = raw
            bit = 0
            while changed:
                if changed & 1:
                    self._last[bit] = now
                    if not (self.pending >> bit) & 1:
                        self.pending |= 1 << bit
                        self._first[bit] = now
                changed >>= 1
                bit += 1
        if not self.pending:
            return None
        out = None
        waiting = self.pending
        bit = 0
        while waiting:
            if waiting & 1 and self._diff(now, self._last[bit]) >= self.settle_us[bit]:
                mask = 1 << bit
                self.pending &= ~mask
                value = (raw >> bit) & 1
                if value != (self.stable >> bit) & 1:
                    self.stable ^= mask
                    if out is None:
                        out = []
                    out.append((bit, value, self._first[bit]))
            waiting >>= 1
            bit += 1
        return out
