"""Stand-in for MicroPython's ``time`` module, so the hub firmware runs on a PC.

Two clocks: a virtual one the test advances by hand (deterministic runs of any length in
a fraction of the time), and the real monotonic clock of the PC, optionally skewed by a
drift and an offset (the bench's "crystal"). Either way ``ticks_us`` wraps at ``PERIOD``,
which a test may shrink to exercise wraparound every second instead of every 18 minutes.

Written in the MicroPython subset: the MicroPython unix port loads this same file.
"""

try:
    import utime as _host  # MicroPython: the built-in module this file shadows

    def _host_us():
        return _host.ticks_us()

    def _host_sleep_us(us):
        _host.sleep_us(us)

except ImportError:
    import time as _host

    def _host_us():
        return _host.monotonic_ns() // 1000

    def _host_sleep_us(us):
        _host.sleep(us / 1e6)


PERIOD = 1 << 30  # the RP2040's tick modulus
_virtual = None  # virtual microseconds when set, else the real clock is used
_base = 0
_offset = 0
_rate = 1.0


def set_period(period):
    global PERIOD
    PERIOD = period


def use_virtual(start_us=0):
    global _virtual
    _virtual = start_us


def advance(us):
    global _virtual
    _virtual += us


def use_real(drift_ppm=0.0, offset_us=0):
    """Tick with the PC's clock: hub_us = offset + (host_us - now) * (1 + drift)."""
    global _virtual, _base, _offset, _rate
    _virtual = None
    _base = _host_us()
    _offset = offset_us
    _rate = 1.0 + drift_ppm * 1e-6
    return _base


def now_us():
    """The unwrapped microsecond count the ticks are taken from."""
    if _virtual is not None:
        return _virtual
    return _offset + int((_host_us() - _base) * _rate)


def ticks_us():
    return now_us() % PERIOD


def ticks_ms():
    return (now_us() // 1000) % PERIOD


def ticks_diff(a, b):
    half = PERIOD // 2
    return ((a - b + half) % PERIOD) - half


def ticks_add(a, delta):
    return (a + delta) % PERIOD


def sleep_us(us):
    if _virtual is not None:
        advance(us)
    else:
        _host_sleep_us(us)


def sleep_ms(ms):
    sleep_us(ms * 1000)


def sleep(seconds):
    sleep_us(int(seconds * 1000000))
