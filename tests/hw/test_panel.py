"""The real OLED drivers over recording buses: what reaches the panel's memory, how little is
sent, where the pins come from, and that a slow bus never holds up the caller."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from luma.core.interface.serial import i2c
from luma.oled.device import sh1106, ssd1306
from PIL import Image

from companion import config as config_mod
from companion.hw.display import Display
from companion.hw.fakebus import RecordingGPIO, RecordingI2CBus, RecordingSPI
from companion.hw.panel import PagedSH1106, PagedSSD1306, PanelWriter, open_device, pack_pages

W, H = 128, 64


def ssd1306_ram(writes: list[tuple[int, int, bytes]]) -> bytearray:
    """An SSD1306's display RAM after these I2C writes (horizontal addressing, as luma sets):
    a COLUMNADDR/PAGEADDR command opens a window, data fills it column by column, page by
    page."""
    ram = bytearray(W * H // 8)
    c0 = c1 = p0 = p1 = col = page = 0
    for _, register, data in writes:
        if register == 0x00:
            if len(data) == 6 and data[0] == 0x21 and data[3] == 0x22:
                c0, c1, p0, p1 = data[1], data[2], data[4], data[5]
                col, page = c0, p0
            continue
        for byte in data:
            ram[page * W + col] = byte
            col += 1
            if col > c1:
                col = c0
                page = p0 if page >= p1 else page + 1
    return ram


def sh1106_ram(writes: list[tuple[int, int, bytes]], offset: int = 2) -> bytearray:
    """An SH1106's RAM (132 columns, shown from ``offset``) after page-addressed writes."""
    ram = bytearray(132 * H // 8)
    page = col = 0
    for _, register, data in writes:
        if register == 0x00:
            if len(data) == 3 and data[0] & 0xF0 == 0xB0:
                page, col = data[0] & 0x0F, (data[1] & 0x0F) | ((data[2] & 0x0F) << 4)
            continue
        for byte in data:
            ram[page * 132 + col] = byte
            col += 1
    return ram


def random_image(seed: int, density: float = 0.5) -> Image.Image:
    import random

    rng = random.Random(seed)
    im = Image.new("1", (W, H))
    im.putdata([255 if rng.random() < density else 0 for _ in range(W * H)])
    return im


def edited(im: Image.Image, points: list[tuple[int, int]]) -> Image.Image:
    out = im.copy()
    for x, y in points:
        out.putpixel((x, y), 0 if out.getpixel((x, y)) else 255)
    return out


pixels = st.lists(st.tuples(st.integers(0, W - 1), st.integers(0, H - 1)), max_size=40)


def test_pages_are_packed_exactly_as_luma_packs_them() -> None:
    stock_bus, paged_bus = RecordingI2CBus(), RecordingI2CBus()
    stock = ssd1306(i2c(bus=stock_bus, address=0x3C))
    paged = PagedSSD1306(i2c(bus=paged_bus, address=0x3C))
    for seed in range(5):
        im = random_image(seed)
        stock.display(im)
        paged.display(im)
        assert ssd1306_ram(paged_bus.writes) == ssd1306_ram(stock_bus.writes)
    assert pack_pages(im)[0] == bytes(ssd1306_ram(stock_bus.writes)[:W])


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 1000), st.lists(pixels, min_size=1, max_size=6))
def test_the_ssd1306_shows_every_frame_as_luma_would_sending_only_changed_pages(
    seed: int, edits: list[list[tuple[int, int]]]
) -> None:
    stock_bus, paged_bus = RecordingI2CBus(), RecordingI2CBus()
    stock = ssd1306(i2c(bus=stock_bus, address=0x3C))
    paged = PagedSSD1306(i2c(bus=paged_bus, address=0x3C))
    im = random_image(seed)
    stock.display(im)
    paged.display(im)
    for points in edits:
        im = edited(im, points)
        before = paged_bus.data_bytes()
        stock.display(im)
        paged.display(im)
        assert ssd1306_ram(paged_bus.writes) == ssd1306_ram(stock_bus.writes)
        assert paged_bus.data_bytes() - before <= len({y // 8 for _, y in points}) * W


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 1000), st.lists(pixels, min_size=1, max_size=5))
def test_the_sh1106_shows_every_frame_as_luma_would_sending_only_changed_pages(
    seed: int, edits: list[list[tuple[int, int]]]
) -> None:
    stock_bus, paged_bus = RecordingI2CBus(), RecordingI2CBus()
    stock = sh1106(i2c(bus=stock_bus, address=0x3C))
    paged = PagedSH1106(i2c(bus=paged_bus, address=0x3C))
    im = random_image(seed)
    stock.display(im)
    paged.display(im)
    for points in edits:
        im = edited(im, points)
        before = paged_bus.data_bytes()
        stock.display(im)
        paged.display(im)
        assert sh1106_ram(paged_bus.writes) == sh1106_ram(stock_bus.writes)
        assert paged_bus.data_bytes() - before <= len({y // 8 for _, y in points}) * W


def test_a_frame_identical_to_the_panel_sends_nothing() -> None:
    bus = RecordingI2CBus()
    panel = PagedSSD1306(i2c(bus=bus, address=0x3C))
    im = random_image(1)
    panel.display(im)
    writes = len(bus.writes)
    panel.display(im.copy())
    assert len(bus.writes) == writes


def test_one_changed_pixel_sends_one_page_of_128_bytes() -> None:
    bus = RecordingI2CBus()
    panel = PagedSSD1306(i2c(bus=bus, address=0x3C))
    im = random_image(2)
    panel.display(im)
    before = bus.data_bytes()
    panel.display(edited(im, [(5, 20)]))
    assert bus.data_bytes() - before == W


def test_a_rotated_panel_is_packed_after_luma_rotates_the_picture() -> None:
    stock_bus, paged_bus = RecordingI2CBus(), RecordingI2CBus()
    stock = ssd1306(i2c(bus=stock_bus, address=0x3C), rotate=2)
    paged = PagedSSD1306(i2c(bus=paged_bus, address=0x3C), rotate=2)
    im = random_image(3)
    stock.display(im)
    paged.display(im)
    assert ssd1306_ram(paged_bus.writes) == ssd1306_ram(stock_bus.writes)


def configured(**display: Any) -> dict[str, Any]:
    config = config_mod.defaults()
    config["display"].update(display)
    return config


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_the_i2c_address_comes_from_the_config(driver: str) -> None:
    bus = RecordingI2CBus()
    device = open_device(configured(driver=driver, i2c_address=0x3D), i2c_bus=bus)
    device.display(random_image(4))
    assert {address for address, _, _ in bus.writes} == {0x3D}


def test_the_ssd1351_pins_come_from_the_config() -> None:
    bus, gpio = RecordingSPI(), RecordingGPIO()
    device = open_device(
        configured(driver="ssd1351", spi_port=1, spi_device=2, spi_dc_pin=25, spi_reset_pin=24),
        spi=bus, gpio=gpio,
    )
    assert (bus.port, bus.device) == (1, 2)
    assert set(gpio.pins) == {25, 24}
    assert gpio.outputs[24] == gpio.HIGH  # reset released
    assert device.size == (128, 128)


def test_the_ssd1351_sends_only_the_boxes_that_changed() -> None:
    bus = RecordingSPI()
    device = open_device(configured(driver="ssd1351"), spi=bus, gpio=RecordingGPIO())
    im = Image.new("RGB", (128, 128), (10, 20, 30))
    device.display(im)
    before = sum(len(t) for t in bus.transfers)
    im2 = im.copy()
    im2.putpixel((3, 3), (255, 0, 0))
    device.display(im2)
    sent = sum(len(t) for t in bus.transfers) - before
    assert 0 < sent < 128 * 128 * 2 // 16 + 32


def test_the_default_config_drives_the_spi_display_on_the_pin_map_pins() -> None:
    disp = config_mod.defaults()["display"]
    assert (disp["spi_port"], disp["spi_device"], disp["spi_dc_pin"]) == (0, 0, 9)


class SlowPanel:
    """A panel whose every frame takes as long as the test says."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.shown: list[Image.Image] = []

    def display(self, image: Image.Image) -> None:
        self.release.wait(5)
        self.shown.append(image)


def test_a_slow_bus_never_blocks_the_caller_and_the_latest_frame_wins() -> None:
    panel = SlowPanel()
    writer = PanelWriter(panel)
    frames = [random_image(k) for k in range(4)]
    start = time.monotonic()
    for im in frames:
        writer.show(im)
    assert time.monotonic() - start < 0.05  # while the first frame is still on the wire
    panel.release.set()
    assert writer.idle()
    writer.close()
    assert panel.shown[-1] is frames[-1]
    assert len(panel.shown) + writer.dropped == len(frames)
    assert writer.dropped >= 1


def test_a_panel_that_fails_does_not_stop_the_writer() -> None:
    class Broken:
        def __init__(self) -> None:
            self.calls = 0

        def display(self, image: Image.Image) -> None:
            self.calls += 1
            if self.calls == 1:
                raise OSError(121, "Remote I/O error")

    panel = Broken()
    writer = PanelWriter(panel)
    writer.show(random_image(1))
    writer.idle()
    writer.show(random_image(2))
    writer.idle()
    writer.close()
    assert (writer.errors, writer.sent) == (1, 1)


def test_the_display_hands_frames_to_the_writer_instead_of_drawing_on_the_bus() -> None:
    bus = RecordingI2CBus()
    device = PagedSSD1306(i2c(bus=bus, address=0x3C))
    writer = PanelWriter(device)
    display = Display(device, writer=writer)
    shown_by: list[str] = []
    original = device.display

    def spy(image: Image.Image) -> None:
        shown_by.append(threading.current_thread().name)
        original(image)

    device.display = spy
    assert display.refresh({"game": None}, 0.0, urgent=True)
    writer.close()
    assert shown_by == ["oled"]


@pytest.mark.parametrize(
    ("setting", "why"),
    [
        ("driver = \"ssd1309\"", "display.driver"),
        ("i2c_address = 0x99", "display.i2c_address"),
        ("spi_speed_hz = 3000000", "display.spi_speed_hz"),
        ("spi_dc_pin = 40", "display.spi_dc_pin"),
        ("spi_reset_pin = -2", "display.spi_reset_pin"),
    ],
)
def test_a_display_setting_the_panel_cannot_take_is_refused_by_name(setting: str, why: str) -> None:
    with pytest.raises(config_mod.ConfigError, match=why.replace(".", r"\.")):
        config_mod.load(text=f"[display]\n{setting}\n")
