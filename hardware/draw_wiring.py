#!/usr/bin/env python3
"""Draw the table's wiring diagram and wiring table from hardware/pinmap.toml.

The pin map is the one place where a wire is decided; the SVG, the PNG and the README table
are all generated from it, so a moved wire cannot leave a stale picture behind. The same
primitives are drawn twice, once as hand-written SVG and once with Pillow (at twice the size,
then scaled down so the lines are smooth), so the two files always show the same thing.

Usage:
    python hardware/draw_wiring.py                     # check, then write wiring.svg/.png here
    python hardware/draw_wiring.py --out-dir /tmp/x    # write them somewhere else
    python hardware/draw_wiring.py --markdown          # print the README wiring table
    python hardware/draw_wiring.py --update-readme hardware/README.md
    python hardware/draw_wiring.py --check             # only validate the pin map

A pin map that fails the checks (a pin used twice, an input on an I2C or power pin, a
physical pin that does not carry the named GPIO, ...) is reported one problem per line,
nothing is written, and the exit status is 2.
"""

from __future__ import annotations

import argparse
import itertools
import math
import sys
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol
from xml.sax.saxutils import escape

from PIL import Image, ImageDraw, ImageFont

HERE = Path(__file__).resolve().parent
DEFAULT_PINMAP = HERE / "pinmap.toml"

# The Raspberry Pi 40-pin header (every model since the B+), by physical pin number.
# Odd pins are on the row nearer the middle of the board, even pins on the edge row.
HEADER: dict[int, str] = {
    1: "3V3", 2: "5V",
    3: "GPIO2", 4: "5V",
    5: "GPIO3", 6: "GND",
    7: "GPIO4", 8: "GPIO14",
    9: "GND", 10: "GPIO15",
    11: "GPIO17", 12: "GPIO18",
    13: "GPIO27", 14: "GND",
    15: "GPIO22", 16: "GPIO23",
    17: "3V3", 18: "GPIO24",
    19: "GPIO10", 20: "GND",
    21: "GPIO9", 22: "GPIO25",
    23: "GPIO11", 24: "GPIO8",
    25: "GND", 26: "GPIO7",
    27: "GPIO0", 28: "GPIO1",
    29: "GPIO5", 30: "GND",
    31: "GPIO6", 32: "GPIO12",
    33: "GPIO13", 34: "GND",
    35: "GPIO19", 36: "GPIO16",
    37: "GPIO26", 38: "GPIO20",
    39: "GND", 40: "GPIO21",
}

# What else lives on a GPIO, shown small beside the pin name.
ALT_FUNCTION: dict[int, str] = {
    0: "ID_SD", 1: "ID_SC", 2: "SDA1", 3: "SCL1", 4: "1-Wire", 7: "CE1", 8: "CE0", 9: "MISO",
    10: "MOSI", 11: "SCLK", 12: "PWM0", 13: "PWM1", 14: "TXD", 15: "RXD", 18: "PCM_CLK",
    19: "PCM_FS", 20: "PCM_DIN", 21: "PCM_DOUT",
}

POWER_RAILS = ("3V3", "5V", "GND")
# GPIOs that carry a bus the system itself uses: I2C1 (the OLED) and I2C0 (the HAT EEPROM).
BUS_GPIOS: dict[int, str] = {0: "I2C0 ID_SD", 1: "I2C0 ID_SC", 2: "I2C1 SDA", 3: "I2C1 SCL"}
DIRECTIONS = ("in", "out", "i2c", "spi")
PULLS = ("up", "down", "none", "external")


class PinMapError(ValueError):
    """The pin map file cannot be read as a pin map at all (missing field, wrong type)."""


@dataclass(frozen=True)
class Signal:
    """One wire from a GPIO on the header to a device."""

    key: str
    device: str
    bcm: int
    physical: int
    direction: str
    pull: str
    group: str
    variant: str
    notes: str
    config: str = ""


@dataclass(frozen=True)
class PowerWire:
    """A supply or ground wire; several devices may share one ground pin."""

    device: str
    rail: str
    physical: int
    variant: str


@dataclass(frozen=True)
class Variant:
    """An alternative build that swaps some base signals for others."""

    name: str
    description: str
    replaces: tuple[str, ...]


@dataclass(frozen=True)
class PinMap:
    title: str
    signals: tuple[Signal, ...]
    power: tuple[PowerWire, ...]
    variants: dict[str, Variant] = field(default_factory=dict)
    i2c_port: int = 1
    i2c_address: int = 0x3C

    def active(self, chosen: Iterable[str] = ()) -> list[Signal]:
        """The signals wired in the base build with the `chosen` variants applied."""
        picked = set(chosen)
        replaced = {key for name in picked for key in self.variants[name].replaces}
        return [
            s
            for s in self.signals
            if (s.variant == "base" and s.key not in replaced) or s.variant in picked
        ]

    def variant_sets(self) -> list[tuple[str, ...]]:
        """Every combination of variants, the empty one (the base build) first."""
        names = sorted(self.variants)
        return [
            combo for n in range(len(names) + 1) for combo in itertools.combinations(names, n)
        ]


# --- loading and checking --------------------------------------------------------------------


def _int(table: dict[str, object], name: str, where: str) -> int:
    value = table.get(name)
    if value is None:
        raise PinMapError(f"{where}: missing field {name!r}")
    if not isinstance(value, int) or isinstance(value, bool):
        raise PinMapError(f"{where}: {name} must be an integer, not {value!r}")
    return value


