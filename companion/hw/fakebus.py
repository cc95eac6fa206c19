"""Recording stand-ins for the buses under luma's real serial interfaces, for tests and benches.

luma's ``i2c`` interface writes through an smbus2-like object (``write_i2c_block_data``) and
its ``spi`` through a spidev-like one plus RPi.GPIO for the DC line; these record every
transfer, so luma's real drivers (``ssd1306``, ``sh1106``, ``ssd1351``) run unchanged on a
machine without a panel. ``wire_s_per_byte`` makes each transfer take the time the real bus
would (I2C at 400 kHz: 9 bit times a byte, 22.5 µs), sleeping like a blocking ``ioctl`` does.
"""

from __future__ import annotations

import time

#: One byte on I2C at 400 kHz: 8 data bits and an ACK.
I2C_400K_S_PER_BYTE = 9 / 400_000
#: One byte on SPI at 8 MHz.
SPI_8M_S_PER_BYTE = 8 / 8_000_000


class RecordingI2CBus:
    """An smbus2 ``SMBus`` stand-in: every block written, as ``(address, register, bytes)``."""

    def __init__(self, wire_s_per_byte: float = 0.0) -> None:
        self.writes: list[tuple[int, int, bytes]] = []
        self.wire_s_per_byte = wire_s_per_byte

    def write_i2c_block_data(self, address: int, register: int, data: list[int]) -> None:
        self.writes.append((address, register, bytes(data)))
        if self.wire_s_per_byte:
            time.sleep((len(data) + 2) * self.wire_s_per_byte)  # + address and control byte

    def data_bytes(self) -> int:
        """Bytes of pixel data sent (control byte 0x40) so far."""
        return sum(len(d) for _, reg, d in self.writes if reg == 0x40)

    def close(self) -> None:
        pass


class RecordingSPI:
    """A spidev ``SpiDev`` stand-in: every transfer's bytes."""

    def __init__(self, wire_s_per_byte: float = 0.0) -> None:
        self.transfers: list[bytes] = []
        self.max_speed_hz = 0
        self.mode = 0
        self.wire_s_per_byte = wire_s_per_byte

    def open(self, port: int, device: int) -> None:
        self.port, self.device = port, device

    def writebytes(self, data: list[int]) -> None:
        self.transfers.append(bytes(data))
        if self.wire_s_per_byte:
            time.sleep(len(data) * self.wire_s_per_byte)

    def close(self) -> None:
        pass


class RecordingGPIO:
    """The RPi.GPIO calls luma's SPI interface makes for the DC and reset lines."""

    BCM = 11
    OUT = 0
    LOW = 0
    HIGH = 1

    def __init__(self) -> None:
        self.pins: dict[int, int] = {}
        self.outputs: dict[int, int] = {}

    def setmode(self, mode: int) -> None:
        pass

    def setwarnings(self, flag: bool) -> None:
        pass

    def setup(self, pin: int, direction: int) -> None:
        self.pins[pin] = direction

    def output(self, pin: int, value: int) -> None:
        self.outputs[pin] = value

    def cleanup(self, pin: int | None = None) -> None:
        pass
