"""The page's JSON bodies: parsed within a size and a depth, nothing ambiguous let through."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.arbiter.jsonbody import MAX_DEPTH, BodyRefused, nesting_depth, parse

SIZE = 16 * 1024

values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=12,
)


def depth(value: Any) -> int:
    if isinstance(value, list):
        return 1 + max((depth(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((depth(v) for v in value.values()), default=0)
    return 0


@given(values)
def test_the_flat_scan_counts_the_nesting_the_parser_would_recurse_into(value: Any) -> None:
    assert nesting_depth(json.dumps(value).encode()) == depth(value)


@given(st.text(alphabet='[]{}"\\', max_size=40))
def test_brackets_inside_strings_are_not_nesting(text: str) -> None:
    assert nesting_depth(json.dumps({"reason": text}).encode()) == 1


@given(values)
def test_what_the_page_s_script_could_send_is_read_back_unchanged(value: Any) -> None:
    raw = json.dumps({"table": 1, "correction": {"turn": value}}).encode()
    if depth(value) + 2 <= MAX_DEPTH:
        assert parse(raw, max_size=10**6) == {"table": 1, "correction": {"turn": value}}
    else:
        with pytest.raises(BodyRefused):
            parse(raw, max_size=10**6)


def test_a_16k_nested_body_is_refused_400_before_the_parser_recurses() -> None:
    for body in (b"[" * 8192 + b"]" * 8192, b'{"a":' * 3000 + b"1" + b"}" * 3000,
                 b"[" * 16384):
        with pytest.raises(BodyRefused) as refused:
            parse(body, max_size=SIZE * 2)
        assert refused.value.status == 400 and "nested" in refused.value.detail


def test_the_deepest_accepted_nesting_is_max_depth() -> None:
    assert parse(b"[" * MAX_DEPTH + b"]" * MAX_DEPTH, max_size=SIZE) is not None
    with pytest.raises(BodyRefused):
        parse(b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1), max_size=SIZE)


def test_a_body_over_the_size_is_413() -> None:
    with pytest.raises(BodyRefused) as refused:
        parse(b" " * (SIZE + 1), max_size=SIZE)
    assert refused.value.status == 413


def test_an_empty_body_is_none() -> None:
    assert parse(b"", max_size=SIZE) is None and parse(b"  \r\n", max_size=SIZE) is None


@pytest.mark.parametrize("raw, why", [
    (b'{"pin": "0000", "pin": "2468"}', "twice"),
    (b'{"table": NaN}', "not a JSON number"),
    (b'{"table": Infinity}', "not a JSON number"),
    (b'{"table": 1e999}', "too large"),
    (b'{"reason": "\\ud800"}', "surrogate"),
    ('{"reason": "é"}'.encode("utf-16"), "not UTF-8"),
    (b'{"reason": "\xff"}', "not UTF-8"),
    (b'{"table": 1', "not valid JSON"),
    (b'{"table": ' + b"9" * 5000 + b"}", "not valid JSON"),
])
def test_what_two_readers_could_disagree_on_is_refused_400(raw: bytes, why: str) -> None:
    with pytest.raises(BodyRefused) as refused:
        parse(raw, max_size=SIZE)
    assert refused.value.status == 400 and why in refused.value.detail
