"""The arbiter's session: a place on a crowded page, held to one address, for one day."""

from __future__ import annotations

from companion.arbiter.httpguard import client_key
from companion.arbiter.sessions import ArbiterSessions


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_session_is_held_by_the_address_that_signed_in_only() -> None:
    sessions = ArbiterSessions(clock=Clock())
    token = sessions.grant("192.168.1.20")
    assert sessions.holds(token, "192.168.1.20")
    assert not sessions.holds(token, "192.168.1.21")


def test_a_session_ends_after_its_lifetime() -> None:
    clock = Clock()
    sessions = ArbiterSessions(lifetime_s=100.0, clock=clock)
    token = sessions.grant("10.0.0.5")
    clock.now = 99.0
    assert sessions.holds(token, "10.0.0.5")
    clock.now = 100.0
    assert not sessions.holds(token, "10.0.0.5")


def test_an_unknown_or_empty_token_is_no_session() -> None:
    sessions = ArbiterSessions(clock=Clock())
    sessions.grant("10.0.0.5")
    for token in (None, "", "x" * 43, "y" * 10_000):
        assert not sessions.holds(token, "10.0.0.5")


def test_only_the_newest_sessions_are_kept() -> None:
    sessions = ArbiterSessions(max_sessions=3, clock=Clock())
    tokens = [sessions.grant("10.0.0.5") for _ in range(5)]
    assert [sessions.holds(t, "10.0.0.5") for t in tokens] == [False, False, True, True, True]


def test_a_client_is_its_ipv4_address_or_its_ipv6_network() -> None:
    assert client_key("192.168.1.20") == "192.168.1.20"
    assert client_key(("192.168.1.20", 51234)) == "192.168.1.20"
    assert client_key("::ffff:192.168.1.20") == "192.168.1.20"
    assert client_key("2001:db8:1:2:aaaa::1") == client_key("2001:db8:1:2:bbbb::9")
    assert client_key("2001:db8:1:2::1") == "2001:db8:1:2::/64"
    assert client_key("fe80::1%eth0") == "fe80::/64"
    assert client_key(None) == "?"
