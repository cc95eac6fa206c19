"""The real OLED path: luma.oled's drivers over recording buses, against the packing floor.

1. The pictures: a simulated 10-minute level-3 Tamsk game (the demo's script, fake clock, the
   daemon's own Display at 10 fps) records every picture drawn, and how many equal the one the
   panel already shows (those are never sent).
2. Each driver gets the pictures that were sent, over luma's real serial interface on a
   recording bus (luma's ``i2c`` on an smbus2 stand-in; ``spi`` on a spidev/RPi.GPIO one):
   luma's stock ``ssd1306``/``sh1106``/``ssd1351`` against ours (paged; the SSD1351 with luma's
   ``diff_to_previous``). CPU per frame as a ratio to the floor (packing the same picture with
   Pillow: ``pack_pages`` for the monochrome panels, ``tobytes`` for the colour one), and the
   bytes sent per frame.
3. The loop's cost with a real bus: each byte takes the wire's time (I2C 400 kHz: 22.5 µs), and
   ``Display.refresh`` is timed in the caller with the bus write inline (as before) and on the
   writer thread (latest frame wins): p50/p99 of how long the loop is held.

Run: .venv/bin/python bench/display.py
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from luma.core.framebuffer import full_frame  # noqa: E402
from luma.core.interface.serial import i2c, spi  # noqa: E402
from luma.oled.device import sh1106, ssd1306, ssd1351  # noqa: E402
from PIL import Image  # noqa: E402

from companion.config import defaults  # noqa: E402
from companion.hw.display import Display  # noqa: E402
from companion.hw.fakebus import (  # noqa: E402
    I2C_400K_S_PER_BYTE,
    RecordingGPIO,
    RecordingI2CBus,
    RecordingSPI,
)
from companion.hw.panel import PagedSH1106, PagedSSD1306, PanelWriter, open_device, pack_pages  # noqa: E402


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def game_pictures(driver: str, game_seconds: float = 600.0) -> tuple[list[Image.Image], int]:
    """The pictures a 10-minute game sends to the panel, and how many were drawn in all."""
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    from companion.clock import FakeClock
    from companion.daemon import Daemon, make_sounder
    from companion.hw.display import make_device
    from companion.hw.inputs import GpioInputs
    from companion.tamsk.demo import ScriptedTime, Table3Script
    from companion.tamsk.game import Rules
    from companion.tamsk.table import Table

    config = defaults()
    config["display"]["driver"] = driver
    clock = FakeClock()
    sent: list[Image.Image] = []
    with tempfile.TemporaryDirectory() as tmp:
        factory = MockFactory(pin_class=MockPWMPin)
        sounder = make_sounder(config, factory)
        table = Table(clock, Path(tmp), config=config,
                      sound=lambda p: sounder.play(p, clock.now()))
        display = Display(make_device(config, "mock"), max_fps=10,
                          on_frame=lambda im, now: sent.append(im))
        daemon = Daemon(table, clock, display=display, sounder=sounder)
        inputs = GpioInputs(config, clock, daemon.deliver, pin_factory=factory)
        table.start_game(Rules(level=3))
        scripted = ScriptedTime(clock, table.mono0, 0, on_done=daemon.stop)
        daemon.waiter = scripted.wait
        Table3Script(scripted, inputs, daemon.deliver).script(until=game_seconds)
        scripted.at(game_seconds, daemon.stop)

        async def main() -> None:
            daemon.loop = asyncio.get_running_loop()
            await daemon.run()

        asyncio.run(main())
        inputs.close()
    return sent, display.draws


def per_frame(device: Any, pictures: list[Image.Image], bytes_sent: Callable[[], int]
              ) -> tuple[float, float]:
    """CPU seconds and bytes per frame for a device showing the pictures in order."""
    before = bytes_sent()
    start = time.process_time()
    for im in pictures:
        device.display(im)
    cpu = time.process_time() - start
    return cpu / len(pictures), (bytes_sent() - before) / len(pictures)


def floor(pictures: list[Image.Image], pack: Callable[[Image.Image], object]) -> float:
    start = time.process_time()
    for _ in range(5):
        for im in pictures:
            pack(im)
    return (time.process_time() - start) / (5 * len(pictures))


def i2c_bytes(bus: RecordingI2CBus) -> Callable[[], int]:
    return lambda: sum(len(d) + 2 for _, _, d in bus.writes)


def spi_bytes(bus: RecordingSPI) -> Callable[[], int]:
    return lambda: sum(len(t) for t in bus.transfers)


def drivers() -> None:
    print("1-2. a 10-minute level-3 game at 10 fps; each driver over a recording bus")
    print(f"{'driver':<22} {'CPU/frame':>10} {'x floor':>8} {'bytes/frame':>12}")
    for kind in ("ssd1306", "sh1106", "ssd1351"):
        pictures, draws = game_pictures(kind)
        print(f"-- {kind}: {draws} pictures drawn, {len(pictures)} sent "
              f"({1 - len(pictures) / draws:.0%} equal to the one shown: skipped)")
        if kind == "ssd1351":
            base = floor(pictures, lambda im: im.tobytes())
            runs: list[tuple[str, Any, Callable[[], int]]] = []
            for name, fb in (("luma ssd1351 (full)", full_frame()), ("ours (diff boxes)", None)):
                bus = RecordingSPI()
                if fb is None:
                    config = defaults()
                    config["display"]["driver"] = "ssd1351"
                    dev = open_device(config, spi=bus, gpio=RecordingGPIO())
                else:
                    dev = ssd1351(spi(spi=bus, gpio=RecordingGPIO(), gpio_DC=9, gpio_RST=None),
                                  framebuffer=fb)
                runs.append((name, dev, spi_bytes(bus)))
        else:
            base = floor(pictures, pack_pages)
            stock_cls, paged_cls = (ssd1306, PagedSSD1306) if kind == "ssd1306" else (
                sh1106, PagedSH1106)
            runs = []
            for name, cls in ((f"luma {kind}", stock_cls), ("ours (changed pages)", paged_cls)):
                bus = RecordingI2CBus()
                runs.append((name, cls(i2c(bus=bus, address=0x3C)), i2c_bytes(bus)))
        print(f"{'floor (packing)':<22} {base * 1e3:>7.3f} ms {1:>7.1f}x")
        for name, dev, sent in runs:
            cpu, nbytes = per_frame(dev, pictures, sent)
            print(f"{name:<22} {cpu * 1e3:>7.3f} ms {cpu / base:>7.1f}x {nbytes:>12.0f}")


def loop_hold(frames: int = 80) -> None:
    """How long Display.refresh holds the loop with a real-speed I2C SSD1306 (22.5 µs/byte)."""
    print(f"\n3. the loop held by Display.refresh, SSD1306 on I2C at 400 kHz, {frames} frames")
    pictures, _ = game_pictures("ssd1306", game_seconds=120.0)
    pictures = pictures[:frames]
    views = iter(pictures)
    import companion.hw.display as display_mod

    original = display_mod.pick_screen
    display_mod.pick_screen = lambda view, size, mode: next(views)  # the game's own pictures
    try:
        for name, threaded, cls in (("luma ssd1306, inline", False, ssd1306),
                                    ("paged, inline", False, PagedSSD1306),
                                    ("paged, writer thread", True, PagedSSD1306)):
            views = iter(pictures)
            bus = RecordingI2CBus(wire_s_per_byte=I2C_400K_S_PER_BYTE)
            dev = cls(i2c(bus=bus, address=0x3C))
            writer = PanelWriter(dev) if threaded else None
            display = Display(dev, max_fps=10, writer=writer)
            held = []
            for k in range(len(pictures)):
                start = time.perf_counter()
                display.refresh({}, float(k), urgent=True)
                held.append(time.perf_counter() - start)
                time.sleep(0.05 if k % 2 else 0.005)  # the bus is busy when the next comes
            if writer is not None:
                writer.close()
                extra = f"  ({writer.sent} sent, {writer.dropped} replaced by a newer one)"
            else:
                extra = ""
            print(f"{name:<22} p50 {statistics.median(held) * 1e3:6.2f} ms  "
                  f"p99 {pct(held, 0.99) * 1e3:6.2f} ms{extra}")
    finally:
        display_mod.pick_screen = original


if __name__ == "__main__":
    drivers()
    loop_hold()
