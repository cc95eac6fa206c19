"""The hub's only contact with the hardware: pins, the microsecond clock, USB serial.

Nothing else in the firmware imports ``machine``, ``time``, ``micropython``, ``select`` or
``sys``. On a PC the tests load this same file with fake ``machine``/``time``/``micropython``
modules (tests/hub/fakes) that model the table's wiring.

Scanning is built for speed, because a change's timestamp is the scan that first saw it:
one read of the RP2040's SIO GPIO_IN register gives every pin at once, and the keypad
rows rest driven low so any key press shows up in that same read as a low column; only
then are the rows walked one by one.
"""

import os
import select
import sys
import time

import machine
import micropython

# RP2040 datasheet, 2.3.1.7: SIO base 0xd0000000, GPIO_IN at offset 0x004 holds the input
# level of GPIO0..29 in bits 0..29.
SIO_GPIO_IN = 0xD0000004


class UsbPort:
    """The USB CDC serial line, which MicroPython shares with the REPL's stdin/stdout.

    Reads never block (poll first, then one byte at a time); writes that fail because the
    host has gone are dropped, as the resend buffer will cover them.
    """

    def __init__(self, stream_in=None, stream_out=None):
        self._in = stream_in if stream_in is not None else sys.stdin.buffer
        self._out = stream_out if stream_out is not None else sys.stdout.buffer
        self._poll = select.poll()
        self._poll.register(self._in, select.POLLIN)

    def read(self, limit=64):
        data = b""
        try:
            while len(data) < limit and self._poll.poll(0):
                byte = self._in.read(1)
                if not byte:
                    break
                data += byte
        except OSError:
            pass
        return data

    def write(self, data):
        try:
            self._out.write(data)
        except OSError:
            pass


class Board:
    """Pins and clock of a Pico wired as in hardware/hub/README.md (numbers in config)."""

    def __init__(self, config, port=None):
        self.port = port if port is not None else UsbPort()
        pin = machine.Pin
        self._direct = []
        self._direct_mask = 0
        for index, gpio in enumerate(config.DIRECT_PINS):
            pin(gpio, pin.IN, pin.PULL_UP)
            self._direct.append((1 << gpio, 1 << index))
            self._direct_mask |= 1 << gpio
        # Open drain: a resting row is driven low, a released row floats, so two keys in
        # one column can never short two driven outputs together.
        self._rows = [pin(gpio, pin.OPEN_DRAIN, value=0) for gpio in config.KEYPAD_ROWS]
        self._cols = []
        self._col_mask = 0
        for gpio in config.KEYPAD_COLS:
            pin(gpio, pin.IN, pin.PULL_UP)
            self._cols.append(1 << gpio)
            self._col_mask |= 1 << gpio
        self._key_base = len(config.DIRECT_PINS)
        self._last_direct = self._direct_mask
        self._direct_bits = 0
        try:
            self._led = pin("LED", pin.OUT, value=0)
        except (TypeError, ValueError):
            self._led = None

    # -- clock --------------------------------------------------------------------------

    def ticks_us(self):
        return time.ticks_us()

    def ticks_diff(self, a, b):
        return time.ticks_diff(a, b)

    def ticks_period(self):
        """The tick counter's modulus (2**30 on the RP2040): ticks_add(0, -1) is its max."""
        return time.ticks_add(0, -1) + 1

    def sleep_ms(self, ms):
        time.sleep_ms(ms)

    def boot_id(self):
        """A random 32-bit number per power-up, so the host can tell a restarted hub."""
        return int.from_bytes(os.urandom(4), "little")

    # -- inputs -------------------------------------------------------------------------

    def scan(self):
        """Bitmap of active inputs (bit = input index, 1 = pressed/tilted)."""
        level = machine.mem32[SIO_GPIO_IN]
        direct = level & self._direct_mask
        if direct != self._last_direct:
            self._last_direct = direct
            bits = 0
            for gpio_bit, index_bit in self._direct:
                if not direct & gpio_bit:
                    bits |= index_bit
            self._direct_bits = bits
        if level & self._col_mask == self._col_mask:
            return self._direct_bits
        return self._direct_bits | self._scan_keys()

    def _scan_keys(self):
        bits = 0
        index = self._key_base
        rows = self._rows
        for row in rows:
            row.value(1)
        for row in rows:
            row.value(0)
            level = machine.mem32[SIO_GPIO_IN]
            for col_bit in self._cols:
                if not level & col_bit:
                    bits |= 1 << index
                index += 1
            row.value(1)
        for row in rows:
            row.value(0)
        return bits

    # -- serial and the rest ------------------------------------------------------------

    def read(self):
        return self.port.read()

    def write(self, data):
        self.port.write(data)

    def led(self, on):
        if self._led is not None:
            self._led.value(1 if on else 0)

    def quiet_ctrl_c(self, quiet):
        """Stop byte 0x03 on the serial line from raising KeyboardInterrupt (frames may
        contain it), or restore Ctrl-C for the REPL."""
        micropython.kbd_intr(-1 if quiet else 3)

    def reset(self):
        machine.reset()
