"""Table messages signed with the table's key: what a signature covers, as properties."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.arbiter.sealing import SIG, check, enrolled_key, seal
from companion.keys import SigningKey
from tests.arbiter.keys import TABLES, enrolled

KEY = TABLES[1]
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=8)
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                 max_size=3),
    max_leaves=8,
)
messages = st.dictionaries(st.text(min_size=1, max_size=6).filter(lambda k: k != SIG),
                           json_values, min_size=1, max_size=5)


@settings(max_examples=60, deadline=None)
@given(messages)
def test_a_sealed_message_verifies_after_a_trip_through_json(message: dict[str, Any]) -> None:
    sent = json.dumps(seal(message, "state", KEY))
    assert check(json.loads(sent), "state", KEY.public) is None


@settings(max_examples=60, deadline=None)
@given(messages, st.data())
def test_changing_any_field_breaks_the_signature(message: dict[str, Any],
                                                 data: st.DataObject) -> None:
    sealed = seal(message, "state", KEY)
    field = data.draw(st.sampled_from(sorted(message)))
    edited = {**sealed, field: ["edited", sealed[field]]}
    assert check(edited, "state", KEY.public) is not None


def test_a_message_signed_for_one_kind_is_refused_as_another() -> None:
    sealed = seal({"table": 1, "status": "online"}, "status", KEY)
    assert check(sealed, "status", KEY.public) is None
    assert check(sealed, "state", KEY.public) is not None


def test_another_key_an_unsigned_message_and_an_unenrolled_table_are_refused() -> None:
    message = {"table": 1, "seq": 3}
    assert "enrolled table's" in str(check(seal(message, "events", SigningKey.generate()),
                                           "events", KEY.public))
    assert "not signed" in str(check(message, "events", KEY.public))
    assert "not enrolled" in str(check(seal(message, "events", KEY), "events", None))
    assert "cannot be read" in str(check({**message, SIG: "%%%"}, "events", KEY.public))


def test_a_table_is_enrolled_by_its_number_or_as_table_n() -> None:
    ring = enrolled(range(1, 3))
    assert enrolled_key(ring, 2) == TABLES[2].public
    assert enrolled_key(ring, 5) is None
    ring.enroll("table-5", TABLES[5].public, "now")
    assert enrolled_key(ring, 5) == TABLES[5].public
    assert enrolled_key(None, 1) is None