def _str(table: dict[str, object], name: str, where: str) -> str:
    value = table.get(name)
    if value is None:
        raise PinMapError(f"{where}: missing field {name!r}")
    if not isinstance(value, str):
        raise PinMapError(f"{where}: {name} must be a string, not {value!r}")
    return value


def parse_pinmap(doc: dict[str, object]) -> PinMap:
    """Build a PinMap from a parsed TOML document, naming the entry at fault on bad input."""
    variants: dict[str, Variant] = {}
    raw_variants = doc.get("variant", {})
    if not isinstance(raw_variants, dict):
        raise PinMapError("[variant] must be a table of tables")
    for name, table in raw_variants.items():
        where = f"[variant.{name}]"
        if not isinstance(table, dict):
            raise PinMapError(f"{where} must be a table")
        replaces = table.get("replaces", [])
        if not isinstance(replaces, list) or not all(isinstance(k, str) for k in replaces):
            raise PinMapError(f"{where}: replaces must be a list of signal keys")
        description = _str(table, "description", where)
        variants[name] = Variant(name, description, tuple(replaces))

    signals: list[Signal] = []
    raw_signals = doc.get("signal", [])
    if not isinstance(raw_signals, list):
        raise PinMapError("[[signal]] must be an array of tables")
    for index, table in enumerate(raw_signals):
        where = f"signal #{index + 1}"
        if not isinstance(table, dict):
            raise PinMapError(f"{where} must be a table")
        where = f"signal #{index + 1} ({table.get('key', '?')})"
        signals.append(
            Signal(
                key=_str(table, "key", where),
                device=_str(table, "device", where),
                bcm=_int(table, "bcm", where),
                physical=_int(table, "physical", where),
                direction=_str(table, "direction", where),
                pull=_str(table, "pull", where),
                group=_str(table, "group", where),
                variant=_str(table, "variant", where),
                notes=_str(table, "notes", where),
                config=str(table.get("config", "")),
            )
        )

    power: list[PowerWire] = []
    raw_power = doc.get("power", [])
    if not isinstance(raw_power, list):
        raise PinMapError("[[power]] must be an array of tables")
    for index, table in enumerate(raw_power):
        where = f"power #{index + 1}"
        if not isinstance(table, dict):
            raise PinMapError(f"{where} must be a table")
        power.append(
            PowerWire(
                device=_str(table, "device", where),
                rail=_str(table, "rail", where),
                physical=_int(table, "physical", where),
                variant=_str(table, "variant", where),
            )
        )
    display = doc.get("display", {})
    if not isinstance(display, dict):
        raise PinMapError("[display] must be a table")
    title = str(doc.get("title", "wiring"))
    return PinMap(
        title,
        tuple(signals),
        tuple(power),
        variants,
        i2c_port=_int(display, "i2c_port", "[display]"),
        i2c_address=_int(display, "i2c_address", "[display]"),
    )


def load_pinmap(path: Path = DEFAULT_PINMAP) -> PinMap:
    """Read and parse a pin map file; TOML syntax errors become PinMapError with the path."""
    try:
        with path.open("rb") as handle:
            doc = tomllib.load(handle)
    except tomllib.TOMLDecodeError as exc:
        raise PinMapError(f"{path}: {exc}") from exc
    return parse_pinmap(doc)


def check_pinmap(pm: PinMap) -> list[str]:
    """Everything wrong with a pin map, one sentence each; an empty list means it can be wired."""
    problems: list[str] = []
    seen_keys: set[str] = set()
    for s in pm.signals:
        if s.key in seen_keys:
            problems.append(f"{s.key}: the key is used by two signals")
        seen_keys.add(s.key)
        if s.physical not in HEADER:
            problems.append(f"{s.key}: header pin {s.physical} does not exist (1..40)")
            continue
        on_pin = HEADER[s.physical]
        if on_pin != f"GPIO{s.bcm}":
            problems.append(f"{s.key}: header pin {s.physical} is {on_pin}, not GPIO{s.bcm}")
        if s.direction not in DIRECTIONS:
            problems.append(f"{s.key}: direction {s.direction!r} is not one of {DIRECTIONS}")
        if s.pull not in PULLS:
            problems.append(f"{s.key}: pull {s.pull!r} is not one of {PULLS}")
        if s.variant != "base" and s.variant not in pm.variants:
            problems.append(f"{s.key}: variant {s.variant!r} is not declared under [variant]")
        if s.direction == "in":
            if on_pin in POWER_RAILS:
                problems.append(f"{s.key}: an input on the {on_pin} pin {s.physical}")
            if s.bcm in BUS_GPIOS:
                problems.append(f"{s.key}: an input on GPIO{s.bcm}, which is {BUS_GPIOS[s.bcm]}")
            if s.pull == "none":
                problems.append(f"{s.key}: an input with no pull resistor floats")

    for variant in pm.variants.values():
        for key in variant.replaces:
            if key not in seen_keys:
                problems.append(f"variant {variant.name}: replaces unknown signal {key}")

    for combo in pm.variant_sets():
        label = "+".join(combo) if combo else "base"
        by_bcm: dict[int, str] = {}
        by_physical: dict[int, str] = {}
        for s in pm.active(combo):
            if s.bcm in by_bcm:
                problems.append(f"{label}: GPIO{s.bcm} is used by {by_bcm[s.bcm]} and {s.key}")
            by_bcm[s.bcm] = s.key
            if s.physical in by_physical:
                problems.append(
                    f"{label}: header pin {s.physical} is used by "
                    f"{by_physical[s.physical]} and {s.key}"
                )
            by_physical[s.physical] = s.key

    signal_pins = {s.physical for s in pm.signals}
    for p in pm.power:
        if p.rail not in POWER_RAILS:
            problems.append(f"{p.device}: rail {p.rail!r} is not one of {POWER_RAILS}")
        elif HEADER.get(p.physical) != p.rail:
            problems.append(
                f"{p.device}: header pin {p.physical} is {HEADER.get(p.physical, 'missing')}, "
                f"not {p.rail}"
            )
        if p.physical in signal_pins:
            problems.append(f"{p.device}: header pin {p.physical} also carries a signal")
        if p.variant != "base" and p.variant not in pm.variants:
            problems.append(f"{p.device}: variant {p.variant!r} is not declared under [variant]")
    return problems


