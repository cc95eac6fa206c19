"""The hub's wire protocol on the host side: frames, their checks, and the input table.

firmware/PROTOCOL.md is the specification and firmware/codec.py the MicroPython
implementation; this module must agree with both byte for byte (tests/hub checks it).
No I/O and no clock here: bytes in, typed messages out, and the reverse.
"""

from __future__ import annotations

import binascii
import struct
from dataclasses import dataclass
from typing import Final

PROTOCOL_VERSION: Final = 1

# Hub -> host frame types.
HELLO: Final = 0x01
HEARTBEAT: Final = 0x02
EVENT: Final = 0x03
# Host -> hub frame types.
HOST_HELLO: Final = 0x81
ACK: Final = 0x82
REPL: Final = 0x83

HEADER: Final = struct.Struct("<BIIQ")  # type, boot, seq, t_us
CRC: Final = struct.Struct("<H")
MAX_BODY: Final = 96
MAX_ENCODED: Final = MAX_BODY + MAX_BODY // 254 + 2
MAX_VERSION: Final = 64
REPL_MAGIC: Final = b"REPL"

_EVENT_PAYLOAD: Final = struct.Struct("<BB")  # input index, value
_ACK_PAYLOAD: Final = struct.Struct("<I")  # which of the next 32 seqs the host holds
_HEARTBEAT_PAYLOAD: Final = struct.Struct("<II")  # oldest unacked seq, input bitmap
_HELLO_PAYLOAD: Final = struct.Struct("<BIIB")  # protocol, oldest, input bitmap, len(version)

KEYPAD_LAYOUT: Final = "123A456B789C*0#D"

#: Input index -> (kind, name). The index is the bit of the hub's bitmaps and the
#: ``index`` byte of an EVENT frame; PROTOCOL.md fixes this order.
INPUTS: Final[tuple[tuple[str, str], ...]] = (
    ("switch", "tilt.r1"),
    ("switch", "tilt.r2"),
    ("switch", "tilt.r3"),
    ("switch", "tilt.b1"),
    ("switch", "tilt.b2"),
    ("switch", "tilt.b3"),
    ("button", "ring.red"),
    ("button", "ring.black"),
    ("button", "timer15.red"),
    ("button", "timer15.black"),
    ("button", "menu"),
) + tuple(("key", key) for key in KEYPAD_LAYOUT)

INPUT_INDEX: Final[dict[str, int]] = {name: index for index, (_, name) in enumerate(INPUTS)}


class FrameError(ValueError):
    """A chunk between delimiters that is not a well-formed frame; the message says why."""


class EchoedFrame(FrameError):
    """A sound host frame where a hub frame was expected: our own words coming back
    (pyserial's ``loop://``, or a tty echoing), not damage."""


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection, no final XOR.

    ``binascii.crc_hqx`` is exactly this CRC when seeded with 0xFFFF.
    """
    return binascii.crc_hqx(data, 0xFFFF)


def cobs_encode(data: bytes) -> bytes:
    """Consistent Overhead Byte Stuffing (canonical form, as the ``cobs`` package)."""
    out = bytearray()
    n = len(data)
    i = 0
    while True:
        end = min(i + 254, n)
        zero = data.find(0, i, end)
        j = end if zero < 0 else zero
        out.append(j - i + 1)
        out += data[i:j]
        if j == n:
            return bytes(out)
        i = j if j - i == 254 else j + 1


def cobs_decode(data: bytes) -> bytes:
    """Undo cobs_encode; FrameError when ``data`` cannot be a COBS encoding."""
    out = bytearray()
    n = len(data)
    i = 0
    while i < n:
        code = data[i]
        j = i + code
        if code == 0 or j > n:
            raise FrameError("bad COBS block")
        block = data[i + 1 : j]
        if 0 in block:
            raise FrameError("zero byte inside a COBS block")
        out += block
        i = j
        if code < 0xFF and i < n:
            out.append(0)
    return bytes(out)


def pack_frame(ftype: int, boot: int, seq: int, t_us: int, payload: bytes = b"") -> bytes:
    """0x00, COBS(header, payload, CRC), 0x00: one frame ready for the wire."""
    body = HEADER.pack(ftype, boot, seq, t_us) + payload
    body += CRC.pack(crc16(body))
    return b"\x00" + cobs_encode(body) + b"\x00"


@dataclass(frozen=True)
class Hello:
    """The hub introduces itself: at power-up and in answer to a HOST_HELLO."""

    boot: int
    next_seq: int
    t_us: int
    protocol: int
    oldest: int
    inputs: int
    version: str


@dataclass(frozen=True)
class Heartbeat:
    """Sent every second: a clock sample, and how far the hub's sequence has got."""

    boot: int
    next_seq: int
    t_us: int
    oldest: int
    inputs: int


@dataclass(frozen=True)
class Edge:
    """One debounced change of one input, stamped with its first edge."""

    boot: int
    seq: int
    t_us: int
    index: int
    value: int


HubMessage = Hello | Heartbeat | Edge


@dataclass(frozen=True)
class HostFrame:
    """A frame the host sends (HOST_HELLO, ACK, REPL), as the hub would read it."""

    ftype: int
    boot: int
    seq: int
    t_us: int
    payload: bytes


def _split(body: bytes) -> tuple[int, int, int, int, bytes]:
    if len(body) < HEADER.size + CRC.size:
        raise FrameError(f"frame of {len(body)} bytes is shorter than a header")
    if len(body) > MAX_BODY:
        raise FrameError(f"frame of {len(body)} bytes is longer than any frame type")
    end = len(body) - CRC.size
    (crc,) = CRC.unpack_from(body, end)
    if crc != crc16(body[:end]):
        raise FrameError("CRC mismatch")
    ftype, boot, seq, t_us = HEADER.unpack_from(body)
    return ftype, boot, seq, t_us, body[HEADER.size : end]


