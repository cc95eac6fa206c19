"""Stand-in for MicroPython's ``machine`` module: a model of the wiring under the table.

Pins read the level the model gives them: an input with a pull-up reads 1 unless a closed
switch grounds it, or a pressed key joins it to a keypad row that is driven low. The test
closes switches (``WIRING.close(gpio)``) and presses keys (``WIRING.press(row, col)``);
``mem32`` answers the one register the firmware reads, SIO GPIO_IN.

Written in the MicroPython subset: the MicroPython unix port loads this same file.
"""

SIO_GPIO_IN = 0xD0000004
LED_GPIO = 25


class _Wiring:
    def __init__(self):
        self.closed = set()  # GPIOs grounded by a closed switch or button
        self.keys = set()  # (row gpio, column gpio) of pressed keys
        self.modes = {}  # gpio -> Pin mode
        self.driven = {}  # gpio -> output latch value
        self.resets = 0
        # The same facts as bitmaps, kept up to date, so a read costs next to nothing.
        self._closed_bits = 0
        self._drive_low = 0  # OUT or OPEN_DRAIN pins whose latch is 0
        self._out_mask = 0
        self._out_high = 0
        self._pulled_down = 0
        self._cache = None

    def close(self, gpio):
        self.closed.add(gpio)
        self._closed_bits |= 1 << gpio
        self._cache = None

    def open(self, gpio):
        self.closed.discard(gpio)
        self._closed_bits &= ~(1 << gpio)
        self._cache = None

    def press(self, row, col):
        self.keys.add((row, col))
        self._cache = None

    def release(self, row, col):
        self.keys.discard((row, col))
        self._cache = None

    def set_pin(self, gpio, mode, pull, value):
        """Pin.init / Pin.value: record the pin's configuration and output latch."""
        bit = 1 << gpio
        if mode != -1:
            self.modes[gpio] = mode
        if pull != -1:
            if pull == Pin.PULL_DOWN:
                self._pulled_down |= bit
            else:
                self._pulled_down &= ~bit
        if value is not None:
            self.driven[gpio] = 1 if value else 0
        mode = self.modes.get(gpio)
        level = self.driven.get(gpio, 0)
        self._out_mask &= ~bit
        self._out_high &= ~bit
        self._drive_low &= ~bit
        if mode == Pin.OUT:
            self._out_mask |= bit
            if level:
                self._out_high |= bit
        if mode in (Pin.OUT, Pin.OPEN_DRAIN) and not level:
            self._drive_low |= bit
        self._cache = None

    def _compute(self):
        """Levels of GPIO0..29 as a bitmap. A line is low when it is driven low, grounded
        by a closed switch, or joined through pressed keys to such a line (rows and
        columns meet only at keys, so a chord of three keys pulls a fourth line low:
        real keypad ghosting). Inputs otherwise read high (pull-up) unless pulled down."""
        low = self._closed_bits | self._drive_low
        if self.keys:
            pairs = [((1 << row) | (1 << col)) for row, col in self.keys]
            grew = True
            while grew:
                grew = False
                for pair in pairs:
                    if low & pair and low & pair != pair:
                        low |= pair
                        grew = True
        level = ~(low | self._pulled_down) & 0x3FFFFFFF
        return (level & ~self._out_mask) | self._out_high

    def level(self, gpio):
        return (self.gpio_in() >> gpio) & 1

    def gpio_in(self):
        if self._cache is None:
            self._cache = self._compute()
        return self._cache


WIRING = _Wiring()


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, id, mode=-1, pull=-1, value=None):
        if id == "LED":
            id = LED_GPIO
        if not isinstance(id, int) or not 0 <= id < 30:
            raise ValueError("invalid pin")
        self.id = id
        self.init(mode, pull, value)

    def init(self, mode=-1, pull=-1, value=None):
        WIRING.set_pin(self.id, mode, pull, value)

    def value(self, v=None):
        if v is None:
            return WIRING.level(self.id)
        WIRING.set_pin(self.id, -1, -1, v)
        return None


class _Mem32:
    def __getitem__(self, address):
        if address == SIO_GPIO_IN:
            return WIRING.gpio_in()
        raise ValueError("fake mem32 only models SIO GPIO_IN")


mem32 = _Mem32()


class ResetRequested(Exception):
    """Raised by reset(): on a PC the 'hub' cannot power-cycle itself."""


def reset():
    WIRING.resets += 1
    raise ResetRequested()


def idle():
    pass
