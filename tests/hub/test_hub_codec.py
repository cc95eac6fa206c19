"""The wire format: COBS, CRC-16/CCITT-FALSE and frames, firmware and host byte for byte."""

from __future__ import annotations

import binascii

import pytest
from hubsim import Firmware
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.hub import protocol
from companion.hub.protocol import Edge, FrameError, Heartbeat, Hello

FW = Firmware().codec

u32 = st.integers(0, 2**32 - 1)
u64 = st.integers(0, 2**64 - 1)


def body_of(frame: bytes) -> bytes:
    assert frame[0] == 0 and frame[-1] == 0
    return protocol.cobs_decode(frame[1:-1])


def test_crc_is_ccitt_false_with_its_check_value() -> None:
    assert protocol.crc16(b"123456789") == 0x29B1
    assert FW.crc16(b"123456789") == 0x29B1


@given(st.binary(max_size=200))
def test_firmware_crc_table_matches_binascii(data: bytes) -> None:
    assert FW.crc16(data) == binascii.crc_hqx(data, 0xFFFF) == protocol.crc16(data)


@given(st.binary(max_size=700))
def test_cobs_encoding_matches_the_reference_package_on_both_sides(data: bytes) -> None:
    reference = pytest.importorskip("cobs.cobs", reason="the cobs package (dev extra)")
    expected = reference.encode(data)
    assert protocol.cobs_encode(data) == expected
    assert FW.cobs_encode(data) == expected


@given(st.binary(max_size=700))
def test_cobs_roundtrips_and_never_emits_a_zero(data: bytes) -> None:
    encoded = protocol.cobs_encode(data)
    assert 0 not in encoded
    assert protocol.cobs_decode(encoded) == data
    assert FW.cobs_decode(encoded) == data


@given(st.binary(min_size=1, max_size=100))
def test_cobs_decoders_agree_on_what_is_malformed(data: bytes) -> None:
    try:
        host = protocol.cobs_decode(data)
    except FrameError:
        host = None
    assert FW.cobs_decode(data) == host


@given(st.integers(0, 255), u32, u32, u64, st.binary(max_size=60))
def test_firmware_and_host_pack_identical_frames(
    ftype: int, boot: int, seq: int, t_us: int, payload: bytes
) -> None:
    frame = FW.pack_frame(ftype, boot, seq, t_us, payload)
    assert frame == protocol.pack_frame(ftype, boot, seq, t_us, payload)
    assert frame.count(0) == 2
    assert FW.unpack_body(body_of(frame)) == (ftype, boot, seq, t_us, payload)


def test_protocol_md_example_frame() -> None:
    frame = protocol.encode_hub_message(Edge(0x12345678, 7, 123456789012, 5, 1))
    assert frame.hex(" ") == (
        "00 07 03 78 56 34 12 07 01 01 06 14 1a 99 be 1c 01 01 05 05 01 d7 7c 00"
    )


@given(u32, u32, u64, st.integers(0, 26), st.integers(0, 1))
def test_event_frames_decode_to_what_was_sent(
    boot: int, seq: int, t_us: int, index: int, value: int
) -> None:
    message = Edge(boot, seq, t_us, index, value)
    assert protocol.decode_hub_message(body_of(protocol.encode_hub_message(message))) == message


def test_hello_and_heartbeat_decode_to_what_was_sent() -> None:
    hello = Hello(7, 12, 99, 1, 10, 0b101, "0.1.0")
    beat = Heartbeat(7, 12, 1_000_099, 12, 1 << 26)
    for message in (hello, beat):
        assert protocol.decode_hub_message(body_of(protocol.encode_hub_message(message))) == message


@given(st.binary(min_size=19, max_size=60), st.integers(0, 8 * 19 - 1))
def test_any_single_bit_flip_in_a_body_is_caught_by_the_crc(data: bytes, bit: int) -> None:
    body = bytearray(data + protocol.CRC.pack(protocol.crc16(data)))
    body[bit // 8] ^= 1 << (bit % 8)
    with pytest.raises(FrameError):
        protocol.decode_hub_message(bytes(body))


def _body(ftype: int, payload: bytes, boot: int = 1, seq: int = 3) -> bytes:
    return body_of(protocol.pack_frame(ftype, boot, seq, 0, payload))


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (_body(protocol.EVENT, bytes([27, 1])), "unknown input"),
        (_body(protocol.EVENT, bytes([3, 2])), "neither 0 nor 1"),
        (_body(protocol.EVENT, bytes([3, 1, 0])), "not 2 bytes"),
        (_body(protocol.HEARTBEAT, bytes(7)), "not 8 bytes"),
        (_body(protocol.HEARTBEAT, (4).to_bytes(4, "little") + bytes(4)), "beyond the next"),
        (_body(protocol.HEARTBEAT, bytes(4) + (1 << 27).to_bytes(4, "little")), "bitmap"),
        (_body(protocol.HELLO, bytes([1]) + bytes(8) + bytes([9]) + b"0.1"), "length"),
        (_body(0x7E, b""), "unknown frame type"),
        (_body(protocol.ACK, bytes(4)), "host frame"),
        (b"\x03" * 10, "shorter than a header"),
    ],
)
def test_malformed_frames_are_refused_with_a_reason(body: bytes, reason: str) -> None:
    with pytest.raises(FrameError, match=reason):
        protocol.decode_hub_message(body)


@settings(max_examples=200)
@given(st.lists(st.binary(max_size=120) | st.just(b"\x00"), max_size=12), st.integers(1, 64))
def test_deframers_split_any_stream_alike(parts: list[bytes], chunk: int) -> None:
    stream = b"".join(parts)
    host = protocol.Deframer()
    fw = FW.Deframer()
    host_bodies: list[bytes] = []
    fw_bodies: list[bytes] = []
    for i in range(0, len(stream), chunk):
        host_bodies += [body for body, _ in host.feed(stream[i : i + chunk], 0.0)]
        fw_bodies += fw.feed(stream[i : i + chunk])
    assert host_bodies == fw_bodies
    assert host.errors == fw.errors


def test_deframer_drops_a_run_longer_than_any_frame_and_resyncs() -> None:
    good = protocol.encode_hub_message(Edge(1, 0, 5, 2, 1))
    deframer = protocol.Deframer()
    bodies = deframer.feed(b"\x00" + b"\x07" * 500 + good, 1.0)
    assert [protocol.decode_hub_message(body) for body, _ in bodies] == [Edge(1, 0, 5, 2, 1)]
    assert deframer.errors == 1


def test_deframer_stamps_a_frame_with_the_read_that_brought_its_first_byte() -> None:
    frame = protocol.encode_hub_message(Edge(1, 0, 5, 2, 1))
    deframer = protocol.Deframer()
    assert deframer.feed(frame[:5], 10.0) == []
    ((_, t),) = deframer.feed(frame[5:], 10.5)
    assert t == 10.0


def test_ack_carries_cumulative_seq_and_held_bitmap() -> None:
    frame = protocol.decode_host_frame(body_of(protocol.encode_ack(0xABCD, 41, held=0b101)))
    assert (frame.ftype, frame.boot, frame.seq) == (protocol.ACK, 0xABCD, 41)
    assert int.from_bytes(frame.payload, "little") == 0b101