def decode_hub_message(body: bytes) -> HubMessage:
    """Check and type one COBS-decoded hub frame.

    Beyond the CRC every field is held to what the hub can send (exact payload length
    per type, known input index, value 0 or 1), so a damaged frame whose CRC happens to
    match is still refused rather than turned into a move.
    """
    ftype, boot, seq, t_us, payload = _split(body)
    if ftype == EVENT:
        if len(payload) != _EVENT_PAYLOAD.size:
            raise FrameError("EVENT payload is not 2 bytes")
        index, value = _EVENT_PAYLOAD.unpack(payload)
        if index >= len(INPUTS):
            raise FrameError(f"EVENT for unknown input {index}")
        if value > 1:
            raise FrameError(f"EVENT value {value} is neither 0 nor 1")
        return Edge(boot, seq, t_us, index, value)
    if ftype == HEARTBEAT:
        if len(payload) != _HEARTBEAT_PAYLOAD.size:
            raise FrameError("HEARTBEAT payload is not 8 bytes")
        oldest, inputs = _HEARTBEAT_PAYLOAD.unpack(payload)
        _check_window(oldest, seq, inputs)
        return Heartbeat(boot, seq, t_us, oldest, inputs)
    if ftype == HELLO:
        if len(payload) < _HELLO_PAYLOAD.size:
            raise FrameError("HELLO payload too short")
        protocol, oldest, inputs, size = _HELLO_PAYLOAD.unpack_from(payload)
        raw = payload[_HELLO_PAYLOAD.size :]
        if size != len(raw) or size > MAX_VERSION:
            raise FrameError("HELLO version string length does not match")
        _check_window(oldest, seq, inputs)
        try:
            version = raw.decode("ascii")
        except UnicodeDecodeError:
            raise FrameError("HELLO version string is not ASCII") from None
        return Hello(boot, seq, t_us, protocol, oldest, inputs, version)
    if ftype in (HOST_HELLO, ACK, REPL):
        raise EchoedFrame(f"host frame type 0x{ftype:02x} received from the hub side")
    raise FrameError(f"unknown frame type 0x{ftype:02x}")


def _check_window(oldest: int, next_seq: int, inputs: int) -> None:
    if oldest > next_seq:
        raise FrameError("oldest unacknowledged seq is beyond the next seq")
    if inputs >> len(INPUTS):
        raise FrameError("input bitmap has bits beyond the last input")


def decode_host_frame(body: bytes) -> HostFrame:
    """Check one COBS-decoded host frame (for tests and tools that play the hub)."""
    ftype, boot, seq, t_us, payload = _split(body)
    if ftype not in (HOST_HELLO, ACK, REPL):
        raise FrameError(f"frame type 0x{ftype:02x} is not a host frame")
    return HostFrame(ftype, boot, seq, t_us, payload)


def encode_hub_message(message: HubMessage) -> bytes:
    """The wire bytes the firmware sends for ``message`` (tests use it to play the hub)."""
    if isinstance(message, Edge):
        payload = _EVENT_PAYLOAD.pack(message.index, message.value)
        return pack_frame(EVENT, message.boot, message.seq, message.t_us, payload)
    if isinstance(message, Heartbeat):
        payload = _HEARTBEAT_PAYLOAD.pack(message.oldest, message.inputs)
        return pack_frame(HEARTBEAT, message.boot, message.next_seq, message.t_us, payload)
    version = message.version.encode("ascii")
    payload = _HELLO_PAYLOAD.pack(message.protocol, message.oldest, message.inputs, len(version))
    return pack_frame(HELLO, message.boot, message.next_seq, message.t_us, payload + version)


def encode_host_hello(t_us: int = 0) -> bytes:
    return pack_frame(HOST_HELLO, 0, 0, t_us, bytes([PROTOCOL_VERSION]))


def encode_ack(boot: int, next_seq: int, held: int = 0, t_us: int = 0) -> bytes:
    """The host holds every EVENT of ``boot`` below ``next_seq`` (cumulative), and of
    the 32 after it, those whose bit is set in ``held`` (bit i: seq next_seq + 1 + i)."""
    return pack_frame(ACK, boot, next_seq, t_us, _ACK_PAYLOAD.pack(held))


def encode_repl(boot: int) -> bytes:
    return pack_frame(REPL, boot, 0, 0, REPL_MAGIC)


class Deframer:
    """Splits the byte stream at 0x00 into COBS-decoded bodies, each with the receive time
    of the read that brought its first byte (the closest the host gets to its send time).

    Runs longer than any frame are dropped up to the next delimiter; ``errors`` counts
    every chunk thrown away here.
    """

    def __init__(self) -> None:
        self._buf = bytearray()
        self._start = 0.0
        self._overflow = False
        self.errors = 0

    def feed(self, data: bytes, t: float) -> list[tuple[bytes, float]]:
        out: list[tuple[bytes, float]] = []
        pos = 0
        n = len(data)
        while pos < n:
            zero = data.find(0, pos)
            end = n if zero < 0 else zero
            if end > pos and not self._overflow:
                if not self._buf:
                    self._start = t
                self._buf += data[pos:end]
                if len(self._buf) > MAX_ENCODED:
                    self._overflow = True
                    self._buf.clear()
            if zero < 0:
                break
            if self._overflow:
                self.errors += 1
            elif self._buf:
                try:
                    out.append((cobs_decode(bytes(self._buf)), self._start))
                except FrameError:
                    self.errors += 1
            self._buf.clear()
            self._overflow = False
            pos = zero + 1
        return out