def config_pins(pm: PinMap) -> dict[str, object]:
    """The [pins] table of the daemon's config as this pin map implies it (all variants)."""
    pins: dict[str, object] = {}
    for s in pm.signals:
        if not s.key.startswith("pins."):
            continue
        path = s.key.removeprefix("pins.")
        node: dict[str, object] = pins
        parts = path.split(".")
        for part in parts[:-1]:
            child = node.setdefault(part, {})
            assert isinstance(child, dict)
            node = child
        leaf = parts[-1]
        if "[" in leaf:
            name, index = leaf.rstrip("]").split("[")
            values = node.setdefault(name, [])
            assert isinstance(values, list)
            while len(values) <= int(index):
                values.append(None)
            values[int(index)] = s.bcm
        else:
            node[leaf] = s.bcm
    return pins


# --- the README table ------------------------------------------------------------------------

TABLE_START = "<!-- pinmap-table:start (generated by draw_wiring.py --update-readme) -->"
TABLE_END = "<!-- pinmap-table:end -->"


def markdown_table(pm: PinMap) -> str:
    """The wiring tables for hardware/README.md, in pin-map order."""
    lines = [
        "| Signal | Device | Header pin | BCM GPIO | Dir | Pull | Build | Notes |",
        "|---|---|---:|---:|---|---|---|---|",
    ]
    for s in pm.signals:
        build = "default" if s.variant == "base" else s.variant
        lines.append(
            f"| `{s.key}` | {s.device} | {s.physical} | {s.bcm} | {s.direction} | {s.pull} "
            f"| {build} | {s.notes} |"
        )
    lines += [
        "",
        "| Supply or ground | Rail | Header pin | Build |",
        "|---|---|---:|---|",
    ]
    for p in pm.power:
        build = "default" if p.variant == "base" else p.variant
        lines.append(f"| {p.device} | {p.rail} | {p.physical} | {build} |")
    return "\n".join(lines) + "\n"


def update_readme(readme: Path, pm: PinMap) -> bool:
    """Replace the generated block in `readme`; True when the file changed."""
    text = readme.read_text(encoding="utf-8")
    start = text.find(TABLE_START)
    end = text.find(TABLE_END)
    if start < 0 or end < start:
        raise PinMapError(f"{readme}: no {TABLE_START!r} ... {TABLE_END!r} block to update")
    new = text[: start + len(TABLE_START)] + "\n" + markdown_table(pm) + text[end:]
    if new == text:
        return False
    readme.write_text(new, encoding="utf-8")
    return True


def readme_table(readme: Path) -> str:
    """The generated block currently in `readme` (for the test that it is up to date)."""
    text = readme.read_text(encoding="utf-8")
    start = text.index(TABLE_START) + len(TABLE_START) + 1
    return text[start : text.index(TABLE_END)]


# --- drawing primitives, twice ---------------------------------------------------------------

Point = tuple[float, float]


class Canvas(Protocol):
    """The few shapes the diagram needs; one SVG and one Pillow implementation."""

    def line(
        self, points: Sequence[Point], color: str, width: float = 2, dashed: bool = False
    ) -> None: ...

    def rect(
        self,
        box: tuple[float, float, float, float],
        outline: str | None,
        fill: str | None = None,
        width: float = 2,
        dashed: bool = False,
    ) -> None: ...

    def circle(
        self, centre: Point, r: float, outline: str | None, fill: str | None, width: float = 2
    ) -> None: ...

    def polygon(self, points: Sequence[Point], outline: str | None, fill: str | None) -> None: ...

    def text(
        self, xy: Point, s: str, size: int, color: str = "#000000", anchor: str = "l"
    ) -> None: ...


def _n(v: float) -> str:
    """A coordinate written the same way on every machine."""
    return f"{round(v, 2):g}"


