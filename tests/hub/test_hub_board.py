"""board.py over the fake wiring: every input lands on its bit, the keypad scans right."""

from __future__ import annotations

import os

import pytest
from hubsim import MemoryPort, SimHub

from companion.hub.protocol import INPUT_INDEX, INPUTS


@pytest.fixture
def sim() -> SimHub:
    return SimHub(MemoryPort())


@pytest.mark.parametrize("name", [name for _, name in INPUTS])
def test_each_input_sets_exactly_its_own_bit(sim: SimHub, name: str) -> None:
    assert sim.board.scan() == 0
    sim.set_input(name, True)
    assert sim.board.scan() == 1 << INPUT_INDEX[name]
    sim.set_input(name, False)
    assert sim.board.scan() == 0


def test_keypad_rows_rest_driven_low_so_a_press_shows_in_one_read(sim: SimHub) -> None:
    config = sim.fw.config
    sim.board.scan()
    wiring = sim.wiring
    assert all(wiring.driven[row] == 0 for row in config.KEYPAD_ROWS)
    assert all(wiring.modes[row] == sim.fw.machine.Pin.OPEN_DRAIN for row in config.KEYPAD_ROWS)
    sim.set_input("5", True)
    sim.board.scan()
    assert all(wiring.driven[row] == 0 for row in config.KEYPAD_ROWS)


def test_two_keys_in_one_column_read_as_two_keys(sim: SimHub) -> None:
    sim.set_input("2", True)
    sim.set_input("0", True)
    assert sim.board.scan() == (1 << INPUT_INDEX["2"]) | (1 << INPUT_INDEX["0"])


def test_a_three_key_chord_ghosts_a_fourth_key_as_on_a_real_keypad(sim: SimHub) -> None:
    """Without diodes, 1+3+4 joins row 2 to column 3: '6' reads pressed too. The game
    never needs chords; hardware/hub/README.md says to add diodes if one ever does."""
    for key in "134":
        sim.set_input(key, True)
    bits = sim.board.scan()
    assert bits & (1 << INPUT_INDEX["6"])


def test_switches_and_keys_are_read_together(sim: SimHub) -> None:
    sim.set_input("tilt.b2", True)
    sim.set_input("#", True)
    assert sim.board.scan() == (1 << INPUT_INDEX["tilt.b2"]) | (1 << INPUT_INDEX["#"])


def test_the_tick_period_is_read_from_ticks_add(sim: SimHub) -> None:
    assert sim.board.ticks_period() == 1 << 30


def test_quiet_ctrl_c_switches_the_interrupt_character(sim: SimHub) -> None:
    sim.board.quiet_ctrl_c(True)
    sim.board.quiet_ctrl_c(False)
    assert sim.fw.micropython.interrupt_chars[-2:] == [-1, 3]


def test_usb_port_reads_without_blocking_and_survives_a_vanished_host() -> None:
    sim = SimHub(MemoryPort())
    read_fd, write_fd = os.pipe()
    out_read, out_write = os.pipe()
    with open(read_fd, "rb", buffering=0) as stream_in, open(out_write, "wb", buffering=0) as out:
        port = sim.fw.board.UsbPort(stream_in, out)
        assert port.read() == b""
        os.write(write_fd, b"\x00abc\x00")
        assert port.read() == b"\x00abc\x00"
        port.write(b"frame")
        assert os.read(out_read, 10) == b"frame"
        os.close(out_read)
        port.write(b"nobody listens")  # EPIPE is swallowed: the resend buffer covers it
    os.close(write_fd)
