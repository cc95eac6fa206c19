"""The default pin map (hardware/pinmap.toml) can be wired as drawn, in every build.

Each test is one wiring rule. The checker in hardware/draw_wiring.py is tested here too, by
breaking a copy of the real map the way a careless edit would.
"""

from __future__ import annotations

import dataclasses
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from .hardware_files import load_draw_wiring

POWER = {"3V3", "5V", "GND"}
I2C_AND_ID_GPIOS = {0, 1, 2, 3}


def _builds(pm: Any) -> list[tuple[str, ...]]:
    return list(pm.variant_sets())


def _with_signal(pm: Any, key: str, **changes: Any) -> Any:
    signals = tuple(
        dataclasses.replace(s, **changes) if s.key == key else s for s in pm.signals
    )
    return dataclasses.replace(pm, signals=signals)


def test_header_has_the_forty_pin_layout(wiring: ModuleType) -> None:
    names = list(wiring.HEADER.values())
    assert sorted(wiring.HEADER) == list(range(1, 41))
    assert sorted(int(n[4:]) for n in names if n.startswith("GPIO")) == list(range(28))
    assert (names.count("GND"), names.count("3V3"), names.count("5V")) == (8, 2, 2)


def test_the_default_map_passes_every_check(wiring: ModuleType, pinmap: Any) -> None:
    assert wiring.check_pinmap(pinmap) == []


def test_no_gpio_carries_two_signals_in_any_build(pinmap: Any) -> None:
    for build in _builds(pinmap):
        gpios = [s.bcm for s in pinmap.active(build)]
        assert len(gpios) == len(set(gpios)), build


def test_no_header_pin_carries_two_signals_in_any_build(pinmap: Any) -> None:
    for build in _builds(pinmap):
        pins = [s.physical for s in pinmap.active(build)]
        assert len(pins) == len(set(pins)), build


def test_every_header_pin_carries_the_gpio_it_names(wiring: ModuleType, pinmap: Any) -> None:
    for s in pinmap.signals:
        assert wiring.HEADER[s.physical] == f"GPIO{s.bcm}", s.key


def test_inputs_stay_off_i2c_id_and_power_pins(wiring: ModuleType, pinmap: Any) -> None:
    inputs = [s for s in pinmap.signals if s.direction == "in"]
    assert inputs
    for s in inputs:
        assert s.bcm not in I2C_AND_ID_GPIOS, s.key
        assert wiring.HEADER[s.physical] not in POWER, s.key


def test_supply_wires_land_on_their_rail_and_carry_no_signal(
    wiring: ModuleType, pinmap: Any
) -> None:
    signal_pins = {s.physical for s in pinmap.signals}
    for p in pinmap.power:
        assert wiring.HEADER[p.physical] == p.rail, p.device
        assert p.physical not in signal_pins, p.device


def test_every_input_has_a_pull_so_it_never_floats(pinmap: Any) -> None:
    for s in pinmap.signals:
        if s.direction == "in":
            assert s.pull != "none", s.key


def test_switches_and_buttons_close_to_ground_against_a_pull_up(pinmap: Any) -> None:
    for s in pinmap.signals:
        if s.group in {"tilt", "button", "timer15"}:
            assert (s.direction, s.pull) == ("in", "up"), s.key


def test_six_tilt_switches_one_per_glass(pinmap: Any) -> None:
    tilts = sorted(s.key for s in pinmap.signals if s.group == "tilt")
    assert tilts == [f"pins.tilt.{c}{n}" for c in "br" for n in (1, 2, 3)]


def test_oled_sits_on_i2c_bus_1(pinmap: Any) -> None:
    by_key = {s.key: s for s in pinmap.signals}
    assert (by_key["display.sda"].bcm, by_key["display.scl"].bcm) == (2, 3)


def test_keypad_has_four_rows_in_and_four_columns_out(wiring: ModuleType, pinmap: Any) -> None:
    pins = wiring.config_pins(pinmap)
    rows, cols = pins["keypad"]["rows"], pins["keypad"]["cols"]
    assert len(rows) == len(cols) == 4 and None not in rows + cols
    directions = {s.bcm: s.direction for s in pinmap.signals if s.group == "keypad"}
    assert [directions[g] for g in rows] == ["in"] * 4
    assert [directions[g] for g in cols] == ["out"] * 4