class SvgCanvas:
    """Collects SVG elements; `document()` wraps them. Text is escaped, numbers rounded."""

    FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"
    DASH = "8 5"

    def __init__(self, width: int, height: int, title: str) -> None:
        self.width, self.height, self.title = width, height, title
        self.parts: list[str] = []

    def line(
        self, points: Sequence[Point], color: str, width: float = 2, dashed: bool = False
    ) -> None:
        pts = " ".join(f"{_n(x)},{_n(y)}" for x, y in points)
        dash = f' stroke-dasharray="{self.DASH}"' if dashed else ""
        self.parts.append(
            f'<polyline points="{pts}" fill="none" stroke="{color}" stroke-width="{_n(width)}"'
            f' stroke-linecap="round" stroke-linejoin="round"{dash}/>'
        )

    def rect(
        self,
        box: tuple[float, float, float, float],
        outline: str | None,
        fill: str | None = None,
        width: float = 2,
        dashed: bool = False,
    ) -> None:
        x0, y0, x1, y1 = box
        dash = f' stroke-dasharray="{self.DASH}"' if dashed else ""
        self.parts.append(
            f'<rect x="{_n(x0)}" y="{_n(y0)}" width="{_n(x1 - x0)}" height="{_n(y1 - y0)}"'
            f' rx="4" fill="{fill or "none"}" stroke="{outline or "none"}"'
            f' stroke-width="{_n(width)}"{dash}/>'
        )

    def circle(
        self, centre: Point, r: float, outline: str | None, fill: str | None, width: float = 2
    ) -> None:
        x, y = centre
        self.parts.append(
            f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}" fill="{fill or "none"}"'
            f' stroke="{outline or "none"}" stroke-width="{_n(width)}"/>'
        )

    def polygon(self, points: Sequence[Point], outline: str | None, fill: str | None) -> None:
        pts = " ".join(f"{_n(x)},{_n(y)}" for x, y in points)
        self.parts.append(
            f'<polygon points="{pts}" fill="{fill or "none"}" stroke="{outline or "none"}"'
            ' stroke-width="2"/>'
        )

    def text(
        self, xy: Point, s: str, size: int, color: str = "#000000", anchor: str = "l"
    ) -> None:
        x, y = xy
        svg_anchor = {"l": "start", "m": "middle", "r": "end"}[anchor]
        self.parts.append(
            f'<text x="{_n(x)}" y="{_n(y)}" font-size="{size}" fill="{color}"'
            f' text-anchor="{svg_anchor}" dominant-baseline="central">{escape(s)}</text>'
        )

    def document(self) -> str:
        head = (
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}"'
            f' height="{self.height}" viewBox="0 0 {self.width} {self.height}"'
            f' font-family="{self.FONT}">\n'
            f"<title>{escape(self.title)}</title>\n"
            f'<rect width="{self.width}" height="{self.height}" fill="#ffffff"/>\n'
        )
        return head + "\n".join(self.parts) + "\n</svg>\n"


