"""systemd notifications arrive byte for byte at a socket bound by the test, as systemd would."""

from __future__ import annotations

import logging
import os
import socket
import sys
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.sdnotify import Notifier, message, socket_address, watchdog_interval


@pytest.fixture
def listener() -> Iterator[tuple[socket.socket, str]]:
    """A datagram socket in a short temporary directory (socket paths are limited to 107 bytes)
    and its NOTIFY_SOCKET value."""
    with tempfile.TemporaryDirectory(prefix="sdn") as directory:
        path = os.path.join(directory, "notify")
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sock.bind(path)
        sock.setblocking(False)  # a sent datagram is already queued: no waiting needed
        try:
            yield sock, path
        finally:
            sock.close()


def received(sock: socket.socket) -> bytes:
    return sock.recv(65536)


def nothing_queued(sock: socket.socket) -> bool:
    try:
        sock.recv(65536)
    except BlockingIOError:
        return True
    return False


def test_ready_sends_ready_1(listener: tuple[socket.socket, str]) -> None:
    sock, path = listener
    notifier = Notifier(environ={"NOTIFY_SOCKET": path})
    assert notifier.ready()
    assert received(sock) == b"READY=1"
    notifier.close()


def test_ready_with_status_is_one_datagram(listener: tuple[socket.socket, str]) -> None:
    sock, path = listener
    notifier = Notifier(environ={"NOTIFY_SOCKET": path})
    notifier.ready("resumed game 12")
    assert received(sock) == b"READY=1\nSTATUS=resumed game 12"
    assert nothing_queued(sock)
    notifier.close()


def test_status_text_arrives_as_utf8_even_beyond_latin1(
    listener: tuple[socket.socket, str],
) -> None:
    sock, path = listener
    notifier = Notifier(environ={"NOTIFY_SOCKET": path})
    notifier.status("Jiří to move — 2 rings ≥ Łukasz")
    assert received(sock) == "STATUS=Jiří to move — 2 rings ≥ Łukasz".encode()
    notifier.close()


def test_watchdog_stopping_and_reloading_messages(listener: tuple[socket.socket, str]) -> None:
    sock, path = listener
    notifier = Notifier(environ={"NOTIFY_SOCKET": path})
    notifier.watchdog()
    notifier.stopping()
    notifier.stopping("SIGTERM")
    notifier.reloading(123456789)
    assert received(sock) == b"WATCHDOG=1"
    assert received(sock) == b"STOPPING=1"
    assert received(sock) == b"STOPPING=1\nSTATUS=SIGTERM"
    assert received(sock) == b"RELOADING=1\nMONOTONIC_USEC=123456789"
    notifier.close()


def test_a_newline_in_a_status_cannot_forge_another_field(
    listener: tuple[socket.socket, str],
) -> None:
    sock, path = listener
    notifier = Notifier(environ={"NOTIFY_SOCKET": path})
    notifier.status("game over\nREADY=1\r\nERRNO=5")
    assert received(sock) == b"STATUS=game over READY=1 ERRNO=5"
    notifier.close()


@pytest.mark.skipif(sys.platform != "linux", reason="the abstract namespace is Linux only")
def test_an_at_sign_names_a_socket_in_the_abstract_namespace() -> None:
    name = f"companion-test-{uuid.uuid4().hex}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)
    sock.setblocking(False)
    try:
        notifier = Notifier(environ={"NOTIFY_SOCKET": "@" + name})
        assert notifier.ready("Jiří")
        assert received(sock) == "READY=1\nSTATUS=Jiří".encode()
        notifier.close()
    finally:
        sock.close()


def test_without_notify_socket_every_call_is_a_no_op() -> None:
    notifier = Notifier(environ={})
    assert not notifier.enabled
    assert notifier.ready("x") is False
    assert notifier.status("x") is False
    assert notifier.watchdog() is False
    assert notifier.stopping() is False


def test_a_vanished_socket_is_logged_once_and_never_raises(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with tempfile.TemporaryDirectory(prefix="sdn") as directory:
        notifier = Notifier(environ={"NOTIFY_SOCKET": str(Path(directory, "gone"))})
        with caplog.at_level(logging.WARNING, logger="companion.sdnotify"):
            assert notifier.watchdog() is False
            assert notifier.watchdog() is False
            assert notifier.status("still here") is False
        assert len(caplog.records) == 1
        assert "could not notify systemd" in caplog.records[0].getMessage()
        notifier.close()


def test_an_unsupported_address_disables_notification_with_one_warning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger="companion.sdnotify"):
        notifier = Notifier(environ={"NOTIFY_SOCKET": "vsock:2:1234"})
        assert notifier.ready() is False
    assert not notifier.enabled
    assert len(caplog.records) == 1


def test_socket_addresses() -> None:
    assert socket_address("/run/systemd/notify") == b"/run/systemd/notify"
    assert socket_address("@sd-notify") == b"\0sd-notify"
    assert socket_address("relative/path") is None
    assert socket_address("@") is None


def test_message_keys_must_look_like_systemd_keys() -> None:
    with pytest.raises(ValueError, match="upper-case"):
        message({"status": "x"})
    with pytest.raises(ValueError, match="upper-case"):
        message({"STATUS=1\nREADY": "1"})


def test_watchdog_interval_is_half_of_watchdog_sec() -> None:
    assert watchdog_interval({"WATCHDOG_USEC": "20000000"}) == 10.0
    assert watchdog_interval({"WATCHDOG_USEC": "3000000"}) == 1.5


def test_no_watchdog_without_watchdog_usec() -> None:
    assert watchdog_interval({}) is None
    assert watchdog_interval({"WATCHDOG_USEC": "0"}) is None
    assert watchdog_interval({"WATCHDOG_USEC": "soon"}) is None


def test_watchdog_pid_of_another_process_means_no_watchdog_for_us() -> None:
    env = {"WATCHDOG_USEC": "20000000", "WATCHDOG_PID": "4242"}
    assert watchdog_interval(env, pid=4242) == 10.0
    assert watchdog_interval(env, pid=4243) is None
    assert watchdog_interval({**env, "WATCHDOG_PID": str(os.getpid())}) == 10.0
