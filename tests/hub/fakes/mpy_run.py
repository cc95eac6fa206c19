"""Runs the hub firmware under the MicroPython unix port, over the fakes in this folder.

    micropython mpy_run.py FIRMWARE_DIR FAKES_DIR codec SPEC.json
        prints one line of hex per frame in SPEC (checked against the host's codec)
    micropython mpy_run.py FIRMWARE_DIR FAKES_DIR serve SPEC.json
        serves on stdin/stdout (a pty in the tests) on the real clock, moving the fake
        wiring as SPEC's timeline says, until the host sends a REPL frame or time is up

MicroPython subset only: this file runs under MicroPython, never under CPython.
"""

import json
import sys

firmware_dir, fakes_dir, mode, spec_path = sys.argv[1:5]
sys.path.insert(0, fakes_dir)
sys.path.insert(0, firmware_dir)

import time  # noqa: E402  (the fake, found first on sys.path)

import board  # noqa: E402
import codec  # noqa: E402
import config  # noqa: E402
import hub  # noqa: E402
import machine  # noqa: E402

with open(spec_path) as f:
    spec = json.load(f)


def run_codec():
    for ftype, boot, seq, t_us, payload_hex in spec["frames"]:
        frame = codec.pack_frame(ftype, boot, seq, t_us, bytes.fromhex(payload_hex))
        body = codec.cobs_decode(frame[1:-1])
        print(frame.hex(), codec.unpack_body(body) is not None)
    for data_hex in spec["crc"]:
        print(f"{codec.crc16(bytes.fromhex(data_hex)):04x}")
    stream = bytes.fromhex(spec["stream"])
    deframer = codec.Deframer()
    bodies = deframer.feed(stream)
    print(len(bodies), deframer.errors)


def run_serve():
    time.set_period(spec.get("period", 1 << 30))
    time.use_real()
    if time.ticks_us() < 0:
        raise SystemExit("bad fake clock")
    pico = board.Board(config)
    server = hub.Hub(pico, config)
    wiring = machine.WIRING
    moves = spec["moves"]  # [t_us, action, a, b]
    start = time.now_us()
    end = spec["seconds"] * 1000000
    i = 0
    while server.step():
        now = time.now_us() - start
        while i < len(moves) and moves[i][0] <= now:
            _, action, a, b = moves[i]
            if action == "close":
                wiring.close(a)
            elif action == "open":
                wiring.open(a)
            elif action == "press":
                wiring.press(a, b)
            else:
                wiring.release(a, b)
            i += 1
        if now > end:
            break
        time.sleep_us(100)


if mode == "codec":
    run_codec()
else:
    run_serve()