class PilCanvas:
    """Draws on a Pillow image `scale` times larger than the diagram, for smooth lines."""

    DASH = (8.0, 5.0)

    def __init__(self, width: int, height: int, scale: int = 2) -> None:
        self.width, self.height, self.scale = width, height, scale
        self.image = Image.new("RGB", (width * scale, height * scale), "#ffffff")
        self.draw = ImageDraw.Draw(self.image)
        self._fonts: dict[int, ImageFont.FreeTypeFont | ImageFont.ImageFont] = {}

    def _font(self, size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
        if size not in self._fonts:
            try:  # Pillow >= 10.1 bundles a scalable default font
                font: ImageFont.FreeTypeFont | ImageFont.ImageFont = ImageFont.load_default(
                    size=size * self.scale
                )
            except TypeError:  # older Pillow: the fixed bitmap font, small but readable
                font = ImageFont.load_default()
            self._fonts[size] = font
        return self._fonts[size]

    def _p(self, point: Point) -> tuple[float, float]:
        return (point[0] * self.scale, point[1] * self.scale)

    def _dashes(self, points: Sequence[Point]) -> list[list[Point]]:
        on, off = self.DASH
        pieces: list[list[Point]] = []
        for (x0, y0), (x1, y1) in itertools.pairwise(points):
            length = math.hypot(x1 - x0, y1 - y0)
            if length == 0:
                continue
            ux, uy = (x1 - x0) / length, (y1 - y0) / length
            t = 0.0
            while t < length:
                end = min(t + on, length)
                pieces.append([(x0 + ux * t, y0 + uy * t), (x0 + ux * end, y0 + uy * end)])
                t = end + off
        return pieces

    def line(
        self, points: Sequence[Point], color: str, width: float = 2, dashed: bool = False
    ) -> None:
        w = max(1, round(width * self.scale))
        for piece in self._dashes(points) if dashed else [list(points)]:
            self.draw.line([self._p(p) for p in piece], fill=color, width=w, joint="curve")
            for end in (piece[0], piece[-1]):
                x, y = self._p(end)
                r = w / 2
                self.draw.ellipse((x - r, y - r, x + r, y + r), fill=color)

    def rect(
        self,
        box: tuple[float, float, float, float],
        outline: str | None,
        fill: str | None = None,
        width: float = 2,
        dashed: bool = False,
    ) -> None:
        x0, y0, x1, y1 = box
        s = self.scale
        if fill:
            self.draw.rounded_rectangle((x0 * s, y0 * s, x1 * s, y1 * s), 4 * s, fill=fill)
        if outline:
            if dashed:
                self.line([(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)], outline, width, True)
            else:
                self.draw.rounded_rectangle(
                    (x0 * s, y0 * s, x1 * s, y1 * s), 4 * s, outline=outline,
                    width=max(1, round(width * s)),
                )

    def circle(
        self, centre: Point, r: float, outline: str | None, fill: str | None, width: float = 2
    ) -> None:
        x, y = self._p(centre)
        rr = r * self.scale
        self.draw.ellipse(
            (x - rr, y - rr, x + rr, y + rr), fill=fill, outline=outline,
            width=max(1, round(width * self.scale)),
        )

    def polygon(self, points: Sequence[Point], outline: str | None, fill: str | None) -> None:
        self.draw.polygon([self._p(p) for p in points], fill=fill, outline=outline)

    def text(
        self, xy: Point, s: str, size: int, color: str = "#000000", anchor: str = "l"
    ) -> None:
        self.draw.text(self._p(xy), s, fill=color, font=self._font(size), anchor=anchor + "m")

    def result(self) -> Image.Image:
        return self.image.resize((self.width, self.height), Image.Resampling.LANCZOS)


# --- the diagram -----------------------------------------------------------------------------

WIDTH, HEIGHT = 1800, 1470
GROUP_COLOURS: dict[str, str] = {
    "tilt": "#d68910",
    "button": "#8e44ad",
    "timer15": "#2471a3",
    "buzzer": "#1e8449",
    "keypad": "#9a7d0a",
    "oled": "#0e8f9e",
    "spi": "#7b7d7d",
}
GROUP_NAMES: dict[str, str] = {
    "tilt": "tilt switches",
    "button": "ring + menu buttons",
    "timer15": "15-second buttons",
    "buzzer": "buzzer",
    "keypad": "4x4 keypad",
    "oled": "OLED (I2C)",
    "spi": "colour SPI display option",
}
RAIL_COLOURS = {"3V3": "#e67e22", "5V": "#c0392b", "GND": "#1c1c1c"}
UNUSED = "#c8c8c8"
INK = "#1c1c1c"
SOFT = "#606060"

TOP = 150  # y of header pin 1/2
PITCH = 38  # vertical distance between header rows
ODD_X, EVEN_X = 872.0, 928.0  # pin centres
TAG_W = 500  # width of a device tag


def _tint(colour: str, amount: float = 0.85) -> str:
    """`colour` mixed with white: tag backgrounds stay light enough to read black text on."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    mix = [round(c + (255 - c) * amount) for c in (r, g, b)]
    return "#" + "".join(f"{c:02x}" for c in mix)


def _pin_y(physical: int) -> float:
    return TOP + ((physical - 1) // 2) * PITCH


def _pin_x(physical: int) -> float:
    return ODD_X if physical % 2 else EVEN_X


def _tag_lines(pm: PinMap, physical: int) -> tuple[list[str], str, bool]:
    """Text lines, colour and 'only in a variant' for the tag on one header pin."""
    signals = [s for s in pm.signals if s.physical == physical]
    power = [p for p in pm.power if p.physical == physical]
    lines: list[str] = []
    colour = UNUSED
    optional = True
    for s in signals:
        if s.variant == "base":
            lines.insert(0, f"{s.device}  [{s.key}]")
            colour = GROUP_COLOURS.get(s.group, INK)
            optional = False
        elif any(o.variant == "base" for o in signals):
            lines.append(f"or: {s.device} ({s.variant})")
        else:
            lines.append(f"{s.device} (option {s.variant})")
            if colour == UNUSED:
                colour = GROUP_COLOURS.get(s.group, INK)
    for p in power:
        lines.append(p.device if p.variant == "base" else f"{p.device} (option {p.variant})")
        colour = RAIL_COLOURS[p.rail] if colour == UNUSED else colour
        optional = optional and p.variant != "base"
    return lines, colour, optional


def _draw_header(c: Canvas, pm: PinMap) -> None:
    top, bottom = _pin_y(1) - 26, _pin_y(39) + 26
    c.rect((ODD_X - 24, top, EVEN_X + 24, bottom), INK, "#f4f4f4", 2)
    c.text(((ODD_X + EVEN_X) / 2, top - 16), "Pi 40-pin header", 15, INK, "m")
    c.text(
        ((ODD_X + EVEN_X) / 2, bottom + 16),
        "(board from above: header on its right edge, USB ports at the bottom)", 12, SOFT, "m",
    )
    used = {s.physical for s in pm.signals} | {p.physical for p in pm.power}
    for physical in range(1, 41):
        name = HEADER[physical]
        x, y = _pin_x(physical), _pin_y(physical)
        lines, colour, optional = _tag_lines(pm, physical)
        odd = physical % 2 == 1
        # wire and tag first, so the pin name and the pin sit on top of the wire
        if physical in used:
            tag_x0 = 40 if odd else WIDTH - 40 - TAG_W
            tag_x1 = tag_x0 + TAG_W
            end_x = tag_x1 if odd else tag_x0
            c.line([(end_x, y), (x, y)], colour, 4, dashed=optional)
            height = 30 if len(lines) == 1 else 34
            c.rect((tag_x0, y - height / 2, tag_x1, y + height / 2), colour, _tint(colour), 2,
                   dashed=optional)
            size = 14 if len(lines) == 1 else 12
            text_x = tag_x0 + 10
            for i, line in enumerate(lines[:2]):
                dy = 0.0 if len(lines) == 1 else (i - 0.5) * 15
                c.text((text_x, y + dy), line, size, INK)
        # pin name with its alternative function, on a white plate
        label = name
        if name.startswith("GPIO"):
            alt = ALT_FUNCTION.get(int(name[4:]))
            label = f"{name} {alt}" if alt else name
        plate_w = 14 + 8 * len(label)  # about the text width at 13 px, in both renderers
        px0 = x - 20 - plate_w if odd else x + 20
        c.rect((px0, y - 11, px0 + plate_w, y + 11), None, "#ffffff")
        rail = RAIL_COLOURS.get(name)
        c.text((x - 24 if odd else x + 24, y), label, 13, rail or INK, "r" if odd else "l")
        # the pin itself, numbered
        fill = rail or (colour if physical in used else "#ffffff")
        c.circle((x, y), 12, INK, fill, 1.5)
        dark = fill in (RAIL_COLOURS["GND"], RAIL_COLOURS["5V"]) or (
            physical in used and colour not in (UNUSED,)
        )
        c.text((x, y), str(physical), 11, "#ffffff" if dark else INK, "m")


def _draw_legend(c: Canvas, y: float) -> None:
    x = 40.0
    c.text((x, y), "Colours:", 14, INK)
    x += 80
    for group, colour in GROUP_COLOURS.items():
        c.line([(x, y), (x + 30, y)], colour, 5, dashed=group == "spi")
        c.text((x + 38, y), GROUP_NAMES[group], 14, INK)
        x += 48 + len(GROUP_NAMES[group]) * 8
    for rail, colour in RAIL_COLOURS.items():
        c.circle((x + 10, y), 9, INK, colour, 1.5)
        c.text((x + 26, y), rail, 14, INK)
        x += 70
    c.text((40, y + 26), "Dashed: optional build (see [variant] in pinmap.toml). "
           "All switches and buttons close to GND; inputs use the Pi's internal pull-ups.",
           13, SOFT)


def _panel(c: Canvas, box: tuple[float, float, float, float], title: str) -> None:
    c.rect(box, "#9a9a9a", "#fbfbfb", 1.5)
    c.text((box[0] + 14, box[1] + 20), title, 16, INK)


def _ground(c: Canvas, x: float, y: float) -> None:
    """Ground symbol hanging from (x, y)."""
    c.line([(x, y), (x, y + 10)], INK, 2)
    for i, half in enumerate((14.0, 9.0, 4.0)):
        yy = y + 10 + i * 5
        c.line([(x - half, yy), (x + half, yy)], INK, 2)


def _resistor(
    c: Canvas, a: Point, b: Point, label: str, dashed: bool = False, label_left: bool = False
) -> None:
    """IEC resistor (a box) on a straight horizontal or vertical wire from a to b."""
    (x0, y0), (x1, y1) = a, b
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    if x0 == x1:  # vertical
        c.line([a, (x0, my - 20)], INK, 2, dashed)
        c.line([(x0, my + 20), b], INK, 2, dashed)
        c.rect((x0 - 8, my - 20, x0 + 8, my + 20), INK, "#ffffff", 2, dashed)
        if label_left:
            c.text((x0 - 14, my), label, 13, INK, "r")
        else:
            c.text((x0 + 14, my), label, 13, INK)
    else:
        c.line([a, (mx - 20, y0)], INK, 2, dashed)
        c.line([(mx + 20, y0), b], INK, 2, dashed)
        c.rect((mx - 20, y0 - 8, mx + 20, y0 + 8), INK, "#ffffff", 2, dashed)
        c.text((mx, y0 - 18), label, 13, INK, "m")


def _pi_pin(c: Canvas, x: float, y: float, label: str, colour: str) -> None:
    c.rect((x - 64, y - 14, x, y + 14), colour, _tint(colour), 2)
    c.text((x - 32, y), label, 13, INK, "m")


def _draw_input_panel(c: Canvas, x: float, y: float) -> None:
    _panel(c, (x, y, x + 420, y + 390), "Tilt switch or button (x11)")
    colour = GROUP_COLOURS["tilt"]
    gx, gy = x + 110, y + 200
    # inside the Pi: the pull-up to 3V3
    c.rect((x + 20, y + 50, x + 170, y + 280), "#9a9a9a", None, 1.5, dashed=True)
    c.text((x + 30, y + 66), "inside the Pi:", 12, SOFT)
    c.text((x + 30, y + 82), "internal pull-up", 12, SOFT)
    c.text((gx - 30, y + 110), "3V3", 13, RAIL_COLOURS["3V3"], "r")
    c.line([(gx - 26, y + 110), (gx, y + 110)], RAIL_COLOURS["3V3"], 2)
    _resistor(c, (gx, y + 110), (gx, gy), "~50k", dashed=True, label_left=True)
    c.line([(gx, gy), (x + 170, gy)], INK, 2)
    c.circle((gx, gy), 4, INK, INK)
    c.text((gx + 4, gy + 18), "GPIO17", 13, colour)
    # the wire out to the switch
    sx = x + 290
    c.line([(x + 170, gy), (sx - 22, gy)], colour, 4)
    # switch symbol: two contacts and a lever
    c.circle((sx - 18, gy), 4, INK, "#ffffff")
    c.circle((sx + 18, gy), 4, INK, "#ffffff")
    c.line([(sx - 15, gy - 2), (sx + 16, gy - 18)], INK, 2)
    c.text((sx, gy - 34), "SW-520D", 13, INK, "m")
    c.line([(sx + 22, gy), (sx + 60, gy), (sx + 60, gy + 40)], INK, 2)
    _ground(c, sx + 60, gy + 40)
    c.text((sx + 76, gy + 56), "GND", 13, INK)
    c.text((x + 20, y + 306), "closed (reads 0, is_pressed) = marked end down;", 13, INK)
    c.text((x + 20, y + 326), "turned over = open (reads 1). Debounced in software.", 13, INK)
    c.text((x + 20, y + 356), "Long cable: add 4.7k to 3V3 (never 5V) + 100 nF.", 13, SOFT)


def _draw_buzzer_panel(c: Canvas, x: float, y: float) -> None:
    _panel(c, (x, y, x + 420, y + 390), "Buzzer driver (GPIO12)")
    colour = GROUP_COLOURS["buzzer"]
    tx, ty = x + 250, y + 190  # transistor centre
    cx = tx + 22  # collector / emitter wire
    # supply, piezo, and the optional parts beside it
    c.text((cx, y + 48), "5V (pin 4)", 13, RAIL_COLOURS["5V"], "m")
    c.line([(cx, y + 58), (cx, y + 82)], RAIL_COLOURS["5V"], 2)
    c.rect((cx - 16, y + 82, cx + 16, y + 126), INK, "#ffffff", 2)
    c.text((cx, y + 104), "BZ", 12, INK, "m")
    c.line([(cx, y + 126), (cx, ty - 22)], INK, 2)
    c.line([(cx, y + 68), (cx + 70, y + 68)], INK, 1.5, dashed=True)
    c.line([(cx, y + 140), (cx + 70, y + 140)], INK, 1.5, dashed=True)
    _resistor(c, (cx + 70, y + 68), (cx + 70, y + 140), "2.2k", dashed=True)
    dx = cx - 62  # flyback diode, cathode up towards 5V
    c.line([(cx, y + 68), (dx, y + 68), (dx, y + 94)], INK, 1.5, dashed=True)
    c.line([(dx, y + 114), (dx, y + 140), (cx, y + 140)], INK, 1.5, dashed=True)
    c.polygon([(dx - 9, y + 114), (dx + 9, y + 114), (dx, y + 96)], INK, "#ffffff")
    c.line([(dx - 10, y + 95), (dx + 10, y + 95)], INK, 2.5)
    c.text((dx - 16, y + 104), "1N4148", 12, INK, "r")
    # NPN transistor
    c.circle((tx, ty), 26, INK, "#ffffff", 2)
    c.line([(tx - 8, ty - 16), (tx - 8, ty + 16)], INK, 3)
    c.line([(tx - 8, ty - 6), (cx, ty - 22)], INK, 2)
    c.line([(tx - 8, ty + 6), (cx, ty + 22)], INK, 2)
    c.polygon([(cx, ty + 22), (cx - 13, ty + 20), (cx - 7, ty + 11)], INK, INK)
    c.text((tx + 34, ty - 8), "BC337", 13, INK)
    c.text((tx + 34, ty + 10), "or 2N2222", 12, SOFT)
    # base resistor from the Pi, base pull-down
    _pi_pin(c, x + 84, ty, "GPIO12", colour)
    c.line([(x + 84, ty), (x + 96, ty)], colour, 4)
    _resistor(c, (x + 96, ty), (tx - 8, ty), "1k")
    bx = tx - 46
    c.circle((bx, ty), 3.5, INK, INK)
    _resistor(c, (bx, ty), (bx, ty + 70), "10k", dashed=True, label_left=True)
    c.line([(bx, ty + 70), (cx, ty + 70)], INK, 2, dashed=True)
    # emitter to ground
    c.line([(cx, ty + 22), (cx, ty + 70)], INK, 2)
    _ground(c, cx, ty + 70)
    c.text((cx + 22, ty + 84), "GND (pin 34)", 13, INK)
    c.text((x + 20, y + 300), "Dashed: 1N4148 only for a magnetic buzzer; 2.2k", 12, SOFT)
    c.text((x + 20, y + 316), "discharges the piezo; 10k keeps it silent at boot.", 12, SOFT)
    c.text((x + 20, y + 340), "TonalBuzzer for a passive piezo; Buzzer for an", 13, INK)
    c.text((x + 20, y + 358), "active one (buzzer.kind = \"active\"), same circuit.", 13, INK)


def _draw_oled_panel(c: Canvas, x: float, y: float, pm: PinMap) -> None:
    _panel(c, (x, y, x + 420, y + 390), "OLED SSD1306 / SH1106 128x64")
    colour = GROUP_COLOURS["oled"]
    mx0, my0 = x + 250, y + 60
    c.rect((mx0, my0, mx0 + 150, my0 + 210), INK, "#10161c", 2)
    c.rect((mx0 + 52, my0 + 30, mx0 + 140, my0 + 180), "#37474f", "#000000", 1)
    c.text((mx0 + 96, my0 + 95), f"0x{pm.i2c_address:02X}", 16, "#7fd8ff", "m")
    c.text((mx0 + 96, my0 + 117), f"bus {pm.i2c_port}", 12, "#7fd8ff", "m")
    pins = [("GND", "pin 9", RAIL_COLOURS["GND"]), ("VCC", "pin 1 (3V3)", RAIL_COLOURS["3V3"]),
            ("SCL", "pin 5 GPIO3", colour), ("SDA", "pin 3 GPIO2", colour)]
    for i, (name, where, wire) in enumerate(pins):
        wy = my0 + 45 + i * 40
        c.line([(x + 24, wy), (mx0 + 14, wy)], wire, 3)
        c.text((x + 24, wy - 14), f"{name}: {where}", 13, INK)
        c.circle((mx0 + 14, wy), 6, "#d4ac0d", "#d4ac0d")
        c.text((mx0 + 24, wy), name, 11, "#ffffff")
    c.text((x + 20, y + 300), "Pin order differs between modules:", 13, INK)
    c.text((x + 20, y + 318), "read the silkscreen, VCC/GND swapped is fatal.", 13, INK)
    c.text((x + 20, y + 342), f"Check: i2cdetect -y {pm.i2c_port} shows {pm.i2c_address:02x}",
           13, INK)
    c.text((x + 20, y + 360), "(3d when the address jumper is moved).", 13, SOFT)


def _draw_keypad_panel(c: Canvas, x: float, y: float) -> None:
    _panel(c, (x, y, x + 420, y + 390), "4x4 keypad (no USB keypad)")
    colour = GROUP_COLOURS["keypad"]
    keys = ["123A", "456B", "789C", "*0#D"]
    rows = ["GPIO4", "GPIO18", "GPIO19", "GPIO20"]
    cols = ["GPIO21", "GPIO14", "GPIO15", "GPIO7"]
    gx, gy, row_step, col_step = x + 170, y + 82, 46, 56
    bottom = gy + 3 * row_step
    c.text((x + 20, y + 50), "rows: inputs with pull-up", 12, SOFT)
    for r, row in enumerate(keys):
        ry = gy + r * row_step
        c.line([(x + 96, ry), (gx + 3 * col_step + 22, ry)], colour, 2.5)
        c.text((x + 90, ry), rows[r], 13, INK, "r")
        for k, label in enumerate(row):
            kx = gx + k * col_step
            c.rect((kx - 16, ry - 16, kx + 16, ry + 16), INK, "#ffffff", 1.5)
            c.text((kx, ry), label, 15, INK, "m")
    for k in range(4):
        kx = gx + k * col_step + 24
        c.line([(kx, gy - 24), (kx, bottom + 30)], colour, 2.5)
        c.text((kx, bottom + 44), cols[k], 12, INK, "m")
    c.text((gx + 1.5 * col_step + 24, bottom + 64), "columns: outputs, low while scanned",
           12, SOFT, "m")
    c.text((x + 20, y + 326), "USB numeric keypad, or the kernel overlay", 13, INK)
    c.text((x + 20, y + 344), "keypad/companion-keypad.dts, or gpiozero scan.", 13, INK)
    c.text((x + 20, y + 368), "UART (GPIO14/15) and SPI CE1 (GPIO7) must be off.", 13, SOFT)


def draw_diagram(c: Canvas, pm: PinMap) -> None:
    """Everything on the sheet: title, header with tagged wires, legend and four circuits."""
    c.text((40, 40), pm.title, 24, INK)
    c.text((40, 72), "Generated from hardware/pinmap.toml by hardware/draw_wiring.py. "
           "Tag text: device [config key]; numbers in circles are header pins.", 14, SOFT)
    c.text((40, 94), "Odd pins (left) face the board's middle, even pins (right) its edge.",
           14, SOFT)
    _draw_header(c, pm)
    legend_y = _pin_y(39) + 80
    _draw_legend(c, legend_y)
    panel_y = legend_y + 60
    _draw_input_panel(c, 40, panel_y)
    _draw_buzzer_panel(c, 40 + 436, panel_y)
    _draw_oled_panel(c, 40 + 2 * 436, panel_y, pm)
    _draw_keypad_panel(c, 40 + 3 * 436, panel_y)
    spi = [s for s in pm.signals if s.variant == "spi_display"]
    if spi:
        wires = ", ".join(f"{s.device.split(' ', 1)[1]} pin {s.physical}" for s in spi)
        c.text((40, panel_y + 420), f"Colour SPI option (SSD1351): {wires}; RST to 3V3 via 10k "
               "(gpio_RST=None); dtoverlay=spi0-1cs,no_miso.", 13, INK)


def render(pm: PinMap, out_dir: Path) -> tuple[Path, Path]:
    """Write wiring.svg and wiring.png into `out_dir` and return their paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    svg = SvgCanvas(WIDTH, HEIGHT, pm.title)
    draw_diagram(svg, pm)
    svg_path = out_dir / "wiring.svg"
    svg_path.write_text(svg.document(), encoding="utf-8")
    png = PilCanvas(WIDTH, HEIGHT)
    draw_diagram(png, pm)
    png_path = out_dir / "wiring.png"
    # 256 colours are plenty for flat colours and anti-aliased edges, at a quarter of the size.
    palette = png.result().quantize(
        colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )
    palette.save(png_path, optimize=True)
    return svg_path, png_path


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pinmap", type=Path, default=DEFAULT_PINMAP, help="pin map TOML")
    parser.add_argument("--out-dir", type=Path, default=HERE, help="where to write the diagram")
    parser.add_argument("--markdown", action="store_true", help="print the README table")
    parser.add_argument("--update-readme", type=Path, metavar="README",
                        help="rewrite the generated table block in README")
    parser.add_argument("--check", action="store_true", help="only validate the pin map")
    args = parser.parse_args(argv)

    try:
        pm = load_pinmap(args.pinmap)
    except (OSError, PinMapError) as exc:
        print(f"draw_wiring: {exc}", file=sys.stderr)
        return 2
    problems = check_pinmap(pm)
    if problems:
        for problem in problems:
            print(f"draw_wiring: {args.pinmap}: {problem}", file=sys.stderr)
        return 2
    if args.check:
        print(f"{args.pinmap}: {len(pm.signals)} signals, {len(pm.power)} supply wires, "
              f"{len(pm.variant_sets())} builds checked")
        return 0
    if args.markdown:
        sys.stdout.write(markdown_table(pm))
        return 0
    if args.update_readme:
        try:
            changed = update_readme(args.update_readme, pm)
        except (OSError, PinMapError) as exc:
            print(f"draw_wiring: {exc}", file=sys.stderr)
            return 2
        print(f"{args.update_readme}: {'updated' if changed else 'already up to date'}")
        return 0
    for path in render(pm, args.out_dir):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
