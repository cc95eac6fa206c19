"""The real OLED panels, made cheap: paged drivers that send only what changed, and a writer
thread so that a slow bus never holds up the loop.

luma.oled's ``ssd1306`` and ``sh1106`` pack a frame pixel by pixel in Python (8,192 steps for
128x64, many times what drawing it costs) and send all 8 pages of 128 bytes every time. One
SSD1306 frame over I2C at 400 kHz takes about 23 ms on the wire. Here:

- :class:`PagedSSD1306` / :class:`PagedSH1106` are luma's own drivers (same init, commands and
  serial interface) whose ``display`` packs with Pillow (a rotation and ``tobytes``) and sends
  only the pages that differ from what the panel shows;
- the SSD1351 (colour, SPI) uses luma's own ``diff_to_previous`` framebuffer, which sends only
  the changed boxes;
- :class:`PanelWriter` runs ``device.display`` on a thread of its own. The loop hands it the
  newest picture and goes on at once; a picture not yet sent when a newer one comes is dropped
  (the latest frame wins), so the buzzer and the inputs never wait for the bus.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

from luma.core.error import Error as LumaError  # type: ignore[import-untyped]
from luma.oled.device import sh1106, ssd1306  # type: ignore[import-untyped]
from PIL import Image


def pack_pages(image: Image.Image) -> list[bytes]:
    """A mode "1" picture as the controller's pages: page ``p`` holds one byte per column,
    bit ``i`` the pixel at row ``8 * p + i`` (the SSD1306/SH1106 memory layout)."""
    width, height = image.size
    pages = height // 8
    # Rotated a quarter turn clockwise, each row is one column read bottom to top, so
    # ``tobytes`` (8 pixels a byte, first pixel in the high bit) yields the page bytes,
    # the bottom page first.
    raw = image.transpose(Image.Transpose.ROTATE_270).tobytes()
    return [raw[pages - 1 - p :: pages] for p in range(pages)]


def changed_runs(shown: list[bytes], pages: list[bytes]) -> list[tuple[int, int]]:
    """Runs ``(first, last)`` of consecutive pages that differ from what is shown (all of
    them when nothing is known to be shown)."""
    if len(shown) != len(pages):
        return [(0, len(pages) - 1)] if pages else []
    runs: list[tuple[int, int]] = []
    for p, (old, new) in enumerate(zip(shown, pages, strict=True)):
        if old == new:
            continue
        if runs and runs[-1][1] == p - 1:
            runs[-1] = (runs[-1][0], p)
        else:
            runs.append((p, p))
    return runs


class PagedSSD1306(ssd1306):  # type: ignore[misc]
    """luma's SSD1306 driver, sending only the changed pages (horizontal addressing: one
    COLUMNADDR/PAGEADDR window per run of changed pages)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.shown: list[bytes] = []  # luma's __init__ clears the panel through display()
        self.pages_sent = 0
        super().__init__(*args, **kwargs)

    def display(self, image: Image.Image) -> None:
        assert image.mode == self.mode and image.size == self.size
        pages = pack_pages(self.preprocess(image))
        for first, last in changed_runs(self.shown, pages):
            self.command(self._const.COLUMNADDR, self._colstart, self._colend - 1,
                         self._const.PAGEADDR, first, last)
            self.data(list(b"".join(pages[first : last + 1])))
            self.pages_sent += last - first + 1
        self.shown = pages


class PagedSH1106(sh1106):  # type: ignore[misc]
    """luma's SH1106 driver, sending only the changed pages (page addressing: each page is
    addressed and written on its own, as luma does)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.shown: list[bytes] = []
        self.pages_sent = 0
        super().__init__(*args, **kwargs)

    def display(self, image: Image.Image) -> None:
        assert image.mode == self.mode and image.size == self.size
        pages = pack_pages(self.preprocess(image))
        for first, last in changed_runs(self.shown, pages):
            for p in range(first, last + 1):
                self.command(0xB0 + p, self._page_address_offset, 0x10)
                self.data(list(pages[p]))
                self.pages_sent += 1
        self.shown = pages


def open_device(config: Mapping[str, Any], *, i2c_bus: Any = None, spi: Any = None,
                gpio: Any = None) -> Any:
    """The configured panel on its real bus: I2C port and address, or the SSD1351's SPI port,
    chip select and DC/reset pins, all from ``[display]``. ``i2c_bus`` (an smbus2-like bus),
    ``spi`` and ``gpio`` stand in for the hardware in tests and benches."""
    disp = config["display"]
    driver = disp["driver"]
    rotate = int(disp["rotate"])
    if driver in ("ssd1306", "sh1106"):
        from luma.core.interface.serial import i2c  # type: ignore[import-untyped]

        serial = i2c(bus=i2c_bus, port=int(disp["i2c_port"]), address=int(disp["i2c_address"]))
        cls = PagedSSD1306 if driver == "ssd1306" else PagedSH1106
        return cls(serial, width=int(disp["width"]), height=int(disp["height"]), rotate=rotate)
    if driver == "ssd1351":
        from luma.core.framebuffer import diff_to_previous  # type: ignore[import-untyped]
        from luma.core.interface.serial import spi as spi_serial
        from luma.oled.device import ssd1351

        reset = int(disp["spi_reset_pin"])
        serial = spi_serial(
            spi=spi, gpio=gpio, port=int(disp["spi_port"]), device=int(disp["spi_device"]),
            gpio_DC=int(disp["spi_dc_pin"]), gpio_RST=reset if reset >= 0 else None,
            bus_speed_hz=int(disp["spi_speed_hz"]),
        )
        return ssd1351(serial, width=128, height=128, rotate=rotate,
                       framebuffer=diff_to_previous(num_segments=16))
    raise ValueError(f"unknown display driver {driver!r}")


class PanelWriter:
    """Sends pictures to a device on its own thread, the newest one winning.

    :meth:`show` never blocks for long: it leaves the picture in a one-place mailbox and wakes
    the thread. A picture still waiting when a newer one comes is replaced, never queued, so a
    slow bus costs frames, not latency. ``sent`` and ``dropped`` count both outcomes.
    """

    def __init__(self, device: Any) -> None:
        self.device = device
        self.sent = 0
        self.dropped = 0
        self.errors = 0
        self._next: Image.Image | None = None
        self._busy = False
        self._closed = False
        self._cond = threading.Condition()
        self._thread = threading.Thread(target=self._run, name="oled", daemon=True)
        self._thread.start()

    def show(self, image: Image.Image) -> None:
        with self._cond:
            if self._next is not None:
                self.dropped += 1
            self._next = image
            self._cond.notify()

    def idle(self, timeout: float = 5.0) -> bool:
        """Wait until every picture handed over is sent or dropped (tests, benches, exit)."""
        with self._cond:
            return self._cond.wait_for(lambda: self._next is None and not self._busy, timeout)

    def close(self) -> None:
        self.idle()
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        self._thread.join(timeout=5.0)

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._next is not None or self._closed)
                if self._closed:
                    return
                image, self._next = self._next, None
                self._busy = True
            try:
                self.device.display(image)
                self.sent += 1
            except (OSError, LumaError):
                # A loose wire or a panel that went away: the game goes on without the
                # screen; the next picture tries again.
                self.errors += 1
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()
