"""hardware/keypad/companion-keypad.dts describes the keypad the pin map wires.

The overlay is text the kernel reads, not Python, so these tests read it the way dtc does
for the properties that matter: the GPIO lists, the pin setup and the keymap.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from .hardware_files import HARDWARE

DTS = HARDWARE / "keypad" / "companion-keypad.dts"

# Linux's phone-keypad codes (include/uapi/linux/input-event-codes.h): KEY_NUMERIC_0..9 are
# 0x200..0x209, then STAR, POUND, A, B, C, D.
EVDEV = {
    **{str(d): 0x200 + d for d in range(10)},
    "*": 0x20A, "#": 0x20B, "A": 0x20C, "B": 0x20D, "C": 0x20E, "D": 0x20F,
}
LAYOUT = ["123A", "456B", "789C", "*0#D"]


def _source() -> str:
    text = DTS.read_text(encoding="utf-8")
    return re.sub(r"/\*.*?\*/", " ", text, flags=re.S)


def _property(name: str) -> str:
    match = re.search(rf"\s{re.escape(name)}\s*=\s*(.*?);", _source(), flags=re.S)
    assert match, f"{name} missing from {DTS.name}"
    return match.group(1)


def _gpio_list(name: str) -> list[int]:
    return [int(n) for n in re.findall(r"<&gpio\s+(\d+)\s+\d+>", _property(name))]


def _cells(name: str) -> list[int]:
    return [int(c, 0) for c in re.findall(r"0x[0-9a-fA-F]+|\d+", _property(name))]


def test_overlay_rows_are_the_pin_map_rows(wiring: ModuleType, pinmap: Any) -> None:
    assert _gpio_list("row-gpios") == wiring.config_pins(pinmap)["keypad"]["rows"]


def test_overlay_columns_are_the_pin_map_columns(wiring: ModuleType, pinmap: Any) -> None:
    assert _gpio_list("col-gpios") == wiring.config_pins(pinmap)["keypad"]["cols"]


def test_rows_are_pulled_up_and_columns_are_not(wiring: ModuleType, pinmap: Any) -> None:
    pins = wiring.config_pins(pinmap)["keypad"]
    pull = dict(zip(_cells("brcm,pins"), _cells("brcm,pull"), strict=True))
    brcm_pull_up, brcm_no_pull = 2, 0
    assert [pull[g] for g in pins["rows"]] == [brcm_pull_up] * 4
    assert [pull[g] for g in pins["cols"]] == [brcm_no_pull] * 4


def test_a_pressed_key_pulls_its_row_low() -> None:
    assert re.search(r"\sgpio-activelow\s*;", _source())


def test_keymap_matches_the_printed_layout() -> None:
    entries = _cells("linux,keymap")
    keymap = {(e >> 24 & 0xFF, e >> 16 & 0xFF): e & 0xFFFF for e in entries}
    assert len(entries) == len(keymap) == 16
    for row, keys in enumerate(LAYOUT):
        for col, key in enumerate(keys):
            assert keymap[(row, col)] == EVDEV[key], f"row {row + 1} column {col + 1} ({key})"


def test_keymap_is_the_one_the_daemon_reads() -> None:
    keypad = pytest.importorskip("companion.hw.keypad")
    assert _cells("linux,keymap") == keypad.matrix_keymap()


@pytest.mark.skipif(shutil.which("dtc") is None, reason="dtc (device-tree-compiler) not installed")
def test_overlay_compiles_with_dtc(tmp_path: Path) -> None:
    result = subprocess.run(
        ["dtc", "-@", "-q", "-I", "dts", "-O", "dtb", "-o", str(tmp_path / "k.dtbo"), str(DTS)],
        capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "k.dtbo").stat().st_size > 0


#: The part of a Raspberry Pi (Zero 2 W, 3, 4) base tree the overlay needs: the SoC's GPIO
#: controller under the ``gpio`` label the firmware's loader resolves ``&gpio`` against.
PI_BASE = """/dts-v1/;
/ {
    compatible = "raspberrypi,model-zero-2-w", "brcm,bcm2837";
    #address-cells = <1>;
    #size-cells = <1>;
    soc {
        #address-cells = <1>;
        #size-cells = <1>;
        gpio: gpio@7e200000 {
            compatible = "brcm,bcm2835-gpio";
            reg = <0x7e200000 0xb4>;
            gpio-controller;
            #gpio-cells = <2>;
        };
    };
};
"""


def _run(*argv: str | Path) -> str:
    done = subprocess.run([str(a) for a in argv], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, (argv, done.stderr)
    return done.stdout.strip()


@pytest.mark.skipif(not all(shutil.which(t) for t in ("dtc", "fdtoverlay", "fdtget")),
                    reason="dtc, fdtoverlay and fdtget (device-tree-compiler) not installed")
def test_overlay_applies_to_the_pi_s_gpio_controller_as_the_firmware_loads_it(
    tmp_path: Path, wiring: ModuleType, pinmap: Any
) -> None:
    (tmp_path / "base.dts").write_text(PI_BASE)
    _run("dtc", "-@", "-q", "-I", "dts", "-O", "dtb", "-o", tmp_path / "base.dtb",
         tmp_path / "base.dts")
    _run("dtc", "-@", "-q", "-I", "dts", "-O", "dtb", "-o", tmp_path / "k.dtbo", DTS)
    _run("fdtoverlay", "-i", tmp_path / "base.dtb", "-o", tmp_path / "pi.dtb", tmp_path / "k.dtbo")
    merged, gpio = tmp_path / "pi.dtb", "/soc/gpio@7e200000"
    assert _run("fdtget", merged, "/companion-keypad", "compatible") == "gpio-matrix-keypad"
    controller = int(_run("fdtget", "-t", "u", merged, gpio, "phandle"))
    cells = [int(c) for c in _run("fdtget", "-t", "u", merged, "/companion-keypad",
                                  "row-gpios").split()]
    pins = wiring.config_pins(pinmap)["keypad"]
    assert cells == [n for row in pins["rows"] for n in (controller, row, 0)]
    setup = int(_run("fdtget", "-t", "u", merged, "/companion-keypad", "pinctrl-0"))
    assert setup == int(_run("fdtget", "-t", "u", merged, f"{gpio}/companion_keypad_pins",
                             "phandle"))
