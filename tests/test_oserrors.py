"""What went wrong with a file or the network, said in the reader's language (by errno), the
system's own words kept for the rarer causes."""

from __future__ import annotations

import errno
from collections.abc import Iterator

import pytest

from companion import i18n, oserrors


@pytest.fixture
def czech() -> Iterator[None]:
    i18n.use("cs")
    yield
    i18n.reset()


def test_a_missing_file_is_said_in_the_readers_language(czech: None) -> None:
    exc = FileNotFoundError(errno.ENOENT, "No such file or directory", "/x/y.jsonl")
    assert oserrors.problem(exc) == "takový soubor není"


def test_a_refused_connection_names_the_broker(czech: None) -> None:
    assert "broker" in oserrors.problem(ConnectionRefusedError(errno.ECONNREFUSED, "refused"))


def test_a_full_card_is_said(czech: None) -> None:
    assert oserrors.problem(OSError(errno.ENOSPC, "No space left on device")) != (
        "No space left on device")


def test_a_rarer_cause_keeps_the_systems_words() -> None:
    assert oserrors.problem(OSError(errno.ELOOP, "Too many levels of symbolic links")) == (
        "Too many levels of symbolic links")


def test_a_library_error_wrapping_an_oserror_is_said_by_its_cause(czech: None) -> None:
    """aiomqtt raises its own error from the socket's: the socket's errno is what happened."""
    try:
        try:
            raise ConnectionRefusedError(errno.ECONNREFUSED, "Connection refused")
        except OSError as inner:
            raise RuntimeError("[Errno 111] Connection refused") from inner
    except RuntimeError as outer:
        said = oserrors.problem(outer)
    assert "[Errno" not in said and "broker" in said


def test_english_readers_read_the_same_reasons() -> None:
    i18n.use("en")
    try:
        assert oserrors.problem(OSError(errno.EACCES, "Permission denied")) == (
            "permission denied")
    finally:
        i18n.reset()
