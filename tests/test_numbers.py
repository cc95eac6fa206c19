"""Numbers, times and dates in the reader's language, as CLDR (through Babel) writes them.

``companion.numbers`` carries a copy of CLDR's symbols so the table needs no Babel; these tests
compare it with Babel itself (a development dependency), for every language with a catalog.
"""

from __future__ import annotations

import datetime

import pytest
from babel import Locale
from babel.dates import format_date
from babel.numbers import format_decimal, get_decimal_symbol, get_group_symbol
from hypothesis import given
from hypothesis import strategies as st

from companion import i18n, numbers

LANGS = ("en", "fr", "cs")


def plain(text: str) -> str:
    """CLDR's no-break spaces as the plain space the screens draw."""
    return text.replace("\u00a0", " ").replace("\u202f", " ")


@pytest.mark.parametrize("lang", LANGS)
def test_the_symbols_are_cldrs(lang: str) -> None:
    data = numbers.CLDR[lang]
    assert data.decimal == get_decimal_symbol(lang)
    assert data.group == plain(get_group_symbol(lang))
    assert data.percent == plain(Locale.parse(lang).percent_formats[None].pattern)[len("#,##0"):]


@pytest.mark.parametrize("lang", LANGS)
@given(value=st.floats(-99999, 99999, allow_nan=False), digits=st.integers(0, 3))
def test_a_decimal_is_written_as_babel_writes_it(lang: str, value: float, digits: int) -> None:
    rounded = numbers.round_half_up(value, digits)
    pattern = "#,##0" + ("." + "0" * digits if digits else "")
    expected = plain(format_decimal(rounded, format=pattern, locale=lang))
    if expected.lstrip("-").strip("0.,") == "":  # Babel writes -0.0; people write 0.0
        expected = expected.lstrip("-")
    assert numbers.decimal(value, digits, lang=lang) == expected


@pytest.mark.parametrize("lang", LANGS)
def test_a_date_is_cldrs_medium_date(lang: str) -> None:
    for month in range(1, 13):
        when = datetime.date(2025, month, 7)
        assert numbers.day(when, lang=lang) == plain(format_date(when, "medium", locale=lang))


def test_french_and_czech_write_a_decimal_comma_and_english_a_point() -> None:
    assert numbers.seconds(80.94, lang="en") == "80.9 s"
    assert numbers.seconds(80.94, lang="fr") == numbers.seconds(80.94, lang="cs") == "80,9 s"
    assert numbers.clock(223.27, lang="fr") == "3:43,2"  # tenths cut, as a clock
    assert numbers.clock(223.27, lang="en") == "3:43.2"
    assert numbers.percent(-0.058, lang="cs") == "-5,8 %"
    assert numbers.percent(0.058, sign=True, lang="en") == "+5.8%"


def test_the_language_spoken_is_the_default() -> None:
    i18n.use("fr")
    try:
        assert numbers.decimal(8.4) == "8,4"
    finally:
        i18n.reset()
    assert numbers.decimal(8.4) == "8.4"


def test_a_clock_cuts_its_tenths_and_shows_hours() -> None:
    assert numbers.clock(59.99, lang="en") == "0:59.9"
    assert numbers.clock(3725.0, tenths=False, lang="en") == "1:02:05"