def test_shared_timer_button_replaces_both_player_buttons(pinmap: Any) -> None:
    keys = {s.key for s in pinmap.active(["timer15_shared"])}
    assert "pins.timer15.shared" in keys
    assert not keys & {"pins.timer15.red", "pins.timer15.black"}


def test_spi_display_replaces_the_i2c_oled(pinmap: Any) -> None:
    keys = {s.key for s in pinmap.active(["spi_display"])}
    assert not keys & {"display.sda", "display.scl"}
    assert {"display.spi.mosi", "display.spi.sclk", "display.spi.ce0", "display.spi.dc"} <= keys


# --- the checker catches a broken map ---------------------------------------------------------

_BASE_KEYS = [s.key for s in load_draw_wiring().load_pinmap().signals if s.variant == "base"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(_BASE_KEYS), min_size=2, max_size=2, unique=True))
def test_checker_reports_a_gpio_wired_twice(pair: list[str]) -> None:
    mover, target = pair
    wiring = load_draw_wiring()
    pm = wiring.load_pinmap()
    goal = next(s for s in pm.signals if s.key == target)
    broken = _with_signal(pm, mover, bcm=goal.bcm, physical=goal.physical)
    problems = wiring.check_pinmap(broken)
    assert any(mover in p and target in p for p in problems), problems


def test_checker_reports_an_input_on_the_i2c_data_pin(wiring: ModuleType, pinmap: Any) -> None:
    broken = _with_signal(pinmap, "pins.menu", bcm=2, physical=3)
    problems = wiring.check_pinmap(broken)
    assert any("pins.menu" in p and "I2C1 SDA" in p for p in problems), problems


def test_checker_reports_an_input_on_a_ground_pin(wiring: ModuleType, pinmap: Any) -> None:
    broken = _with_signal(pinmap, "pins.tilt.r1", physical=6)
    problems = wiring.check_pinmap(broken)
    assert any("pins.tilt.r1" in p and "GND" in p for p in problems), problems


def test_checker_reports_a_header_pin_that_carries_another_gpio(
    wiring: ModuleType, pinmap: Any
) -> None:
    broken = _with_signal(pinmap, "pins.buzzer", physical=33)
    problems = wiring.check_pinmap(broken)
    assert any("pins.buzzer" in p and "GPIO13, not GPIO12" in p for p in problems), problems


def test_checker_reports_a_floating_input(wiring: ModuleType, pinmap: Any) -> None:
    broken = _with_signal(pinmap, "pins.ring.red", pull="none")
    problems = wiring.check_pinmap(broken)
    assert any("pins.ring.red" in p and "floats" in p for p in problems), problems


def test_checker_reports_a_variant_that_replaces_nothing(wiring: ModuleType, pinmap: Any) -> None:
    variant = dataclasses.replace(pinmap.variants["spi_display"], replaces=("display.sdaa",))
    broken = dataclasses.replace(pinmap, variants={**pinmap.variants, "spi_display": variant})
    problems = wiring.check_pinmap(broken)
    assert any("display.sdaa" in p for p in problems), problems


def test_loader_names_the_signal_with_a_missing_field(wiring: ModuleType) -> None:
    doc = {"signal": [{"key": "pins.menu", "device": "Menu", "physical": 37}]}
    with pytest.raises(wiring.PinMapError, match=r"pins\.menu.*'bcm'"):
        wiring.parse_pinmap(doc)


def test_loader_refuses_a_pin_number_that_is_not_an_integer(wiring: ModuleType) -> None:
    doc = {"signal": [{"key": "pins.menu", "device": "Menu", "bcm": "26", "physical": 37}]}
    with pytest.raises(wiring.PinMapError, match="bcm must be an integer"):
        wiring.parse_pinmap(doc)


def test_pin_map_is_the_daemons_default_config(wiring: ModuleType, pinmap: Any) -> None:
    config = pytest.importorskip("companion.config")
    defaults = config.defaults()
    assert wiring.config_pins(pinmap) == defaults["pins"]
    display = defaults["display"]
    assert (pinmap.i2c_port, pinmap.i2c_address) == (display["i2c_port"], display["i2c_address"])
