"""Frames on the hub's serial link: COBS framing, CRC-16/CCITT-FALSE, the fixed header.

The byte layout is specified in PROTOCOL.md; this module is its MicroPython implementation
(companion/hub/protocol.py is the host's, and the tests check the two agree byte for byte).

Written in the MicroPython subset: no dataclasses, no typing import, only ``struct``.
"""

import struct

PROTOCOL_VERSION = 1

# Hub -> host frame types.
HELLO = 0x01
HEARTBEAT = 0x02
EVENT = 0x03
# Host -> hub frame types.
HOST_HELLO = 0x81
ACK = 0x82
REPL = 0x83

# type u8, boot u32, seq u32, t_us u64 (little-endian); the CRC (u16 LE) follows the payload.
HEADER = "<BIIQ"
HEADER_SIZE = 17
CRC_SIZE = 2
# Longest body any frame type may have (HELLO with a 64-byte version string); the receiver
# throws away anything longer without trying to decode it, which bounds its memory.
MAX_BODY = 96
MAX_ENCODED = MAX_BODY + MAX_BODY // 254 + 2

REPL_MAGIC = b"REPL"


def _crc_table():
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return tuple(table)


_CRC_TABLE = _crc_table()


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final XOR).

    Table-driven because the Pico computes one per frame; b"123456789" gives 0x29B1.
    """
    table = _CRC_TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFF00) ^ table[(crc >> 8) ^ byte]
    return crc


def cobs_encode(data):
    """Consistent Overhead Byte Stuffing: the result holds no zero byte, so 0x00 can
    delimit frames and a receiver regains sync at the next 0x00 after any damage."""
    out = bytearray()
    n = len(data)
    i = 0
    while True:
        end = i + 254
        if end > n:
            end = n
        j = i
        while j < end and data[j]:
            j += 1
        out.append(j - i + 1)
        out.extend(data[i:j])
        if j == n:
            break
        # A full 254-byte block implies no zero; otherwise data[j] is the zero it stands for.
        i = j if j - i == 254 else j + 1
    return bytes(out)


def cobs_decode(data):
    """Undo cobs_encode; None when the bytes cannot be a COBS encoding (a zero inside,
    or a block that runs past the end)."""
    data = bytes(data)
    out = bytearray()
    n = len(data)
    i = 0
    while i < n:
        code = data[i]
        if code == 0:
            return None
        j = i + code
        if j > n or data.find(b"\x00", i + 1, j) >= 0:
            return None
        out.extend(data[i + 1 : j])
        i = j
        if code < 0xFF and i < n:
            out.append(0)
    return bytes(out)


def pack_frame(ftype, boot, seq, t_us, payload=b""):
    """One frame ready for the wire: 0x00, COBS(header + payload + CRC), 0x00.

    The leading delimiter isolates any garbage that reached the line before this frame,
    so noise costs at most the noise and never the next good frame.
    """
    body = struct.pack(HEADER, ftype, boot, seq, t_us) + payload
    body += struct.pack("<H", crc16(body))
    return b"\x00" + cobs_encode(body) + b"\x00"


def unpack_body(body):
    """(type, boot, seq, t_us, payload) of a decoded body whose CRC checks, else None."""
    if len(body) < HEADER_SIZE + CRC_SIZE:
        return None
    end = len(body) - CRC_SIZE
    if struct.unpack("<H", body[end:])[0] != crc16(body[:end]):
        return None
    ftype, boot, seq, t_us = struct.unpack(HEADER, body[:HEADER_SIZE])
    return ftype, boot, seq, t_us, body[HEADER_SIZE:end]


class Deframer:
    """Splits a byte stream at 0x00 delimiters into decoded frame bodies.

    Fed whatever the serial port had; returns the COBS-decoded bodies completed by this
    chunk (CRC not yet checked). Runs of bytes longer than any legal frame are dropped
    until the next delimiter, and ``errors`` counts every chunk thrown away.
    """

    def __init__(self):
        self._buf = bytearray()
        self._overflow = False
        self.errors = 0

    def feed(self, data):
        bodies = []
        for byte in data:
            if byte == 0:
                if self._overflow:
                    self.errors += 1
                elif self._buf:
                    body = cobs_decode(self._buf)
                    if body is None:
                        self.errors += 1
                    else:
                        bodies.append(body)
                self._buf = bytearray()
                self._overflow = False
            elif not self._overflow:
                if len(self._buf) >= MAX_ENCODED:
                    self._overflow = True
                else:
                    self._buf.append(byte)
        return bodies
