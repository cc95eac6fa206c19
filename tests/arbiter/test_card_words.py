"""The arbiter page's Tantrix and Tokami cards in the arbiter's language: their boards' words
(the latest Tokami turns, the picture's title) and numbers (the clock's decimal comma), as the
Tamsk card's already are (``tests/screens/test_screen_numbers.py``)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from companion import i18n, journal
from companion.arbiter.kinds import arbiter_for
from tests.test_no_english_left import english_in, played


def card(game: str, folder: Path, records: int = 20) -> tuple[dict[str, Any], str]:
    """The page's card of a game played at a real table, after ``records`` records, and its
    board as the page draws it."""
    j = journal.read_path(played(game, folder))
    facet = arbiter_for(game)
    assert facet is not None and j.header is not None
    mirror = facet.mirror(j.header)
    assert mirror is not None
    for _line, body in j.events[:records]:
        mirror.apply(body)
    out: dict[str, Any] = {"alerts": []}
    mirror.card(out, elapsed=3.3, online=True, board="/board/1.svg")
    label = i18n._("table {table}, record {seq}").format(table=1, seq=records)
    svg = facet.board_svg(out, label=label)
    assert svg is not None
    return out, svg


def words_of(svg: str) -> list[str]:
    return [t for t in re.findall(r">([^<]+)<", svg) if t.strip()]


@pytest.mark.parametrize("lang", ["fr", "cs"])
@pytest.mark.parametrize("game", ["tantrix", "tokami"])
def test_the_card_s_board_has_no_english_word(game: str, lang: str, tmp_path: Path) -> None:
    i18n.use(lang)
    try:
        _out, svg = card(game, tmp_path)
        shown = words_of(svg)
        assert shown and english_in(shown, lang) == {}
    finally:
        i18n.reset()


@pytest.mark.parametrize(("lang", "mark"), [("en", "."), ("fr", ","), ("cs", ",")])
def test_the_tokami_card_s_clock_has_the_arbiter_s_decimal_mark(
        lang: str, mark: str, tmp_path: Path) -> None:
    i18n.use(lang)
    try:
        _out, svg = card("tokami", tmp_path)
        clocks = [t for t in words_of(svg) if re.fullmatch(r"\d+:\d\d[.,]\d", t)]
        assert clocks and all(mark in c for c in clocks)
    finally:
        i18n.reset()


def test_the_tokami_card_lists_the_latest_turns_in_the_arbiter_s_words(tmp_path: Path) -> None:
    i18n.use("fr")
    try:
        out, svg = card("tokami", tmp_path)
        turns = [t for t in words_of(svg) if t.startswith("tour ")]
        assert turns and all(re.match(r"tour \d+\. ", t) for t in turns)
        assert out["tokami"]["recent_turns"]
    finally:
        i18n.reset()
