"""Draws hardware/hub/wiring.png: the sensor hub's wiring around a Raspberry Pi Pico.

    python hardware/hub/draw_wiring.py [OUTPUT.png]

The pin table below is the one in README.md and firmware/config.py; drawing it from
data keeps the picture honest when a pin moves.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

# Physical Pico pin -> label, for every pin drawn.
PICO_PINS = {
    1: "GP0",
    2: "GP1",
    3: "GND",
    4: "GP2",
    5: "GP3",
    6: "GP4",
    7: "GP5",
    8: "GND",
    9: "GP6",
    10: "GP7",
    11: "GP8",
    12: "GP9",
    13: "GND",
    14: "GP10",
    15: "GP11",
    16: "GP12",
    17: "GP13",
    18: "GND",
    19: "GP14",
    20: "GP15",
    21: "GP16",
    22: "GP17",
    23: "GND",
    24: "GP18",
    25: "GP19",
    26: "GP20",
    27: "GP21",
    28: "GND",
    29: "GP22",
    30: "RUN",
    31: "GP26",
    32: "GP27",
    33: "AGND",
    34: "GP28",
    35: "VREF",
    36: "3V3",
    37: "3V3_EN",
    38: "GND",
    39: "VSYS",
    40: "VBUS",
}
# Input name -> physical pin (switch or button to GND).
DIRECT = {
    "tilt.r1": 4,
    "tilt.r2": 5,
    "tilt.r3": 6,
    "tilt.b1": 7,
    "tilt.b2": 9,
    "tilt.b3": 10,
    "ring.red": 11,
    "ring.black": 12,
    "timer15.red": 14,
    "timer15.black": 15,
    "menu": 16,
}
ROWS = {"row 1: 1 2 3 A": 21, "row 2: 4 5 6 B": 22, "row 3: 7 8 9 C": 24, "row 4: * 0 # D": 25}
COLS = {"col 1": 26, "col 2": 27, "col 3": 29, "col 4": 31}
KEYS = "123A456B789C*0#D"

WIDTH, HEIGHT = 1100, 860
PICO_LEFT, PICO_RIGHT, PICO_TOP = 400, 640, 130
PITCH = 32
INK, RED, BLUE, GREY = (20, 20, 20), (190, 30, 30), (30, 70, 190), (120, 120, 120)


def pin_xy(pin: int) -> tuple[int, int]:
    """Where a physical pin sits: 1-20 down the left edge, 40-21 down the right."""
    if pin <= 20:
        return PICO_LEFT, PICO_TOP + 20 + (pin - 1) * PITCH
    return PICO_RIGHT, PICO_TOP + 20 + (40 - pin) * PITCH


def draw(path: Path) -> None:
    image = Image.new("RGB", (WIDTH, HEIGHT), "white")
    d = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=14)
    small = ImageFont.load_default(size=12)
    title = ImageFont.load_default(size=20)
    d.text((20, 15), "companion sensor hub: Raspberry Pi Pico wiring", font=title, fill=INK)
    d.text(
        (20, 42),
        "switches and buttons: GPIO to GND (internal pull-ups); "
        "keypad rows open-drain, columns pulled up",
        font=small,
        fill=GREY,
    )

    # The Pico and its pins.
    bottom = PICO_TOP + 20 + 19 * PITCH + 20
    d.rounded_rectangle(
        (PICO_LEFT, PICO_TOP, PICO_RIGHT, bottom), 12, outline=INK, width=3, fill=(235, 245, 235)
    )
    d.rectangle((495, PICO_TOP - 25, 545, PICO_TOP + 5), outline=INK, width=2, fill="white")
    d.text((425, PICO_TOP - 50), "micro-USB to the Pi (/dev/ttyACM0)", font=small, fill=BLUE)
    d.text((PICO_LEFT + 92, PICO_TOP + 290), "Pi\nPico", font=title, fill=INK, align="center")
    for pin, label in PICO_PINS.items():
        x, y = pin_xy(pin)
        d.ellipse((x - 5, y - 5, x + 5, y + 5), fill=INK if label != "GND" else GREY)
        text = f"{pin} {label}" if pin <= 20 else f"{label} {pin}"
        width = d.textlength(text, font=small)
        tx = x + 9 if pin <= 20 else x - 9 - width
        d.text((tx, y - 7), text, font=small, fill=INK)

    # Switches and buttons on the left, each to the GND bus.
    bus_x = 60
    d.line((bus_x, 150, bus_x, bottom - 10), fill=GREY, width=3)
    d.text((bus_x - 35, bottom - 5), "GND bus", font=small, fill=GREY)
    for pin in (3, 8, 13, 18):
        x, y = pin_xy(pin)
        d.line((x - 5, y, 300, y), fill=GREY, width=1)
        d.line((300, y, 300, y), fill=GREY)
    d.line((300, pin_xy(3)[1], 300, pin_xy(18)[1]), fill=GREY, width=1)
    d.line((bus_x, pin_xy(18)[1], 300, pin_xy(18)[1]), fill=GREY, width=1)
    for name, pin in DIRECT.items():
        x, y = pin_xy(pin)
        colour = RED if name.endswith(("r1", "r2", "r3", ".red")) else INK
        d.line((x - 5, y, 250, y), fill=colour, width=2)
        # A switch symbol: two contacts and an open lever.
        d.ellipse((244, y - 4, 252, y + 4), outline=colour, width=2)
        d.ellipse((204, y - 4, 212, y + 4), outline=colour, width=2)
        d.line((244, y, 214, y - 12), fill=colour, width=2)
        d.line((204, y, bus_x, y), fill=GREY, width=1)
        d.text((bus_x + 12, y - 17), name, font=font, fill=colour)

    # The keypad on the right.
    kx, ky, cell = 840, 300, 52
    d.rectangle((kx - 10, ky - 10, kx + 4 * cell + 10, ky + 4 * cell + 10), outline=INK, width=3)
    for i, key in enumerate(KEYS):
        r, c = divmod(i, 4)
        x0, y0 = kx + c * cell, ky + r * cell
        d.rectangle((x0 + 4, y0 + 4, x0 + cell - 4, y0 + cell - 4), outline=INK, width=1)
        d.text((x0 + cell // 2 - 4, y0 + cell // 2 - 8), key, font=font, fill=INK)
    d.text((kx, ky - 40), "4x4 keypad", font=title, fill=INK)
    for r, (name, pin) in enumerate(ROWS.items()):
        x, y = pin_xy(pin)
        ty = ky + r * cell + cell // 2
        d.line((x + 5, y, 740 + r * 8, y), fill=BLUE, width=2)
        d.line((740 + r * 8, y, 740 + r * 8, ty), fill=BLUE, width=2)
        d.line((740 + r * 8, ty, kx - 10, ty), fill=BLUE, width=2)
        d.text((kx - 120, ty - 18), name, font=small, fill=BLUE)
    for c, (name, pin) in enumerate(COLS.items()):
        x, y = pin_xy(pin)
        tx = kx + c * cell + cell // 2
        by = ky + 4 * cell + 10
        d.line((x + 5, y, 710 - c * 10, y), fill=(0, 130, 110), width=2)
        d.line((710 - c * 10, y, 710 - c * 10, 780 - c * 10), fill=(0, 130, 110), width=2)
        d.line((710 - c * 10, 780 - c * 10, tx, 780 - c * 10), fill=(0, 130, 110), width=2)
        d.line((tx, 780 - c * 10, tx, by), fill=(0, 130, 110), width=2)
        d.text((tx - 14, by + 4), name, font=small, fill=(0, 130, 110))

    d.text(
        (20, HEIGHT - 30),
        "OLED and buzzer stay on the Raspberry Pi (I2C1, GPIO12). "
        "See hardware/hub/README.md for the table and parts.",
        font=small,
        fill=GREY,
    )
    image.save(path)


if __name__ == "__main__":
    draw(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).with_name("wiring.png"))
